package getrs_test

import (
	"context"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// eachCandidate runs a property for every candidate of both dtypes, pinned
// by its spelling: the candidate lists are iterated, never retyped.
func eachCandidate(t *testing.T, f32 func(*testing.T, context.Context, sel.Choice), f64 func(*testing.T, context.Context, sel.Choice)) {
	t.Helper()
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range getrs.Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) {
				ctx := sel.WithPin(context.Background(), "getrs", c.String())
				if dt == sel.Float32 {
					f32(t, ctx, c)
				} else {
					f64(t, ctx, c)
				}
			})
		}
	}
}

// pin returns ctx with candidate c pinned for getrs.
func pin(ctx context.Context, c sel.Choice) context.Context {
	return sel.WithPin(ctx, "getrs", c.String())
}

// factors returns count LU factors of n x n matrices with ld and stride
// (0: tight) and their pivots, computed by gonum's Dgetrf (an oracle
// independent of this library) in float64 and rounded to T. The matrices
// are well conditioned and need pivoting: R + 2*sqrt(n)*Q, R uniform in
// [-1, 1), Q a random permutation, so each column's largest entry lies in
// a random row. gonum is row-major: given the matrix row by row, it
// returns the row-major factor of that same matrix with the same 0-based
// pivots as getrf's, which is copied into column-major storage.
//
// With ld set (padded), every element of a outside the matrices is NaN
// and the pivot vectors are longer than n (Len n+2, Stride n+5), their
// extra entries poison: a kernel that reads padding spreads NaN into X,
// one that reads a pivot past n reads an invalid one.
func factors[T batchlas.Float](seed uint64, n, count, ld, stride int) (batchlas.Batch[T], batchlas.Vectors[int32]) {
	r := testmat.Rand(seed)
	a := testmat.Batch[T](r, n, n, count, ld, stride)
	ipiv := batchlas.NewVectors[int32](n, count)
	if ld != 0 {
		poisonPadding(a)
		data := make([]int32, (n+5)*count)
		for k := range data {
			data[k] = poison
		}
		var err error
		if ipiv, err = batchlas.WrapStridedVectors(data, n+2, n+5, count); err != nil {
			panic(err)
		}
	}
	rm := make([]float64, n*n)
	piv := make([]int, n)
	w := 2 * math.Sqrt(float64(n))
	for i := 0; i < count; i++ {
		for k := range rm {
			rm[k] = 2*r.Float64() - 1
		}
		for c, row := range r.Perm(n) {
			rm[row*n+c] += w
		}
		if n > 0 {
			gonum.Implementation{}.Dgetrf(n, n, rm, n, piv)
		}
		for row := 0; row < n; row++ {
			for c := 0; c < n; c++ {
				a.Set(i, row, c, T(rm[row*n+c]))
			}
		}
		for j := range n {
			ipiv.Set(i, j, int32(piv[j]))
		}
	}
	return a, ipiv
}

// poison is the value of the pivot entries past n, which no call reads.
const poison int32 = -7

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

// rhs is a random n x nrhs B with ld and stride (0: tight); with ld set,
// its padding is NaN.
func rhs[T batchlas.Float](seed uint64, n, nrhs, count, ld, stride int) batchlas.Batch[T] {
	b := testmat.Batch[T](testmat.Rand(seed^0xb), n, nrhs, count, ld, stride)
	if ld != 0 {
		poisonPadding(b)
	}
	return b
}

