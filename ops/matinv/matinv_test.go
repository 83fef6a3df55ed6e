package matinv

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle lanes' limit (lanesMax), the group of the small
// unrolled LU (8) and the vector widths (8 float64, 16 float32).
var orders = []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65}

// pin returns ctx with candidate c pinned for matinv.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "matinv", c.String())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every candidate of both dtypes, iterating
// Op.Candidates (never a retyped list).
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

// runs reports whether candidate c accepts order n on this machine.
func runs(c sel.Choice, n int) bool {
	return canRun(c, makeKey(n, 1), opkit.DeviceFrom(context.Background()))
}

// padded is a batch of count n x n matrices with ld = n+3 and stride =
// ld*n+5, every element outside the matrices NaN (a kernel that reads or
// writes padding shows).
func padded[T batchlas.Float](n, count int) batchlas.Batch[T] {
	ld := n + 3
	stride := ld*max(1, n) + 5
	b, err := batchlas.WrapStrided(testmat.NaNs[T](stride*count), n, n, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return b
}

// random returns count random n x n matrices (padded).
func random[T batchlas.Float](r *rand.Rand, n, count int) batchlas.Batch[T] {
	a := padded[T](n, count)
	for i := range count {
		for c := range n {
			for row := range n {
				a.Set(i, row, c, T(r.NormFloat64()))
			}
		}
	}
	return a
}

// gonumInverse is gonum's Dgetrf and Dgetri on matrix i of a (float64).
func gonumInverse(a batchlas.Batch[float64], i int) []float64 {
	n := a.Rows
	tm := make([]float64, n*n) // row-major
	for c := range n {
		for row := range n {
			tm[row*n+c] = a.At(i, row, c)
		}
	}
	ip := make([]int, n)
	impl := gonum.Implementation{}
	if !impl.Dgetrf(n, n, tm, n, ip) {
		return nil
	}
	work := make([]float64, 64*n+1)
	impl.Dgetri(n, tm, n, ip, work, len(work))
	return tm
}

// TestAgainstGonum inverts random matrices at every order with every
// candidate: A*X = I to a few n*eps*|A||X|, float64 within
// n*eps*cond of gonum's Dgetrf and Dgetri, A untouched and X's padding
// untouched; past a candidate's limit the pin is refused and nothing is
// written.
func TestAgainstGonum(t *testing.T) {
	forEachCandidate(t, againstGonum[float32], againstGonum[float64])
}

func againstGonum[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range orders {
		for _, count := range []int{1, 3, 17} {
			a := random[T](r, n, count)
			before := slices.Clone(a.Data)
			x := padded[T](n, count)
			xBefore := slices.Clone(x.Data)
			what := fmt.Sprintf("%s n=%d count=%d", c, n, count)
			if !runs(c, n) {
				_, err := BufferSize(ctx, a, x)
				require.ErrorContains(t, err, "can_run refuses", what)
				require.ErrorContains(t, Matinv(ctx, a, x, nil), "can_run refuses", what)
				testmat.SameBits(t, what+": a refused call left x", x.Data, xBefore)
				continue
			}
			require.NoError(t, Matinv(ctx, a, x, nil), what)
			testmat.SameBits(t, what+": a", a.Data, before)
			require.True(t, testmat.Untouched(x, x.Data, xBefore), "%s: padding written", what)
			for i := range count {
				require.LessOrEqual(t, testmat.InverseResidual(a, x, i), 8.0, "%s matrix %d: A*X - I ratio", what, i)
				f, ok := any(a).(batchlas.Batch[float64])
				if !ok {
					continue
				}
				want := gonumInverse(f, i)
				require.NotNil(t, want, what)
				var diff, big float64
				for cc := range n {
					for row := range n {
						diff = math.Max(diff, math.Abs(float64(x.At(i, row, cc))-want[row*n+cc]))
						big = math.Max(big, math.Abs(want[row*n+cc]))
					}
				}
				require.LessOrEqual(t, diff, 1e-10*big*float64(n), "%s matrix %d: differs from gonum by %g", what, i, diff)
			}
		}
	}
}

// TestSingular: a matrix whose column j is zero (after columns that are
// not) has a zero pivot at j: info j+1, X_i NaN everywhere, whatever the
// kernel; one with a NaN gets getrf's info and a NaN X_i; the others are
// inverted as alone.
func TestSingular(t *testing.T) {
	forEachCandidate(t, singularCase[float32], singularCase[float64])
}

func singularCase[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 8, 9, 17, 33} {
		if !runs(c, n) {
			continue // refused: TestAgainstGonum
		}
		for _, bad := range []float64{0, math.NaN(), math.Inf(1)} {
			for _, j := range slices.Compact([]int{0, n / 2, n - 1}) {
				const count = 11
				a := random[T](r, n, count)
				for row := range n {
					if bad == 0 {
						a.Set(4, row, j, 0)
					} else if row == j {
						a.Set(4, row, j, T(bad))
					}
				}
				// The factor's own info for the broken matrix.
				lu := testmat.Clone(a)
				err := getrf.Getrf(context.Background(), lu, batchlas.NewVectors[int32](n, count), nil)
				wantInfo, ok := testmat.Infos(err, count)
				require.True(t, ok, "%v", err)
				what := fmt.Sprintf("%s n=%d %v at column %d", c, n, bad, j)
				if bad == 0 {
					require.Equal(t, j+1, wantInfo[4], what)
				}
				x := padded[T](n, count)
				for i := range count {
					for cc := range n {
						for row := range n {
							x.Set(i, row, cc, 7) // not NaN: the call must write NaN
						}
					}
				}
				err = Matinv(ctx, a, x, nil)
				info, ok := testmat.Infos(err, count)
				require.True(t, ok, "%s: %v", what, err)
				require.Equal(t, wantInfo, info, what)
				if wantInfo[4] == 0 {
					continue // an infinity that factors: propagated by IEEE
				}
				var ne *batchlas.NumericalError
				require.True(t, errors.As(err, &ne), what)
				require.Equal(t, "matinv", ne.Op, what)
				for cc := range n {
					for row := range n {
						require.True(t, math.IsNaN(float64(x.At(4, row, cc))), "%s: X(%d,%d) of the singular matrix is %v", what, row, cc, x.At(4, row, cc))
					}
				}
				// The others are as the same call with the broken matrix
				// mended gives them.
				mended := testmat.Clone(a)
				for cc := range n {
					for row := range n {
						mended.Set(4, row, cc, 0)
					}
					mended.Set(4, cc, cc, 1)
				}
				want := padded[T](n, count)
				require.NoError(t, Matinv(ctx, mended, want, nil))
				for _, i := range []int{0, 3, 5, count - 1} {
					require.Equal(t, -1, testmat.SameMatrices(matrixOf(want, i), matrixOf(x, i), 0, 1), "%s: matrix %d", what, i)
				}
			}
		}
	}
}

