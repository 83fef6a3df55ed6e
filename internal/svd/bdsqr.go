package svd

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// bdsqrMaxIter is the iteration limit of bdsqr, per unit of n^2: each
// inner step of a sweep on a block of order r counts r (LAPACK's MAXITR).
const bdsqrMaxIter = 6

// bdsqrTol is bdsqr's relative tolerance, LAPACK's tolmul*eps with
// tolmul = max(10, min(100, eps^(-1/8))) and eps the relative machine
// precision (half of epsilon): a constant per type, computed once rather
// than by math.Pow on every matrix.
func bdsqrTol[T batchlas.Float]() T {
	if is32[T]() {
		return T(bdsqrTol32)
	}
	return T(bdsqrTol64)
}

var (
	bdsqrTol64 = tolOf(0x1p-53)
	bdsqrTol32 = float32(tolOf(0x1p-24))
)

// tolOf is tolmul*eps in T's precision for eps a power of two (exact in
// either type).
func tolOf(eps float64) float64 {
	return max(10, min(100, math.Pow(eps, -0.125))) * eps
}

// bdsqrWork is the scratch bdsqr needs at order n: the cosines and sines
// of one sweep's two rotation sequences; Bidiag hands the same scratch to
// dqds when no vectors are wanted, so it covers dqdsWork too.
func bdsqrWork(n int) int { return max(4*n, dqdsWork(n)) }

