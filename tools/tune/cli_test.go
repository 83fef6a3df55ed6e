package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// tune runs one invocation in-process and returns its exit status, stdout
// and stderr.
func tune(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := mainCode(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

const globalUsage = "usage: go run ./tools/tune <command> [flags]"

func TestHelpAskedForGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, errs := tune(args...)
		assert.Equal(t, 0, code, "%q", args)
		assert.Empty(t, errs, "%q", args)
		assert.True(t, strings.HasPrefix(out, globalUsage), "%q: %s", args, out)
		for _, c := range commands() {
			assert.Contains(t, out, "\n  "+c.name+" ", "%q lists %s", args, c.name)
		}
	}
}

func TestEveryCommandHasItsOwnHelp(t *testing.T) {
	for _, c := range commands() {
		var first string
		for i, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			code, out, errs := tune(args...)
			assert.Equal(t, 0, code, "%q", args)
			assert.Empty(t, errs, "%q", args)
			assert.True(t, strings.HasPrefix(out, "usage: go run ./tools/tune "+c.name+" "), "%q prints %s's usage, not the global one:\n%s", args, c.name, out)
			assert.NotContains(t, out, globalUsage, "%q", args)
			assert.Contains(t, out, "\nflags:\n", "%q", args)
			if i == 0 {
				first = out
			} else {
				assert.Equal(t, first, out, "%q says what `help %s` says", args, c.name)
			}
		}
	}
}

func TestUsageErrorsGoToStderr(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{nil, 2, []string{globalUsage}},
		{[]string{"nosuch"}, 2, []string{`unknown command "nosuch"`, globalUsage}},
		{[]string{"help", "nosuch"}, 2, []string{`tune help: want one command name, got ["nosuch"]`, globalUsage}},
		{[]string{"help", "run", "check"}, 2, []string{"want one command name", globalUsage}},
		{[]string{"explain", "--nosuch"}, 1, []string{"usage: go run ./tools/tune explain ", "tune explain: unknown flag: --nosuch (go run ./tools/tune help explain)"}},
		{[]string{"bench"}, 1, []string{"usage: go run ./tools/tune bench ", "tune bench: want an op and the call's keys"}},
		{[]string{"check", "extra"}, 1, []string{"usage: go run ./tools/tune check ", `unexpected arguments ["extra"]`}},
	} {
		code, out, errs := tune(tc.args...)
		assert.Equal(t, tc.code, code, "%q", tc.args)
		assert.Empty(t, out, "%q: nothing on stdout", tc.args)
		for _, w := range tc.want {
			assert.Contains(t, errs, w, "%q", tc.args)
		}
	}
}

// The commands that take keys (bench and explain as key=value, run and
// validate in --grid) list every op's keys in their help, with the values
// of exact keys, from the ops' specs.
func TestKeyTakingCommandsListEveryOpsKeys(t *testing.T) {
	for _, name := range []string{"bench", "explain", "run", "validate"} {
		_, out, _ := tune("help", name)
		ops := tunedOps()
		if name == "explain" {
			ops = sel.Ops()
		}
		require.NotEmpty(t, ops)
		for _, op := range ops {
			assert.Regexp(t, `\n  `+op.Name()+` +`+regexpQuote(keyForms(op))+`\n`, out, "help %s lists %s's keys", name, op.Name())
		}
		assert.Contains(t, out, "potrf   uplo=L|U n=<n> batch=<n>\n", name)
		assert.Contains(t, out, "trsm    side=L|R uplo=L|U ta=N|T diag=N|U m=<n> n=<n> batch=<n>\n", name)
	}
	_, out, _ := tune("help", "check")
	assert.NotContains(t, out, "uplo=L|U", "check takes no keys")
}

func regexpQuote(s string) string {
	return strings.NewReplacer("|", `\|`, ".", `\.`, "+", `\+`).Replace(s)
}

func TestKeyFormsComeFromTheGrid(t *testing.T) {
	assert.Equal(t, "uplo=L|U n=<n> batch=<n>", keyForms(potrf.Op))
}

