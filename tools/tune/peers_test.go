package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// None of these tests times anything or needs numpy: the numpy side is
// played by shell scripts.

var bothDTypes = []sel.DType{sel.Float64, sel.Float32}

func testSettings() measureSettings {
	return measureSettings{proto: defaultProtocol(), seed: 1}
}

// Every shape of both lists names keys the op takes; the only shapes left
// out are those of ops this build has no measurement for.
func TestPeerShapeListsResolve(t *testing.T) {
	for _, name := range []string{"default", "all"} {
		lines, err := peerShapes(name)
		require.NoError(t, err)
		runs, notes, err := resolvePeerShapes(lines, bothDTypes, nil, 0)
		require.NoError(t, err, name)
		assert.Equal(t, len(lines), len(runs)+len(notes), name)
		for _, n := range notes {
			op := strings.Fields(n)[0]
			assert.NotContains(t, tuners, op, "%s: only an op without a spec is left out: %s", name, n)
			assert.Contains(t, n, "skipped, this build of the tuner has no measurement for op "+op)
		}
	}
	all, _ := peerShapes("all")
	assert.Contains(t, all, "potrf float32 uplo=L n=8 batch=65536")
	assert.Contains(t, all, "syev float32 jobz=N uplo=L n=4 batch=100000")
	_, err := peerShapes("some")
	assert.ErrorContains(t, err, `--shapes: "some": want default or all`)
}

func TestPeerShapesFilterAndErrors(t *testing.T) {
	runs, notes, err := resolvePeerShapes(defaultPeerShapes, []sel.DType{sel.Float32}, []string{"gemm"}, 0)
	require.NoError(t, err)
	assert.Empty(t, notes)
	require.Len(t, runs, 7) // five N N orders, T N at 32 and H*P's 4 x 64
	for _, r := range runs {
		assert.Equal(t, "gemm", r.t.op.Name())
		assert.Equal(t, sel.Float32, r.dt)
	}
	_, _, err = resolvePeerShapes([]string{"potrf float64 uplo=L n=8"}, bothDTypes, nil, 0)
	assert.ErrorContains(t, err, `shape "potrf float64 uplo=L n=8": potrf: missing key(s) batch`)
	_, _, err = resolvePeerShapes([]string{"potrf"}, bothDTypes, nil, 0)
	assert.ErrorContains(t, err, "want OP DTYPE key=value")
	// Over the memory cap: left out with a note, before any allocation.
	runs, notes, err = resolvePeerShapes([]string{"gemm float64 ta=N tb=N m=1024 n=1024 k=1024 batch=1"}, bothDTypes, nil, 1<<20)
	require.NoError(t, err)
	assert.Empty(t, runs)
	require.Len(t, notes, 1)
	assert.Contains(t, notes[0], "over the memory cap")
}

// The cases go to the numpy script as JSON and read back the same: op,
// dtype, every key as text, and the protocol's settings.
func TestPeerCaseJSONRoundTrip(t *testing.T) {
	runs, _, err := resolvePeerShapes(defaultPeerShapes, bothDTypes, nil, 0)
	require.NoError(t, err)
	ms := testSettings()
	ms.proto.reps, ms.seed = 7, 3
	var cases []peerCase
	for _, r := range runs {
		cases = append(cases, peerCaseOf(r, ms))
	}
	data, err := encodePeerCases(cases)
	require.NoError(t, err)
	back, err := decodePeerCases(data)
	require.NoError(t, err)
	assert.Equal(t, cases, back)
	// The script makes its sizing call steady with the Go side's constants.
	assert.Contains(t, string(data), fmt.Sprintf(`"steady_fresh":%d,"steady_max":%d`, steadyFresh, steadyMax))

	assert.Contains(t, string(data), `{"op":"gemm","dtype":"float64","keys":{"batch":"65536","k":"8","m":"8","n":"8","ta":"N","tb":"N"},"reps":7,"target_ms":1,"seed":3,"steady_fresh":1048576,"steady_max":8}`)
	assert.Contains(t, string(data), `"keys":{"batch":"8192","diag":"N","m":"32","n":"32","side":"L","ta":"N","uplo":"L"}`)
}

