package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The direct family: substitution, one matrix at a time, the batch spread
// over the workers.
//
// Every one of the 16 variants is reduced to one forward substitution
// L*Y = alpha*C with L lower triangular:
//
//   - E is op(A) for side Left and op(A)^T for side Right (X*op(A) = B is
//     op(A)^T * X^T = B^T), and C is B or B^T accordingly: only strides
//     change, nothing is copied.
//   - an upper E is made lower by reversing the order of its rows and
//     columns, and the rows of C with it (a negative stride).
//
// L is packed per worker into the workspace, row by row (row i holds
// L[i,0..i-1] and then 1/L[i,i], or 1 for a unit diagonal), so the inner
// loop reads it contiguously whatever the layout of A, and each diagonal is
// inverted once per matrix instead of divided into every column. Multiplying
// by the reciprocal differs from dividing only when 1/L[i,i] overflows (a
// subnormal diagonal); zeros, Infs and NaNs propagate as with division.

// geom says where E and C live in one matrix's storage.
type geom struct {
	ebase, ers, ecs int // E[i,k] = a[ebase + i*ers + k*ecs], E lower
	cbase, crs, ccs int // C[i,j] = b[cbase + i*crs + j*ccs]
}

func geometry(p *problem, lda, ldb int) geom {
	eIsA := (p.side == batchlas.Left) == (p.ta == batchlas.NoTrans)
	var g geom
	if eIsA {
		g.ers, g.ecs = 1, lda
	} else {
		g.ers, g.ecs = lda, 1
	}
	if p.side == batchlas.Left {
		g.crs, g.ccs = 1, ldb
	} else {
		g.crs, g.ccs = ldb, 1
	}
	if lower := eIsA == (p.uplo == batchlas.Lower); !lower {
		g.ebase = (p.t - 1) * (g.ers + g.ecs)
		g.ers, g.ecs = -g.ers, -g.ecs
		g.cbase = (p.t - 1) * g.crs
		g.crs = -g.crs
	}
	return g
}

// packedSize is the per-worker workspace of the substitution kernel for a
// triangle of order t.
func packedSize(t int) int { return t * (t + 1) / 2 }

// launchDirect solves every matrix of the batch by substitution.
func launchDirect[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T], ws []T) error {
	if alpha == 0 {
		return zeroB(ctx, b)
	}
	g := geometry(p, a.LD, b.LD)
	per := packedSize(p.t)
	unit := p.diag == batchlas.Unit
	work := float64(p.t) * float64(p.t) * float64(p.r)
	return parallel.For(ctx, b.Count, work, func(w, lo, hi int) {
		pk := ws[w*per : (w+1)*per]
		for i := lo; i < hi; i++ {
			// A broadcast matrix is packed once per chunk.
			if i == lo || a.Stride != 0 {
				pack(pk, a.Data[i*a.Stride:], p.t, g, unit)
			}
			solveLower(pk, p.t, p.r, b.Data[i*b.Stride:], g.cbase, g.crs, g.ccs, alpha)
		}
	})
}

// zeroB sets every matrix of b to zero (alpha == 0, as BLAS does).
func zeroB[T batchlas.Float](ctx context.Context, b batchlas.Batch[T]) error {
	return parallel.For(ctx, b.Count, float64(b.Rows*b.Cols), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := 0; j < b.Cols; j++ {
				o := i*b.Stride + j*b.LD
				clear(b.Data[o : o+b.Rows])
			}
		}
	})
}

// pack writes L (E made lower) row by row into pk, with reciprocal
// diagonals. It reads only the referenced triangle of A, and the diagonal
// only when it is not unit.
func pack[T batchlas.Float](pk, a []T, t int, g geom, unit bool) {
	for i := 0; i < t; i++ {
		row := pk[i*(i+1)/2:][: i+1 : i+1]
		o := g.ebase + i*g.ers
		for k := range row[:i] {
			row[k] = a[o]
			o += g.ecs
		}
		if unit {
			row[i] = 1
		} else {
			row[i] = 1 / a[o]
		}
	}
}

// solveLower overwrites C (t x r, in c at cbase with strides rs, cs) with
// L^-1 * alpha*C, L packed by pack. Columns of C go four at a time and rows
// two at a time, so each loaded L element and C element serves four or two
// multiply-adds from registers.
func solveLower[T batchlas.Float](pk []T, t, r int, c []T, cbase, rs, cs int, alpha T) {
	j := 0
	for ; j+4 <= r; j += 4 {
		cb := cbase + j*cs
		i := 0
		for ; i+2 <= t; i += 2 {
			o0 := i * (i + 1) / 2
			o1 := o0 + i + 1
			p0 := pk[o0 : o0+i]
			p1 := pk[o1 : o1+i]
			p1 = p1[:len(p0)]
			q0 := cb + i*rs
			q1 := q0 + rs
			s00, s01, s02, s03 := alpha*c[q0], alpha*c[q0+cs], alpha*c[q0+2*cs], alpha*c[q0+3*cs]
			s10, s11, s12, s13 := alpha*c[q1], alpha*c[q1+cs], alpha*c[q1+2*cs], alpha*c[q1+3*cs]
			qk := cb
			for k, l0 := range p0 {
				l1 := p1[k]
				x0, x1, x2, x3 := c[qk], c[qk+cs], c[qk+2*cs], c[qk+3*cs]
				s00 -= l0 * x0
				s01 -= l0 * x1
				s02 -= l0 * x2
				s03 -= l0 * x3
				s10 -= l1 * x0
				s11 -= l1 * x1
				s12 -= l1 * x2
				s13 -= l1 * x3
				qk += rs
			}
			d0 := pk[o0+i]
			s00 *= d0
			s01 *= d0
			s02 *= d0
			s03 *= d0
			l, d1 := pk[o1+i], pk[o1+i+1]
			s10 = (s10 - l*s00) * d1
			s11 = (s11 - l*s01) * d1
			s12 = (s12 - l*s02) * d1
			s13 = (s13 - l*s03) * d1
			c[q0], c[q0+cs], c[q0+2*cs], c[q0+3*cs] = s00, s01, s02, s03
			c[q1], c[q1+cs], c[q1+2*cs], c[q1+3*cs] = s10, s11, s12, s13
		}
		if i < t {
			o0 := i * (i + 1) / 2
			p0 := pk[o0 : o0+i]
			q0 := cb + i*rs
			s00, s01, s02, s03 := alpha*c[q0], alpha*c[q0+cs], alpha*c[q0+2*cs], alpha*c[q0+3*cs]
			qk := cb
			for _, l0 := range p0 {
				s00 -= l0 * c[qk]
				s01 -= l0 * c[qk+cs]
				s02 -= l0 * c[qk+2*cs]
				s03 -= l0 * c[qk+3*cs]
				qk += rs
			}
			d0 := pk[o0+i]
			c[q0], c[q0+cs], c[q0+2*cs], c[q0+3*cs] = s00*d0, s01*d0, s02*d0, s03*d0
		}
	}
	for ; j < r; j++ {
		cb := cbase + j*cs
		for i := 0; i < t; i++ {
			o0 := i * (i + 1) / 2
			p0 := pk[o0 : o0+i]
			q0 := cb + i*rs
			s := alpha * c[q0]
			qk := cb
			for _, l0 := range p0 {
				s -= l0 * c[qk]
				qk += rs
			}
			c[q0] = s * pk[o0+i]
		}
	}
}