// bdsqr computes the singular values of the n x n upper bidiagonal matrix
// B with diagonal d[:n] and superdiagonal e[:n-1] by implicit QR with
// shifts and the zero-shift QR of Demmel and Kahan (LAPACK's xBDSQR, its
// relative-accuracy path), from the top or the bottom of each unreduced
// block, whichever end is larger. On return d holds the singular values,
// signed and unsorted (finish makes them positive and sorts them), and
// B = U_B diag(d) V_B^T where the rotations of U_B have been applied to
// the columns of u (rows ru, leading dimension ldu; nil: not wanted) and
// those of V_B to the columns of v (rows rv, leading dimension ldv; nil:
// not wanted): u := u U_B, v := v V_B. Keeping V rather than V^T makes
// both updates rotations of column pairs, which vec.RotForward and
// vec.RotBackward stream a vector at a time.
//
// It returns 0, or when the iteration limit is reached, the number of
// superdiagonal entries not yet negligible. Every test that decides
// convergence is written so that NaN fails it; a finite B scaled as
// prepare scales it cannot produce one.
func bdsqr[T batchlas.Float](n int, d, e []T, u []T, ru, ldu int, v []T, rv, ldv int, work []T) int {
	if n <= 1 {
		return 0
	}
	d, e = d[:n], e[:n-1]
	eps := epsilon[T]() / 2 // LAPACK's relative machine precision
	unfl := safeMinimum[T]()
	tol := bdsqrTol[T]()

	// The relative threshold below which an off-diagonal entry is set to
	// zero: tol times an estimate of the smallest singular value.
	var smax T
	for i := range n {
		smax = max(smax, abs(d[i]))
	}
	for i := range n - 1 {
		smax = max(smax, abs(e[i]))
	}
	sminoa := abs(d[0])
	if sminoa != 0 {
		mu := sminoa
		for i := 1; i < n; i++ {
			mu = abs(d[i]) * (mu / (mu + abs(e[i-1])))
			sminoa = min(sminoa, mu)
			if sminoa == 0 {
				break
			}
		}
	}
	sminoa /= sqrt(T(n))
	thresh := max(tol*sminoa, T(bdsqrMaxIter)*(T(n)*(T(n)*unfl)))

	c1, s1 := work[:n], work[n:2*n]
	c2, s2 := work[2*n:3*n], work[3*n:4*n]
	rotV := func(forward bool, col0, k int, c, s []T) {
		if v != nil {
			rotate(forward, v[col0*ldv:], ldv, rv, k, c, s)
		}
	}
	rotU := func(forward bool, col0, k int, c, s []T) {
		if u != nil {
			rotate(forward, u[col0*ldu:], ldu, ru, k, c, s)
		}
	}

	maxIter := bdsqrMaxIter * n * n
	iter := 0
	oldll, oldm := -1, -1
	forward := true // chase the bulge from the top (else from the bottom)
	hi := n - 1     // the bottom of the block not yet converged
	for hi > 0 {
		if iter > maxIter {
			return nonzero(e[:hi])
		}
		// The unreduced block lo..hi: e[lo..hi-1] all above thresh.
		smax := abs(d[hi])
		lo := 0
		split := false
		for l := hi - 1; l >= 0; l-- {
			abss, abse := abs(d[l]), abs(e[l])
			if abse <= thresh {
				e[l] = 0
				lo = l + 1
				split = true
				break
			}
			smax = max(smax, abss, abse)
		}
		if split && lo == hi {
			hi-- // d[hi] has converged
			continue
		}
		if hi-lo == 1 {
			// A 2x2 block: its SVD in closed form.
			smin, smx, sinr, cosr, sinl, cosl := lasv2(d[lo], e[lo], d[hi])
			d[lo], e[lo], d[hi] = smx, 0, smin
			c1[0], s1[0], c2[0], s2[0] = cosr, sinr, cosl, sinl
			rotV(true, lo, 2, c1, s1)
			rotU(true, lo, 2, c2, s2)
			hi -= 2
			continue
		}
		// A new block picks its direction: chase towards the smaller end.
		if lo > oldm || hi < oldll {
			forward = abs(d[lo]) >= abs(d[hi])
		}
		// Convergence tests: an off-diagonal entry negligible against the
		// running estimate of the smallest singular value is set to zero.
		var sminl T
		deflated := false
		if forward {
			if abs(e[hi-1]) <= tol*abs(d[hi]) {
				e[hi-1] = 0
				continue
			}
			mu := abs(d[lo])
			sminl = mu
			for l := lo; l < hi; l++ {
				if abs(e[l]) <= tol*mu {
					e[l] = 0
					deflated = true
					break
				}
				mu = abs(d[l+1]) * (mu / (mu + abs(e[l])))
				sminl = min(sminl, mu)
			}
		} else {
			if abs(e[lo]) <= tol*abs(d[lo]) {
				e[lo] = 0
				continue
			}
			mu := abs(d[hi])
			sminl = mu
			for l := hi - 1; l >= lo; l-- {
				if abs(e[l]) <= tol*mu {
					e[l] = 0
					deflated = true
					break
				}
				mu = abs(d[l]) * (mu / (mu + abs(e[l])))
				sminl = min(sminl, mu)
			}
		}
		if deflated {
			continue
		}
		oldll, oldm = lo, hi

		// The shift: the smaller singular value of the trailing (or
		// leading) 2x2, or zero where it would not be accurate.
		var shift T
		if !(T(n)*tol*(sminl/smax) <= max(eps, tol/100)) {
			var sll T
			if forward {
				sll = abs(d[lo])
				shift, _ = las2(d[hi-1], e[hi-1], d[hi])
			} else {
				sll = abs(d[hi])
				shift, _ = las2(d[lo], e[lo], d[lo+1])
			}
			if sll > 0 && (shift/sll)*(shift/sll) < eps {
				shift = 0
			}
		}
		iter += hi - lo
		k := hi - lo + 1
		switch {
		case shift == 0 && forward:
			cs, oldcs := T(1), T(1)
			var sn, oldsn, r T
			for i := lo; i < hi; i++ {
				cs, sn, r = lartg(d[i]*cs, e[i])
				if i > lo {
					e[i-1] = oldsn * r
				}
				oldcs, oldsn, d[i] = lartg(oldcs*r, d[i+1]*sn)
				j := i - lo
				c1[j], s1[j], c2[j], s2[j] = cs, sn, oldcs, oldsn
			}
			h := d[hi] * cs
			d[hi], e[hi-1] = h*oldcs, h*oldsn
			rotV(true, lo, k, c1, s1)
			rotU(true, lo, k, c2, s2)
			if abs(e[hi-1]) <= thresh {
				e[hi-1] = 0
			}
		case shift == 0:
			cs, oldcs := T(1), T(1)
			var sn, oldsn, r T
			for i := hi; i > lo; i-- {
				cs, sn, r = lartg(d[i]*cs, e[i-1])
				if i < hi {
					e[i] = oldsn * r
				}
				oldcs, oldsn, d[i] = lartg(oldcs*r, d[i-1]*sn)
				j := i - lo - 1
				c1[j], s1[j], c2[j], s2[j] = cs, -sn, oldcs, -oldsn
			}
			h := d[lo] * cs
			d[lo], e[lo] = h*oldcs, h*oldsn
			rotV(false, lo, k, c2, s2)
			rotU(false, lo, k, c1, s1)
			if abs(e[lo]) <= thresh {
				e[lo] = 0
			}
		case forward:
			f := (abs(d[lo]) - shift) * (sign(1, d[lo]) + shift/d[lo])
			g := e[lo]
			for i := lo; i < hi; i++ {
				cosr, sinr, r := lartg(f, g)
				if i > lo {
					e[i-1] = r
				}
				f = cosr*d[i] + sinr*e[i]
				e[i] = cosr*e[i] - sinr*d[i]
				g = sinr * d[i+1]
				d[i+1] *= cosr
				cosl, sinl, r := lartg(f, g)
				d[i] = r
				f = cosl*e[i] + sinl*d[i+1]
				d[i+1] = cosl*d[i+1] - sinl*e[i]
				if i < hi-1 {
					g = sinl * e[i+1]
					e[i+1] *= cosl
				}
				j := i - lo
				c1[j], s1[j], c2[j], s2[j] = cosr, sinr, cosl, sinl
			}
			e[hi-1] = f
			rotV(true, lo, k, c1, s1)
			rotU(true, lo, k, c2, s2)
			if abs(e[hi-1]) <= thresh {
				e[hi-1] = 0
			}
		default:
			f := (abs(d[hi]) - shift) * (sign(1, d[hi]) + shift/d[hi])
			g := e[hi-1]
			for i := hi; i > lo; i-- {
				cosr, sinr, r := lartg(f, g)
				if i < hi {
					e[i] = r
				}
				f = cosr*d[i] + sinr*e[i-1]
				e[i-1] = cosr*e[i-1] - sinr*d[i]
				g = sinr * d[i-1]
				d[i-1] *= cosr
				cosl, sinl, r := lartg(f, g)
				d[i] = r
				f = cosl*e[i-1] + sinl*d[i-1]
				d[i-1] = cosl*d[i-1] - sinl*e[i-1]
				if i > lo+1 {
					g = sinl * e[i-2]
					e[i-2] *= cosl
				}
				j := i - lo - 1
				c1[j], s1[j], c2[j], s2[j] = cosr, -sinr, cosl, -sinl
			}
			e[lo] = f
			if abs(e[lo]) <= thresh {
				e[lo] = 0
			}
			rotV(false, lo, k, c2, s2)
			rotU(false, lo, k, c1, s1)
		}
	}
	return 0
}

