package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/subst"
)

// The direct family: substitution, one matrix at a time, the batch spread
// over the workers.
//
// Every one of the 16 variants is reduced to one substitution E*Y = alpha*C
// with E triangular:
//
//   - E is op(A) for side Left and op(A)^T for side Right (X*op(A) = B is
//     op(A)^T * X^T = B^T), and C is B or B^T accordingly: only strides
//     change, nothing is copied. Left runs solveCols (the columns of C are
//     columns of B, contiguous), Right runs solveRows (the columns of C are
//     rows of B: four of them are four adjacent elements).
//   - a lower E is solved forward (row 0 first), an upper E backward.
//
// E is packed per worker into the workspace in the order the rows are
// solved ("steps", subst.PackSteps): the row solved at step s holds its s
// coefficients against the rows already solved, in increasing row order
// of C, then 1/E[i,i] (1 for a unit diagonal). So the inner loop reads E and C
// contiguously whatever the layout of A and the direction, and each
// diagonal is inverted once per matrix instead of divided into every
// column. Multiplying by the reciprocal differs from dividing only when
// 1/E[i,i] overflows (a subnormal diagonal): for side Left, where BLAS
// divides, such a matrix is solved by division (divide.go); for side
// Right BLAS multiplies by the reciprocal too. Zeros, Infs and NaNs
// propagate as with division.

// geom says where E lives in one matrix's storage and which way it is
// solved.
type geom struct {
	ers, ecs int  // E[i,k] = a[i*ers + k*ecs]
	back     bool // E is upper: solve from the last row up
}

func geometry(p *problem, lda int) geom {
	eIsA := (p.side == batchlas.Left) == (p.ta == batchlas.NoTrans)
	g := geom{ers: lda, ecs: 1}
	if eIsA {
		g.ers, g.ecs = 1, lda
	}
	g.back = eIsA != (p.uplo == batchlas.Lower)
	return g
}

// panelCols is the number of columns of C that solveCols solves together
// out of a panel (see solveCols).
const panelCols = 4

// workSize is the per-worker workspace of the substitution kernel for a
// triangle of order t: the packed triangle, then the column panel, padded
// so that two workers' scratch never shares a cache line.
func workSize(t int) int { return parallel.Pad(subst.StepsSize(t) + panelCols*t) }

// launchDirect solves every matrix of the batch by substitution.
// alpha is not 0 (Trsm zeroes B itself).
func launchDirect[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T], ws []T) error {
	g := geometry(p, a.LD)
	per := workSize(p.t)
	np := subst.StepsSize(p.t)
	unit := p.diag == batchlas.Unit
	left := p.side == batchlas.Left
	work := float64(p.t) * float64(p.t) * float64(p.r)
	// C(i, j) is B(i, j) for Left and B(j, i) for Right.
	cis, cjs := 1, b.LD
	if !left {
		cis, cjs = b.LD, 1
	}
	if p.t <= smallT {
		return runJob(ctx, runDirectSmall, p, alpha, a, b, ws, work, 0, func(j *job[T]) {
			j.g, j.unit, j.left, j.cis, j.cjs = g, unit, left, cis, cjs
		})
	}
	// At most one worker per slot of ws, so w*per+per <= len(ws).
	return runJob(ctx, runDirect, p, alpha, a, b, ws, work, max(1, len(ws)/per), func(j *job[T]) {
		j.g, j.per, j.np, j.unit, j.left, j.cis, j.cjs = g, per, np, unit, left, cis, cjs
	})
}

// direct solves matrices [lo, hi) with worker w's scratch.
func (j *job[T]) direct(w, lo, hi int) {
	p, a, b, g, per, np, alpha := &j.p, j.a, j.b, j.g, j.per, j.np, j.alpha
	pk := j.ws[w*per : w*per+np]
	xp := j.ws[w*per+np : w*per+np+panelCols*p.t]
	for i := lo; i < hi; i++ {
		if j.left && tinyDiagonal(a.Data[i*a.Stride:], g, j.unit, p.t) {
			solveDivide(a.Data[i*a.Stride:], g, p.t, p.r, b.Data[i*b.Stride:], j.cis, j.cjs, alpha)
			continue
		}
		// A broadcast matrix is packed once per chunk.
		if i == lo || a.Stride != 0 {
			subst.PackSteps(pk, a.Data[i*a.Stride:], p.t, g.ers, g.ecs, g.back, j.unit)
		}
		if j.left {
			solveCols(pk, xp, p.t, p.r, b.Data[i*b.Stride:], b.LD, g.back, alpha)
		} else {
			solveRows(pk, p.t, p.r, b.Data[i*b.Stride:], b.LD, g.back, alpha)
		}
	}
}

