package trial

import (
	"math"
	"runtime"
	"sync"
)

// MulAbs returns a*b and |a|*|b| (the scale of the rounding error of a*b).
// Mul and AbsMul return one of the two, for half the work.
//
// These are the reference products of most verifications, so they are
// plain Go, independent of every kernel of the library, and each entry
// is the sum over k in ascending order from 0, one multiply and one add
// per term: a zero is multiplied like any other value, so a NaN or an
// infinity still reaches the product. |x*y| is |x|*|y| exactly (rounding
// is symmetric in sign).
//
// They are also what a tuning run spends most of its checking time in
// (the first, middle and last matrix of every cell, for every candidate,
// at orders up to 512), so they are written for speed: the rows of a and
// the columns of b are made contiguous (a transposed copy; |a| and |b|
// are copies of their own), each 2 x 2 block of the product keeps its
// four sums in registers over a stretch of k that stays in cache, and
// large products are split by columns over the cores. An express run of
// potrf on a 2-core Zen 5 spent two thirds of its time in the
// column-by-column loop this replaced.
func MulAbs(a, b Dense) (prod, abs Dense) {
	prod, abs = NewDense(a.R, b.C), NewDense(a.R, b.C)
	multiply(a, b, prod.V, abs.V)
	return prod, abs
}

// Mul returns a*b, as MulAbs does.
func Mul(a, b Dense) Dense {
	prod := NewDense(a.R, b.C)
	multiply(a, b, prod.V, nil)
	return prod
}

// AbsMul returns |a|*|b|, as MulAbs does.
func AbsMul(a, b Dense) Dense {
	abs := NewDense(a.R, b.C)
	multiply(a, b, nil, abs.V)
	return abs
}

// multiply writes a*b into prod and |a|*|b| into abs (each m x n, zero on
// entry), skipping the one that is nil.
func multiply(a, b Dense, prod, abs []float64) {
	m, k, n := a.R, a.C, b.C
	if m == 0 || n == 0 {
		return
	}
	mp := mulAbsPlan{m: m, k: k, n: n, prod: prod, abs: abs}
	// Row i of a, as a column of length k, and column j of b, for each
	// product asked for.
	rows := func(f func(float64) float64) []float64 {
		at := make([]float64, m*k)
		for j := range k {
			for i, x := range a.V[j*m : (j+1)*m] {
				at[i*k+j] = f(x)
			}
		}
		return at
	}
	cols := func(f func(float64) float64) []float64 {
		bb := make([]float64, k*n)
		for i, x := range b.V[:k*n] {
			bb[i] = f(x)
		}
		return bb
	}
	same := func(x float64) float64 { return x }
	if prod != nil {
		mp.at, mp.bb = rows(same), cols(same)
	}
	if abs != nil {
		mp.aat, mp.abb = rows(math.Abs), cols(math.Abs)
	}
	workers := 1
	if float64(m)*float64(k)*float64(n) >= mulAbsParallelWork {
		workers = min(runtime.GOMAXPROCS(0), (n+1)/2)
	}
	if workers <= 1 {
		mp.columns(0, n)
		return
	}
	// Column pairs are dealt out in contiguous runs, one per worker.
	pairs := (n + 1) / 2
	var wg sync.WaitGroup
	for w := range workers {
		j0, j1 := 2*(pairs*w/workers), min(n, 2*(pairs*(w+1)/workers))
		wg.Go(func() { mp.columns(j0, j1) })
	}
	wg.Wait()
}

// mulAbsParallelWork is the number of terms (m*k*n) from which a product
// is split over the cores: a few milliseconds of work, where starting
// goroutines costs nothing that shows.
const mulAbsParallelWork = 1 << 20

// mulAbsPlan is one product: a's rows (at) and b's columns (bb), each of
// length k, for prod, and those of |a| and |b| (aat, abb) for abs; the
// outputs are m x n column major, nil when not asked for.
type mulAbsPlan struct {
	m, k, n   int
	at, bb    []float64
	aat, abb  []float64
	prod, abs []float64
}

// mulAbsDepth is how much of k one pass over a product takes: the rows of
// the left operand for that depth (m * mulAbsDepth * 8 bytes, 256 KiB at
// m = 512) stay in a core's L2 cache while every column of the right one
// runs past them, instead of being streamed from memory once per pair of
// columns.
const mulAbsDepth = 64

// columns computes the products' columns j0 .. j1-1.
func (p *mulAbsPlan) columns(j0, j1 int) {
	if p.prod != nil {
		p.product(p.prod, p.at, p.bb, j0, j1)
	}
	if p.abs != nil {
		p.product(p.abs, p.aat, p.abb, j0, j1)
	}
}

// product computes columns j0 .. j1-1 of out from rows (the left
// operand's rows) and cols (the right one's columns): for each stretch of
// k, two rows by two columns at a time (one row or column at the edges),
// each sum continuing from where the previous stretch left it, so the
// terms are still added in ascending order of k.
func (p *mulAbsPlan) product(out, rows, cols []float64, j0, j1 int) {
	m, k := p.m, p.k
	for k0 := 0; k0 < k; k0 += mulAbsDepth {
		k1 := min(k, k0+mulAbsDepth)
		row := func(i int) []float64 { return rows[i*k+k0 : i*k+k1] }
		col := func(j int) []float64 { return cols[j*k+k0 : j*k+k1] }
		for j := j0; j < j1; j += 2 {
			y0 := col(j)
			if j+1 == j1 {
				for i := range m {
					out[i+j*m] = dot1(out[i+j*m], row(i), y0)
				}
				continue
			}
			y1 := col(j + 1)
			c0, c1 := j*m, (j+1)*m
			i := 0
			for ; i+1 < m; i += 2 {
				dot2x2(out[c0+i:c0+i+2], out[c1+i:c1+i+2], row(i), row(i+1), y0, y1)
			}
			if i < m {
				out[c0+i] = dot1(out[c0+i], row(i), y0)
				out[c1+i] = dot1(out[c1+i], row(i), y1)
			}
		}
	}
}

// dot2x2 adds x0.y0 and x1.y0 to the two sums in c0, and the same with
// y1 to c1, term by term in ascending order: four independent sums and
// four loads a step, which Go's compiler keeps in registers (a 4 x 2
// block's eight sums spilled to the stack and ran slower).
func dot2x2(c0, c1 []float64, x0, x1, y0, y1 []float64) {
	x1, y0, y1 = x1[:len(x0)], y0[:len(x0)], y1[:len(x0)]
	c0, c1 = c0[:2], c1[:2]
	s0, s1, t0, t1 := c0[0], c0[1], c1[0], c1[1]
	for l, u0 := range x0 {
		u1, v, w := x1[l], y0[l], y1[l]
		s0 += u0 * v
		s1 += u1 * v
		t0 += u0 * w
		t1 += u1 * w
	}
	c0[0], c0[1], c1[0], c1[1] = s0, s1, t0, t1
}

// dot1 returns s + x.y, term by term in ascending order.
func dot1(s float64, x, y []float64) float64 {
	y = y[:len(x)]
	for l, u := range x {
		s += u * y[l]
	}
	return s
}
