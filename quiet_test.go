package batchlas_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cpuident"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// The settings and the host's identity are read once per process, so what
// a process prints is tested in a child process: the test binary runs
// itself with QUIET_TEST_CHILD set and a clean BATCHLAS_* environment, and
// TestQuietChild makes a few real calls there, reporting each call's error
// on stdout. stderr is what the library printed.

// TestQuietChild is the child's body; it does nothing in the parent.
func TestQuietChild(t *testing.T) {
	mode := os.Getenv("QUIET_TEST_CHILD")
	if mode == "" {
		t.Skip("run as a child process by the TestQuiet tests")
	}
	if mode == "redirect" {
		// Warnings to stdout, where the parent finds them; stderr must
		// stay empty.
		batchlas.SetWarnOutput(os.Stdout)
	}
	ctx := context.Background()
	r := testmat.Rand(5)
	c := batchlas.NewBatch[float64](12, 12, 64)
	a := testmat.Batch[float64](r, 12, 12, 64, 0, 0)
	b := testmat.Batch[float64](r, 12, 12, 64, 0, 0)
	fmt.Printf("gemm: %v\n", gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c, nil))
	c32 := batchlas.NewBatch[float32](12, 12, 64)
	a32 := testmat.Batch[float32](r, 12, 12, 64, 0, 0)
	fmt.Printf("gemm32: %v\n", gemm.Gemm(ctx, batchlas.NoTrans, batchlas.Trans, 1, a32, a32, 0, c32, nil))
	spd := batchlas.NewBatch[float64](40, 40, 16)
	testmat.SPD(r, spd)
	tri := testmat.Clone(spd)
	fmt.Printf("potrf: %v\n", potrf.Potrf(ctx, batchlas.Lower, spd, nil))
	rhs := testmat.Batch[float64](r, 40, 3, 16, 0, 0)
	testmat.Triangular(r, tri, batchlas.Lower)
	fmt.Printf("trsm: %v\n", trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, tri, rhs, nil))
}

// child runs TestQuietChild with mode and the given BATCHLAS_* variables
// (every other BATCHLAS_* variable of this process removed) and returns
// its stdout and stderr.
func child(t *testing.T, mode string, env ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestQuietChild$", "-test.count=1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BATCHLAS_") && !strings.HasPrefix(kv, "QUIET_TEST_CHILD=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "QUIET_TEST_CHILD="+mode)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	require.NoError(t, err, "child %s %v failed:\nstdout:\n%s\nstderr:\n%s", mode, env, out.String(), errb.String())
	return out.String(), errb.String()
}

// calls returns the child's "op: error" lines.
func calls(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if op, _, ok := strings.Cut(l, ": "); ok && (op == "gemm" || op == "gemm32" || op == "potrf" || op == "trsm") {
			out = append(out, l)
		}
	}
	return out
}

var allOK = []string{"gemm: <nil>", "gemm32: <nil>", "potrf: <nil>", "trsm: <nil>"}

// On a device with no table of its own (every op borrows the x86-64-v4
// tables: at or below in the same family first, then other families) and
// with tracing off, the library writes nothing at all; nor on the host as
// detected ("": BATCHLAS_DEVICE unset), whatever it is.
func TestQuietWhenBorrowing(t *testing.T) {
	for _, key := range []string{"", "x86-64-v3", "x86-64-v1", "arm64", "riscv64"} {
		var env []string
		if key != "" {
			env = append(env, "BATCHLAS_DEVICE="+key)
		}
		stdout, stderr := child(t, "plain", env...)
		assert.Equal(t, allOK, calls(stdout), key)
		assert.Empty(t, stderr, "%s: nothing on stderr without tracing", key)
	}
}

