package poinv

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
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle lanes' limit (lanesMax) and the vector widths (8
// float64, 16 float32).
var orders = []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 128, 129}

// uplos are both triangles.
var uplos = []batchlas.Uplo{batchlas.Lower, batchlas.Upper}

// pin returns ctx with candidate c pinned for matinv.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "poinv", c.String())
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
	return canRun(c, makeKey(batchlas.Lower, n, 1), opkit.DeviceFrom(context.Background()))
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

// spd returns count random symmetric positive definite n x n matrices
// (padded) with the triangle opposite uplo NaN, as poinv must not read
// it, and the whole matrices.
func spd[T batchlas.Float](r *rand.Rand, uplo batchlas.Uplo, n, count int) (a, full batchlas.Batch[T]) {
	a, full = padded[T](n, count), padded[T](n, count)
	b := make([]float64, n*n)
	for i := range count {
		for k := range b {
			b[k] = r.NormFloat64()
		}
		for c := range n {
			for row := range n {
				var s float64
				for k := range n {
					s += b[row+k*n] * b[c+k*n]
				}
				if row == c {
					s += float64(n)
				}
				full.Set(i, row, c, T(s))
				if row == c || (row > c) == (uplo == batchlas.Lower) {
					a.Set(i, row, c, T(s))
				}
			}
		}
	}
	return a, full
}

// gonumInverse is gonum's Dpotrf and Dpotri on matrix i of the
// symmetric full (float64), mirrored whole.
func gonumInverse(full batchlas.Batch[float64], i int) []float64 {
	n := full.Rows
	tm := make([]float64, n*n) // row-major
	for c := range n {
		for row := range n {
			tm[row*n+c] = full.At(i, row, c)
		}
	}
	impl := gonum.Implementation{}
	if !impl.Dpotrf(blas.Lower, n, tm, n) || !impl.Dpotri(blas.Lower, n, tm, n) {
		return nil
	}
	for row := range n {
		for c := row + 1; c < n; c++ {
			tm[row*n+c] = tm[c*n+row]
		}
	}
	return tm
}

// TestAgainstGonum inverts random SPD matrices at every order and both
// triangles with every candidate: X symmetric, A*X = I to a few
// n*eps*|A||X|, float64 within n*eps*cond of gonum's Dpotrf and Dpotri,
// A untouched (its other triangle NaN: never read) and X's padding
// untouched; past a candidate's limit the pin is refused and nothing is
// written.
func TestAgainstGonum(t *testing.T) {
	forEachCandidate(t, againstGonum[float32], againstGonum[float64])
}

