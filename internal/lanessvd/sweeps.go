package lanessvd

//go:generate go run gen.go
//go:generate go run gen_avx2.go

import (
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
	"github.com/batchlas-go/batchlas/internal/lanes"
)

// Lanes is the number of matrices in a group: 8 for float64, 16 for
// float32 (a 64-byte vector's elements, as package lanes counts them).
func Lanes[T batchlas.Float]() int { return lanes.Lanes[T]() }

// MaxOrder is the largest order Sweeps and Sweeps2 take: the columns'
// squared norms live in the assembly's frame, that many vectors per group
// (4 KiB). gesvd's lanes kernel stops at 32.
const MaxOrder = 64

// Sweeps runs cyclic one-sided Jacobi sweeps on a group of Lanes[T]() n x n
// matrices interleaved in g: element (r, c) of lane l is g[(c*n+r)*L+l]
// (L = Lanes[T]()); v, in the same layout, accumulates the same rotations
// when it is not nil (the caller initialises it, normally to the identity).
// active is a bit mask of the lanes to work on (bit l for lane l; bits from
// L on are ignored); other lanes are left bit for bit as they are (their
// data may be anything, even NaN, and must not disturb the others). tol,
// small and big are the convergence tolerance, the squared-norm threshold
// and the threshold of the large-zeta branch. It returns 0 when a sweep
// rotated no active lane, else, after maxSweeps sweeps, the mask of the
// lanes that still rotated in the last sweep. 0 <= n <= MaxOrder; with
// n < 2, with maxSweeps <= 0 or with no active lane it returns 0 at once,
// changing nothing. g, and v when not nil, hold at least n*n*L elements.
//
// A sweep visits the pairs p < q row-cyclically (p = 0 .. n-2, q = p+1 ..
// n-1). For each, in each active lane, with x and y columns p and q:
//
//	apq = x.y    (acc = fma(x_i, y_i, acc) from 0 over the even i in order,
//	              the same over the odd i, the two added)
//	app, aqq     the columns' squared norms: at the start of each sweep
//	             every column's x.x, summed as apq is; after a rotation
//	             the values below
//	converged: app < small || aqq < small || |apq| <= (tol*sqrt(app))*sqrt(aqq)
//
// (NaN anywhere makes a pair not converged). A pair that is not rotates:
//
//	d = aqq - app, twoApq = apq + apq, zeta = d/twoApq
//	|d| > big*|twoApq|:  r = |zeta|
//	otherwise:           r = sqrt(fma(zeta, zeta, 1))
//	w = |zeta| + r, c = sqrt(w/(r + r)), t = ±1/w (the sign of zeta), s = c*t
//	x' = fma(-s, y, c*x), y' = fma(c, y, s*x)   (c*x and s*x rounded)
//	app' = fma(-t, apq, app), aqq' = fma(t, apq, aqq)
//
// and stores (x', y') in columns p and q of g, and of v, or (y', x') when
// d > 0, so that the longer column comes first (and then app' and aqq'
// exchanged too). A lane with a pair that rotated has rotated in that
// sweep.
func Sweeps[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	if n < 2 {
		return 0
	}
	if n > MaxOrder {
		panic(fmt.Sprintf("lanessvd: Sweeps of order %d, past MaxOrder (%d)", n, MaxOrder))
	}
	L := Lanes[T]()
	size := n * n * L
	if len(g) < size || (v != nil && len(v) < size) {
		panic(fmt.Sprintf("lanessvd: Sweeps of order %d needs %d elements in g and v, has %d and %d", n, size, len(g), len(v)))
	}
	active &= uint64(1)<<L - 1
	if active == 0 || maxSweeps <= 0 {
		return 0
	}
	g = g[:size]
	if v != nil {
		v = v[:size]
	}
	return sweeps(g, v, n, maxSweeps, active, tol, small, big)
}

