package potri

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
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

// orders straddle the vector kernels' widths (8 float64, 16 float32).
var orders = []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 100, 128, 129}

// pin returns ctx with candidate c pinned for potri.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "potri", c.String())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// runs reports whether candidate c accepts order n on this machine.
func runs(c sel.Choice, uplo batchlas.Uplo, n int) bool {
	k := sel.MakeKey(sel.Str(uplo.String()), sel.Int(n), sel.Int(1))
	return canRun(c, k, opkit.DeviceFrom(context.Background()))
}

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

// padded is a batch of count n x n matrices with ld = n+3 and stride =
// ld*n+5, every element outside the matrices NaN.
func padded[T batchlas.Float](n, count int) batchlas.Batch[T] {
	ld := n + 3
	stride := ld*max(1, n) + 5
	b, err := batchlas.WrapStrided(testmat.NaNs[T](stride*count), n, n, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return b
}

func inTriangle(lower bool, r, c int) bool { return r == c || (r > c) == lower }

// factors returns count random SPD n x n matrices (G*G^T/n + I, padded)
// and their Cholesky factors by potrf, the other triangle of the factors
// NaN (never read, never written).
func factors[T batchlas.Float](t *testing.T, r *rand.Rand, lower bool, n, count int) (orig, f batchlas.Batch[T]) {
	t.Helper()
	orig = padded[T](n, count)
	for i := range count {
		g := make([]float64, n*n)
		for k := range g {
			g[k] = r.NormFloat64()
		}
		for c := range n {
			for row := range n {
				var s float64
				for k := range n {
					s += g[row+k*n] * g[c+k*n]
				}
				s /= float64(n)
				if row == c {
					s++
				}
				orig.Set(i, row, c, T(s))
			}
		}
	}
	f = testmat.Clone(orig)
	uplo := batchlas.Upper
	if lower {
		uplo = batchlas.Lower
	}
	require.NoError(t, potrf.Potrf(context.Background(), uplo, f, nil))
	for i := range count {
		for c := range n {
			for row := range n {
				if !inTriangle(lower, row, c) {
					f.Set(i, row, c, T(math.NaN()))
				}
			}
		}
	}
	return orig, f
}

// sym is element (r, c) of the symmetric matrix whose lower (or upper)
// triangle x holds.
func sym[T batchlas.Float](lower bool, x batchlas.Batch[T], i, r, c int) float64 {
	if !inTriangle(lower, r, c) {
		r, c = c, r
	}
	return float64(x.At(i, r, c))
}

// TestAgainstGonum: X*A = I within a few n eps |X||A| for every candidate,
// order and triangle; float64 within 1e-10 relative of gonum's Dpotri;
// the other triangle and the padding untouched.
func TestAgainstGonum(t *testing.T) {
	forEachCandidate(t, againstGonum[float32], againstGonum[float64])
}

func againstGonum[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	eps := 0x1p-52
	if _, ok := any(T(0)).(float32); ok {
		eps = 0x1p-23
	}
	for _, lower := range []bool{true, false} {
		uplo := batchlas.Upper
		if lower {
			uplo = batchlas.Lower
		}
		for _, n := range orders {
			orig, f := factors[T](t, r, lower, n, 2)
			x := testmat.Clone(f)
			what := fmt.Sprintf("%s uplo=%s n=%d", c, uplo, n)
			if !runs(c, uplo, n) {
				// Past its limits (lanes: lanesMax) the pin is refused and
				// nothing is written.
				require.ErrorContains(t, Potri(ctx, uplo, x), "can_run refuses", what)
				testmat.SameBits(t, what+": a refused call left a", x.Data, f.Data)
				continue
			}
			require.NoError(t, Potri(ctx, uplo, x), what)
			require.True(t, testmat.Untouched(x, x.Data, f.Data), "%s: padding written", what)
			for i := range 2 {
				var worst, xa, aa float64
				for col := range n {
					for row := range n {
						if !inTriangle(lower, row, col) {
							require.True(t, math.IsNaN(float64(x.At(i, row, col))), "%s: (%d,%d) outside the triangle written", what, row, col)
						}
						xa = math.Max(xa, math.Abs(sym(lower, x, i, row, col)))
						aa = math.Max(aa, math.Abs(float64(orig.At(i, row, col))))
						var s float64
						for k := range n {
							s += sym(lower, x, i, row, k) * float64(orig.At(i, k, col))
						}
						if row == col {
							s--
						}
						worst = math.Max(worst, math.Abs(s))
					}
				}
				require.LessOrEqual(t, worst, 8*float64(n)*eps*xa*aa*float64(n), "%s matrix %d: |X*A - I|", what, i)
				fd, ok := any(f.Data).([]float64)
				if !ok {
					continue
				}
				// gonum's Dpotri on the same factor (row-major: the triangle's
				// name swapped).
				g := make([]float64, n*n)
				for col := range n {
					for row := range n {
						g[col*n+row] = fd[i*f.Stride+col*f.LD+row]
					}
				}
				ul := blas.Upper
				if !lower {
					ul = blas.Lower
				}
				require.True(t, gonum.Implementation{}.Dpotri(ul, n, g, n))
				for col := range n {
					for row := range n {
						if inTriangle(lower, row, col) {
							require.InDelta(t, g[col*n+row], float64(x.At(i, row, col)), 1e-10*xa*float64(n), "%s matrix %d (%d,%d) against gonum", what, i, row, col)
						}
					}
				}
			}
		}
	}
}

// TestSingular: a zero or NaN on the factor's diagonal is info j+1 for
// the first, that factor left bit for bit; the others inverted.
func TestSingular(t *testing.T) {
	forEachCandidate(t, singularCase[float32], singularCase[float64])
}

func singularCase[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 3, 9} {
		for _, bad := range []float64{0, math.NaN()} {
			j := n / 2
			_, f := factors[T](t, r, true, n, 3)
			f.Set(1, j, j, T(bad))
			x := testmat.Clone(f)
			err := Potri(ctx, batchlas.Lower, x)
			info, ok := testmat.Infos(err, 3)
			what := fmt.Sprintf("%s n=%d %v at %d", c, n, bad, j)
			require.True(t, ok, "%s: %v", what, err)
			require.Equal(t, []int{0, j + 1, 0}, info, what)
			var ne *batchlas.NumericalError
			require.True(t, errors.As(err, &ne), what)
			for k := x.Stride; k < 2*x.Stride; k++ {
				same := x.Data[k] == f.Data[k] || (x.Data[k] != x.Data[k] && f.Data[k] != f.Data[k])
				require.True(t, same, "%s: the singular factor changed at %d", what, k)
			}
		}
	}
}

