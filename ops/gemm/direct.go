package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// Cache blocking of the direct kernel: a block of op(A) of at most
// directMB x directKB elements (128 KiB in float64) stays in L2 while every
// column pair of C streams past it, and the two kb-long slivers of op(B)
// stay in L1.
const (
	directMB = 128
	directKB = 128
)

// direct runs the multiply on the operands as they lie in memory: 4x2
// register tiles of C, one loop variant per transpose case so that every
// inner loop reads contiguous memory with at most one bounds check.
func direct[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	return runJob(ctx, runDirect, p, flops, nil)
}

// directOne multiplies one matrix; a, b and c start at its first element.
func directOne[T batchlas.Float](p *problem[T], a, b, c []T) {
	m, n, k := p.m, p.n, p.k
	lda, ldb := p.a.LD, p.b.LD
	for l0 := 0; l0 < k; l0 += directKB {
		kb := min(directKB, k-l0)
		// The first k block applies beta; later ones accumulate.
		beta := p.beta
		if l0 > 0 {
			beta = 1
		}
		// Move a and b to the start of this k block.
		al, bl := a, b
		if p.transA {
			al = a[l0:]
		} else {
			al = a[l0*lda:]
		}
		if p.transB {
			bl = b[l0*ldb:]
		} else {
			bl = b[l0:]
		}
		for i0 := 0; i0 < m; i0 += directMB {
			mb := min(directMB, m-i0)
			directBlock(p, mb, n, kb, i0, al, bl, c, p.alpha, beta)
		}
	}
}

