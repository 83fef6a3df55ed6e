package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const modulePath = "github.com/batchlas-go/batchlas"

// moduleRoot finds the batchlas checkout the tool runs in, walking up from
// the working directory. Kernel hashes and docs/tables.md need it.
// sourceLimit bounds a source file of the checkout read for the kernels
// hash (and go.mod): the largest is tens of KB.
var sourceLimit = safefile.Limit{Max: 16 << 20, Noun: "a source file", Text: "16 MiB"}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := safefile.ReadFile(filepath.Join(dir, "go.mod"), sourceLimit)
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+modulePath)) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the batchlas module (no go.mod of " + modulePath + " above the working directory)")
		}
		dir = parent
	}
}

// kernelFilesOf derives the kernel sources of op, whose package is
// ops/<op>: every .go and .s file (tests and doc.go aside) of that package
// and of every package of the module it imports, directly or not, except
// the selection core and its instruments (hashExempt). That is the root
// package's host detection, the batch-parallel loop, the shared kernels
// and the ops it calls through their entry points. A file that only `go
// run` builds (//go:build ignore, a generator) counts, but its imports are
// not followed. The files of an op's directory that are not kernels
// (notKernels: its measurement and its generated hash) are left out
// entirely, imports included. The paths are relative to root, sorted;
// kernelSources takes them as globs.
func kernelFilesOf(root, op string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	var walk func(dir string) error
	walk = func(dir string) error {
		if seen[dir] || slices.Contains(hashExempt, dir) {
			return nil
		}
		seen[dir] = true
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			return err
		}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || strings.HasSuffix(n, "_test.go") || n == "doc.go" || !(strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".s")) {
				continue
			}
			if isOpDir(dir) && slices.Contains(notKernels, n) {
				continue
			}
			out = append(out, filepath.ToSlash(filepath.Join(dir, n)))
			if !strings.HasSuffix(n, ".go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, dir, n), nil, parser.ImportsOnly|parser.ParseComments)
			if err != nil {
				return err
			}
			if slices.ContainsFunc(f.Comments, func(g *ast.CommentGroup) bool { return strings.Contains(g.Text(), "go:build ignore") }) {
				continue
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p == modulePath {
					err = walk(".")
				} else if rest, ok := strings.CutPrefix(p, modulePath+"/"); ok {
					err = walk(rest)
				}
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk("ops/" + op); err != nil {
		return nil, fmt.Errorf("%s's kernel sources: %w", op, err)
	}
	slices.Sort(out)
	return out, nil
}

// notKernels are the files of an op's directory (ops/<op>) that are not
// part of any op's kernels: trial.go, the op's measurement (its inputs,
// its checks, its flop count: how the kernels are timed, not what they
// compute; it imports packages no kernel does, such as getrs's input
// maker getrf), and kernelshash.go, generated from the hash itself
// (kernelsHashFile). Neither is hashed nor are its imports followed, so
// that editing a check does not make every table stale.
var notKernels = []string{"trial.go", kernelsHashName}

// isOpDir reports whether dir, relative to the module root, is an op's
// package: ops/<op>.
func isOpDir(dir string) bool {
	rest, ok := strings.CutPrefix(filepath.ToSlash(dir), "ops/")
	return ok && rest != "" && !strings.Contains(rest, "/")
}

// kernelSources expands an op's kernel globs under root: sorted paths
// relative to root, tests and doc.go left out (they do not change what
// the kernels compute).
func kernelSources(root string, globs []string) ([]string, error) {
	var out []string
	for _, g := range globs {
		matches, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			base := filepath.Base(m)
			if strings.HasSuffix(base, "_test.go") || base == "doc.go" {
				continue
			}
			rel, _ := filepath.Rel(root, m)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("no kernel sources match %s", strings.Join(globs, " "))
	}
	return out, nil
}

// currentKernelsHash is op t's kernels hash for this run: from its
// sources when the tool runs inside the checkout (rootErr nil), else the
// hash the op recorded when the binary was built (ops/<op>/kernelshash.go,
// which `tune docs --check` keeps equal to the sources' in CI), so that a
// tuner built with `go build` or `go install` and run from any directory
// still writes tables and ledgers keyed by the code it measures. An error
// only when neither is known.
func currentKernelsHash(root string, rootErr error, t *opTuner) (string, error) {
	if rootErr == nil {
		return opKernelsHash(root, t)
	}
	if h := t.op.KernelsHash(); h != "" {
		return h, nil
	}
	return "", rootErr
}

// opKernelsHash is kernelsHash over op t's kernel sources.
func opKernelsHash(root string, t *opTuner) (string, error) {
	files, err := t.kernelFiles(root)
	if err != nil {
		return "", err
	}
	return kernelsHash(root, files)
}

// kernelsHash is the kernels= provenance of a table: the first 8 hex digits
// of a SHA-256 over the op's kernel sources (path and code of each, in
// path order). A table whose hash no longer matches was measured on other
// code: `tune check` warns that it is stale. Only code counts, not
// comments or spacing (codeOf), so fixing a comment or re-running gofmt
// does not make every table that depends on the file stale; build
// constraints and compiler directives are code.
func kernelsHash(root string, globs []string) (string, error) {
	files, err := kernelSources(root, globs)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		data, err := safefile.ReadFile(filepath.Join(root, f), sourceLimit)
		if err != nil {
			return "", err
		}
		code := codeOf(f, data)
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(code))
		h.Write(code)
	}
	return hex.EncodeToString(h.Sum(nil))[:8], nil
}

