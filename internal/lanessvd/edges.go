package lanessvd

import (
	"fmt"
	"math"
	mathbits "math/bits"

	"github.com/batchlas-go/batchlas"
)

// The steps on either side of the sweeps, across the lanes of a group:
// the check and scaling of the input (Scale) and the singular values and
// vectors made from a swept group (Finish). Per matrix in Go, they were
// most of a 3x3 group's time and a third of an 8x8 one's: short loops and
// calls for each matrix, where a row of lanes is one vector operation.

// Scale checks and scales the n x n matrices of the lanes of mask,
// interleaved in g as Sweeps lays them out (nn = n*n elements per lane):
// a lane with a NaN or an infinity is cleared and left out of the result;
// every other is multiplied by 2^e, rounded once per entry, with e = h -
// ex for its largest magnitude amax in [2^(ex-1), 2^ex), or e = 0 when
// amax is 0; e goes to exps[l]. Lanes outside mask must hold zeros; they
// are left as they are. It returns the lanes of mask that are finite.
func Scale[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) (active uint64) {
	L := Lanes[T]()
	if nn < 1 || len(g) < nn*L {
		panic(fmt.Sprintf("lanessvd: Scale of %d elements per lane needs %d in g, has %d", nn, nn*L, len(g)))
	}
	mask &= uint64(1)<<L - 1
	return scale(g[:nn*L], nn, mask, h, exps)
}

// scaleGo is Scale's Go twin (and the path without AVX-512 or AVX2).
func scaleGo[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) (active uint64) {
	L := Lanes[T]()
	for l := range L {
		exps[l] = 0
		if mask&(1<<l) == 0 {
			continue
		}
		var amax T
		finite := true
		for i := l; i < nn*L; i += L {
			a := T(math.Abs(float64(g[i])))
			finite = finite && a-a == 0
			amax = max(amax, a)
		}
		if !finite {
			for i := l; i < nn*L; i += L {
				g[i] = 0
			}
			continue
		}
		active |= 1 << l
		if amax == 0 {
			continue
		}
		_, ex := math.Frexp(float64(amax))
		e := h - ex
		exps[l] = int32(e)
		for i := l; i < nn*L; i += L {
			// Exact in float64 for both types (a float32 times 2^e, e
			// within a few hundred), then rounded once to T.
			g[i] = T(math.Ldexp(float64(g[i]), e))
		}
	}
	return active
}

// scaleHRange is the range of h scaleAVX2's two factors cover: with it
// every e = h - ex, for any finite non-zero maximum, splits into normal
// powers of two f1 = min(e, split) and f2 = e - f1 (ex runs from -1073 to
// 1024 for float64 and -148 to 128 for float32; gesvd's h is 442-448 and
// 56-62). Outside it Scale runs the Go twin.
func scaleHRange[T batchlas.Float]() (lo, hi int) {
	if Lanes[T]() == 8 {
		return 2, 900
	}
	return 2, 70
}