func TestNumpyReportNeedsOneResultPerCase(t *testing.T) {
	rep, err := decodeNumpyReport([]byte(`{"numpy":"1.24.2","blas":"OpenBLAS","results":[{"ms":1.5,"calls":2,"call":"np.matmul(a, b, out=c)"},{"error":"no recipe"}]}`), 2)
	require.NoError(t, err)
	assert.Equal(t, numpyReport{Numpy: "1.24.2", BLAS: "OpenBLAS", Results: []numpyResult{
		{MS: 1.5, Calls: 2, Call: "np.matmul(a, b, out=c)"}, {Error: "no recipe"},
	}}, rep)
	_, err = decodeNumpyReport([]byte(`{"results":[]}`), 1)
	assert.ErrorContains(t, err, "answered 0 results for 1 cases")
	// An extra result is refused too: it would shift the times of every
	// later shape onto the wrong row.
	_, err = decodeNumpyReport([]byte(`{"results":[{"ms":1,"calls":1},{"ms":2,"calls":1},{"ms":3,"calls":1}]}`), 2)
	assert.ErrorContains(t, err, "answered 3 results for 2 cases")
	_, err = decodeNumpyReport([]byte(`Traceback`), 1)
	assert.ErrorContains(t, err, "reading the numpy script's answer")
}

func testRows() []peerRow {
	nan := math.NaN()
	return []peerRow{
		{op: "gemm", dt: sel.Float64, shape: "ta=N tb=N m=8 n=8 k=8 batch=65536", numpyMS: 4, autoMS: 2, floorMS: 0.5,
			flops: 2 * 8 * 8 * 8 * 65536, peakGF: 67.1, kernel: "packed:kc=128", numpyCall: "np.matmul(a, b, out=c)", numpyRecipe: "matmul", numpyThreads: 2},
		{op: "potrf", dt: sel.Float32, shape: "uplo=L n=256 batch=64", numpyMS: 1234.5678, autoMS: nan, floorMS: 0.25,
			flops: 1e6, numpyCall: "np.linalg.cholesky(a)", numpyRecipe: "cholesky", why: "batchlas: BAD RESULT: matrix 0",
			numpyTried: []numpyTry{{Recipe: "cholesky", Call: "np.linalg.cholesky(a)", MS: 1234.5678, Calls: 1},
				{Recipe: "cho_factor loop", Call: "scipy.linalg.cho_factor(a_i, lower=True) per matrix", MS: 9000, Calls: 1, Screened: true}}},
	}
}

func TestPeerTableText(t *testing.T) {
	var b bytes.Buffer
	printPeerTable(&b, testRows(), false)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, strings.Fields(lines[0])[:3], []string{"op", "dtype", "shape"})
	// The ratio is numpy's time over batchlas's: 2x as fast; batchlas
	// took 4 times the floor; 2*8^3*65536 flops in 2 ms, half of a
	// 67.1 GFLOP/s peak (potrf's row has no peak).
	// numpy's time came from 2 OpenBLAS threads; potrf's row has none.
	assert.Regexp(t, `^gemm +float64 +ta=N tb=N m=8 n=8 k=8 batch=65536 +4 +2 +matmul +2 +2\.00x +33\.55 +50% +0\.5 +4\.0x +packed:kc=128$`, lines[1])
	assert.Regexp(t, `^potrf +float32 +uplo=L n=256 batch=64 +1235 +- +cholesky +- +- +- +- +0\.25 +- +-$`, lines[2])
	// Columns line up: every line is as wide as the header up to the
	// last column.
	at := strings.Index(lines[0], "batchlas kernel")
	assert.Equal(t, "packed:kc=128", lines[1][at:])

	b.Reset()
	printPeerNotes(&b, testRows(), []string{"syev ...: skipped"})
	assert.Contains(t, b.String(), "numpy gemm: matmul = np.matmul(a, b, out=c)\n")
	assert.Contains(t, b.String(), "numpy potrf: cholesky = np.linalg.cholesky(a); cho_factor loop = scipy.linalg.cho_factor(a_i, lower=True) per matrix\n")
	assert.Contains(t, b.String(), "potrf float32 uplo=L n=256 batch=64: numpy recipes: cholesky 1235 ms, cho_factor loop >9000 ms (one call: screened)\n")
	assert.Contains(t, b.String(), "potrf float32 uplo=L n=256 batch=64: batchlas: BAD RESULT: matrix 0\n")
	assert.Contains(t, b.String(), "syev ...: skipped\n")
}

