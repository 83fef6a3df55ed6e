package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// TriSolve solves every triangle case (upper/lower, transposed or not,
// unit or not) on orders straddling its blocks: op(A)*X reproduces B, and
// the unread triangle (NaN) and b's rows past n stay untouched, on both
// tile paths.
func TestTriSolve(t *testing.T) {
	onEachPath(func(path string) {
		triSolves[float64](t, path, 1e-12)
		triSolves[float32](t, path, 1e-4)
	})
}

func triSolves[T batchlas.Float](t *testing.T, path string, tol float64) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 15, 16, 17, 31, 32, 33, 47, 48, 49, 70} {
		for _, nrhs := range []int{1, 3, 9} {
			for _, upper := range []bool{false, true} {
				for _, trans := range []bool{false, true} {
					for _, unit := range []bool{false, true} {
						what := fmt.Sprintf("%T path=%v n=%d nrhs=%d upper=%v trans=%v unit=%v", T(0), path, n, nrhs, upper, trans, unit)
						checkTriSolve[T](t, r, what, upper, trans, unit, n, nrhs, tol)
					}
				}
			}
		}
	}
}

func checkTriSolve[T batchlas.Float](t *testing.T, r *rand.Rand, what string, upper, trans, unit bool, n, nrhs int, tol float64) {
	lda, ldb := n+1, n+2
	a, opA := triangle[T](r, upper, trans, unit, n, lda)
	b := make([]T, ldb*nrhs)
	for i := range b {
		b[i] = T(r.Float64()*2 - 1)
		if i%ldb >= n {
			b[i] = T(math.NaN())
		}
	}
	b0 := append([]T(nil), b...)
	TriSolve(upper, trans, unit, n, a, lda, b, ldb, nrhs)
	for c := range nrhs {
		for i := range ldb {
			if i >= n {
				if !math.IsNaN(float64(b[c*ldb+i])) {
					t.Fatalf("%s: wrote b's gap", what)
				}
				continue
			}
			var s float64
			for j := range n {
				s += opA(i, j) * float64(b[c*ldb+j])
			}
			if d := math.Abs(s - float64(b0[c*ldb+i])); !(d <= tol) {
				t.Fatalf("%s: residual %g at (%d,%d)", what, d, i, c)
			}
		}
	}
}

// TriSolveRight solves X*op(A) = B in every triangle case on orders
// straddling its blocks, with more or fewer rows than a tile: X*op(A)
// reproduces B, and b's rows past m stay untouched, on both tile paths.
func TestTriSolveRight(t *testing.T) {
	onEachPath(func(path string) {
		triSolvesRight[float64](t, path, 1e-12)
		triSolvesRight[float32](t, path, 1e-4)
	})
}

func triSolvesRight[T batchlas.Float](t *testing.T, path string, tol float64) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 5, 16, 17, 31, 32, 33, 49, 70} {
		for _, m := range []int{1, 3, 9, 25, 50} {
			for _, upper := range []bool{false, true} {
				for _, trans := range []bool{false, true} {
					for _, unit := range []bool{false, true} {
						what := fmt.Sprintf("%T path=%v m=%d n=%d upper=%v trans=%v unit=%v", T(0), path, m, n, upper, trans, unit)
						checkTriSolveRight[T](t, r, what, upper, trans, unit, m, n, tol)
					}
				}
			}
		}
	}
}

func checkTriSolveRight[T batchlas.Float](t *testing.T, r *rand.Rand, what string, upper, trans, unit bool, m, n int, tol float64) {
	lda, ldb := n+1, m+2
	a, opA := triangle[T](r, upper, trans, unit, n, lda)
	b := make([]T, ldb*n)
	for i := range b {
		b[i] = T(r.Float64()*2 - 1)
		if i%ldb >= m {
			b[i] = T(math.NaN())
		}
	}
	b0 := append([]T(nil), b...)
	TriSolveRight(upper, trans, unit, m, n, a, lda, b, ldb)
	for c := range n {
		for i := range ldb {
			if i >= m {
				if !math.IsNaN(float64(b[c*ldb+i])) {
					t.Fatalf("%s: wrote b's gap", what)
				}
				continue
			}
			var s float64
			for j := range n {
				s += float64(b[j*ldb+i]) * opA(j, c)
			}
			if d := math.Abs(s - float64(b0[c*ldb+i])); !(d <= tol) {
				t.Fatalf("%s: residual %g at (%d,%d)", what, d, i, c)
			}
		}
	}
}

// triangle makes a well-conditioned n x n upper or lower triangle with
// leading dimension lda, NaN everywhere TriSolve must not read (the other
// triangle, the rows past n, a unit diagonal), and op(A)'s elements as the
// solves see them.
func triangle[T batchlas.Float](r *rand.Rand, upper, trans, unit bool, n, lda int) ([]T, func(i, j int) float64) {
	a := make([]T, lda*n)
	for j := range n {
		for i := range lda {
			inTri := i < n && ((upper && i <= j) || (!upper && i >= j))
			switch {
			case !inTri || (unit && i == j):
				a[j*lda+i] = T(math.NaN())
			case i == j:
				a[j*lda+i] = T(2 + r.Float64())
			default:
				a[j*lda+i] = T((r.Float64()*2 - 1) / float64(n))
			}
		}
	}
	opA := func(i, j int) float64 {
		if trans {
			i, j = j, i
		}
		if (upper && i > j) || (!upper && i < j) {
			return 0
		}
		if unit && i == j {
			return 1
		}
		return float64(a[j*lda+i])
	}
	return a, opA
}