// TestArguments: refusals name potri and the argument; an empty call
// makes no decision.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "potri", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	argErr(Potri(ctx, batchlas.Lower, batchlas.NewBatch[float64](4, 3, 2)), "a")
	argErr(Potri(ctx, batchlas.Lower, batchlas.Broadcast(batchlas.NewBatch[float64](4, 4, 1), 2)), "a")
	argErr(Potri(ctx, batchlas.Uplo('X'), batchlas.NewBatch[float64](4, 4, 2)), "uplo")
	nopin := sel.WithPin(ctx, "potri", "nosuch")
	require.NoError(t, Potri(nopin, batchlas.Lower, batchlas.NewBatch[float64](4, 4, 0)))
	require.NoError(t, Potri(nopin, batchlas.Lower, batchlas.NewBatch[float64](0, 0, 3)))
	a := batchlas.NewBatch[float64](2, 2, 1)
	a.Data[0], a.Data[3] = 1, 1
	require.Error(t, Potri(nopin, batchlas.Lower, a))
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(5, 6))
	_, f := factors[T](t, r, false, 12, 40)
	one, all := testmat.Clone(f), testmat.Clone(f)
	require.NoError(t, Potri(batchlas.WithParallelism(ctx, 1), batchlas.Upper, one))
	require.NoError(t, Potri(ctx, batchlas.Upper, all))
	require.Equal(t, -1, testmat.SameMatrices(one, all, 0, f.Count), "%s", c)
}

// TestNoAllocations: a call allocates nothing (potri needs no workspace).
func TestNoAllocations(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 9, 33} {
		_, f := factors[T](t, r, true, n, 16)
		work := testmat.Clone(f)
		testmat.NoAllocs(t, fmt.Sprintf("%s n=%d", c, n), func() {
			copy(work.Data, f.Data)
			if err := Potri(ctx, batchlas.Lower, work); err != nil {
				panic(err)
			}
		})
	}
}

// TestInterrupted: the completed matrices are bit for bit an
// uninterrupted call's, every later one untouched.
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(9, 10))
	const count = 300
	_, f := factors[T](t, r, true, 5, count)
	testmat.InterruptEverywhere(t, c.String(), "potri", f, ctx, func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(f)
		return x, Potri(ctx, batchlas.Lower, x)
	})
}

// An Inf in a factor's triangle is no failure, and it propagates: every
// candidate leaves NaN and Inf where the per-matrix kernel does, in both
// triangles (gonum's Dpotri, whose BLAS skips products with zero, once
// returned finite entries from a factor holding Inf).
func TestInfPropagatesAsPerMatrix(t *testing.T) {
	forEachCandidate(t, infCase[float32], infCase[float64])
}

func infCase[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	perMatrix := pin(permatrix.With())
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		lower := uplo == batchlas.Lower
		part := byte('U')
		if lower {
			part = 'L'
		}
		for _, n := range []int{2, 3, 9} {
			if !runs(c, uplo, n) {
				continue
			}
			// One entry off the diagonal, then the triangle's whole
			// last line (row n-1 of L, column n-1 of U).
			for _, whole := range []bool{false, true} {
				_, f := factors[T](t, r, lower, n, 2)
				for k := range n {
					row, col := n-1, k
					if !lower {
						row, col = k, n-1
					}
					if inTriangle(lower, row, col) && (whole || k == 0) {
						f.Set(1, row, col, T(math.Inf(1)))
					}
				}
				want, got := testmat.Clone(f), testmat.Clone(f)
				what := fmt.Sprintf("%s %v n=%d whole line %v", c, uplo, n, whole)
				errWant, errGot := Potri(perMatrix, uplo, want), Potri(ctx, uplo, got)
				require.Equal(t, errWant == nil, errGot == nil, "%s: error %v, per-matrix %v", what, errGot, errWant)
				require.Equal(t, testmat.Pattern(want, 1, part), testmat.Pattern(got, 1, part), what)
			}
		}
	}
}