func TestPeerTableMarkdown(t *testing.T) {
	var b bytes.Buffer
	printPeerTable(&b, testRows(), true)
	assert.Equal(t, ""+
		"| op | dtype | shape | numpy ms | numpy threads | numpy recipe | batchlas ms | speed vs numpy | GFLOP/s | of peak | copy floor ms | vs floor | batchlas kernel |\n"+
		"|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n"+
		"| gemm | float64 | ta=N tb=N m=8 n=8 k=8 batch=65536 | 4 | 2 | matmul | 2 | 2.00x | 33.55 | 50% | 0.5 | 4.0x | packed:kc=128 |\n"+
		"| potrf | float32 | uplo=L n=256 batch=64 | 1235 | - | cholesky | - | - | - | - | 0.25 | - | - |\n",
		b.String())
}

func TestPeerTraffic(t *testing.T) {
	cellOf := func(line string) (string, sel.DType, cell) {
		runs, _, err := resolvePeerShapes([]string{line}, bothDTypes, nil, 0)
		require.NoError(t, err)
		require.Len(t, runs, 1)
		return runs[0].name(), runs[0].dt, runs[0].c
	}
	tr, ok := peerTraffic(cellOf("gemm float64 ta=N tb=N m=8 n=8 k=8 batch=10"))
	require.True(t, ok)
	assert.Equal(t, traffic{read: 2 * 64 * 8 * 10, write: 64 * 8 * 10}, tr, "A and B read, C written")
	tr, _ = peerTraffic(cellOf("potrf float32 uplo=L n=4 batch=3"))
	assert.Equal(t, traffic{read: 16 * 4 * 3, write: 16 * 4 * 3}, tr)
	tr, _ = peerTraffic(cellOf("gesv float64 n=4 nrhs=2 batch=1"))
	assert.Equal(t, traffic{read: (16 + 8) * 8, write: (16+8)*8 + 4*4}, tr, "pivots written too")
	tr, _ = peerTraffic(cellOf("trsm float64 side=R uplo=L ta=N diag=N m=2 n=4 batch=1"))
	assert.Equal(t, traffic{read: (16 + 8) * 8, write: 8 * 8}, tr, "side R: the triangle is n by n")
	tr, _ = peerTraffic(cellOf("geqrf float64 m=4 n=2 batch=1"))
	assert.Equal(t, traffic{read: 8 * 8, write: (8 + 2) * 8}, tr, "A in place, tau written")
	tr, _ = peerTraffic(cellOf("gels float64 m=4 n=2 nrhs=3 batch=1"))
	assert.Equal(t, traffic{read: (8 + 12) * 8, write: (8 + 12) * 8}, tr)
	tr, _ = peerTraffic(cellOf("qr float64 m=4 n=2 batch=1"))
	assert.Equal(t, traffic{read: 8 * 8, write: (8 + 4) * 8}, tr, "A read, Q (4x2) and R (2x2) written")
	_, ok = peerTraffic("nosuch", sel.Float64, cell{})
	assert.False(t, ok)

	// The floor's copy moves exactly that: the bytes both read and
	// written from buffer to buffer, the rest through a cached chunk.
	f := newCopyFloor(traffic{read: 3 * floorChunk, write: floorChunk + 5})
	f.once()
	assert.Equal(t, f.src[:floorChunk], f.dst[:floorChunk])
	assert.Len(t, f.dst, floorChunk+5)
}

// fakePython writes an executable shell script standing in for the
// interpreter.
func fakePython(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "python3")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return path
}

const smallCase = "potrf float64 uplo=L n=4 batch=2"

