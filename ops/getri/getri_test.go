package getri

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

// orders straddle the candidates' limits and the vector kernels' widths
// (8 float64, 16 float32 per vector).
var orders = []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 128}

// pin returns ctx with candidate c pinned for getri.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "getri", c.String())
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

// factors returns count random n x n matrices (padded) and their LU
// factors and pivots by getrf.
func factors[T batchlas.Float](t *testing.T, r *rand.Rand, n, count int) (orig, lu batchlas.Batch[T], ipiv batchlas.Vectors[int32]) {
	t.Helper()
	orig = padded[T](n, count)
	for i := range count {
		for c := range n {
			for row := range n {
				orig.Set(i, row, c, T(r.NormFloat64()))
			}
		}
	}
	lu = padded[T](n, count)
	copy(lu.Data, orig.Data)
	ipiv = batchlas.NewVectors[int32](n, count)
	require.NoError(t, getrf.Getrf(context.Background(), lu, ipiv, nil))
	return orig, lu, ipiv
}

// leftResidual is max |X*A - I| / (max|X| max|A| n eps) over the matrix:
// small for an inverse computed stably from a factor of a random matrix.
func leftResidual[T batchlas.Float](x, a batchlas.Batch[T], i int) float64 {
	n := a.Rows
	var xmax, amax, r float64
	for c := range n {
		for row := range n {
			xmax = math.Max(xmax, math.Abs(float64(x.At(i, row, c))))
			amax = math.Max(amax, math.Abs(float64(a.At(i, row, c))))
		}
	}
	for c := range n {
		for row := range n {
			var s float64
			for k := range n {
				s += float64(x.At(i, row, k)) * float64(a.At(i, k, c))
			}
			if row == c {
				s--
			}
			r = math.Max(r, math.Abs(s))
		}
	}
	eps := 0x1p-52
	var z T
	if _, ok := any(z).(float32); ok {
		eps = 0x1p-23
	}
	return r / (xmax * amax * float64(n) * eps)
}

// TestAgainstGonum inverts random matrices at every order with every
// candidate: X*A = I to a few n*eps*|X||A| (the inverse's condition
// enters only through |X|), float64 within n eps cond of gonum's Dgetri on
// the same factor, and the padding untouched.
func TestAgainstGonum(t *testing.T) {
	forEachCandidate(t, againstGonum[float32], againstGonum[float64])
}

func againstGonum[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range orders {
		orig, lu, ipiv := factors[T](t, r, n, 3)
		x := padded[T](n, 3)
		copy(x.Data, lu.Data)
		if !runs(c, n) {
			// Past its limits (lanes: lanesMax) the pin is refused, by
			// BufferSize and by the call, which writes nothing.
			_, err := BufferSize(ctx, x, ipiv)
			require.ErrorContains(t, err, "can_run refuses")
			require.ErrorContains(t, Getri(ctx, x, ipiv, nil), "can_run refuses")
			testmat.SameBits(t, fmt.Sprintf("%s n=%d: a refused call left a", c, n), x.Data, lu.Data)
			continue
		}
		require.NoError(t, Getri(ctx, x, ipiv, nil), "n=%d", n)
		require.True(t, testmat.Untouched(x, x.Data, lu.Data), "n=%d: padding written", n)
		for i := range x.Count {
			res := leftResidual(x, orig, i)
			require.LessOrEqual(t, res, 8.0, "%s n=%d matrix %d: X*A - I ratio", c, n, i)
			f, ok := any(lu.Data).([]float64)
			if !ok {
				continue
			}
			// gonum's inverse of the same factor (row-major: transposed in
			// and out).
			tm := make([]float64, n*n)
			for cc := range n {
				for row := range n {
					tm[row*n+cc] = f[i*lu.Stride+cc*lu.LD+row]
				}
			}
			ip := make([]int, n)
			for k, p := range ipiv.Vector(i)[:n] {
				ip[k] = int(p)
			}
			work := make([]float64, 64*n+1)
			require.True(t, gonum.Implementation{}.Dgetri(n, tm, n, ip, work, len(work)))
			var diff, big float64
			for cc := range n {
				for row := range n {
					diff = math.Max(diff, math.Abs(float64(x.At(i, row, cc))-tm[row*n+cc]))
					big = math.Max(big, math.Abs(tm[row*n+cc]))
				}
			}
			require.LessOrEqual(t, diff, 1e-10*big*float64(n), "%s n=%d matrix %d: differs from gonum by %g", c, n, i, diff)
		}
	}
}