// With tracing on, the startup report comes first (device, where each op's
// tables come from, the switches), then the borrowing notices, then the
// decision lines; none of it is a warning. x86-64-v2 ships no tables and
// borrows the nearest level's, x86-64-v3's.
func TestQuietTraceReportsBorrowing(t *testing.T) {
	stdout, stderr := child(t, "plain", "BATCHLAS_DEVICE=x86-64-v2", "BATCHLAS_SELECT_TRACE=1", "BATCHLAS_TRSM_ROUTE=auto")
	assert.Equal(t, allOK, calls(stdout))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.GreaterOrEqual(t, len(lines), 3, stderr)
	// Every op linked into this test binary borrows (the binary links
	// more ops than the child calls, through the package's other tests),
	// except an op that ships no table at all, which has none to borrow.
	assert.Regexp(t, `^batchlas: device x86-64-v2( identity=[a-z0-9-]+)? ".*" cores=\d+ flags=\S+ vendor=\S+ tables:( [a-z]+=(borrowed:x86-64-v[34](\.[a-z0-9-]+)?|none))+$`, lines[0])
	// The host's identity (whatever the CPU) names x86-64-v2's tables, and
	// the shipped x86-64-v3 tables are one identity's: the label the
	// report and the notices name is that table's.
	host := batchlas.DetectHost()
	v3 := "x86-64-v3"
	if shipped, _ := fs.Glob(opkit.BuiltinTables(), "gemm.x86-64-v3.*.txt"); len(shipped) == 1 {
		v3 = strings.TrimSuffix(strings.TrimPrefix(shipped[0], "gemm."), ".txt")
	}
	dev := "x86-64-v2"
	if host.Identity != "" {
		dev += "." + host.Identity
	}
	_, sources, _ := strings.Cut(lines[0], " tables: ")
	var want []string
	for _, op := range sel.Ops() {
		shipped, err := fs.Glob(opkit.BuiltinTables(), op.Name()+".*.txt")
		require.NoError(t, err)
		v3s, err := fs.Glob(opkit.BuiltinTables(), op.Name()+".x86-64-v3*.txt")
		require.NoError(t, err)
		switch {
		case len(v3s) > 0:
			want = append(want, op.Name()+"=borrowed:"+v3)
		case len(shipped) > 0:
			// An op that ships only a higher level's tables (the ops added
			// after the x86-64-v3 tables were measured) borrows one of
			// them: the host's own identity's, else one of its vendor's,
			// else the first by name.
			want = append(want, op.Name()+"=borrowed:"+preferredIdentity(shipped, host.Identity))
		default:
			want = append(want, op.Name()+"=none")
		}
	}
	assert.ElementsMatch(t, want, strings.Fields(sources), "each op borrows x86-64-v3's table, else the one it ships, or ships none")
	for _, op := range []string{"gemm", "potrf", "trsm"} {
		assert.Contains(t, lines[0], " "+op+"=borrowed:"+v3, "the report names %s", op)
	}
	assert.Equal(t, `batchlas: switches: BATCHLAS_DEVICE="x86-64-v2" BATCHLAS_IDENTITY="" BATCHLAS_TUNED_DIR="" BATCHLAS_COVERAGE_OUT="" pins: BATCHLAS_TRSM_ROUTE="auto"`, lines[1])
	assert.Equal(t, "batchlas: gemm has no float64 table for "+dev+"; borrowing "+v3+" (run tools/tune to tune this device)", lines[2])
	for _, op := range []string{"gemm float64", "gemm float32", "potrf float64", "trsm float64"} {
		notice := fmt.Sprintf("batchlas: %s has no %s table for %s; borrowing %s (run tools/tune to tune this device)", strings.Fields(op)[0], strings.Fields(op)[1], dev, v3)
		assert.Equal(t, 1, strings.Count(stderr, notice+"\n"), "one notice for %s:\n%s", op, stderr)
		assert.Contains(t, stderr, "\n"+op+" ", "a decision line for %s", op)
	}
	assert.Contains(t, stderr, "["+v3+" table, borrowed for "+dev+"]")
	assert.Equal(t, 1, strings.Count(stderr, "batchlas: device "), "one report")
}

// preferredIdentity is the label (x86-64-v4.zen5) of the shipped table,
// among one level's identity tables, that a host of identity ident borrows
// first: its own identity's, else one of the same vendor's, else the first
// by name.
func preferredIdentity(shipped []string, ident string) string {
	label := func(name string) (string, string) {
		_, dev, id, _ := sel.SplitTableName(name)
		return dev + "." + id, id
	}
	for _, name := range shipped {
		if l, id := label(name); ident != "" && id == ident {
			return l
		}
	}
	if v := cpuident.Vendor(ident); v != "" {
		for _, name := range shipped {
			if l, id := label(name); cpuident.Vendor(id) == v {
				return l
			}
		}
	}
	l, _ := label(shipped[0])
	return l
}

