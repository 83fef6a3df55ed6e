package gesv_test

import (
	"context"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// runs reports whether candidate c can run a call of count n x n systems
// with nrhs right-hand sides on this host (lanes only takes small
// orders): the properties skip the shapes it cannot.
func runs(c sel.Choice, n, nrhs, count int) bool {
	return gesv.Op.CanRun(c, sel.MakeKey(sel.Int(n), sel.Int(nrhs), sel.Int(count)), batchlas.Host())
}

// eachCandidate runs a property for every candidate of both dtypes, pinned
// by its spelling: the candidate lists are iterated, never retyped.
func eachCandidate(t *testing.T, f32 func(*testing.T, context.Context, sel.Choice), f64 func(*testing.T, context.Context, sel.Choice)) {
	t.Helper()
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range gesv.Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) {
				ctx := pin(context.Background(), c)
				if dt == sel.Float32 {
					f32(t, ctx, c)
				} else {
					f64(t, ctx, c)
				}
			})
		}
	}
}

// pin returns ctx with candidate c pinned for gesv.
func pin(ctx context.Context, c sel.Choice) context.Context {
	return sel.WithPin(ctx, "gesv", c.String())
}

// poison is the value of the pivot entries no call may write.
const poison int32 = -7

// system is count well-conditioned n x n systems with nrhs right-hand
// sides: A from testmat.General (pivoting at almost every step), B
// uniform. Padded (ld set), every element outside the matrices is NaN and
// the pivot vectors are longer than n (Len n+2, Stride n+5), every entry
// poison: a kernel that reads padding spreads NaN, one that writes it or a
// pivot past n is caught.
func system[T batchlas.Float](seed uint64, n, nrhs, count int, padded bool) (a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) {
	r := testmat.Rand(seed)
	if padded {
		a = testmat.Batch[T](r, n, n, count, n+2, (n+2)*n+3)
		b = testmat.Batch[T](r, n, nrhs, count, n+3, (n+3)*nrhs+5)
	} else {
		a = testmat.Batch[T](r, n, n, count, 0, 0)
		b = testmat.Batch[T](r, n, nrhs, count, 0, 0)
	}
	testmat.General(r, a)
	length, stride := n, n
	if padded {
		poisonPadding(a)
		poisonPadding(b)
		length, stride = n+2, n+5
	}
	data := make([]int32, stride*count)
	for k := range data {
		data[k] = poison
	}
	ipiv, err := batchlas.WrapStridedVectors(data, length, stride, count)
	if err != nil {
		panic(err)
	}
	return a, ipiv, b
}

// poisonPadding sets every element of x's storage outside its matrices to
// NaN.
func poisonPadding[T batchlas.Float](x batchlas.Batch[T]) {
	inside := make([]bool, len(x.Data))
	for i := 0; i < x.Count; i++ {
		for c := 0; c < x.Cols; c++ {
			for r := 0; r < x.Rows; r++ {
				inside[i*x.Stride+c*x.LD+r] = true
			}
		}
	}
	for k, in := range inside {
		if !in {
			x.Data[k] = T(math.NaN())
		}
	}
}

// result is one call's outputs on copies of its inputs.
type result[T batchlas.Float] struct {
	lu   batchlas.Batch[T]
	ipiv batchlas.Vectors[int32]
	x    batchlas.Batch[T]
	err  error
}

// run runs Gesv on copies of a, ipiv and b with exactly BufferSize
// elements of NaN workspace, and checks that nothing outside the matrices
// and the first n pivots was written.
func run[T batchlas.Float](t *testing.T, ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) result[T] {
	t.Helper()
	size, err := gesv.BufferSize(ctx, a, ipiv, b)
	if err != nil {
		t.Fatalf("n=%d nrhs=%d: BufferSize: %v", a.Rows, b.Cols, err)
	}
	out := result[T]{lu: testmat.Clone(a), x: testmat.Clone(b), ipiv: ipiv}
	out.ipiv.Data = append([]int32(nil), ipiv.Data...)
	out.err = gesv.Gesv(ctx, out.lu, out.ipiv, out.x, testmat.NaNs[T](size))
	if !testmat.Untouched(out.lu, out.lu.Data, a.Data) {
		t.Fatalf("n=%d nrhs=%d: wrote outside the matrices of a", a.Rows, b.Cols)
	}
	if !testmat.Untouched(out.x, out.x.Data, b.Data) {
		t.Fatalf("n=%d nrhs=%d: wrote outside the matrices of b", a.Rows, b.Cols)
	}
	for k, v := range out.ipiv.Data {
		if k%max(1, ipiv.Stride) >= a.Rows && v != ipiv.Data[k] {
			t.Fatalf("n=%d nrhs=%d: wrote ipiv.Data[%d], past the first n entries of its vector", a.Rows, b.Cols, k)
		}
	}
	return out
}