// zeroB sets every matrix of b to zero: Trsm with alpha == 0, as BLAS does,
// without choosing a kernel.
func zeroB[T batchlas.Float](ctx context.Context, b batchlas.Batch[T]) error {
	return runJob(ctx, runZero, &problem{}, 0, batchlas.Batch[T]{}, b, nil, float64(b.Rows*b.Cols), 0, nil)
}

// zeroRange zeroes matrices [lo, hi) of b.
func zeroRange[T batchlas.Float](b batchlas.Batch[T], lo, hi int) {
	for i := lo; i < hi; i++ {
		for j := 0; j < b.Cols; j++ {
			o := i*b.Stride + j*b.LD
			clear(b.Data[o : o+b.Rows])
		}
	}
}

// step is where two consecutive steps s, s+1 find their data: the rows of
// C they solve, the rows [lo, lo+s) both are coupled to, and in pk the
// common coefficients of each, the coupling of the second to the first,
// and the two reciprocal diagonals.
type step struct {
	r0, r1, lo int
	o0, o1     int // common coefficients of step s and s+1 in pk
	cross      int // pk index of E[r1, r0]
	inv0, inv1 int
}

func twoSteps(s, t int, back bool) step {
	o0 := s * (s + 1) / 2
	o1 := o0 + s + 1
	if back {
		r0 := t - 1 - s
		return step{r0: r0, r1: r0 - 1, lo: r0 + 1, o0: o0, o1: o1 + 1, cross: o1, inv0: o0 + s, inv1: o1 + s + 1}
	}
	return step{r0: s, r1: s + 1, lo: 0, o0: o0, o1: o1, cross: o1 + s, inv0: o0 + s, inv1: o1 + s + 1}
}

// oneStep is step s alone: its row of C and where its coupled rows start.
func oneStep(s, t int, back bool) (r0, lo int) {
	if back {
		return t - 1 - s, t - s
	}
	return s, 0
}

// solveCols overwrites C = B (t x r, column-major with ld) with
// E^-1 * alpha*C, E packed by pack.
//
// Columns go panelCols (4) at a time through xp: the four columns are
// copied in, scaled by alpha, interleaved row by row (xp[4*i+q] is row i of
// column q), solved there, and copied back. Each step then reads two
// contiguous streams, its row of pk and the solved rows of the panel, and
// each coefficient loaded from pk serves four multiply-adds from
// registers. The per-step setup (two slice headers, the stride of C gone)
// is what small triangles pay most for: a step of an 8x8 solve has at
// most 7 terms. One row per step keeps 4 accumulators, a coefficient and
// a product live, well inside the 16 SSE registers.
//
// The last r%4 columns go two, then one at a time straight on C.
func solveCols[T batchlas.Float](pk, xp []T, t, r int, c []T, ld int, back bool, alpha T) {
	xp = xp[:panelCols*t]
	j := 0
	for ; j+panelCols <= r; j += panelCols {
		b0 := c[j*ld : j*ld+t]
		b1 := c[(j+1)*ld : (j+1)*ld+t]
		b2 := c[(j+2)*ld : (j+2)*ld+t]
		b3 := c[(j+3)*ld : (j+3)*ld+t]
		for i := range b0 {
			y := xp[4*i : 4*i+4 : 4*i+4]
			y[0], y[1], y[2], y[3] = alpha*b0[i], alpha*b1[i], alpha*b2[i], alpha*b3[i]
		}
		o := 0 // pk offset of step s: s*(s+1)/2
		for s := 0; s < t; s++ {
			r0, lo := oneStep(s, t, back)
			e := pk[o : o+s+1 : o+s+1]
			o += s + 1
			x := xp[4*lo : 4*(lo+s)]
			y := xp[4*r0 : 4*r0+4 : 4*r0+4]
			s0, s1, s2, s3 := y[0], y[1], y[2], y[3]
			for k, l := range e[:s] {
				v := x[4*k : 4*k+4 : 4*k+4]
				s0 -= l * v[0]
				s1 -= l * v[1]
				s2 -= l * v[2]
				s3 -= l * v[3]
			}
			d := e[s]
			y[0], y[1], y[2], y[3] = s0*d, s1*d, s2*d, s3*d
		}
		for i := range b0 {
			y := xp[4*i : 4*i+4 : 4*i+4]
			b0[i], b1[i], b2[i], b3[i] = y[0], y[1], y[2], y[3]
		}
	}
	for ; j+2 <= r; j += 2 {
		b0 := c[j*ld : j*ld+t]
		b1 := c[(j+1)*ld : (j+1)*ld+t]
		s := 0
		for ; s+2 <= t; s += 2 {
			st := twoSteps(s, t, back)
			p0 := pk[st.o0 : st.o0+s]
			p1 := pk[st.o1 : st.o1+s]
			p1 = p1[:len(p0)]
			x0 := b0[st.lo : st.lo+s]
			x0 = x0[:len(p0)]
			x1 := b1[st.lo : st.lo+s]
			x1 = x1[:len(p0)]
			s00, s01 := alpha*b0[st.r0], alpha*b1[st.r0]
			s10, s11 := alpha*b0[st.r1], alpha*b1[st.r1]
			for k, l0 := range p0 {
				l1 := p1[k]
				v0, v1 := x0[k], x1[k]
				s00 -= l0 * v0
				s01 -= l0 * v1
				s10 -= l1 * v0
				s11 -= l1 * v1
			}
			d0 := pk[st.inv0]
			s00 *= d0
			s01 *= d0
			l, d1 := pk[st.cross], pk[st.inv1]
			b0[st.r0], b1[st.r0] = s00, s01
			b0[st.r1] = (s10 - l*s00) * d1
			b1[st.r1] = (s11 - l*s01) * d1
		}
		if s < t {
			r0, lo := oneStep(s, t, back)
			o0 := s * (s + 1) / 2
			p0 := pk[o0 : o0+s]
			x0 := b0[lo : lo+s]
			x0 = x0[:len(p0)]
			x1 := b1[lo : lo+s]
			x1 = x1[:len(p0)]
			s00, s01 := alpha*b0[r0], alpha*b1[r0]
			for k, l0 := range p0 {
				s00 -= l0 * x0[k]
				s01 -= l0 * x1[k]
			}
			d0 := pk[o0+s]
			b0[r0], b1[r0] = s00*d0, s01*d0
		}
	}
	for ; j < r; j++ {
		b0 := c[j*ld : j*ld+t]
		for s := 0; s < t; s++ {
			r0, lo := oneStep(s, t, back)
			o0 := s * (s + 1) / 2
			p0 := pk[o0 : o0+s]
			x0 := b0[lo : lo+s]
			x0 = x0[:len(p0)]
			v := alpha * b0[r0]
			for k, l0 := range p0 {
				v -= l0 * x0[k]
			}
			b0[r0] = v * pk[o0+s]
		}
	}
}