// matrixOf is matrix i of b as a batch of one.
func matrixOf[T batchlas.Float](b batchlas.Batch[T], i int) batchlas.Batch[T] {
	o, err := batchlas.WrapStrided(b.Data[i*b.Stride:i*b.Stride+(b.Cols-1)*b.LD+b.Rows], b.Rows, b.Cols, b.LD, b.Stride, 1)
	if err != nil {
		panic(err)
	}
	return o
}

// TestBroadcast: one matrix broadcast over the batch gives every X_i its
// inverse, bit for bit the call on the one matrix alone.
func TestBroadcast(t *testing.T) {
	forEachCandidate(t, broadcast[float32], broadcast[float64])
}

func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 8, 20} {
		if !runs(c, n) {
			continue
		}
		one := random[T](r, n, 1)
		want := padded[T](n, 1)
		require.NoError(t, Matinv(ctx, one, want, nil))
		const count = 19
		x := padded[T](n, count)
		require.NoError(t, Matinv(ctx, batchlas.Broadcast(one, count), x, nil))
		// One decision for the batch: every X_i the same bits. The
		// call on the one matrix alone may decide otherwise (chain's ops
		// pick kernels by the batch count), so it agrees to rounding.
		for i := range count {
			require.Equal(t, -1, testmat.SameMatrices(matrixOf(x, i), matrixOf(x, 0), 0, 1), "%s n=%d matrix %d", c, n, i)
		}
		for k := range n {
			for row := range n {
				got, w := float64(x.At(0, row, k)), float64(want.At(0, row, k))
				require.InDelta(t, w, got, 1e3*testmat.Eps[T]()*(1+math.Abs(w)), "%s n=%d (%d,%d)", c, n, row, k)
			}
		}
	}
}

