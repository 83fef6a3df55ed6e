package geqrf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for geqrf.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "geqrf", c.String())
}

// runs reports whether candidate c can run on a (its can_run).
func runs[T batchlas.Float](c sel.Choice, a batchlas.Batch[T]) bool {
	return Op.CanRun(c, makeKey(a), batchlas.Host())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(c), c) })
		}
	}
}

var sizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100}

// padded is a batch of count m x n random matrices with ld = m+3 and
// stride = ld*n+5, every element outside the matrices NaN.
func padded[T batchlas.Float](r *rand.Rand, m, n, count int) batchlas.Batch[T] {
	ld := m + 3
	stride := ld*max(1, n) + 5
	data := make([]T, stride*count)
	for i := range data {
		data[i] = T(math.NaN())
	}
	a, err := batchlas.WrapStrided(data, m, n, ld, stride, count)
	if err != nil {
		panic(err)
	}
	for i := 0; i < count; i++ {
		for c := 0; c < n; c++ {
			for row := 0; row < m; row++ {
				a.Set(i, row, c, T(r.NormFloat64()))
			}
		}
	}
	return a
}

// tauFor is count vectors of max(1, min(m, n))+2 entries, NaN.
func tauFor[T batchlas.Float](m, n, count int) batchlas.Vectors[T] {
	v := batchlas.NewVectors[T](max(1, min(m, n))+2, count)
	for i := range v.Data {
		v.Data[i] = T(math.NaN())
	}
	return v
}

// checkFactors checks every matrix of got (with tau) against a0: by the
// residuals in float64 and, for float64, against gonum's Dgeqrf on the
// same matrix; tau's unused entries and a's padding untouched.
func checkFactors[T batchlas.Float](t *testing.T, what string, a0, got batchlas.Batch[T], tau batchlas.Vectors[T]) {
	checkFactorsBut(t, what, a0, got, tau, -1)
}

// checkFactorsBut is checkFactors on every matrix but skip's.
func checkFactorsBut[T batchlas.Float](t *testing.T, what string, a0, got batchlas.Batch[T], tau batchlas.Vectors[T], skip int) {
	t.Helper()
	m, n := a0.Rows, a0.Cols
	k := min(m, n)
	require.True(t, testmat.Untouched(got, got.Data, a0.Data), "%s: wrote padding", what)
	impl := gonum.Implementation{}
	_, is64 := any(a0.Data).([]float64)
	for i := 0; i < a0.Count; i++ {
		if i == skip {
			continue
		}
		tv := make([]float64, k)
		for j := range tv {
			tv[j] = float64(tau.At(i, j))
		}
		for j := k; j < tau.Len; j++ {
			require.True(t, math.IsNaN(float64(tau.At(i, j))), "%s: wrote tau[%d] past min(m,n)", what, j)
		}
		orig, f := trial.DenseOf(a0, i), trial.DenseOf(got, i)
		require.NoError(t, trial.CheckQRFactor(fmt.Sprintf("%s matrix %d", what, i), orig, f, tv, testmat.Eps[T]()))
		if !is64 {
			continue
		}
		rm := make([]float64, m*n)
		for r := 0; r < m; r++ {
			for c := 0; c < n; c++ {
				rm[r*n+c] = orig.At(r, c)
			}
		}
		wt := make([]float64, k)
		work := make([]float64, max(1, n)*64)
		impl.Dgeqrf(m, n, rm, max(1, n), wt, work, len(work))
		for r := 0; r < m; r++ {
			for c := 0; c < n; c++ {
				if d := math.Abs(f.At(r, c) - rm[r*n+c]); !(d <= 1e-11*float64(m+n)) {
					t.Fatalf("%s matrix %d: F(%d,%d) = %v, gonum %v", what, i, r, c, f.At(r, c), rm[r*n+c])
				}
			}
		}
		for j := range wt {
			require.True(t, math.Abs(tv[j]-wt[j]) <= 1e-11*float64(m+1), "%s matrix %d: tau[%d] = %v, gonum %v", what, i, j, tv[j], wt[j])
		}
	}
}

// TestAgainstGonumAndResiduals: every candidate on tall, square and wide
// shapes straddling the panel widths, padded with NaN, with and without
// the BufferSize workspace (NaN-filled).
func TestAgainstGonumAndResiduals(t *testing.T) {
	forEachCandidate(t, conform[float32], conform[float64])
}

