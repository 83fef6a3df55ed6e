package trsm_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// variant is one of the 16 side/uplo/trans/diag combinations.
type variant struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
}

func (v variant) String() string {
	return fmt.Sprintf("%v%v%v%v", v.side, v.uplo, v.ta, v.diag)
}

func allVariants() []variant {
	var out []variant
	for _, s := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		for _, u := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, ta := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
				for _, d := range []batchlas.Diag{batchlas.NonUnit, batchlas.Unit} {
					out = append(out, variant{s, u, ta, d})
				}
			}
		}
	}
	return out
}

// order is the order of A for a B of m x n.
func (v variant) order(m, n int) int {
	if v.side == batchlas.Left {
		return m
	}
	return n
}

// eachCandidate runs a property for every candidate of both dtypes, pinned
// by its spelling: the candidate lists are iterated, never retyped.
func eachCandidate(t *testing.T, f32 func(*testing.T, context.Context, sel.Choice), f64 func(*testing.T, context.Context, sel.Choice)) {
	t.Helper()
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range trsm.Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) {
				ctx := sel.WithPin(context.Background(), "trsm", c.String())
				if dt == sel.Float32 {
					f32(t, ctx, c)
				} else {
					f64(t, ctx, c)
				}
			})
		}
	}
}

// solve runs Trsm on a copy of b with exactly BufferSize elements of NaN
// workspace, and checks that neither a nor the padding of b changed.
func solve[T batchlas.Float](t *testing.T, ctx context.Context, v variant, alpha T, a, b batchlas.Batch[T]) batchlas.Batch[T] {
	t.Helper()
	n, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b)
	if err != nil {
		t.Fatalf("%v: BufferSize: %v", v, err)
	}
	got := testmat.Clone(b)
	a0 := testmat.Clone(a)
	if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, alpha, a, got, testmat.NaNs[T](n)); err != nil {
		t.Fatalf("%v m=%d n=%d: %v", v, b.Rows, b.Cols, err)
	}
	if !testmat.Untouched(got, got.Data, b.Data) {
		t.Errorf("%v m=%d n=%d: wrote outside the matrices of b", v, b.Rows, b.Cols)
	}
	if !sameBits(a.Data, a0.Data) {
		t.Errorf("%v m=%d n=%d: modified a", v, b.Rows, b.Cols)
	}
	return got
}

func sameBits[T batchlas.Float](x, y []T) bool {
	for i := range x {
		if !(x[i] == y[i] || x[i] != x[i] && y[i] != y[i]) {
			return false
		}
	}
	return true
}

// tri is the triangle of matrix i of a that the call references, as a
// dense t x t float64 matrix: the other triangle zero, a unit diagonal 1.
func tri[T batchlas.Float](v variant, a batchlas.Batch[T], i int) []float64 {
	t := a.Rows
	out := make([]float64, t*t)
	for c := 0; c < t; c++ {
		for r := 0; r < t; r++ {
			switch {
			case r == c && v.diag == batchlas.Unit:
				out[r+c*t] = 1
			case r == c || (v.uplo == batchlas.Lower) == (r > c):
				out[r+c*t] = float64(a.At(i, r, c))
			}
		}
	}
	return out
}

// oracle is gonum's solution for matrix i, in float64 from the inputs
// rounded to T, column-major m x n.
func oracle[T batchlas.Float](v variant, alpha T, a, b batchlas.Batch[T], i int) []float64 {
	m, n, t := b.Rows, b.Cols, a.Rows
	x := testmat.Dense(b, i)
	side, uplo := blas.Right, blas.Upper
	if v.side == batchlas.Right {
		side = blas.Left
	}
	if v.uplo == batchlas.Upper {
		uplo = blas.Lower
	}
	ta, diag := blas.NoTrans, blas.NonUnit
	if v.ta == batchlas.Trans {
		ta = blas.Trans
	}
	if v.diag == batchlas.Unit {
		diag = blas.Unit
	}
	gonum.Implementation{}.Dtrsm(side, uplo, ta, diag, n, m, float64(alpha), testmat.Dense(a, i), max(1, t), x, max(1, m))
	return x
}

// residual checks matrix i of x against op(A)*X = alpha*B0 (or X*op(A)):
// |op(A)*X - alpha*B0| <= c*t*eps*(|op(A)|*|X| + |alpha*B0|) elementwise,
// a bound that holds for any conditioning.
func residual[T batchlas.Float](t *testing.T, what string, v variant, alpha T, a, b0, x batchlas.Batch[T], i int) {
	t.Helper()
	m, n, k := b0.Rows, b0.Cols, a.Rows
	ad := tri(v, a, i)
	op := func(r, c int) float64 {
		if v.ta == batchlas.Trans {
			r, c = c, r
		}
		return ad[r+c*k]
	}
	eps := testmat.Eps[T]()
	for c := 0; c < n; c++ {
		for r := 0; r < m; r++ {
			s := -float64(alpha) * float64(b0.At(i, r, c))
			bound := math.Abs(s)
			for l := 0; l < k; l++ {
				var p float64
				if v.side == batchlas.Left {
					p = op(r, l) * float64(x.At(i, l, c))
				} else {
					p = float64(x.At(i, r, l)) * op(l, c)
				}
				s += p
				bound += math.Abs(p)
			}
			if !(math.Abs(s) <= 4*float64(k+2)*eps*bound) {
				t.Fatalf("%s %v m=%d n=%d matrix %d: residual %g at (%d,%d) exceeds %g", what, v, m, n, i, s, r, c, 4*float64(k+2)*eps*bound)
			}
		}
	}
}

// forward checks matrix i of x against gonum's solution, for well
// conditioned A: |X - Xref| <= c*t*eps*max(1, |Xref|) in max norm.
func forward[T batchlas.Float](t *testing.T, what string, v variant, alpha T, a, b0, x batchlas.Batch[T], i int) {
	t.Helper()
	want := oracle(v, alpha, a, b0, i)
	got := testmat.Dense(x, i)
	diff := make([]float64, len(got))
	for j := range got {
		diff[j] = got[j] - want[j]
	}
	tol := 16 * float64(a.Rows+1) * testmat.Eps[T]() * max(1, testmat.MaxAbs(want))
	if e := testmat.MaxAbs(diff); !(e <= tol) {
		t.Fatalf("%s %v m=%d n=%d matrix %d: max error %g vs gonum exceeds %g", what, v, b0.Rows, b0.Cols, i, e, tol)
	}
}