func TestPeersWithoutNumpy(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "python3")
	noNumpy := fakePython(t, `echo "ModuleNotFoundError: No module named 'numpy'" >&2; exit 1`)
	for _, python := range []string{missing, noNumpy} {
		code, out, errs := tune("peers", "--python", python, "--case", smallCase)
		assert.Equal(t, 1, code, python)
		assert.Empty(t, out)
		assert.Contains(t, errs, "tune peers: numpy not found for "+python+": apt-get install python3-numpy python3-scipy", python)
	}
	assert.Contains(t, func() string { _, _, e := tune("peers", "--python", noNumpy, "--case", smallCase); return e }(), "No module named 'numpy'")

	// The script's own report of a failed import (exit status 3) reads
	// the same.
	scriptFails := fakePython(t, `[ "$1" = -c ] && exit 0; echo "numpy_peers.py: No module named 'numpy'" >&2; exit 3`)
	_, err := timeNumpy(context.Background(), scriptFails, "numpy_peers.py", 1, nil)
	assert.ErrorContains(t, err, "numpy not found for "+scriptFails+": apt-get install python3-numpy python3-scipy (numpy_peers.py: No module named 'numpy')")
}

// The numpy script runs with OPENBLAS_NUM_THREADS from --numpy-threads and
// without the core and cache settings, reads the cases on stdin and
// answers one result per case.
func TestTimeNumpyTalksJSON(t *testing.T) {
	t.Setenv("OPENBLAS_CORETYPE", "Haswell")
	t.Setenv("OPENBLAS_L2_SIZE", "512")
	t.Setenv("OPENBLAS_NUM_THREADS", "7")
	dir := t.TempDir()
	seen := filepath.Join(dir, "stdin.json")
	python := fakePython(t, `[ "$1" = -c ] && exit 0
cat > `+seen+`
echo '{"numpy":"9.9","blas":"threads='$OPENBLAS_NUM_THREADS' core='$OPENBLAS_CORETYPE' l2='$OPENBLAS_L2_SIZE'","results":[{"ms":0.5,"calls":3,"call":"np.linalg.cholesky(a)"}]}'`)
	runs, _, err := resolvePeerShapes([]string{smallCase}, bothDTypes, nil, 0)
	require.NoError(t, err)
	cases := []peerCase{peerCaseOf(runs[0], testSettings())}
	rep, err := timeNumpy(context.Background(), python, "numpy_peers.py", 2, cases)
	require.NoError(t, err)
	assert.Equal(t, "threads=2 core= l2=", rep.BLAS)
	assert.Equal(t, []numpyResult{{MS: 0.5, Calls: 3, Call: "np.linalg.cholesky(a)"}}, rep.Results)
	data, err := os.ReadFile(seen)
	require.NoError(t, err)
	back, err := decodePeerCases(data)
	require.NoError(t, err)
	assert.Equal(t, cases, back)
	// The script makes its sizing call steady with the Go side's constants.
	assert.Contains(t, string(data), fmt.Sprintf(`"steady_fresh":%d,"steady_max":%d`, steadyFresh, steadyMax))

	crash := fakePython(t, `[ "$1" = -c ] && exit 0; echo "Traceback (most recent call last):" >&2; echo "ValueError: boom" >&2; exit 1`)
	_, err = timeNumpy(context.Background(), crash, "numpy_peers.py", 1, cases)
	assert.ErrorContains(t, err, "numpy_peers.py: ValueError: boom")
}