// solveRows overwrites C = B^T with E^-1 * alpha*C, where B is r x t
// column-major with ld: row i of C is column i of B, and two columns of C
// are two adjacent rows of B. Same blocking as solveCols.
func solveRows[T batchlas.Float](pk []T, t, r int, c []T, ld int, back bool, alpha T) {
	j := 0
	for ; j+2 <= r; j += 2 {
		s := 0
		for ; s+2 <= t; s += 2 {
			st := twoSteps(s, t, back)
			p0 := pk[st.o0 : st.o0+s]
			p1 := pk[st.o1 : st.o1+s]
			p1 = p1[:len(p0)]
			y0 := c[st.r0*ld+j : st.r0*ld+j+2 : st.r0*ld+j+2]
			y1 := c[st.r1*ld+j : st.r1*ld+j+2 : st.r1*ld+j+2]
			s00, s01 := alpha*y0[0], alpha*y0[1]
			s10, s11 := alpha*y1[0], alpha*y1[1]
			q := st.lo*ld + j
			for k, l0 := range p0 {
				l1 := p1[k]
				x := c[q : q+2 : q+2]
				v0, v1 := x[0], x[1]
				s00 -= l0 * v0
				s01 -= l0 * v1
				s10 -= l1 * v0
				s11 -= l1 * v1
				q += ld
			}
			d0 := pk[st.inv0]
			s00 *= d0
			s01 *= d0
			l, d1 := pk[st.cross], pk[st.inv1]
			y0[0], y0[1] = s00, s01
			y1[0] = (s10 - l*s00) * d1
			y1[1] = (s11 - l*s01) * d1
		}
		if s < t {
			r0, lo := oneStep(s, t, back)
			o0 := s * (s + 1) / 2
			p0 := pk[o0 : o0+s]
			y0 := c[r0*ld+j : r0*ld+j+2 : r0*ld+j+2]
			s00, s01 := alpha*y0[0], alpha*y0[1]
			q := lo*ld + j
			for _, l0 := range p0 {
				x := c[q : q+2 : q+2]
				s00 -= l0 * x[0]
				s01 -= l0 * x[1]
				q += ld
			}
			d0 := pk[o0+s]
			y0[0], y0[1] = s00*d0, s01*d0
		}
	}
	for ; j < r; j++ {
		for s := 0; s < t; s++ {
			r0, lo := oneStep(s, t, back)
			o0 := s * (s + 1) / 2
			p0 := pk[o0 : o0+s]
			v := alpha * c[r0*ld+j]
			q := lo*ld + j
			for _, l0 := range p0 {
				v -= l0 * c[q]
				q += ld
			}
			c[r0*ld+j] = v * pk[o0+s]
		}
	}
}
