package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Samples: the outputs the README and the guide quote are rerun by `tune
// docs` (--check: compared; otherwise: rewritten), so they cannot drift
// from the program. A sample is a fenced block right after a marker line
//
//	<!-- sample: explain potrf float64 uplo=L n=64 batch=4096 -->
//	<!-- sample timed: bench potrf float64 uplo=L n=64 batch=4096 -->
//
// whose words are a tune command line, run by this binary. A plain
// sample must match the output exactly, and `tune docs` rewrites it. A
// timed sample is recorded output (its text should say when and where):
// every number in it is a wildcard, and so is the width of the padding
// between columns; it is never rewritten, and the rest (kernels, tables,
// tags) must match. In both, a line of the block may
// hold "..." where the output has any text, and a line that is only
// "..." stands for any number of output lines.
//
// Every sample runs on a fixed device, sampleEnv, so the check gives the
// same answer on every machine: an x86-64-v4 Zen 5, the shipped tables'.

// sampleDocs are the files whose samples are checked, relative to the
// module root.
var sampleDocs = []string{"README.md", "docs/guide.md"}

// sampleEnv presents every sample's process as the machine the shipped
// tables were measured on, and clears what would change its decisions.
var sampleEnv = []string{"BATCHLAS_DEVICE=x86-64-v4", "BATCHLAS_IDENTITY=zen5", "BATCHLAS_TUNED_DIR=", "BATCHLAS_SELECT_TRACE=",
	"BATCHLAS_TUNE=off", "BATCHLAS_COVERAGE_OUT="}

var sampleMarker = regexp.MustCompile(`^<!-- sample( timed)?: (.+?) -->$`)

// sample is one marked block of a doc.
type sample struct {
	file       string
	line       int // of the marker, 1-based
	args       []string
	timed      bool
	start, end int // the block's body lines: lines[start:end]
	indent     string
}

// findSamples lists the samples of a doc's lines.
func findSamples(file string, lines []string) ([]sample, error) {
	var out []sample
	for i, l := range lines {
		m := sampleMarker.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		s := sample{file: file, line: i + 1, args: strings.Fields(m[2]), timed: m[1] != ""}
		j := i + 1
		if j >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			return nil, fmt.Errorf("%s:%d: a sample marker must be followed at once by a fenced block", file, i+1)
		}
		s.indent = lines[j][:len(lines[j])-len(strings.TrimLeft(lines[j], " "))]
		s.start = j + 1
		for s.end = s.start; s.end < len(lines) && strings.TrimSpace(lines[s.end]) != "```"; s.end++ {
		}
		if s.end == len(lines) {
			return nil, fmt.Errorf("%s:%d: the sample's fenced block never ends", file, i+1)
		}
		out = append(out, s)
	}
	return out, nil
}

// runSample runs a sample's tune command on the fixed device and returns
// its output lines (stdout then stderr).
func runSample(s sample) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, s.args...)
	cmd.Env = append(os.Environ(), append([]string{"TUNE_AS_TOOL=1"}, sampleEnv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s:%d: tune %s: %v: %s", s.file, s.line, strings.Join(s.args, " "), err, strings.TrimSpace(stderr.String()))
	}
	text := strings.TrimRight(stdout.String()+stderr.String(), "\n")
	return strings.Split(text, "\n"), nil
}

var sampleNumber = regexp.MustCompile(`[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?`)

// sampleLineRE turns one line of a block into a pattern: "..." matches any
// text; in a timed sample, every number matches any number.
func sampleLineRE(line string, timed bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i, part := range strings.Split(line, "...") {
		if i > 0 {
			b.WriteString(".*")
		}
		q := regexp.QuoteMeta(part)
		if timed {
			// Numbers of any width, and the columns' padding around them.
			q = sampleNumber.ReplaceAllString(q, `[0-9.e+-]+`)
			q = strings.ReplaceAll(q, `[0-9.e+-]+\.[0-9.e+-]+`, `[0-9.e+-]+`)
			q = regexp.MustCompile(` +`).ReplaceAllString(q, ` +`)
		}
		b.WriteString(q)
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// sampleMatches reports whether the block's lines describe the output.
func sampleMatches(block, out []string, timed bool) bool {
	if len(block) == 0 {
		return len(out) == 0
	}
	if strings.TrimSpace(block[0]) == "..." {
		for k := 0; k <= len(out); k++ {
			if sampleMatches(block[1:], out[k:], timed) {
				return true
			}
		}
		return false
	}
	if len(out) == 0 {
		return false
	}
	got := strings.TrimRight(out[0], " ")
	if timed {
		// A timing the protocol found noisy says so; a recording need not.
		got = strings.TrimSuffix(got, "  (noisy)")
	}
	if !sampleLineRE(strings.TrimRight(block[0], " "), timed).MatchString(got) {
		return false
	}
	return sampleMatches(block[1:], out[1:], timed)
}

// checkSamples reruns every sample of the docs under root. With write, a
// plain sample that differs is rewritten (the file is written once); a
// timed one is only reported. It returns the problems found.
func checkSamples(root string, write bool) ([]string, error) {
	var problems []string
	for _, rel := range sampleDocs {
		path := filepath.Join(root, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(string(data), "\n")
		samples, err := findSamples(rel, lines)
		if err != nil {
			return nil, err
		}
		changed := false
		// From the last sample up, so a rewrite keeps the earlier ones'
		// line numbers.
		for i := len(samples) - 1; i >= 0; i-- {
			s := samples[i]
			out, err := runSample(s)
			if err != nil {
				return nil, err
			}
			block := make([]string, 0, s.end-s.start)
			for _, l := range lines[s.start:s.end] {
				block = append(block, strings.TrimPrefix(l, s.indent))
			}
			if sampleMatches(block, out, s.timed) {
				continue
			}
			if !write || s.timed || strings.Contains(strings.Join(block, "\n"), "...") {
				problems = append(problems, fmt.Sprintf("%s:%d: the sample of `tune %s` no longer matches its output: %s",
					rel, s.line, strings.Join(s.args, " "), firstMismatch(block, out, s.timed)))
				continue
			}
			indented := make([]string, len(out))
			for j, l := range out {
				indented[j] = strings.TrimRight(s.indent+l, " ")
			}
			lines = append(lines[:s.start], append(indented, lines[s.end:]...)...)
			changed = true
		}
		if changed {
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				return nil, err
			}
		}
	}
	return problems, nil
}

// firstMismatch names the first line of a block that no line of the
// output matches, for the report.
func firstMismatch(block, out []string, timed bool) string {
	for _, b := range block {
		if strings.TrimSpace(b) == "..." {
			continue
		}
		if !slices.ContainsFunc(out, func(o string) bool { return sampleMatches([]string{b}, []string{o}, timed) }) {
			return fmt.Sprintf("no output line matches %q", b)
		}
	}
	return fmt.Sprintf("the lines are in another order or number (the output has %d lines)", len(out))
}