// Each shape is timed with numpy right before it is timed with batchlas,
// one run of the script per shape: ratios whose two sides were timed
// minutes apart moved with the machine's speed.
func TestPeersTimesEachShapeOnBothSidesInTurn(t *testing.T) {
	log := filepath.Join(t.TempDir(), "runs")
	python := fakePython(t, `[ "$1" = -c ] && exit 0
grep -o '"op":"[a-z]*"' | tr '\n' ' ' >> `+log+`
echo >> `+log+`
echo '{"numpy":"9.9","blas":"fake","results":[{"ms":0.5,"calls":3,"call":"fake(a)","recipe":"fake"}]}'`)
	const other = "gemm float64 ta=N tb=N m=4 n=4 k=4 batch=2"
	code, out, errs := tune("peers", "--python", python, "--numpy-threads", "1", "--reps", "1", "--target", "1ms", "--case", smallCase, "--case", other)
	require.Equal(t, 0, code, errs)
	var order []string
	for _, line := range strings.Split(errs, "\n") {
		if strings.HasPrefix(line, "peers: timing ") {
			order = append(order, strings.TrimPrefix(line, "peers: timing "))
		}
	}
	assert.Equal(t, []string{
		smallCase + " with numpy...", smallCase + " with batchlas...",
		other + " with numpy...", other + " with batchlas...",
	}, order)
	runs, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "\"op\":\"potrf\" \n\"op\":\"gemm\" \n", string(runs), "one shape a run of the script")
	assert.Contains(t, out, "numpy 9.9", "the machine line has the script's facts")
}

func TestPeersUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--shapes", "some"}, `--shapes: "some": want default or all`},
		{[]string{"--shapes", "all", "--case", smallCase}, "--case and --shapes: give one"},
		{[]string{"--op", "nosuch"}, `--op: no shape of op "nosuch" in the list`},
		{[]string{"--dtype", "float16"}, `--dtype: "float16"`},
		{[]string{"--numpy-threads", "0"}, `--numpy-threads: "0": want thread counts from 1 to 4096`},
		{[]string{"--numpy-threads", "1,x"}, `--numpy-threads: "x": want thread counts from 1 to 4096`},
		{[]string{"--numpy-threads", "4097"}, `--numpy-threads: "4097": want thread counts from 1 to 4096`},
		{[]string{"--nosuch"}, "unknown flag: --nosuch (go run ./tools/tune help peers)"},
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
		{[]string{"--case", "potrf float64 uplo=L n=4"}, "missing key(s) batch"},
	} {
		code, out, errs := tune(append([]string{"peers"}, tc.args...)...)
		assert.Equal(t, 1, code, "%q", tc.args)
		assert.Empty(t, out, "%q", tc.args)
		assert.Contains(t, errs, tc.want, "%q", tc.args)
	}
}

// numpy is timed once per thread count and each shape keeps its fastest
// time, with the count that gave it; a shape that failed in one run takes
// the other's time, and one that failed in both keeps its error.
func TestFasterNumpyKeepsEachShapesBest(t *testing.T) {
	one := numpyReport{Numpy: "1.24", BLAS: "b", Results: []numpyResult{{MS: 1}, {MS: 5}, {Error: "x"}, {Error: "y"}}}
	two := numpyReport{Numpy: "1.24", BLAS: "b", Results: []numpyResult{{MS: 2}, {MS: 3}, {MS: 4}, {Error: "z"}}}
	threads := make([]int, 4)
	best := fasterNumpy(numpyReport{}, one, 1, threads)
	best = fasterNumpy(best, two, 2, threads)
	assert.Equal(t, []numpyResult{{MS: 1}, {MS: 3}, {MS: 4}, {Error: "y"}}, best.Results)
	assert.Equal(t, []int{1, 2, 2, 1}, threads)
	assert.Equal(t, numpyResult{Error: "x"}, one.Results[2], "the first report is not written")
}

func TestParseThreadList(t *testing.T) {
	for _, tc := range []struct {
		s     string
		cores int
		want  []int
	}{{"", 2, []int{1, 2}}, {"", 1, []int{1}}, {" ", 8, []int{1, 8}}, {"4", 2, []int{4}}, {"1, 2,1", 2, []int{1, 2}}} {
		got, err := parseThreadList(tc.s, tc.cores)
		require.NoError(t, err, "%q", tc.s)
		assert.Equal(t, tc.want, got, "%q cores=%d", tc.s, tc.cores)
	}
	for _, s := range []string{"0", "-1", "1,", "two"} {
		_, err := parseThreadList(s, 2)
		assert.Error(t, err, "%q", s)
	}
}

