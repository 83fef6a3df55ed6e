package subst

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// SolveRows overwrites the t rows of C^T with E^-1 * alpha*C^T, E of order
// t packed by PackSteps with the same back: C is rows x t, column-major
// with leading dimension ldc, and the row of the system solved at step s
// is C's column s forward, t-1-s backward. Each entry of a step sums its
// products with the coupled columns in two accumulators (coupled column k
// into accumulator k%2, the first starting at alpha*C), adds them and
// multiplies by the reciprocal diagonal. The assembly carries a chunk of
// up to four vectors of rows through each step.
func SolveRows[T batchlas.Float](pk []T, t int, back bool, c []T, ldc, rows int, alpha T) {
	if t == 0 || rows == 0 {
		return
	}
	_ = c[(t-1)*ldc+rows-1]
	pk = pk[:StepsSize(t)]
	if rowsAsm(pk, t, back, c, ldc, rows, alpha) {
		return
	}
	rowsGo(pk, t, back, c, ldc, rows, alpha)
}

// rowsGo is the assembly's twin, a chunk of up to 64 rows at a time.
func rowsGo[T batchlas.Float](pk []T, t int, back bool, c []T, ldc, rows int, alpha T) {
	for i0 := 0; i0 < rows; i0 += 64 {
		n := min(64, rows-i0)
		for s := range t {
			r0, lo := s, 0
			if back {
				r0, lo = t-1-s, t-s
			}
			o := s * (s + 1) / 2
			e, d := pk[o:o+s], pk[o+s]
			y := c[r0*ldc+i0 : r0*ldc+i0+n]
			var a0, a1 [64]T
			for i := range y {
				a0[i] = alpha * y[i]
			}
			for k, ek := range e {
				x := c[(lo+k)*ldc+i0 : (lo+k)*ldc+i0+n]
				a := &a0
				if k%2 == 1 {
					a = &a1
				}
				for i, xi := range x {
					a[i] = fma.Of(-ek, xi, a[i])
				}
			}
			for i := range y {
				y[i] = (a0[i] + a1[i]) * d
			}
		}
	}
}