// scale returns P*|L|*|U| for matrix i of the factor lu with its pivots,
// dense column-major, and fails t unless every pivot is in [j, n).
func scale[T batchlas.Float](t *testing.T, what string, lu batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int) []float64 {
	t.Helper()
	n := lu.Rows
	abs := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			for k := 0; k <= min(r, c); k++ {
				l := 1.0
				if k < r {
					l = float64(lu.At(i, r, k))
				}
				abs[r+c*n] += math.Abs(l * float64(lu.At(i, k, c)))
			}
		}
	}
	for j := n - 1; j >= 0; j-- {
		q := int(ipiv.At(i, j))
		if q < j || q >= n {
			t.Fatalf("%s matrix %d: ipiv[%d] = %d outside [%d, %d)", what, i, j, q, j, n)
		}
		for c := 0; c < n; c++ {
			abs[j+c*n], abs[q+c*n] = abs[q+c*n], abs[j+c*n]
		}
	}
	return abs
}

// solved checks matrix i of x against A*X = B0, A the matrix before the
// call: |A*X - B0| <= 8*(n+2)*eps*P*|L|*|U|*|X| elementwise, with the
// factor and pivots the call wrote (the backward-error bound of LU with
// partial pivoting and the solve), and against gonum's Dgesv in float64:
// max|X - Xref| <= 64*(n+2)*eps*max(1, max|Xref|) (A is well conditioned).
func solved[T batchlas.Float](t *testing.T, what string, a0, b0 batchlas.Batch[T], r result[T], i int) {
	t.Helper()
	n, nrhs := a0.Rows, b0.Cols
	abs := scale(t, what, r.lu, r.ipiv, i)
	eps := testmat.Eps[T]()
	tol := 8 * float64(n+2) * eps
	for c := 0; c < nrhs; c++ {
		for row := 0; row < n; row++ {
			s, bound := -float64(b0.At(i, row, c)), 0.0
			for k := 0; k < n; k++ {
				x := float64(r.x.At(i, k, c))
				s += float64(a0.At(i, row, k)) * x
				bound += abs[row+k*n] * math.Abs(x)
			}
			if !(math.Abs(s) <= tol*bound+1e-300) {
				t.Fatalf("%s n=%d nrhs=%d matrix %d: residual %g at (%d,%d) exceeds %g", what, n, nrhs, i, s, row, c, tol*bound)
			}
		}
	}
	want := oracle(a0, b0, i)
	worst := 0.0
	for c := 0; c < nrhs; c++ {
		for row := 0; row < n; row++ {
			worst = max(worst, math.Abs(float64(r.x.At(i, row, c))-want[row*nrhs+c]))
		}
	}
	ftol := 64 * float64(n+2) * eps * max(1, testmat.MaxAbs(want))
	if !(worst <= ftol) {
		t.Fatalf("%s n=%d nrhs=%d matrix %d: max error %g vs gonum's Dgesv exceeds %g", what, n, nrhs, i, worst, ftol)
	}
}

// oracle is gonum's Dgesv solution of system i in float64 from the inputs
// rounded to T, row-major n x nrhs (gonum is row-major: A and B are
// handed over row by row).
func oracle[T batchlas.Float](a, b batchlas.Batch[T], i int) []float64 {
	n, nrhs := a.Rows, b.Cols
	am := make([]float64, n*n)
	x := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			am[r*n+c] = float64(a.At(i, r, c))
		}
		for c := 0; c < nrhs; c++ {
			x[r*nrhs+c] = float64(b.At(i, r, c))
		}
	}
	if n > 0 && nrhs > 0 {
		gonum.Implementation{}.Dgesv(n, nrhs, am, n, make([]int, n), x, nrhs)
	}
	return x
}

func sameBits[T batchlas.Float](x, y []T) bool {
	for i := range x {
		if !(x[i] == y[i] || x[i] != x[i] && y[i] != y[i]) {
			return false
		}
	}
	return true
}