// fmaPeak runs where its loop is built and gives a finite positive rate
// on a vector width the kernels use; elsewhere it says it has none.
func TestFMAPeak(t *testing.T) {
	for _, dt := range bothDTypes {
		gf, width, ok := fmaPeak(dt, 1, 2)
		if _, _, _, built := fmaLoop(dt); !built {
			assert.False(t, ok)
			continue
		}
		require.True(t, ok)
		assert.Contains(t, []int{256, 512}, width)
		assert.Greater(t, gf, 0.0)
		assert.False(t, math.IsInf(gf, 0) || math.IsNaN(gf))
	}
}

// The numpy side's results are verified: a time is positive and finite
// from at least one call, and the reported recipe is the fastest of those
// timed in full (a screened or failed one does not count), so the table
// never shows a slower spelling than numpy's best.
func TestNumpyResultsAreVerified(t *testing.T) {
	tried := func(ts ...numpyTry) []numpyTry { return ts }
	solve := numpyTry{Recipe: "solve", Call: "np.linalg.solve(a, b)", MS: 57.6, Calls: 1}
	loop := numpyTry{Recipe: "cho_factor+cho_solve loop", Call: "...", MS: 80.1, Calls: 1}
	chol := numpyTry{Recipe: "cholesky+2 solve", Call: "...", MS: 154, Calls: 1}
	for _, tc := range []struct {
		r    numpyResult
		want string // "" for a result that must pass
	}{
		{numpyResult{MS: 57.6, Calls: 1, Recipe: "solve", Tried: tried(solve, loop, chol)}, ""},
		{numpyResult{MS: 57.6, Calls: 1, Recipe: "solve", Tried: tried(solve, numpyTry{Recipe: "x", MS: 1, Screened: true}, numpyTry{Recipe: "y", Error: "boom"})}, ""},
		{numpyResult{Error: "no recipe"}, ""},
		{numpyResult{MS: 1.5, Calls: 2}, ""}, // one recipe, no list
		{numpyResult{MS: 154, Calls: 1, Recipe: "cholesky+2 solve", Tried: tried(solve, loop, chol)}, `recipe "solve" took 57.6 ms, faster than the 154 ms reported`},
		{numpyResult{MS: 57.6, Calls: 1, Recipe: "other", Tried: tried(solve)}, `the reported recipe "other" (57.6 ms) is not among the recipes timed`},
		{numpyResult{MS: 0, Calls: 1}, "want a positive finite time"},
		{numpyResult{MS: -1, Calls: 1}, "want a positive finite time"},
		{numpyResult{MS: 1, Calls: 0}, "from at least one call"},
	} {
		err := checkNumpyResult(tc.r)
		if tc.want == "" {
			assert.NoError(t, err, "%+v", tc.r)
		} else {
			assert.ErrorContains(t, err, tc.want, "%+v", tc.r)
		}
	}
	_, err := decodeNumpyReport([]byte(`{"results":[{"ms":154,"calls":1,"recipe":"b","tried":[{"recipe":"a","ms":57.6,"calls":1},{"recipe":"b","ms":154,"calls":1}]}]}`), 1)
	assert.ErrorContains(t, err, `the numpy script's result 1: recipe "a" took 57.6 ms`)
}