// rotate applies the k-1 rotations (c, s) to the column pairs of z from
// the first: forward (pairs (0,1), (1,2), ...) or backward.
func rotate[T batchlas.Float](forward bool, z []T, ld, rows, k int, c, s []T) {
	if forward {
		vec.RotForward(z, ld, rows, k, c, s)
	} else {
		vec.RotBackward(z, ld, rows, k, c, s)
	}
}

// nonzero counts the entries of x that are not zero (NaN included).
func nonzero[T batchlas.Float](x []T) int {
	c := 0
	for _, v := range x {
		if v != 0 {
			c++
		}
	}
	return c
}

// sign is |a| with the sign of b (Fortran's SIGN).
func sign[T batchlas.Float](a, b T) T {
	return T(math.Copysign(float64(a), float64(b)))
}

// safeMinimum is the smallest normal T, whose reciprocal does not
// overflow (LAPACK's safe minimum).
func safeMinimum[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p-126)
	}
	return T(0x1p-1022)
}

// lartg generates the plane rotation with c*f + s*g = r, -s*f + c*g = 0,
// c >= 0 (LAPACK 3.10's xLARTG): r has the sign of f. This is the fast
// path, small enough to be inlined into bdsqr's loops, where a rotation
// is most of a step's work: one square root and one division, c and s
// taken as products with 1/|r| (within an ulp of LAPACK's two
// divisions). Entries whose squares could overflow or underflow, and
// zeros, go to lartgScaled.
func lartg[T batchlas.Float](f, g T) (c, s, r T) {
	f1, g1 := abs(f), abs(g)
	lo, hi := rotRange[T]()
	if f1 > lo && f1 < hi && g1 > lo && g1 < hi {
		dd := sqrt(f*f + g*g)
		inv := 1 / dd
		c = f1 * inv
		if f < 0 {
			return c, -g * inv, -dd
		}
		return c, g * inv, dd
	}
	return lartgScaled(f, g)
}

// rotRange bounds the entries lartg squares without scaling: above
// sqrt(safe minimum) and below sqrt(safe maximum / 2), as xLARTG's rtmin
// and rtmax.
func rotRange[T batchlas.Float]() (lo, hi T) {
	if is32[T]() {
		return T(0x1p-63), T(0x1p63)
	}
	// Through variables: the constants do not convert to float32.
	l, h := 0x1p-511, 0x1p510
	return T(l), T(h)
}

// lartgScaled is lartg for zeros and for entries outside rotRange: the
// pair is scaled by its larger magnitude (clamped to the safe range)
// before it is squared.
func lartgScaled[T batchlas.Float](f, g T) (c, s, r T) {
	if g == 0 {
		return 1, 0, f
	}
	if f == 0 {
		return 0, sign(1, g), abs(g)
	}
	safmin := safeMinimum[T]()
	safmax := 1 / safmin
	w := min(safmax, max(safmin, abs(f), abs(g)))
	fs, gs := f/w, g/w
	dd := sqrt(fs*fs + gs*gs)
	c = abs(fs) / dd
	r = sign(dd, f)
	s = gs / r
	return c, s, r * w
}

