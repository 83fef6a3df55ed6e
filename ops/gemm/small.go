package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// small is built for tiny matrices in big batches (n up to 8 or 16), where
// one matrix is ~1000 flops and any per-matrix or per-tile cost shows: no
// operand is copied, the batch loop runs inside one function per transpose
// case (no closure, interface or kernel call per matrix or per tile), and
// every 4x2 tile of C runs the same full-size loop. The last row block and
// column pair are shifted back to end at m and n, overlapping tiles already
// done; they store only the rows and columns not yet written, so edges cost
// a partial store, not a second code path. Matrices with m < 4 or n < 2 have
// no full tile and take plain dot products.
//
// Nothing in it depends on the size for correctness (there is no k or cache
// blocking, which only costs speed on big matrices), so canRun accepts any
// shape: where small is worth running is for the tuned tables to say.
func small[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	var run jobKernel
	switch {
	case p.m < mr || p.n < nr:
		run = runSmallDots
	case !p.transA && !p.transB:
		run = runSmallNN
	case p.transA && !p.transB:
		run = runSmallTN
	case !p.transA && p.transB:
		run = runSmallNT
	default:
		run = runSmallTT
	}
	return runJob(ctx, run, p, flops, nil)
}

// smallDots handles matrices too thin for a 4x2 tile, as dot products.
func smallDots[T batchlas.Float](p *problem[T], lo, hi int) {
	a, b, c := p.a, p.b, p.c
	for i := lo; i < hi; i++ {
		directEdge(p, 0, p.m, 0, p.n, p.k, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:], p.alpha, p.beta)
	}
}

// smallPut stores a 4x2 tile at c (its first element) whose first skipR
// rows and skipC columns were already written by an earlier, overlapping
// tile: C = alpha*acc + beta*C there. Only edge tiles come here; full
// tiles store inline.
func smallPut[T batchlas.Float](c []T, ldc, skipR, skipC int, alpha, beta T, c0, c1, c2, c3, d0, d1, d2, d3 T) {
	acc := [nr][mr]T{{c0, c1, c2, c3}, {d0, d1, d2, d3}}
	for j := skipC; j < nr; j++ {
		col := c[j*ldc : j*ldc+mr]
		for i := skipR; i < mr; i++ {
			if beta == 0 {
				col[i] = alpha * acc[j][i]
			} else {
				col[i] = alpha*acc[j][i] + beta*col[i]
			}
		}
	}
}