// TestSingular: a zero or a NaN on U's diagonal is info j+1 for the first
// such j, whatever the kernel, that matrix left bit for bit as it was;
// the others inverted as alone.
func TestSingular(t *testing.T) {
	forEachCandidate(t, singularCase[float32], singularCase[float64])
}

func singularCase[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 3, 8, 16, 17} {
		if !runs(c, n) {
			continue // refused: TestAgainstGonum
		}
		for _, bad := range []float64{0, math.NaN()} {
			for _, j := range slices.Compact([]int{0, n / 2, n - 1}) {
				_, lu, ipiv := factors[T](t, r, n, 3)
				lu.Set(1, j, j, T(bad))
				if j+1 < n {
					lu.Set(1, j+1, j+1, 0) // a later zero is not the one reported
				}
				x := padded[T](n, 3)
				copy(x.Data, lu.Data)
				err := Getri(ctx, x, ipiv, nil)
				info, ok := testmat.Infos(err, 3)
				what := fmt.Sprintf("%s n=%d %v at %d", c, n, bad, j)
				require.True(t, ok, "%s: %v", what, err)
				require.Equal(t, []int{0, j + 1, 0}, info, what)
				var ne *batchlas.NumericalError
				require.True(t, errors.As(err, &ne), what)
				for k := (1 * x.Stride); k < 2*x.Stride; k++ {
					same := x.Data[k] == lu.Data[k] || (x.Data[k] != x.Data[k] && lu.Data[k] != lu.Data[k])
					require.True(t, same, "%s: the singular factor changed at %d", what, k)
				}
				// The others are as a call on them alone gives.
				for _, i := range []int{0, 2} {
					one := padded[T](n, 1)
					copy(one.Data, lu.Data[i*lu.Stride:(i+1)*lu.Stride])
					p1 := batchlas.NewVectors[int32](n, 1)
					copy(p1.Vector(0), ipiv.Vector(i))
					require.NoError(t, Getri(ctx, one, p1, nil))
					require.Equal(t, -1, testmat.SameMatrices(one, matrixOf(x, i), 0, 1), "%s: matrix %d", what, i)
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

// TestArguments: every refusal names getri and the argument, and writes
// nothing; bad pivots are found before any kernel; an empty call makes
// no decision.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "getri", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	const count = 20
	_, lu, ipiv := factors[float64](t, r, 4, count)
	before := slices.Clone(lu.Data)
	argErr(Getri(ctx, batchlas.NewBatch[float64](4, 3, count), ipiv, nil), "a")
	argErr(Getri(ctx, lu, batchlas.NewVectors[int32](4, 3), nil), "ipiv")
	argErr(Getri(ctx, lu, batchlas.NewVectors[int32](3, count), nil), "ipiv")
	argErr(Getri(ctx, batchlas.Broadcast(matrixOf(lu, 0), count), ipiv, nil), "a")
	bad := batchlas.NewVectors[int32](4, count)
	copy(bad.Data, ipiv.Data)
	bad.Vector(1)[2] = 1
	argErr(Getri(ctx, lu, bad, nil), "ipiv")
	size, err := BufferSize(ctx, lu, ipiv)
	require.NoError(t, err)
	require.Positive(t, size)
	require.LessOrEqual(t, size, len(lu.Data))
	argErr(Getri(ctx, lu, ipiv, make([]float64, size-1)), "ws")
	// A workspace inside a is refused.
	argErr(Getri(ctx, lu, ipiv, lu.Data[:size]), "ws")
	for k, x := range lu.Data {
		require.Equal(t, math.Float64bits(before[k]), math.Float64bits(x), "a refused call wrote a[%d]", k)
	}
	// An empty batch or order 0 makes no decision.
	nopin := sel.WithPin(ctx, "getri", "nosuch")
	require.NoError(t, Getri(nopin, batchlas.NewBatch[float64](4, 4, 0), batchlas.NewVectors[int32](4, 0), nil))
	require.NoError(t, Getri(nopin, batchlas.NewBatch[float64](0, 0, 3), batchlas.NewVectors[int32](0, 3), nil))
	require.Error(t, Getri(nopin, lu, ipiv, nil))
}

// TestBroadcastPivots: one pivot vector for a batch of equal factors
// gives every matrix the inverse of the first.
func TestBroadcastPivots(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range Op.Candidates(sel.Float64) {
		_, lu, ipiv := factors[float64](t, r, 6, 1)
		many := padded[float64](6, 4)
		for i := range 4 {
			copy(many.Data[i*many.Stride:(i+1)*many.Stride], lu.Data[:lu.Stride])
		}
		require.NoError(t, Getri(pin(c), many, batchlas.BroadcastVectors(ipiv, 4), nil))
		require.NoError(t, Getri(pin(c), lu, ipiv, nil))
		for i := range 4 {
			require.Equal(t, -1, testmat.SameMatrices(matrixOf(many, i), lu, 0, 1), "%s matrix %d", c, i)
		}
	}
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(9, 10))
	_, lu, ipiv := factors[T](t, r, 12, 40)
	one, all := testmat.Clone(lu), testmat.Clone(lu)
	require.NoError(t, Getri(batchlas.WithParallelism(ctx, 1), one, ipiv, nil))
	require.NoError(t, Getri(ctx, all, ipiv, nil))
	require.Equal(t, -1, testmat.SameMatrices(one, all, 0, lu.Count), "%s", c)
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
				continue // refused: TestAgainstGonum
			}
			_, lu, ipiv := factors[T](t, r, n, 16)
			size, err := BufferSize(ctx, lu, ipiv)
			require.NoError(t, err)
			ws := make([]T, size)
			work := testmat.Clone(lu)
			// One call first: the vendor kernel keeps its pivot scratch.
			require.NoError(t, Getri(ctx, work, ipiv, ws))
			testmat.NoAllocs(t, fmt.Sprintf("%s n=%d workers=%d", c, n, w), func() {
				copy(work.Data, lu.Data)
				if err := Getri(ctx, work, ipiv, ws); err != nil {
					panic(err)
				}
			})
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: a
// *batchlas.InterruptedError naming getri; the completed matrices are bit
// for bit an uninterrupted call's, every later one untouched (Touched ==
// Completed).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(13, 14))
	const count = 300
	_, lu, ipiv := factors[T](t, r, 5, count)
	testmat.InterruptEverywhere(t, c.String(), "getri", lu, ctx, func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(lu)
		return x, Getri(ctx, x, ipiv, nil)
	})
}