// TestArguments: every refusal names matinv and the argument, and writes
// nothing; an empty call makes no decision.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "matinv", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	const count = 20
	a := random[float64](r, 4, count)
	x := padded[float64](4, count)
	before := slices.Clone(x.Data)
	argErr(Matinv(ctx, batchlas.NewBatch[float64](4, 3, count), x, nil), "a")
	argErr(Matinv(ctx, a, batchlas.NewBatch[float64](4, 3, count), nil), "x")
	argErr(Matinv(ctx, a, batchlas.NewBatch[float64](5, 5, count), nil), "x")
	argErr(Matinv(ctx, a, batchlas.NewBatch[float64](4, 4, count-1), nil), "x")
	argErr(Matinv(ctx, a, batchlas.Broadcast(matrixOf(x, 0), count), nil), "x")
	argErr(Matinv(ctx, a, a, nil), "x")
	argErr(Matinv(batchlas.WithConditionCheck(ctx, -1), a, x, nil), "ctx")
	for _, c := range Op.Candidates(sel.Float64) {
		size, err := BufferSize(pin(c), a, x)
		require.NoError(t, err)
		require.Positive(t, size, "%s", c)
		argErr(Matinv(pin(c), a, x, make([]float64, size-1)), "ws")
		// A workspace sharing an element with x is refused, so is one
		// sharing one with a.
		for _, inA := range []bool{false, true} {
			store := make([]float64, size+len(x.Data))
			w, err := batchlas.WrapStrided(store[size-1:], 4, 4, x.LD, x.Stride, count)
			require.NoError(t, err)
			aa, xx := a, w
			if inA {
				copy(w.Data, a.Data)
				aa, xx = w, x
			}
			argErr(Matinv(pin(c), aa, xx, store[:size]), "ws")
		}
	}
	testmat.SameBits(t, "a refused call's x", x.Data, before)
	// An empty batch or order 0 makes no decision.
	nopin := sel.WithPin(ctx, "matinv", "nosuch")
	require.NoError(t, Matinv(nopin, batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](4, 4, 0), nil))
	require.NoError(t, Matinv(nopin, batchlas.NewBatch[float64](0, 0, 3), batchlas.NewBatch[float64](0, 0, 3), nil))
	size, err := BufferSize(nopin, batchlas.NewBatch[float64](0, 0, 3), batchlas.NewBatch[float64](0, 0, 3))
	require.NoError(t, err)
	require.Zero(t, size)
	require.Error(t, Matinv(nopin, a, x, nil))
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{3, 12, 40} {
		if !runs(c, n) {
			continue
		}
		a := random[T](r, n, 45)
		one, all := padded[T](n, 45), padded[T](n, 45)
		require.NoError(t, Matinv(batchlas.WithParallelism(ctx, 1), a, one, nil))
		require.NoError(t, Matinv(ctx, a, all, nil))
		require.Equal(t, -1, testmat.SameMatrices(one, all, 0, a.Count), "%s n=%d", c, n)
	}
}

