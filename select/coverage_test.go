package sel

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/coverage"
)

// withCoverage turns coverage on at a fresh path and returns it; the shard
// is closed and forgotten when the test ends.
func withCoverage(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cov")
	setenv(t, "BATCHLAS_COVERAGE_OUT", path)
	t.Cleanup(func() {
		recorders.Lock()
		if r := recorders.byPath[path]; r != nil {
			_ = r.Close()
		}
		delete(recorders.byPath, path)
		recorders.Unlock()
	})
	return path
}

func kinds(rows []coverage.Row, kind string) []coverage.Row {
	var out []coverage.Row
	for _, r := range rows {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func TestCoverageRows(t *testing.T) {
	fresh(t)
	path := withCoverage(t)
	k := synKey("L", 64, 1024)
	for i := 0; i < 3; i++ {
		_, err := run(bg, synOp, Float64, k, v4)
		require.NoError(t, err)
	}
	_, err := run(WithPin(bg, "syn", "tiny"), synOp, Float64, synKey("L", 8, 1), v4)
	require.NoError(t, err)
	_, err = run(bg, synOp, Float64, k, v3)
	require.NoError(t, err)
	_, err = synOp.Pick(bg, Float64, synKey("L", 16, 16), v4)
	require.NoError(t, err, "a Pick is not a call: no row")
	refuse(t, "blocked", "lpanel:panel=8")
	for i := 0; i < 2; i++ {
		_, err = run(bg, lroOp, Float64, k, v4nov)
		require.Error(t, err)
	}
	require.NoError(t, Flush())

	shard := coverage.ShardName(path, os.Getpid())
	rows, err := coverage.ReadFiles(shard)
	require.NoError(t, err)
	row := func(kind, choice, source, table, dev, key string, calls int64, supported int) coverage.Row {
		origin := "native"
		if choice == "" {
			origin = ""
		} else if choice == "vendor" {
			origin = "vendor"
		}
		return coverage.Row{Kind: kind, Op: "syn", DType: "float64", Device: dev, Choice: choice, Origin: origin, Source: source,
			Table: table, Calls: calls, Key: key, NativeExisted: 1, NativeSupported: supported, VendorLib: "lapack"}
	}
	want := []coverage.Row{
		row("reached", "lpanel:panel=8", "table", "syn.x86-64-v4.txt", "x86-64-v4", "uplo=L n=64 batch=1024", 3, 1),
		row("reached", "tiny", "pinned", "", "x86-64-v4", "uplo=L n=8 batch=1", 1, 1),
		row("reached", "blocked", "borrowed", "syn.x86-64-v2.txt", "x86-64-v3", "uplo=L n=64 batch=1024", 1, 1),
	}
	if d := cmp.Diff(want, kinds(rows, coverage.Reached)); d != "" {
		t.Errorf("reached rows (-want +got):\n%s", d)
	}
	miss := row("miss", "", "", "", "x86-64-v4", "uplo=L n=64 batch=1024", 2, 0)
	miss.Op = "lro"
	assert.Equal(t, []coverage.Row{miss}, kinds(rows, coverage.Miss))

	var linked []string
	for _, r := range kinds(rows, coverage.Linked) {
		if r.Op == "syn" {
			assert.Equal(t, -1, r.NativeSupported)
			assert.Equal(t, 1, r.NativeExisted)
			assert.Equal(t, "lapack", r.VendorLib)
			assert.Empty(t, r.Device)
			linked = append(linked, r.DType+" "+r.Choice+" "+r.Origin)
		}
	}
	assert.Equal(t, []string{
		"float32 tiny native", "float32 lpanel:panel=8 native", "float32 blocked native", "float32 vendor vendor",
		"float64 tiny native", "float64 lpanel:panel=8 native", "float64 lpanel:panel=16 native", "float64 cta:warps=4 native", "float64 blocked native", "float64 vendor vendor",
	}, linked, "one linked row per compiled candidate per dtype")
	var ops []string
	for _, r := range kinds(rows, coverage.Linked) {
		if !slices.Contains(ops, r.Op) {
			ops = append(ops, r.Op)
		}
	}
	assert.ElementsMatch(t, []string{"syn", "aux", "ord", "stl", "gpo", "lro", "big", "idn", "onl"}, ops, "every registered op")
}

func TestCoverageOpenFailureWarnsOnce(t *testing.T) {
	warn, _ := fresh(t)
	setenv(t, "BATCHLAS_COVERAGE_OUT", filepath.Join(t.TempDir(), "missing", "cov"))
	Reload()
	_, err := run(bg, synOp, Float64, synKey("L", 8, 1), v4)
	require.NoError(t, err, "a broken coverage path never fails a call")
	require.Len(t, warn.lines(), 1)
	assert.Contains(t, warn.lines()[0], "batchlas: BATCHLAS_COVERAGE_OUT: coverage: open ")
	assert.Contains(t, warn.lines()[0], "; coverage is off")
}

// Two processes writing to one path keep separate shards, and a process
// that exits without flushing still leaves every distinct row.
func TestCoverageTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	path := filepath.Join(t.TempDir(), "cov")
	for _, mode := range []string{"flush", "noflush"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SEL_TEST_CHILD="+mode, "BATCHLAS_COVERAGE_OUT="+path)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	shards, err := filepath.Glob(path + ".*.csv")
	require.NoError(t, err)
	require.Len(t, shards, 2, "one shard per process")
	for _, s := range shards {
		rows, err := coverage.ReadFiles(s)
		require.NoError(t, err)
		assert.Len(t, kinds(rows, coverage.Reached), 2, s)
		assert.Len(t, kinds(rows, coverage.Miss), 1, s)
		assert.NotEmpty(t, kinds(rows, coverage.Linked), s)
	}
	rows, err := coverage.ReadFiles(shards...)
	require.NoError(t, err)
	var calls []int64
	for _, r := range coverage.Merge(rows) {
		if r.Kind != coverage.Linked {
			calls = append(calls, r.Calls)
		}
	}
	// n=64: 3 flushed + 1 first sighting; n=8: 1 + 1; the miss: 1 + 1.
	assert.Equal(t, []int64{4, 2, 2}, calls)
}