// The numpy script's recipes do the op's job: on one tiny shape of every
// op and transpose/side/uplo variant, every recipe runs and agrees with
// the first (the script compares their answers), and the fastest is
// reported. Needs numpy (and scipy for the loops); skipped without.
func TestNumpyScriptRecipesAgree(t *testing.T) {
	const python = "/usr/bin/python3"
	if _, _, err := runPython(context.Background(), python, nil, nil, "-c", "import numpy"); err != nil {
		t.Skipf("no numpy for %s: %v", python, err)
	}
	root, err := moduleRoot()
	require.NoError(t, err)
	var lines []string
	for _, dt := range []string{"float64", "float32"} {
		lines = append(lines,
			"gemm "+dt+" ta=T tb=N m=3 n=4 k=5 batch=3",
			"potrf "+dt+" uplo=L n=4 batch=3",
			"trsm "+dt+" side=L uplo=U ta=T diag=N m=4 n=3 batch=3",
			"trsm "+dt+" side=R uplo=L ta=N diag=U m=3 n=4 batch=3",
			"getrf "+dt+" n=4 batch=3",
			"getrs "+dt+" trans=N n=4 nrhs=2 batch=3",
			"getrs "+dt+" trans=T n=4 nrhs=2 batch=3",
			"gesv "+dt+" n=4 nrhs=2 batch=3",
			"potrs "+dt+" uplo=U n=4 nrhs=2 batch=3",
			"posv "+dt+" uplo=L n=4 nrhs=2 batch=3",
			"syev "+dt+" jobz=V uplo=L n=4 batch=3",
			"syev "+dt+" jobz=N uplo=U n=4 batch=3",
			"geqrf "+dt+" m=5 n=3 batch=3",
			"geqrf "+dt+" m=3 n=5 batch=3",
			"qr "+dt+" m=5 n=3 batch=3",
			"qr "+dt+" m=3 n=5 batch=3",
			"gels "+dt+" m=6 n=3 nrhs=2 batch=3")
	}
	runs, notes, err := resolvePeerShapes(lines, bothDTypes, nil, 1<<30)
	require.NoError(t, err)
	require.Empty(t, notes)
	ms := measureSettings{proto: protocol{reps: 1, target: time.Microsecond}, seed: 1}
	var cases []peerCase
	for _, r := range runs {
		cases = append(cases, peerCaseOf(r, ms))
	}
	rep, err := timeNumpy(context.Background(), python, filepath.Join(root, peersScript), 1, cases)
	require.NoError(t, err) // decodeNumpyReport verified each result
	for i, res := range rep.Results {
		if rep.Scipy == "" && (runs[i].t.op.Name() == "getrf" || runs[i].t.op.Name() == "getrs") {
			continue // numpy has no LU: these need scipy
		}
		require.Empty(t, res.Error, "%s", runs[i])
		assert.NotEmpty(t, res.Recipe, "%s", runs[i])
		for _, tr := range res.Tried {
			assert.Empty(t, tr.Error, "%s: recipe %s", runs[i], tr.Recipe)
		}
	}
}

// A composite shape resolves to the first op of its chain's keys, sends
// numpy its own op word, counts its chain's flops, and is timed as one
// call of the one-call layer whose kernel column names every op's choice.
func TestPeerCompositeQR(t *testing.T) {
	for _, line := range []string{"qr float64 m=9 n=4 batch=5", "qr float32 m=3 n=7 batch=2", "qr float64 m=1 n=1 batch=1"} {
		runs, notes, err := resolvePeerShapes([]string{line}, bothDTypes, nil, 1<<30)
		require.NoError(t, err, line)
		require.Empty(t, notes, line)
		require.Len(t, runs, 1, line)
		r := runs[0]
		require.NotNil(t, r.comp, line)
		assert.Equal(t, "qr", r.name())
		assert.Equal(t, line, r.String())
		ms := measureSettings{proto: protocol{reps: 1, target: time.Microsecond}, seed: 1}
		assert.Equal(t, "qr", peerCaseOf(r, ms).Op)
		m, n, batch := r.c.num("m"), r.c.num("n"), r.c.num("batch")
		k := min(m, n)
		g, err := parseCellArgs(tuners["geqrf"].op, []string{fmt.Sprintf("m=%d", m), fmt.Sprintf("n=%d", n), fmt.Sprintf("batch=%d", batch)})
		require.NoError(t, err)
		o, err := parseCellArgs(tuners["orgqr"].op, []string{fmt.Sprintf("m=%d", m), fmt.Sprintf("n=%d", k), fmt.Sprintf("batch=%d", batch)})
		require.NoError(t, err)
		assert.Equal(t, tuners["geqrf"].flops(g)+tuners["orgqr"].flops(o), r.flops(), line)
		got, kernel, err := timeComposite(context.Background(), r, ms)
		require.NoError(t, err, line)
		assert.Greater(t, got, 0.0, line)
		assert.Regexp(t, `^geqrf:\S+\+orgqr:\S+$`, kernel, line)
	}
	_, _, err := resolvePeerShapes([]string{"qr float64 m=3 batch=2"}, bothDTypes, nil, 1<<30)
	assert.Error(t, err, "a missing key is an error, as for an op")
}
