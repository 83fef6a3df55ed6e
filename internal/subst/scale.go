package subst

import "github.com/batchlas-go/batchlas"

// Scale solves count systems with a triangle of order 1, which scale
// their right-hand sides: each entry of C_i (rows x cols, column-major
// with leading dimension ldc, C_i at c[i*sc:]) becomes (alpha*C + 0) * d_i
// with d_i = 1/a[i*sa] (1 when unit). These are the operations SolveRows
// and SolveCols perform for an order-1 triangle, the + 0 included (it
// makes a -0 product +0, as their accumulation does), without their
// per-matrix setup, which is most of the cost of so small a solve. sa may
// be 0 (one a for all).
func Scale[T batchlas.Float](c []T, ldc, rows, cols, count, sc int, a []T, sa int, unit bool, alpha T) {
	if rows == 0 || cols == 0 || count == 0 {
		return
	}
	_ = c[(count-1)*sc+(cols-1)*ldc+rows-1]
	_ = a[(count-1)*sa]
	// Columns shorter than half a vector (a row of B for side Left) run
	// faster as scalars than as masked vector loads and stores.
	if rows >= width[T]()/2 && scaleAsm(c, ldc, rows, cols, count, sc, a, sa, unit, alpha) {
		return
	}
	scaleGo(c, ldc, rows, cols, count, sc, a, sa, unit, alpha)
}

// scaleGo is the assembly's twin.
func scaleGo[T batchlas.Float](c []T, ldc, rows, cols, count, sc int, a []T, sa int, unit bool, alpha T) {
	for i := range count {
		d := T(1)
		if !unit {
			d = 1 / a[i*sa]
		}
		for j := range cols {
			col := c[i*sc+j*ldc:][:rows]
			for r, x := range col {
				col[r] = (alpha*x + 0) * d
			}
		}
	}
}