// isDirective reports whether a // comment is code to the go command or
// the compiler: a build constraint (//go:build, or the older // +build) or
// a directive such as //go:noinline. Which files are compiled, and how,
// changes what the kernels run.
func isDirective(comment string) bool {
	return strings.HasPrefix(comment, "//go:") || strings.HasPrefix(comment, "// +build")
}

// codeOf is a source file without its comments and spacing: a Go file as
// its tokens one per line (go/scanner, which keeps the semicolons that
// line breaks stand for), any other file (assembly) as its lines with //
// comments and surrounding blanks removed and empty lines dropped. Build
// constraints and directives (isDirective) are kept in both, with their
// spacing normalised.
func codeOf(name string, src []byte) []byte {
	var out bytes.Buffer
	directive := func(c string) {
		out.WriteString(strings.Join(strings.Fields(c), " ") + "\n")
	}
	if strings.HasSuffix(name, ".go") {
		var sc scanner.Scanner
		fset := token.NewFileSet()
		sc.Init(fset.AddFile(name, -1, len(src)), src, nil, scanner.ScanComments)
		for {
			_, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.COMMENT {
				if isDirective(lit) {
					directive(lit)
				}
				continue
			}
			out.WriteString(tok.String())
			if lit != "" && lit != "\n" {
				out.WriteString(" " + lit)
			}
			out.WriteByte('\n')
		}
		return out.Bytes()
	}
	for _, line := range strings.Split(string(src), "\n") {
		if t := strings.TrimSpace(line); isDirective(t) {
			directive(t)
			continue
		}
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" {
			out.WriteString(line + "\n")
		}
	}
	return out.Bytes()
}

// provenance is the header of a table the tuner writes.
type provenance struct {
	op       string
	device   string
	identity string // the microarchitecture of an identity's table, "" for a level's
	revision int
	kernels  string
	date     time.Time
	host     string
	cores    int
	grid     string
	// The device facts kernels decide their internal paths by: the cache
	// sizes in bytes as the device reports them (0: not reported) and its
	// flags (vector extensions, fp64, vendor libraries).
	l1d, l2, l3 int
	flags       []string
	extra       []headerWord // protocol settings, partial=yes, ...
}

func (p provenance) header() [][]headerWord {
	line1 := []headerWord{
		{"op", p.op}, {"device", p.device},
	}
	if p.identity != "" {
		line1 = append(line1, headerWord{"identity", p.identity})
	}
	line1 = append(line1, headerWord{"revision", strconv.Itoa(p.revision)},
		headerWord{"kernels", p.kernels}, headerWord{"date", p.date.Format("2006-01-02")})
	line2 := []headerWord{
		{"host", p.host}, {"cores", strconv.Itoa(p.cores)},
		{"l1d", strconv.Itoa(p.l1d)}, {"l2", strconv.Itoa(p.l2)}, {"l3", strconv.Itoa(p.l3)},
		{"flags", strings.Join(p.flags, ",")},
		{"go", runtime.Version()}, {"tool", "tools/tune"}, {"grid", p.grid},
	}
	out := [][]headerWord{line1, line2}
	if len(p.extra) > 0 {
		out = append(out, p.extra)
	}
	return out
}

// deviceFacts fills the device words of a provenance from d.
func (p *provenance) deviceFacts(d *sel.Device) {
	p.host, p.cores = hostName(d), d.Cores
	p.l1d, p.l2, p.l3 = d.L1D, d.L2, d.L3
	p.flags = slices.Clone(d.Flags)
}

// hostName is the device's marketing name, quoted in the header.
func hostName(d *sel.Device) string {
	if d.Name != "" {
		return d.Name
	}
	return runtime.GOARCH
}