// An Inf in a factor (off U's diagonal or on it) is no failure, and it
// propagates: every candidate leaves NaN and Inf where the per-matrix
// kernel does (gonum's Dgetri, whose BLAS skips products with zero, once
// returned a finite inverse from a factor holding Inf).
func TestInfPropagatesAsPerMatrix(t *testing.T) {
	forEachCandidate(t, infCase[float32], infCase[float64])
}

func infCase[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	perMatrix := pin(permatrix.With())
	for _, n := range []int{2, 3, 9} {
		if !runs(c, n) {
			continue
		}
		// -1: the whole last column.
		for _, at := range [][2]int{{0, n - 1}, {n - 1, n - 1}, {n - 1, 0}, {-1, n - 1}} {
			_, lu, ipiv := factors[T](t, r, n, 2)
			for row := range n {
				if at[0] == row || at[0] == -1 {
					lu.Set(1, row, at[1], T(math.Inf(1)))
				}
			}
			want, got := padded[T](n, 2), padded[T](n, 2)
			copy(want.Data, lu.Data)
			copy(got.Data, lu.Data)
			what := fmt.Sprintf("%s n=%d +Inf at %v", c, n, at)
			errWant, errGot := Getri(perMatrix, want, ipiv, nil), Getri(ctx, got, ipiv, nil)
			require.Equal(t, errWant == nil, errGot == nil, "%s: error %v, per-matrix %v", what, errGot, errWant)
			require.Equal(t, testmat.Pattern(want, 1, 0), testmat.Pattern(got, 1, 0), what)
		}
	}
}