// explain and bench take the dtype as the word after the op or as --dtype;
// given both, they must agree.
func TestCallDTypeForms(t *testing.T) {
	keys := []string{"uplo=L", "n=4", "batch=2"}
	for _, args := range [][]string{
		append([]string{"explain", "potrf", "float32"}, keys...),
		append([]string{"explain", "potrf", "--dtype", "float32"}, keys...),
		append(append([]string{"explain", "potrf"}, keys...), "--dtype=float32"),
		append([]string{"explain", "potrf", "float32", "--dtype", "float32"}, keys...),
	} {
		code, out, errs := tune(args...)
		require.Equal(t, 0, code, "%q: %s", args, errs)
		assert.Contains(t, out, "call:     potrf float32 uplo=L n=4 batch=2\n", "%q", args)
	}
	code, out, _ := tune(append([]string{"explain", "potrf"}, keys...)...)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "call:     potrf float64 uplo=L n=4 batch=2\n", "float64 when neither form is given")

	for _, cmd := range []string{"explain", "bench"} {
		code, out, errs := tune(append([]string{cmd, "potrf", "float64", "--dtype", "float32"}, keys...)...)
		assert.Equal(t, 1, code, cmd)
		assert.Empty(t, out, cmd)
		assert.Contains(t, errs, "the dtype is given twice, as float64 and as --dtype float32: give one", cmd)

		code, _, errs = tune(append([]string{cmd, "potrf", "flaot32"}, keys...)...)
		assert.Equal(t, 1, code, cmd)
		assert.Contains(t, errs, `potrf: "flaot32" is neither a dtype of potrf (float32, float64) nor a key=value`, cmd)
	}
}

// bench measures either form of the dtype (on the smallest call, with the
// least protocol: this checks which dtype ran, not how fast).
func TestBenchTakesBothDTypeForms(t *testing.T) {
	quick := []string{"uplo=L", "n=1", "batch=1", "--reps", "1", "--target", "10us"}
	for _, args := range [][]string{
		append([]string{"bench", "potrf", "float32"}, quick...),
		append([]string{"bench", "potrf", "--dtype", "float32"}, quick...),
	} {
		code, out, errs := tune(args...)
		require.Equal(t, 0, code, "%q: %s", args, errs)
		assert.Contains(t, out, "potrf float32 uplo=L n=1 batch=1:", "%q", args)
	}
}

// A call with keys missing is told every missing key and the op's whole
// key list with the values of its exact keys, by each command that takes
// keys.
func TestMissingKeysAreListedWithTheWholeKeyList(t *testing.T) {
	for _, cmd := range []string{"explain", "bench"} {
		code, _, errs := tune(cmd, "trsm", "float64", "m=4")
		assert.Equal(t, 1, code, cmd)
		assert.Contains(t, errs, "trsm: missing key(s) side, uplo, ta, diag, n, batch (keys: side=L|R uplo=L|U ta=N|T diag=N|U m=<n> n=<n> batch=<n>)", cmd)
		code, _, errs = tune(cmd, "potrf", "uplo=Q", "n=4", "batch=2")
		assert.Equal(t, 1, code, cmd)
		assert.Contains(t, errs, "potrf: key uplo=Q: want one of L, U", cmd)
	}
}

// The summary line reads the automatic call's own measurement, not the
// time of the candidate it picked when pinned.
func TestBenchSummaryUsesTheMeasuredAutomaticCall(t *testing.T) {
	cands := potrf.Op.Candidates(sel.Float64)
	require.GreaterOrEqual(t, len(cands), 2)
	walk := &sel.Walk{Choice: cands[0], Source: "table"}
	c, err := parseCellArgs(potrf.Op, []string{"uplo=L", "n=4", "batch=2"})
	require.NoError(t, err)
	pinned := []benchRow{{choice: cands[0], m: measured{MS: 1}}, {choice: cands[1], m: measured{MS: 1.5}}}
	var out bytes.Buffer
	printBench(&out, "potrf", sel.Float64, c, 1e6, walk, measured{MS: 2.5}, pinned, cellResult{})
	s := out.String()
	assert.Regexp(t, `auto -> `+regexpQuote(cands[0].String())+` +2\.5 +0\.40 +2\.500\n`, s)
	assert.Contains(t, s, "auto picked "+cands[0].String()+" (table): the automatic call took 2.500x the time of the fastest, "+cands[0].String()+"\n")
}

// On a terminal, bench says what it is doing while it times (a large shape
// takes seconds), and erases the line when done; elsewhere it says nothing.
func TestBenchShowsProgressOnAStatusWriter(t *testing.T) {
	c, err := parseCellArgs(potrf.Op, []string{"uplo=L", "n=4", "batch=2"})
	require.NoError(t, err)
	ms := measureSettings{proto: protocol{reps: 1, target: 10 * time.Microsecond}, seed: 1}
	var out, status bytes.Buffer
	_, err = benchCell(context.Background(), tuners["potrf"], sel.Float64, c, ms, &out, &status)
	require.NoError(t, err)
	assert.Contains(t, status.String(), "bench: checking and warming up")
	assert.Contains(t, status.String(), "bench: timing the automatic call and")
	assert.True(t, strings.HasSuffix(status.String(), "\r\033[K"), "the last status is erased")
	assert.NotContains(t, out.String(), "bench: ", "progress never goes to the output")
}