// las2 returns the singular values of the 2x2 upper triangular matrix
// [f g; 0 h], smaller first (LAPACK's xLAS2), without overflow where
// they are representable.
func las2[T batchlas.Float](f, g, h T) (ssmin, ssmax T) {
	fa, ga, ha := abs(f), abs(g), abs(h)
	fhmn, fhmx := min(fa, ha), max(fa, ha)
	switch {
	case fhmn == 0:
		if fhmx == 0 {
			return 0, ga
		}
		mx, mn := max(fhmx, ga), min(fhmx, ga)
		return 0, mx * sqrt(1+(mn/mx)*(mn/mx))
	case ga < fhmx:
		as := 1 + fhmn/fhmx
		at := (fhmx - fhmn) / fhmx
		au := (ga / fhmx) * (ga / fhmx)
		c := 2 / (sqrt(as*as+au) + sqrt(at*at+au))
		return fhmn * c, fhmx / c
	}
	au := fhmx / ga
	if au == 0 {
		// fhmx/ga underflowed: the values are fhmn*fhmx/ga and ga.
		return (fhmn * fhmx) / ga, ga
	}
	as := 1 + fhmn/fhmx
	at := (fhmx - fhmn) / fhmx
	c := 1 / (sqrt(1+(as*au)*(as*au)) + sqrt(1+(at*au)*(at*au)))
	ssmin = (fhmn * c) * au
	return ssmin + ssmin, ga / (c + c)
}

// lasv2 is the SVD of the 2x2 upper triangular matrix [f g; 0 h]
// (LAPACK's xLASV2):
//
//	[ csl snl ] [ f g ] [ csr -snr ]   [ ssmax   0   ]
//	[-snl csl ] [ 0 h ] [ snr  csr ] = [   0   ssmin ]
//
// |ssmax| >= |ssmin|, both signed so that the product of the rotations
// and diag(ssmax, ssmin) is the matrix; accurate to a few ulps in every
// output.
func lasv2[T batchlas.Float](f, g, h T) (ssmin, ssmax, snr, csr, snl, csl T) {
	ft, fa := f, abs(f)
	ht, ha := h, abs(h)
	// pmax says which entry is the largest: 1 f, 2 g, 3 h.
	pmax := 1
	swap := ha > fa
	if swap {
		pmax = 3
		ft, ht = ht, ft
		fa, ha = ha, fa
	}
	gt, ga := g, abs(g)
	var clt, crt, slt, srt T
	if ga == 0 {
		// Diagonal.
		ssmin, ssmax = ha, fa
		clt, crt, slt, srt = 1, 1, 0, 0
	} else {
		gasmal := true
		if ga > fa {
			pmax = 2
			if fa/ga < epsilon[T]()/2 {
				// g dominates so much that the values are g and fh/g.
				gasmal = false
				ssmax = ga
				if ha > 1 {
					ssmin = fa / (ga / ha)
				} else {
					ssmin = (fa / ga) * ha
				}
				clt = 1
				slt = ht / gt
				srt = 1
				crt = ft / gt
			}
		}
		if gasmal {
			dd := fa - ha
			l := dd / fa
			if dd == fa {
				// Copes with an infinite f or h.
				l = 1
			}
			m := gt / ft
			t := 2 - l
			mm := m * m
			tt := t * t
			s := sqrt(tt + mm)
			r := abs(m)
			if l != 0 {
				r = sqrt(l*l + mm)
			}
			a := (s + r) / 2
			ssmin = ha / a
			ssmax = fa * a
			if mm == 0 {
				// m is so small that t below would underflow.
				if l == 0 {
					t = sign(2, ft) * sign(1, gt)
				} else {
					t = gt/sign(dd, ft) + m/t
				}
			} else {
				t = (m/(s+t) + m/(r+l)) * (1 + a)
			}
			l = sqrt(t*t + 4)
			crt = 2 / l
			srt = t / l
			clt = (crt + srt*m) / a
			slt = (ht / ft) * srt / a
		}
	}
	if swap {
		csl, snl, csr, snr = srt, crt, slt, clt
	} else {
		csl, snl, csr, snr = clt, slt, crt, srt
	}
	// The signs of ssmax and ssmin.
	var tsign T
	switch pmax {
	case 1:
		tsign = sign(1, csr) * sign(1, csl) * sign(1, f)
	case 2:
		tsign = sign(1, snr) * sign(1, csl) * sign(1, g)
	default:
		tsign = sign(1, snr) * sign(1, snl) * sign(1, h)
	}
	ssmax = sign(ssmax, tsign)
	ssmin = sign(ssmin, tsign*sign(1, f)*sign(1, h))
	return ssmin, ssmax, snr, csr, snl, csl
}