// directBlock computes rows [i0, i0+mb) of C over one k block of length
// kb: C = alpha*op(A)[i0:i0+mb, block]*op(B)[block, :] + beta*C. As in
// small, the last row tile and column pair are shifted back to end at the
// block's last row and at n, overlapping tiles already written in this k
// block (possibly the previous row block's), and store only what is new:
// on small matrices the edges are not a sliver (at m=n=11 a third of C),
// and as dot products they made direct 1.5x slower than packed there.
// Matrices with m < 4 or n < 2 have no full tile and take dot products.
func directBlock[T batchlas.Float](p *problem[T], mb, n, kb, i0 int, a, b, c []T, alpha, beta T) {
	if p.m < mr || n < nr {
		directEdge(p, i0, i0+mb, 0, n, kb, a, b, c, alpha, beta)
		return
	}
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	for j0 := 0; j0 < n; j0 += nr {
		j := min(j0, n-nr)
		for r0 := i0; r0 < i0+mb; r0 += mr {
			// i >= 0: i0+mb >= mr, since the first row block has
			// min(directMB, m) >= mr rows and later ones start past it.
			i := min(r0, i0+mb-mr)
			var c0, c1, c2, c3, d0, d1, d2, d3 T
			switch {
			case !p.transA && !p.transB:
				c0, c1, c2, c3, d0, d1, d2, d3 = tileNN(kb, a[i:], lda, b[j*ldb:], b[(j+1)*ldb:])
			case p.transA && !p.transB:
				c0, c1, c2, c3, d0, d1, d2, d3 = tileTN(kb, a[i*lda:], a[(i+1)*lda:], a[(i+2)*lda:], a[(i+3)*lda:], b[j*ldb:], b[(j+1)*ldb:])
			case !p.transA && p.transB:
				c0, c1, c2, c3, d0, d1, d2, d3 = tileNT(kb, a[i:], lda, b[j:], ldb)
			default:
				c0, c1, c2, c3, d0, d1, d2, d3 = tileTT(kb, a[i*lda:], a[(i+1)*lda:], a[(i+2)*lda:], a[(i+3)*lda:], b[j:], ldb)
			}
			if skipR, skipC := r0-i, j0-j; skipR > 0 || skipC > 0 {
				smallPut(c[j*ldc+i:], ldc, skipR, skipC, alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
				continue
			}
			x := c[j*ldc+i : j*ldc+i+4 : j*ldc+i+4]
			y := c[(j+1)*ldc+i : (j+1)*ldc+i+4 : (j+1)*ldc+i+4]
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

// directEdge computes C[i, j] for i in [ilo, ihi), j in [jlo, jhi) as dot
// products over one k block, for matrices too thin for a 4x2 tile. Four
// partial sums keep four multiply-adds in flight instead of waiting on the
// latency of each add.
func directEdge[T batchlas.Float](p *problem[T], ilo, ihi, jlo, jhi, kb int, a, b, c []T, alpha, beta T) {
	ai, al := 1, p.a.LD
	if p.transA {
		ai, al = p.a.LD, 1
	}
	bl, bj := 1, p.b.LD
	if p.transB {
		bl, bj = p.b.LD, 1
	}
	ldc := p.c.LD
	for j := jlo; j < jhi; j++ {
		for i := ilo; i < ihi; i++ {
			var s0, s1, s2, s3 T
			pa, pb := i*ai, j*bj
			l := 0
			for ; l+4 <= kb; l += 4 {
				s0 += a[pa] * b[pb]
				s1 += a[pa+al] * b[pb+bl]
				s2 += a[pa+2*al] * b[pb+2*bl]
				s3 += a[pa+3*al] * b[pb+3*bl]
				pa += 4 * al
				pb += 4 * bl
			}
			for ; l < kb; l++ {
				s0 += a[pa] * b[pb]
				pa += al
				pb += bl
			}
			s := (s0 + s1) + (s2 + s3)
			if beta == 0 {
				c[i+j*ldc] = alpha * s
			} else {
				c[i+j*ldc] = alpha*s + beta*c[i+j*ldc]
			}
		}
	}
}

// tileNN accumulates a 4x2 tile of op(A)*op(B) over kb steps for
// op(A) = A, op(B) = B: a holds rows i..i+3 at stride lda, b0 and b1 are
// two columns of B. Each element of A is used twice as soon as it is
// loaded, so the 8 accumulators, x, y and one temporary fit in registers.
func tileNN[T batchlas.Float](kb int, a []T, lda int, b0, b1 []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	b0, b1 = b0[:kb], b1[:kb]
	off := 0
	for l, x := range b0 {
		y := b1[l]
		s := a[off : off+2 : off+2]
		c0 += s[0] * x
		d0 += s[0] * y
		c1 += s[1] * x
		d1 += s[1] * y
		// A second bounds check ends the basic block here, so the
		// compiler schedules the products of rows 0-1 before those of
		// rows 2-3 instead of holding all eight live (it spills then).
		s = a[off+2 : off+4 : off+4]
		c2 += s[0] * x
		d2 += s[0] * y
		c3 += s[1] * x
		d3 += s[1] * y
		off += lda
	}
	return
}

// tileTN is tileNN for op(A) = A^T: a0..a3 are four columns of A (rows of
// op(A)), each contiguous in k. a2 and a3 keep their bounds checks on
// purpose: the check splits the loop body in two blocks, as in tileNN.
func tileTN[T batchlas.Float](kb int, a0, a1, a2, a3, b0, b1 []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	b0, b1 = b0[:kb], b1[:kb]
	a0, a1 = a0[:kb], a1[:kb]
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
	return
}

// tileNT is tileNN for op(B) = B^T: b holds columns j, j+1 of op(B) as two
// adjacent elements at stride ldb.
func tileNT[T batchlas.Float](kb int, a []T, lda int, b []T, ldb int) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	offa, offb := 0, 0
	for range kb {
		t := b[offb : offb+2 : offb+2]
		x, y := t[0], t[1]
		s := a[offa : offa+2 : offa+2]
		c0 += s[0] * x
		d0 += s[0] * y
		c1 += s[1] * x
		d1 += s[1] * y
		s = a[offa+2 : offa+4 : offa+4] // splits the block, see tileNN
		c2 += s[0] * x
		d2 += s[0] * y
		c3 += s[1] * x
		d3 += s[1] * y
		offa += lda
		offb += ldb
	}
	return
}

// tileTT is tileNN for op(A) = A^T and op(B) = B^T; a2 and a3 keep their
// bounds checks as in tileTN.
func tileTT[T batchlas.Float](kb int, a0, a1, a2, a3, b []T, ldb int) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	a0, a1 = a0[:kb], a1[:kb]
	offb := 0
	for l := range a0 {
		t := b[offb : offb+2 : offb+2]
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
	return
}