func conform[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, uint64(len(c.String()))))
	for _, m := range sizes {
		for _, n := range sizes {
			count := 3
			if m*n > 2000 {
				count = 1
			}
			a0 := padded[T](r, m, n, count)
			if !runs(c, a0) && !a0.Empty() {
				// Past its limits (lanes: lanesMax) the pin is refused, by
				// BufferSize and by the call, which writes nothing.
				a, tau := testmat.Clone(a0), tauFor[T](m, n, count)
				_, err := BufferSize(ctx, a, tau)
				require.ErrorContains(t, err, "can_run refuses")
				require.ErrorContains(t, Geqrf(ctx, a, tau, nil), "can_run refuses")
				testmat.SameBits(t, fmt.Sprintf("%s m=%d n=%d: a refused call left a", c, m, n), a.Data, a0.Data)
				continue
			}
			for _, withWS := range []bool{false, true} {
				a := testmat.Clone(a0)
				tau := tauFor[T](m, n, count)
				var ws []T
				if withWS {
					size, err := BufferSize(ctx, a, tau)
					require.NoError(t, err)
					ws = testmat.NaNs[T](size)
				}
				what := fmt.Sprintf("%s m=%d n=%d ws=%v", c, m, n, withWS)
				require.NoError(t, Geqrf(ctx, a, tau, ws), what)
				checkFactors(t, what, a0, a, tau)
			}
		}
	}
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range [][2]int{{40, 33}, {9, 17}, {64, 64}} {
		a0 := padded[T](r, sh[0], sh[1], 37)
		var res [][]T
		for _, w := range []int{1, 2, 3} {
			a := testmat.Clone(a0)
			tau := tauFor[T](sh[0], sh[1], a.Count)
			require.NoError(t, Geqrf(batchlas.WithParallelism(ctx, w), a, tau, nil))
			res = append(res, append(append([]T(nil), a.Data...), tau.Data...))
		}
		for _, x := range res[1:] {
			for i := range x {
				if !(x[i] == res[0][i] || (x[i] != x[i] && res[0][i] != res[0][i])) {
					t.Fatalf("%s %v: element %d depends on the worker count", c, sh, i)
				}
			}
		}
	}
}

// TestNonFinite: NaN or Inf in a matrix never panics nor hangs; that
// matrix's results carry NaN and the others are factored as alone.
func TestNonFinite(t *testing.T) {
	forEachCandidate(t, nonFinite[float32], nonFinite[float64])
}

func nonFinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][2]int{{1, 1}, {5, 3}, {40, 40}, {3, 20}} {
		m, n := sh[0], sh[1]
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			a0 := padded[T](r, m, n, 3)
			a0.Set(1, m/2, n/2, T(bad))
			a := testmat.Clone(a0)
			tau := tauFor[T](m, n, 3)
			require.NoError(t, Geqrf(ctx, a, tau, nil))
			what := fmt.Sprintf("%s %dx%d %v", c, m, n, bad)
			checkFactorsBut(t, what, a0, a, tau, 1)
			hasNaN := false
			for col := 0; col < n; col++ {
				for row := 0; row < m; row++ {
					hasNaN = hasNaN || math.IsNaN(float64(a.At(1, row, col)))
				}
			}
			if m > 1 || !math.IsNaN(bad) {
				// a 1 x n matrix is R itself: an Inf stays Inf.
				require.True(t, hasNaN || m == 1, "%s: no NaN in the bad matrix", what)
			}
		}
	}
}