// A broken override warns once without tracing, and the calls that need
// it fail with its error.
func TestQuietBrokenOverrideWarns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gemm.x86-64-v4.txt")
	require.NoError(t, os.WriteFile(path, []byte("garbage\n"), 0o644))
	stdout, stderr := child(t, "plain", "BATCHLAS_DEVICE=x86-64-v4", "BATCHLAS_TUNED_DIR="+dir)
	const bad = "gemm.x86-64-v4.txt:1: no revision=N in the header; tables written by tools/tune carry it"
	got := calls(stdout)
	require.Len(t, got, 4)
	assert.Equal(t, "gemm: "+bad, got[0])
	assert.Equal(t, "gemm32: "+bad, got[1], "which sections a broken override had is unknown")
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: cannot use " + path + ": " + bad + "; calls of gemm that need this table fail until it is fixed or removed"},
		strings.Split(strings.TrimSpace(stderr), "\n"), "one warning, no trace")
}

// A malformed BATCHLAS_DEVICE warns once and is ignored; SetWarnOutput
// sends that warning elsewhere.
func TestQuietBadDeviceWarns(t *testing.T) {
	const want = `batchlas: ignoring BATCHLAS_DEVICE: device key "amd64": want x86-64 or x86-64-v<level> (e.g. x86-64-v4)`
	stdout, stderr := child(t, "plain", "BATCHLAS_DEVICE=amd64")
	assert.Equal(t, allOK, calls(stdout))
	assert.Equal(t, want+"\n", stderr)

	stdout, stderr = child(t, "redirect", "BATCHLAS_DEVICE=amd64")
	assert.Equal(t, allOK, calls(stdout))
	assert.Empty(t, stderr, "SetWarnOutput took the warning")
	assert.Contains(t, stdout, want+"\n")
}

// An unusable coverage path warns once; the calls run.
func TestQuietBadCoverageWarns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "cov")
	stdout, stderr := child(t, "plain", "BATCHLAS_COVERAGE_OUT="+path)
	assert.Equal(t, allOK, calls(stdout))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 1, stderr)
	assert.True(t, strings.HasPrefix(lines[0], "batchlas: BATCHLAS_COVERAGE_OUT: ") && strings.HasSuffix(lines[0], "; coverage is off"), lines[0])
}

// A bad pin value is an error from the call, not a warning; a vendor pin
// warns once only when it falls back (a build without the vendor library).
func TestQuietPins(t *testing.T) {
	stdout, stderr := child(t, "plain", "BATCHLAS_GEMM_ROUTE=nonsense")
	got := calls(stdout)
	require.Len(t, got, 4)
	assert.True(t, strings.HasPrefix(got[0], `gemm: gemm: BATCHLAS_GEMM_ROUTE="nonsense" does not parse`), got[0])
	// Other ops are not pinned: their own decisions stand. A kernel of
	// theirs that calls gemm (blocked trsm or potrf) does meet the pin.
	for _, g := range got[2:] {
		if !strings.HasSuffix(g, ": <nil>") {
			assert.Contains(t, g, `gemm: BATCHLAS_GEMM_ROUTE="nonsense" does not parse`, "only a nested gemm call fails")
		}
	}
	assert.Empty(t, stderr)

	stdout, stderr = child(t, "plain", "BATCHLAS_GEMM_ROUTE=vendor")
	assert.Equal(t, allOK, calls(stdout), "a fallen-back class pin still runs the call")
	if batchlas.Host().Has("vendor:blas") {
		assert.Empty(t, stderr, "the vendor pin is honoured")
		return
	}
	assert.Contains(t, stderr, `batchlas: gemm float64: pin "vendor" from BATCHLAS_GEMM_ROUTE: no vendor candidate can run`)
	assert.Equal(t, 2, strings.Count(stderr, "\n"), "once per dtype:\n%s", stderr)
}

// SetWarnOutput(nil) discards rather than failing later writes.
func TestSetWarnOutputNil(t *testing.T) {
	old := batchlas.SetWarnOutput(nil)
	defer batchlas.SetWarnOutput(old)
	require.NotPanics(t, func() { sel.WarnOnce("test-nil-writer", "batchlas: a warning nobody reads") })
}