// Sweeps2 is Sweeps on two groups at once, g1 (with v1, active1) and g2
// (with v2, active2), both of order n: it returns what Sweeps returns for
// each, and leaves each group the same bits Sweeps would. v1 and v2 are
// both nil or both not. On x86-64-v4 one instruction stream interleaves
// the two groups' work pair by pair: a pair's chain of square roots and
// divisions is long, and two independent chains fill the time one leaves
// idle (gesvd's lanes kernel sweeps its groups two at a time).
func Sweeps2[T batchlas.Float](g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	if n < 2 {
		return 0, 0
	}
	if n > MaxOrder {
		panic(fmt.Sprintf("lanessvd: Sweeps2 of order %d, past MaxOrder (%d)", n, MaxOrder))
	}
	L := Lanes[T]()
	size := n * n * L
	if len(g1) < size || len(g2) < size || (v1 == nil) != (v2 == nil) || (v1 != nil && (len(v1) < size || len(v2) < size)) {
		panic(fmt.Sprintf("lanessvd: Sweeps2 of order %d needs %d elements in g1, g2 and (both or neither of) v1, v2, has %d, %d, %d and %d", n, size, len(g1), len(g2), len(v1), len(v2)))
	}
	mask := uint64(1)<<L - 1
	active1, active2 = active1&mask, active2&mask
	if (active1 == 0 && active2 == 0) || maxSweeps <= 0 {
		return 0, 0
	}
	g1, g2 = g1[:size], g2[:size]
	if v1 != nil {
		v1, v2 = v1[:size], v2[:size]
	}
	return sweeps2(g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
}

// sweeps2Go is the two-group assembly's twin: Sweeps on each group, which
// gives the assembly's bits (a group that converges first is swept on,
// unchanged, until the other has).
func sweeps2Go[T batchlas.Float](g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	return eachGroup(sweepsGo[T], g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
}

// eachGroup runs one group's sweeps on each of two groups that has an
// active lane.
func eachGroup[T batchlas.Float](sweep func(g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64,
	g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	var r1, r2 uint64
	if active1 != 0 {
		r1 = sweep(g1, v1, n, maxSweeps, active1, tol, small, big)
	}
	if active2 != 0 {
		r2 = sweep(g2, v2, n, maxSweeps, active2, tol, small, big)
	}
	return r1, r2
}

// sweepsGo is the assembly's twin (gen.go): pair by pair, the same
// operations in the same order in every active lane, and the same pairs
// skipped. Every product that is not fused is converted to T so that the
// compiler cannot fuse it into a multiply-add the assembly does not make
// (fma.Of makes the ones it does). The arguments are as sweeps gets them:
// n >= 2, maxSweeps >= 1, active within the lanes and non-zero, g and v
// (when not nil) n*n*L long.
func sweepsGo[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	L := Lanes[T]()
	col := n * L
	var nrm [MaxOrder][16]T
	var app, aqq, apq, apq1, c, s, t [16]T
	var rotated uint64
	for range maxSweeps {
		rotated = 0
		for j := range n {
			x := g[j*col : (j+1)*col]
			dot(x, x, L, &nrm[j], &apq1)
		}
		for p := 0; p < n-1; p++ {
			x := g[p*col : (p+1)*col]
			for q := p + 1; q < n; q++ {
				y := g[q*col : (q+1)*col]
				dot(x, y, L, &apq, &apq1)
				app, aqq = nrm[p], nrm[q]
				var rot, swap uint64
				for l := range L {
					if active>>l&1 == 0 || converged(app[l], aqq[l], apq[l], tol, small) {
						continue
					}
					rot |= 1 << l
					var sw bool
					c[l], s[l], t[l], sw = rotation(app[l], aqq[l], apq[l], big)
					// The columns' new squared norms, as the rotation
					// leaves them in exact arithmetic.
					np, nq := fma.Of(-t[l], apq[l], app[l]), fma.Of(t[l], apq[l], aqq[l])
					if sw {
						swap |= 1 << l
						np, nq = nq, np
					}
					nrm[p][l], nrm[q][l] = np, nq
				}
				if rot == 0 {
					continue
				}
				rotated |= rot
				apply(x, y, L, rot, swap, &c, &s)
				if v != nil {
					apply(v[p*col:(p+1)*col], v[q*col:(q+1)*col], L, rot, swap, &c, &s)
				}
			}
		}
		if rotated == 0 {
			return 0
		}
	}
	return rotated
}

// dot sets d to the sums of the products of columns x and y (n*L
// elements each) as the assembly makes them: the even rows' fused
// multiply-adds from 0 in order, the odd rows' apart (in d1), then the
// odd rows' sum added to the even rows'.
func dot[T batchlas.Float](x, y []T, L int, d, d1 *[16]T) {
	clear(d[:])
	clear(d1[:])
	y = y[:len(x)]
	for i, row := 0, 0; i < len(x); i, row = i+L, row+1 {
		xi, yi := x[i:i+L], y[i:i+L]
		acc := d
		if row%2 == 1 {
			acc = d1
		}
		for l := range L {
			acc[l] = fma.Of(xi[l], yi[l], acc[l])
		}
	}
	for l := range L {
		d[l] += d1[l]
	}
}

// converged reports whether a pair with sums app, aqq and apq needs no
// rotation; NaN in any of them gives false. The norms are multiplied
// after their square roots, since app*aqq may overflow.
func converged[T batchlas.Float](app, aqq, apq, tol, small T) bool {
	return app < small || aqq < small || abs(apq) <= T(tol*sqrt(app))*sqrt(aqq)
}

// rotation returns the rotation of a pair with sums app, aqq and apq
// (Sweeps' formulas), its t (the tangent, which updates the norms) and
// whether the rotated pair is stored exchanged.
// Where |d| > big*|2 apq|, zeta = d/(2 apq) is so large that r =
// sqrt(1 + zeta^2) = |zeta| to working precision, and forming zeta^2
// could overflow: r is |zeta| there, which makes t = 1/(2 zeta) and c = 1.
// c = sqrt(w/(2r)) with w = |zeta| + r is 1/sqrt(1 + t^2) (1 + t^2 = 2rt,
// since t = 1/w = r - |zeta|): a division and a square root after r, as
// 1/sqrt(fma(t, t, 1)) would take after t, but beside t's division
// rather than after it, which shortens each pair's chain of latencies.
func rotation[T batchlas.Float](app, aqq, apq, big T) (c, s, t T, swap bool) {
	d := aqq - app
	twoApq := apq + apq
	zeta := d / twoApq
	az := abs(zeta)
	r := sqrt(fma.Of(zeta, zeta, 1))
	if abs(d) > T(big*abs(twoApq)) {
		r = az
	}
	w := az + r
	c = sqrt(w / (r + r))
	t = 1 / w
	if zeta < 0 {
		t = -t
	}
	return c, T(c * t), t, d > 0
}

// apply rotates the pair of columns x, y (n*L elements each) in the lanes
// of rot by (c, s), storing the pair exchanged in the lanes of swap.
func apply[T batchlas.Float](x, y []T, L int, rot, swap uint64, c, s *[16]T) {
	y = y[:len(x)]
	for i := 0; i < len(x); i += L {
		xi, yi := x[i:i+L], y[i:i+L]
		for l := range L {
			if rot>>l&1 == 0 {
				continue
			}
			a, b := xi[l], yi[l]
			xn := fma.Of(-s[l], b, T(c[l]*a))
			yn := fma.Of(c[l], b, T(s[l]*a))
			if swap>>l&1 != 0 {
				xn, yn = yn, xn
			}
			xi[l], yi[l] = xn, yn
		}
	}
}

func abs[T batchlas.Float](x T) T { return T(math.Abs(float64(x))) }

// sqrt is correctly rounded for float32 too: the float64 square root of a
// float32, rounded to float32, is the float32 square root.
func sqrt[T batchlas.Float](x T) T { return T(math.Sqrt(float64(x))) }