// TestArguments: bad arguments are *ArgErrors naming geqrf and the
// argument; empty batches return early without a decision (a bad pin is
// no error).
func TestArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewBatch[float64](4, 3, 2)
	tau := batchlas.NewVectors[float64](3, 2)
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "geqrf", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	argErr(Geqrf(ctx, a, batchlas.NewVectors[float64](2, 2), nil), "tau")
	argErr(Geqrf(ctx, a, batchlas.NewVectors[float64](3, 1), nil), "tau")
	argErr(Geqrf(ctx, batchlas.Broadcast(batchlas.NewBatch[float64](4, 3, 1), 2), tau, nil), "a")
	argErr(Geqrf(ctx, a, batchlas.BroadcastVectors(batchlas.NewVectors[float64](3, 1), 2), nil), "tau")
	// tau inside a's storage.
	shared, err := batchlas.WrapStridedVectors(a.Data, 3, 12, 2)
	require.NoError(t, err)
	argErr(Geqrf(ctx, a, shared, nil), "tau")
	// workspace too short, or inside a.
	bad := sel.WithPin(ctx, "geqrf", "blocked:nb=16")
	size, err := BufferSize(bad, a, tau)
	require.NoError(t, err)
	require.Positive(t, size)
	argErr(Geqrf(bad, a, tau, make([]float64, size-1)), "ws")
	big := batchlas.NewBatch[float64](4, 3, 200)
	small := big
	small.Count = 2
	argErr(Geqrf(bad, small, tau, big.Data[small.Stride*2:][:0:0]), "ws")
	argErr(Geqrf(bad, small, tau, big.Data[:size]), "ws")
	_, err = BufferSize(ctx, a, batchlas.NewVectors[float64](1, 2))
	argErr(err, "tau")
	// Empty batches: no decision, so a bad pin is no error.
	nopin := sel.WithPin(ctx, "geqrf", "nosuch")
	for _, sh := range [][3]int{{0, 3, 2}, {4, 0, 2}, {4, 3, 0}} {
		e := batchlas.NewBatch[float64](sh[0], sh[1], sh[2])
		et := batchlas.NewVectors[float64](min(sh[0], sh[1]), sh[2])
		require.NoError(t, Geqrf(nopin, e, et, nil), "%v", sh)
		n, err := BufferSize(nopin, e, et)
		require.NoError(t, err)
		require.Zero(t, n)
	}
	require.Error(t, Geqrf(nopin, a, tau, nil))
}

// TestNoAllocationsWithWorkspace: with the BufferSize workspace every
// candidate's call allocates nothing, on one worker and on all.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, w := range []int{1, 0} {
		ctx := ctx
		if w > 0 {
			ctx = batchlas.WithParallelism(ctx, w)
		}
		for _, sh := range [][3]int{{1, 1, 1}, {20, 7, 64}, {7, 20, 64}, {70, 70, 4}} {
			a := padded[T](r, sh[0], sh[1], sh[2])
			if !runs(c, a) {
				continue
			}
			orig := append([]T(nil), a.Data...)
			tau := tauFor[T](sh[0], sh[1], sh[2])
			size, err := BufferSize(ctx, a, tau)
			require.NoError(t, err)
			ws := make([]T, size)
			testmat.NoAllocs(t, fmt.Sprintf("%s %v workers=%d", c, sh, w), func() {
				copy(a.Data, orig)
				if err := Geqrf(ctx, a, tau, ws); err != nil {
					panic(err)
				}
			})
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: the
// call returns a *batchlas.InterruptedError naming geqrf; the matrices
// and tau vectors it reports completed are bit for bit those of an
// uninterrupted call, every later one untouched (Touched == Completed).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(21)
	for _, tc := range []struct{ m, n, count int }{{8, 8, 1000}, {40, 20, 100}, {20, 40, 100}} {
		a0 := padded[T](r, tc.m, tc.n, tc.count)
		what := fmt.Sprintf("%s %dx%d count=%d", c, tc.m, tc.n, tc.count)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], batchlas.Vectors[T], error) {
			a := testmat.Clone(a0)
			tau := tauFor[T](tc.m, tc.n, tc.count)
			return a, tau, Geqrf(testmat.WithValues(stop, ctx), a, tau, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, refTau, err := call(counter)
		require.NoError(t, err, what)
		total := counter.Calls()
		blank := tauFor[T](tc.m, tc.n, tc.count)
		for _, n := range testmat.StopPoints(total, 100) {
			got, tau, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted("geqrf", tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, a0.Data), "%s n=%d: wrote padding", what, n)
			if ie == nil {
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, tc.count), what)
				continue
			}
			require.Equal(t, ie.Completed, ie.Touched, "%s n=%d", what, n)
			if n == 0 {
				require.Zero(t, ie.Touched, what)
			}
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, a0, ie.Touched, tc.count), "%s n=%d: an untouched matrix changed", what, n)
			for i := 0; i < tc.count; i++ {
				want := refTau.Vector(i)
				if i >= ie.Completed {
					want = blank.Vector(i)
				}
				for j := range want {
					x, y := tau.At(i, j), want[j]
					require.True(t, x == y || (x != x && y != y), "%s n=%d: tau of matrix %d", what, n, i)
				}
			}
		}
	}
}