// solve runs Getrs on a copy of b with exactly BufferSize elements of NaN
// workspace, and checks that a, ipiv and the padding of b did not change.
func solve[T batchlas.Float](t *testing.T, ctx context.Context, trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) batchlas.Batch[T] {
	t.Helper()
	size, err := getrs.BufferSize(ctx, trans, a, ipiv, b)
	if err != nil {
		t.Fatalf("%v n=%d nrhs=%d: BufferSize: %v", trans, b.Rows, b.Cols, err)
	}
	x := testmat.Clone(b)
	a0 := append([]T(nil), a.Data...)
	p0 := append([]int32(nil), ipiv.Data...)
	if err := getrs.Getrs(ctx, trans, a, ipiv, x, testmat.NaNs[T](size)); err != nil {
		t.Fatalf("%v n=%d nrhs=%d: %v", trans, b.Rows, b.Cols, err)
	}
	if !testmat.Untouched(x, x.Data, b.Data) {
		t.Fatalf("%v n=%d nrhs=%d: wrote outside the matrices of b", trans, b.Rows, b.Cols)
	}
	if !sameBits(a.Data, a0) {
		t.Fatalf("%v n=%d nrhs=%d: modified a", trans, b.Rows, b.Cols)
	}
	for k := range p0 {
		if ipiv.Data[k] != p0[k] {
			t.Fatalf("%v n=%d nrhs=%d: modified ipiv", trans, b.Rows, b.Cols)
		}
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

// oracle is gonum's Dgetrs solution for matrix i, in float64 from the
// factor and B rounded to T, column-major n x nrhs. gonum is row-major, so
// the factor and B are handed over row by row.
func oracle[T batchlas.Float](trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], i int) []float64 {
	n, nrhs := b.Rows, b.Cols
	lu := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			lu[r*n+c] = float64(a.At(i, r, c))
		}
	}
	piv := make([]int, n)
	for j := range piv {
		piv[j] = int(ipiv.At(i, j))
	}
	x := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < nrhs; c++ {
			x[r*nrhs+c] = float64(b.At(i, r, c))
		}
	}
	t := blas.NoTrans
	if trans == batchlas.Trans {
		t = blas.Trans
	}
	if n > 0 && nrhs > 0 {
		gonum.Implementation{}.Dgetrs(t, n, nrhs, lu, n, piv, x, nrhs)
	}
	out := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < nrhs; c++ {
			out[r+c*n] = x[r*nrhs+c]
		}
	}
	return out
}

// forward checks matrix i of x against gonum's solution:
// max|X - Xref| <= 64*(n+2)*eps*max(1, max|Xref|). The factors of
// factors() are well conditioned, so the forward error is a small
// multiple of the backward error.
func forward[T batchlas.Float](t *testing.T, what string, trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b0, x batchlas.Batch[T], i int) {
	t.Helper()
	want := oracle(trans, a, ipiv, b0, i)
	got := testmat.Dense(x, i)
	diff := make([]float64, len(got))
	for j := range got {
		diff[j] = got[j] - want[j]
	}
	tol := 64 * float64(a.Rows+2) * testmat.Eps[T]() * max(1, testmat.MaxAbs(want))
	if e := testmat.MaxAbs(diff); !(e <= tol) {
		t.Fatalf("%s %v n=%d nrhs=%d matrix %d: max error %g vs gonum exceeds %g", what, trans, b0.Rows, b0.Cols, i, e, tol)
	}
}

// product returns the matrix the factor of matrix i stands for, A = P*L*U,
// and the scale of a solve's rounding errors, P*|L|*|U|, both dense
// column-major n x n in float64.
func product[T batchlas.Float](a batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int) (prod, abs []float64) {
	n := a.Rows
	prod, abs = make([]float64, n*n), make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			for k := 0; k <= min(r, c); k++ {
				l := 1.0
				if k < r {
					l = float64(a.At(i, r, k))
				}
				u := float64(a.At(i, k, c))
				prod[r+c*n] += l * u
				abs[r+c*n] += math.Abs(l * u)
			}
		}
	}
	// P*(L*U): undo the interchanges, last first.
	for j := n - 1; j >= 0; j-- {
		q := int(ipiv.At(i, j))
		for c := 0; c < n; c++ {
			prod[j+c*n], prod[q+c*n] = prod[q+c*n], prod[j+c*n]
			abs[j+c*n], abs[q+c*n] = abs[q+c*n], abs[j+c*n]
		}
	}
	return prod, abs
}

// residual checks matrix i of x against op(A)*X = B0 for A = P*L*U from
// the factor: |op(A)*X - B0| <= 8*(n+2)*eps*op(P*|L|*|U|)*|X| elementwise,
// the backward-error bound of the two triangular solves, for any
// conditioning.
func residual[T batchlas.Float](t *testing.T, what string, trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b0, x batchlas.Batch[T], i int) {
	t.Helper()
	n, nrhs := b0.Rows, b0.Cols
	prod, abs := product(a, ipiv, i)
	at := func(m []float64, r, c int) float64 {
		if trans == batchlas.Trans {
			r, c = c, r
		}
		return m[r+c*n]
	}
	tol := 8 * float64(n+2) * testmat.Eps[T]()
	for c := 0; c < nrhs; c++ {
		for r := 0; r < n; r++ {
			s, bound := -float64(b0.At(i, r, c)), 0.0
			for k := 0; k < n; k++ {
				xv := float64(x.At(i, k, c))
				s += at(prod, r, k) * xv
				bound += at(abs, r, k) * math.Abs(xv)
			}
			if !(math.Abs(s) <= tol*bound+1e-300) {
				t.Fatalf("%s %v n=%d nrhs=%d matrix %d: residual %g at (%d,%d) exceeds %g", what, trans, n, nrhs, i, s, r, c, tol*bound)
			}
		}
	}
}

var transes = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