// smallNN is op(A) = A, op(B) = B: at each l the tile reads four adjacent
// rows of a column of A and one element of each of two columns of B.
func smallNN[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	for idx := lo; idx < hi; idx++ {
		a := p.a.Data[idx*p.a.Stride:]
		b := p.b.Data[idx*p.b.Stride:]
		c := p.c.Data[idx*p.c.Stride:]
		for j0 := 0; j0 < n; j0 += nr {
			j := min(j0, n-nr)
			b0 := b[j*ldb : j*ldb+k]
			b1 := b[(j+1)*ldb : (j+1)*ldb+k]
			for i0 := 0; i0 < m; i0 += mr {
				i := min(i0, m-mr)
				var c0, c1, c2, c3, d0, d1, d2, d3 T
				off := i
				for l, x := range b0 {
					y := b1[l]
					s := a[off : off+2 : off+2]
					c0 += s[0] * x
					d0 += s[0] * y
					c1 += s[1] * x
					d1 += s[1] * y
					// The second bounds check ends the basic block, so
					// the compiler schedules these four products after
					// the first four are summed. In one block it computes
					// all eight products first and spills.
					s = a[off+2 : off+4 : off+4]
					c2 += s[0] * x
					d2 += s[0] * y
					c3 += s[1] * x
					d3 += s[1] * y
					off += lda
				}
				// alpha and beta are read from p only here: as locals
				// they would hold two registers across the k loop and
				// push accumulators to the stack.
				alpha, beta := p.alpha, p.beta
				if i != i0 || j != j0 {
					smallPut(c[j*ldc+i:], ldc, i0-i, j0-j, alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					continue
				}
				x := (*[mr]T)(c[j*ldc+i : j*ldc+i+mr])
				y := (*[mr]T)(c[(j+1)*ldc+i : (j+1)*ldc+i+mr])
				if beta == 0 {
					x[0], x[1], x[2], x[3] = alpha*c0, alpha*c1, alpha*c2, alpha*c3
					y[0], y[1], y[2], y[3] = alpha*d0, alpha*d1, alpha*d2, alpha*d3
				} else {
					x[0], x[1], x[2], x[3] = alpha*c0+beta*x[0], alpha*c1+beta*x[1], alpha*c2+beta*x[2], alpha*c3+beta*x[3]
					y[0], y[1], y[2], y[3] = alpha*d0+beta*y[0], alpha*d1+beta*y[1], alpha*d2+beta*y[2], alpha*d3+beta*y[3]
				}
			}
		}
	}
}

// smallTN is op(A) = A^T, op(B) = B: rows of op(A) are columns of A, so
// the tile reads four columns of A and two of B, all contiguous in l.
func smallTN[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	for idx := lo; idx < hi; idx++ {
		a := p.a.Data[idx*p.a.Stride:]
		b := p.b.Data[idx*p.b.Stride:]
		c := p.c.Data[idx*p.c.Stride:]
		for j0 := 0; j0 < n; j0 += nr {
			j := min(j0, n-nr)
			b0 := b[j*ldb : j*ldb+k]
			b1 := b[(j+1)*ldb : (j+1)*ldb+k]
			for i0 := 0; i0 < m; i0 += mr {
				i := min(i0, m-mr)
				a0 := a[i*lda : i*lda+k]
				a1 := a[(i+1)*lda : (i+1)*lda+k]
				a2 := a[(i+2)*lda : (i+2)*lda+k]
				a3 := a[(i+3)*lda : (i+3)*lda+k]
				// a2 and a3 keep their bounds checks: each check ends a
				// block, which keeps the compiler from computing all eight
				// products before summing (see smallNN).
				a0, a1, b1 := a0[:len(b0)], a1[:len(b0)], b1[:len(b0)]
				var c0, c1, c2, c3, d0, d1, d2, d3 T
				for l, x := range b0 {
					y := b1[l]
					c0 += a0[l] * x
					d0 += a0[l] * y
					c1 += a1[l] * x
					d1 += a1[l] * y
					c2 += a2[l] * x
					d2 += a2[l] * y
					c3 += a3[l] * x
					d3 += a3[l] * y
				}
				// alpha and beta are read from p only here: as locals
				// they would hold two registers across the k loop and
				// push accumulators to the stack.
				alpha, beta := p.alpha, p.beta
				if i != i0 || j != j0 {
					smallPut(c[j*ldc+i:], ldc, i0-i, j0-j, alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					continue
				}
				x := (*[mr]T)(c[j*ldc+i : j*ldc+i+mr])
				y := (*[mr]T)(c[(j+1)*ldc+i : (j+1)*ldc+i+mr])
				if beta == 0 {
					x[0], x[1], x[2], x[3] = alpha*c0, alpha*c1, alpha*c2, alpha*c3
					y[0], y[1], y[2], y[3] = alpha*d0, alpha*d1, alpha*d2, alpha*d3
				} else {
					x[0], x[1], x[2], x[3] = alpha*c0+beta*x[0], alpha*c1+beta*x[1], alpha*c2+beta*x[2], alpha*c3+beta*x[3]
					y[0], y[1], y[2], y[3] = alpha*d0+beta*y[0], alpha*d1+beta*y[1], alpha*d2+beta*y[2], alpha*d3+beta*y[3]
				}
			}
		}
	}
}

// smallNT is op(A) = A, op(B) = B^T: at each l the tile reads four
// adjacent rows of a column of A and two adjacent elements of a column of
// B (row l of op(B)).
func smallNT[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	for idx := lo; idx < hi; idx++ {
		a := p.a.Data[idx*p.a.Stride:]
		b := p.b.Data[idx*p.b.Stride:]
		c := p.c.Data[idx*p.c.Stride:]
		for j0 := 0; j0 < n; j0 += nr {
			j := min(j0, n-nr)
			for i0 := 0; i0 < m; i0 += mr {
				i := min(i0, m-mr)
				var c0, c1, c2, c3, d0, d1, d2, d3 T
				offa, offb := i, j
				for range k {
					t := (*[nr]T)(b[offb : offb+nr])
					x, y := t[0], t[1]
					s := a[offa : offa+2 : offa+2]
					c0 += s[0] * x
					d0 += s[0] * y
					c1 += s[1] * x
					d1 += s[1] * y
					s = a[offa+2 : offa+4 : offa+4] // splits the block, see smallNN
					c2 += s[0] * x
					d2 += s[0] * y
					c3 += s[1] * x
					d3 += s[1] * y
					offa += lda
					offb += ldb
				}
				// alpha and beta are read from p only here: as locals
				// they would hold two registers across the k loop and
				// push accumulators to the stack.
				alpha, beta := p.alpha, p.beta
				if i != i0 || j != j0 {
					smallPut(c[j*ldc+i:], ldc, i0-i, j0-j, alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					continue
				}
				x := (*[mr]T)(c[j*ldc+i : j*ldc+i+mr])
				y := (*[mr]T)(c[(j+1)*ldc+i : (j+1)*ldc+i+mr])
				if beta == 0 {
					x[0], x[1], x[2], x[3] = alpha*c0, alpha*c1, alpha*c2, alpha*c3
					y[0], y[1], y[2], y[3] = alpha*d0, alpha*d1, alpha*d2, alpha*d3
				} else {
					x[0], x[1], x[2], x[3] = alpha*c0+beta*x[0], alpha*c1+beta*x[1], alpha*c2+beta*x[2], alpha*c3+beta*x[3]
					y[0], y[1], y[2], y[3] = alpha*d0+beta*y[0], alpha*d1+beta*y[1], alpha*d2+beta*y[2], alpha*d3+beta*y[3]
				}
			}
		}
	}
}

// smallTT is op(A) = A^T, op(B) = B^T: four columns of A contiguous in l,
// and two adjacent elements of a column of B at each l.
func smallTT[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	for idx := lo; idx < hi; idx++ {
		a := p.a.Data[idx*p.a.Stride:]
		b := p.b.Data[idx*p.b.Stride:]
		c := p.c.Data[idx*p.c.Stride:]
		for j0 := 0; j0 < n; j0 += nr {
			j := min(j0, n-nr)
			for i0 := 0; i0 < m; i0 += mr {
				i := min(i0, m-mr)
				a0 := a[i*lda : i*lda+k]
				a1 := a[(i+1)*lda : (i+1)*lda+k]
				a2 := a[(i+2)*lda : (i+2)*lda+k]
				a3 := a[(i+3)*lda : (i+3)*lda+k]
				var c0, c1, c2, c3, d0, d1, d2, d3 T
				a1 = a1[:len(a0)] // a2, a3 keep their checks, see smallTN
				offb := j
				for l := range a0 {
					t := (*[nr]T)(b[offb : offb+nr])
					x, y := t[0], t[1]
					c0 += a0[l] * x
					d0 += a0[l] * y
					c1 += a1[l] * x
					d1 += a1[l] * y
					c2 += a2[l] * x
					d2 += a2[l] * y
					c3 += a3[l] * x
					d3 += a3[l] * y
					offb += ldb
				}
				// alpha and beta are read from p only here: as locals
				// they would hold two registers across the k loop and
				// push accumulators to the stack.
				alpha, beta := p.alpha, p.beta
				if i != i0 || j != j0 {
					smallPut(c[j*ldc+i:], ldc, i0-i, j0-j, alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					continue
				}
				x := (*[mr]T)(c[j*ldc+i : j*ldc+i+mr])
				y := (*[mr]T)(c[(j+1)*ldc+i : (j+1)*ldc+i+mr])
				if beta == 0 {
					x[0], x[1], x[2], x[3] = alpha*c0, alpha*c1, alpha*c2, alpha*c3
					y[0], y[1], y[2], y[3] = alpha*d0, alpha*d1, alpha*d2, alpha*d3
				} else {
					x[0], x[1], x[2], x[3] = alpha*c0+beta*x[0], alpha*c1+beta*x[1], alpha*c2+beta*x[2], alpha*c3+beta*x[3]
					y[0], y[1], y[2], y[3] = alpha*d0+beta*y[0], alpha*d1+beta*y[1], alpha*d2+beta*y[2], alpha*d3+beta*y[3]
				}
			}
		}
	}
}