// Finish makes the outputs of each lane of ok of the swept n x n group
// g (and v, the rotations, when not nil), laid out as Sweeps lays them
// out: the column norms are the singular values, sorted descending, and
// go, multiplied by 2^-exps[l] and rounded once, to s[l*ss+k], k = 0 ..
// n-1. With wantU, g's columns become U's in place: sorted with the
// norms, each divided by its norm; with v, v's columns become V's
// (VT's rows) in place, sorted likewise. The sign convention: where the
// first entry of largest magnitude of U's column k (of V's without U) is
// negative, U's and V's columns k are negated.
//
// A column's norm is the square root of its plain sum of squares (acc +=
// x*x down the rows, from 0, each operation rounded), which holds where
// that sum is at least minSum and finite; with wantU, the smallest norm
// must also be above eps times the largest (else a column of U is to be
// completed). A lane where either fails is left as it was, not written
// to s, and not in the result: the caller finishes it with care. It
// returns the lanes done. 1 <= n <= MaxFinishOrder; the sort is stable,
// so equal norms keep their columns' order.
func Finish[T batchlas.Float](g, v []T, n int, ok uint64, exps *[16]int32, minSum, eps T, wantU bool, s []T, ss int) (done uint64) {
	L := Lanes[T]()
	ok &= uint64(1)<<L - 1
	if ok == 0 {
		return 0
	}
	last := 63 - mathbits.LeadingZeros64(ok)
	if n < 1 || n > MaxFinishOrder || len(g) < n*n*L || (v != nil && len(v) < n*n*L) || (last > 0 && ss < n) || len(s) < last*ss+n {
		panic(fmt.Sprintf("lanessvd: Finish of order %d (at most %d) for lanes up to %d needs %d elements in g and v, %d in s with ss >= n, has %d, %d, %d and ss %d",
			n, MaxFinishOrder, last, n*n*L, last*ss+n, len(g), len(v), len(s), ss))
	}
	if v != nil {
		v = v[:n*n*L]
	}
	return finish(g[:n*n*L], v, n, ok, exps, minSum, eps, wantU, s, ss)
}

// MaxFinishOrder is the largest order Finish takes (its norms are on the
// stack): the largest order gesvd's lanes kernel sweeps.
const MaxFinishOrder = 32

// finishGo is Finish's Go twin (and the path without AVX-512 or AVX2).
func finishGo[T batchlas.Float](g, v []T, n int, ok uint64, exps *[16]int32, minSum, eps T, wantU bool, s []T, ss int) (done uint64) {
	L := Lanes[T]()
	var normBuf [MaxFinishOrder]T
	norms := normBuf[:n]
	inf := T(math.Inf(1))
	// swap exchanges columns i and j of lane l of x.
	swap := func(x []T, l, i, j int) {
		for r := range n {
			a, b := (i*n+r)*L+l, (j*n+r)*L+l
			x[a], x[b] = x[b], x[a]
		}
	}
	// negative reports whether the first entry of largest magnitude of
	// column k of lane l of x is negative.
	negative := func(x []T, l, k int) bool {
		var best, first T
		for r := range n {
			y := x[(k*n+r)*L+l]
			if a := T(math.Abs(float64(y))); a > best {
				best, first = a, y
			}
		}
		return first < 0
	}
	negate := func(x []T, l, k int) {
		for r := range n {
			x[(k*n+r)*L+l] = -x[(k*n+r)*L+l]
		}
	}
lanes:
	for l := range L {
		if ok&(1<<l) == 0 {
			continue
		}
		lo, hi := inf, T(0)
		for j := range n {
			var acc T
			for r := range n {
				x := g[(j*n+r)*L+l]
				acc += x * x
			}
			if !(acc >= minSum && acc < inf) {
				continue lanes
			}
			norms[j] = T(math.Sqrt(float64(acc)))
			lo, hi = min(lo, norms[j]), max(hi, norms[j])
		}
		if wantU && !(lo > eps*hi) {
			continue
		}
		for i := 1; i < n; i++ {
			for j := i; j > 0 && norms[j] > norms[j-1]; j-- {
				norms[j], norms[j-1] = norms[j-1], norms[j]
				if wantU {
					swap(g, l, j, j-1)
				}
				if v != nil {
					swap(v, l, j, j-1)
				}
			}
		}
		for k, x := range norms {
			neg := false
			if wantU {
				for r := range n {
					g[(k*n+r)*L+l] /= x
				}
				neg = negative(g, l, k)
				if neg {
					negate(g, l, k)
				}
			}
			if v != nil {
				if !wantU {
					neg = negative(v, l, k)
				}
				if neg {
					negate(v, l, k)
				}
			}
			s[l*ss+k] = T(math.Ldexp(float64(x), -int(exps[l])))
		}
		done |= 1 << l
	}
	return done
}