func againstGonum[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, uplo := range uplos {
		for _, n := range orders {
			for _, count := range []int{1, 3, 17} {
				a, full := spd[T](r, uplo, n, count)
				before := slices.Clone(a.Data)
				x := padded[T](n, count)
				xBefore := slices.Clone(x.Data)
				what := fmt.Sprintf("%s %s n=%d count=%d", c, uplo, n, count)
				if !runs(c, n) {
					_, err := BufferSize(ctx, uplo, a, x)
					require.ErrorContains(t, err, "can_run refuses", what)
					require.ErrorContains(t, Poinv(ctx, uplo, a, x, nil), "can_run refuses", what)
					testmat.SameBits(t, what+": a refused call left x", x.Data, xBefore)
					continue
				}
				require.NoError(t, Poinv(ctx, uplo, a, x, nil), what)
				testmat.SameBits(t, what+": a", a.Data, before)
				require.True(t, testmat.Untouched(x, x.Data, xBefore), "%s: padding written", what)
				for i := range count {
					for cc := range n {
						for row := range cc {
							if u, l := x.At(i, row, cc), x.At(i, cc, row); u != l {
								t.Fatalf("%s matrix %d: X not symmetric at (%d,%d): %v above, %v below", what, i, row, cc, u, l)
							}
						}
					}
					require.LessOrEqual(t, testmat.InverseResidual(full, x, i), 8.0, "%s matrix %d: A*X - I ratio", what, i)
					f, ok := any(full).(batchlas.Batch[float64])
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
}

// TestNotPositiveDefinite: a matrix with a negative or NaN diagonal entry
// at j (after a positive definite leading block) fails with info j+1,
// potrf's, whatever the kernel; its X_i is NaN everywhere; the others
// are as the same call with the broken matrix mended gives them.
func TestNotPositiveDefinite(t *testing.T) {
	forEachCandidate(t, notPositiveDefinite[float32], notPositiveDefinite[float64])
}

func notPositiveDefinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, uplo := range uplos {
		for _, n := range []int{1, 2, 3, 8, 9, 17, 33, 65, 129} {
			if !runs(c, n) {
				continue // refused: TestAgainstGonum
			}
			for _, bad := range []float64{-1e6, math.NaN()} {
				for _, j := range slices.Compact([]int{0, n / 2, n - 1}) {
					const count = 11
					a, _ := spd[T](r, uplo, n, count)
					a.Set(4, j, j, T(bad))
					what := fmt.Sprintf("%s %s n=%d %v at %d", c, uplo, n, bad, j)
					// potrf's own info for the broken matrix.
					f := testmat.Clone(a)
					err := potrf.Potrf(context.Background(), uplo, f, nil)
					wantInfo, ok := testmat.Infos(err, count)
					require.True(t, ok, "%v", err)
					require.Equal(t, j+1, wantInfo[4], what)
					x := padded[T](n, count)
					for i := range count {
						for cc := range n {
							for row := range n {
								x.Set(i, row, cc, 7) // not NaN: the call must write NaN
							}
						}
					}
					err = Poinv(ctx, uplo, a, x, nil)
					info, ok := testmat.Infos(err, count)
					require.True(t, ok, "%s: %v", what, err)
					require.Equal(t, wantInfo, info, what)
					var ne *batchlas.NumericalError
					require.True(t, errors.As(err, &ne), what)
					require.Equal(t, "poinv", ne.Op, what)
					for cc := range n {
						for row := range n {
							require.True(t, math.IsNaN(float64(x.At(4, row, cc))), "%s: X(%d,%d) of the failed matrix is %v", what, row, cc, x.At(4, row, cc))
						}
					}
					mended := testmat.Clone(a)
					for cc := range n {
						for row := range n {
							mended.Set(4, row, cc, 0)
						}
						mended.Set(4, cc, cc, 1)
					}
					want := padded[T](n, count)
					require.NoError(t, Poinv(ctx, uplo, mended, want, nil))
					for _, i := range []int{0, 3, 5, count - 1} {
						require.Equal(t, -1, testmat.SameMatrices(matrixOf(want, i), matrixOf(x, i), 0, 1), "%s: matrix %d", what, i)
					}
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

// TestBroadcast: one matrix broadcast over the batch gives every X_i the
// same bits, and the inverse the call on the matrix alone gives, to
// rounding (chain's ops pick kernels by the batch count).
func TestBroadcast(t *testing.T) {
	forEachCandidate(t, broadcast[float32], broadcast[float64])
}

func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 8, 20} {
		if !runs(c, n) {
			continue
		}
		one, _ := spd[T](r, batchlas.Lower, n, 1)
		want := padded[T](n, 1)
		require.NoError(t, Poinv(ctx, batchlas.Lower, one, want, nil))
		const count = 19
		x := padded[T](n, count)
		require.NoError(t, Poinv(ctx, batchlas.Lower, batchlas.Broadcast(one, count), x, nil))
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

// TestArguments: every refusal names poinv and the argument, and writes
// nothing; an empty call makes no decision.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "poinv", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	const count = 20
	lo := batchlas.Lower
	a, _ := spd[float64](r, lo, 4, count)
	x := padded[float64](4, count)
	before := slices.Clone(x.Data)
	argErr(Poinv(ctx, batchlas.Uplo('X'), a, x, nil), "uplo")
	argErr(Poinv(ctx, lo, batchlas.NewBatch[float64](4, 3, count), x, nil), "a")
	argErr(Poinv(ctx, lo, a, batchlas.NewBatch[float64](4, 3, count), nil), "x")
	argErr(Poinv(ctx, lo, a, batchlas.NewBatch[float64](5, 5, count), nil), "x")
	argErr(Poinv(ctx, lo, a, batchlas.NewBatch[float64](4, 4, count-1), nil), "x")
	argErr(Poinv(ctx, lo, a, batchlas.Broadcast(matrixOf(x, 0), count), nil), "x")
	argErr(Poinv(ctx, lo, a, a, nil), "x")
	argErr(Poinv(batchlas.WithConditionCheck(ctx, -1), lo, a, x, nil), "ctx")
	for _, c := range Op.Candidates(sel.Float64) {
		size, err := BufferSize(pin(c), lo, a, x)
		require.NoError(t, err)
		if size == 0 {
			continue // nothing to refuse
		}
		argErr(Poinv(pin(c), lo, a, x, make([]float64, size-1)), "ws")
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
			argErr(Poinv(pin(c), lo, aa, xx, store[:size]), "ws")
		}
	}
	testmat.SameBits(t, "a refused call's x", x.Data, before)
	// An empty batch or order 0 makes no decision.
	nopin := sel.WithPin(ctx, "poinv", "nosuch")
	require.NoError(t, Poinv(nopin, lo, batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](4, 4, 0), nil))
	require.NoError(t, Poinv(nopin, lo, batchlas.NewBatch[float64](0, 0, 3), batchlas.NewBatch[float64](0, 0, 3), nil))
	size, err := BufferSize(nopin, lo, batchlas.NewBatch[float64](0, 0, 3), batchlas.NewBatch[float64](0, 0, 3))
	require.NoError(t, err)
	require.Zero(t, size)
	require.Error(t, Poinv(nopin, lo, a, x, nil))
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, uplo := range uplos {
		for _, n := range []int{3, 12, 40, 70, 130} {
			if !runs(c, n) {
				continue
			}
			a, _ := spd[T](r, uplo, n, 45)
			one, all := padded[T](n, 45), padded[T](n, 45)
			require.NoError(t, Poinv(batchlas.WithParallelism(ctx, 1), uplo, a, one, nil))
			require.NoError(t, Poinv(ctx, uplo, a, all, nil))
			require.Equal(t, -1, testmat.SameMatrices(one, all, 0, a.Count), "%s %s n=%d", c, uplo, n)
		}
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
		for _, n := range []int{1, 9, 33, 65, 129} {
			if !runs(c, n) {
				continue
			}
			a, _ := spd[T](r, batchlas.Upper, n, 16)
			x := padded[T](n, 16)
			size, err := BufferSize(ctx, batchlas.Upper, a, x)
			require.NoError(t, err)
			ws := make([]T, size)
			// One call first: the recycled buffers exist.
			require.NoError(t, Poinv(ctx, batchlas.Upper, a, x, ws))
			testmat.NoAllocs(t, fmt.Sprintf("%s n=%d workers=%d", c, n, w), func() {
				if err := Poinv(ctx, batchlas.Upper, a, x, ws); err != nil {
					panic(err)
				}
			})
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: a
// *batchlas.InterruptedError naming poinv whose completed inverses are
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
	a, _ := spd[T](r, batchlas.Lower, 5, count)
	x0 := padded[T](5, count)
	call := func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(x0)
		return x, Poinv(ctx, batchlas.Lower, a, x, nil)
	}
	if c.Family() == lanesFamily {
		testmat.InterruptEverywhere(t, c.String(), "poinv", x0, ctx, call)
		return
	}
	testmat.InterruptEverywhereTouched(t, c.String(), "poinv", x0, ctx, call)
}

// TestConditionCheck: with batchlas.WithConditionCheck the exact rcond
// 1/(||A||_1 ||X||_1) decides: SPD matrices of condition number 1e3 pass
// a threshold of 1e-5 at any scale, 1e7 fail it with info n+1 and their
// X_i written; without the check nothing is listed.
func TestConditionCheck(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		for _, uplo := range uplos {
			for _, n := range []int{4, 16} {
				r := testmat.Rand(21)
				var ms [][]float64
				for _, cond := range []float64{1e3, 1e7} {
					for _, s := range []float64{1e-10, 1, 1e10} {
						m := testmat.SPDWithCond(r, n, cond)
						for k := range m {
							m[k] *= s
						}
						ms = append(ms, m)
					}
				}
				a := testmat.BatchOf[float64](ms, n)
				x := batchlas.NewBatch[float64](n, n, a.Count)
				err := Poinv(batchlas.WithConditionCheck(pin(c), 1e-5), uplo, a, x, nil)
				info, ok := testmat.Infos(err, a.Count)
				require.True(t, ok, "%v", err)
				require.Equal(t, []int{0, 0, 0, n + 1, n + 1, n + 1}, info, "%s %s n=%d", c, uplo, n)
				require.False(t, math.IsNaN(x.At(4, 0, 0)), "%s: an ill-conditioned inverse is written", c)
				require.NoError(t, Poinv(pin(c), uplo, a, x, nil), "%s: listed without the check", c)
			}
		}
	}
}