// TestNoAllocationsWithWorkspace: with the BufferSize workspace every
// candidate's call allocates nothing, on one worker and on all.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, w := range []int{1, 0} {
		ctx := ctx
		if w > 0 {
			ctx = batchlas.WithParallelism(ctx, w)
		}
		for _, n := range []int{1, 9, 33} {
			if !runs(c, n) {
				continue
			}
			a := random[T](r, n, 16)
			x := padded[T](n, 16)
			size, err := BufferSize(ctx, a, x)
			require.NoError(t, err)
			ws := make([]T, size)
			// One call first: the recycled buffers (info, pivots) exist.
			require.NoError(t, Matinv(ctx, a, x, ws))
			testmat.NoAllocs(t, fmt.Sprintf("%s n=%d workers=%d", c, n, w), func() {
				if err := Matinv(ctx, a, x, ws); err != nil {
					panic(err)
				}
			})
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: a
// *batchlas.InterruptedError naming matinv whose completed inverses are
// bit for bit an uninterrupted call's and whose X_i from Touched on are
// untouched; lanes writes nothing past the completed ones (Touched ==
// Completed).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(13, 14))
	const count = 300
	a := random[T](r, 5, count)
	x0 := padded[T](5, count)
	call := func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(x0)
		return x, Matinv(ctx, a, x, nil)
	}
	if c.Family() == lanesFamily {
		testmat.InterruptEverywhere(t, c.String(), "matinv", x0, ctx, call)
		return
	}
	testmat.InterruptEverywhereTouched(t, c.String(), "matinv", x0, ctx, call)
}

// TestConditionCheck: with batchlas.WithConditionCheck an exactly
// rank-deficient matrix is reported, singular (info <= n, X_i NaN) or
// ill-conditioned (info n+1, X_i written), and no matrix of condition
// number up to 1e8 is; without it the ill-conditioned ones pass.
func TestConditionCheck(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		for _, n := range []int{4, 16} {
			r := testmat.Rand(21)
			ms := testmat.RankDeficient(r, n, 40)
			for range 40 {
				ms = append(ms, testmat.WithCond(r, n, 1e8))
			}
			a := testmat.BatchOf[float64](ms, n)
			x := batchlas.NewBatch[float64](n, n, a.Count)
			err := Matinv(batchlas.WithConditionCheck(pin(c), 0), a, x, nil)
			info, ok := testmat.Infos(err, a.Count)
			require.True(t, ok, "%v", err)
			for i, v := range info {
				if i < 40 {
					require.NotZero(t, v, "%s n=%d rank-deficient matrix %d not reported", c, n, i)
				} else {
					require.Zero(t, v, "%s n=%d matrix %d of cond 1e8 reported (info %d)", c, n, i, v)
				}
				if v == n+1 {
					require.False(t, math.IsNaN(x.At(i, 0, 0)), "%s: an ill-conditioned inverse is written", c)
				}
			}
			err = Matinv(pin(c), a, x, nil)
			plain, _ := testmat.Infos(err, a.Count)
			require.NotContains(t, plain, n+1, "%s: info n+1 without the check", c)

			// rcond is the norms' product's reciprocal, so scaling A
			// changes nothing: cond 1e3 passes a threshold of 1e-5 at any
			// scale, cond 1e7 fails it.
			var scaled [][]float64
			for _, cond := range []float64{1e3, 1e7} {
				for _, s := range []float64{1e-10, 1, 1e10} {
					m := testmat.WithCond(r, n, cond)
					for k := range m {
						m[k] *= s
					}
					scaled = append(scaled, m)
				}
			}
			b := testmat.BatchOf[float64](scaled, n)
			err = Matinv(batchlas.WithConditionCheck(pin(c), 1e-5), b, batchlas.NewBatch[float64](n, n, b.Count), nil)
			info, ok = testmat.Infos(err, b.Count)
			require.True(t, ok, "%v", err)
			require.Equal(t, []int{0, 0, 0, n + 1, n + 1, n + 1}, info, "%s n=%d", c, n)
		}
	}
}
