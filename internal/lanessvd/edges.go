package lanessvd

import (
	"fmt"
	"math"
	mathbits "math/bits"

	"github.com/batchlas-go/batchlas"
)

// The steps on either side of the sweeps, across the lanes of a group:
// the check and scaling of the input (Scale) and the singular values of a
// swept group (Values). Per matrix in Go, they were most of a 3x3 group's
// time and a third of an 8x8 one's: short loops and calls for each
// matrix, where a row of lanes is one vector operation.

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

// scaleGo is Scale's Go twin (and the path without AVX-512).
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

// Values writes the singular values of each lane of ok of the swept n x n
// group g (laid out as Sweeps lays it out): its columns' norms, sorted
// descending and multiplied by 2^-exps[l], rounded once, to s[l*ss+k], k
// = 0 .. n-1. A column's norm is the square root of its plain sum of
// squares (acc += x*x down the rows, from 0, each product rounded), which
// holds where that sum is at least minSum and finite; a lane where one
// does not is not written, and not in the result: the caller computes its
// norms with care. It returns the lanes written. n >= 1.
func Values[T batchlas.Float](g []T, n int, ok uint64, exps *[16]int32, minSum T, s []T, ss int) (done uint64) {
	L := Lanes[T]()
	ok &= uint64(1)<<L - 1
	if ok == 0 {
		return 0
	}
	last := 63 - mathbits.LeadingZeros64(ok)
	if n < 1 || n > MaxValuesOrder || len(g) < n*n*L || (last > 0 && ss < n) || len(s) < last*ss+n {
		panic(fmt.Sprintf("lanessvd: Values of order %d (at most %d) for lanes up to %d needs %d elements in g and %d in s with ss >= n, has %d, %d and ss %d",
			n, MaxValuesOrder, last, n*n*L, last*ss+n, len(g), len(s), ss))
	}
	return values(g[:n*n*L], n, ok, exps, minSum, s, ss)
}

// MaxValuesOrder is the largest order Values takes (its scratch is on the
// stack): the largest order gesvd's lanes kernel sweeps.
const MaxValuesOrder = 32

// valuesGo is Values' Go twin (and the path without AVX-512).
func valuesGo[T batchlas.Float](g []T, n int, ok uint64, exps *[16]int32, minSum T, s []T, ss int) (done uint64) {
	L := Lanes[T]()
	var normBuf [MaxValuesOrder]T
	norms := normBuf[:n]
	inf := T(math.Inf(1))
lanes:
	for l := range L {
		if ok&(1<<l) == 0 {
			continue
		}
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
		}
		// Insertion sort, descending: equal norms are equal values, so
		// the order among them does not show.
		for i := 1; i < n; i++ {
			for j := i; j > 0 && norms[j] > norms[j-1]; j-- {
				norms[j], norms[j-1] = norms[j-1], norms[j]
			}
		}
		for k, x := range norms {
			s[l*ss+k] = T(math.Ldexp(float64(x), -int(exps[l])))
		}
		done |= 1 << l
	}
	return done
}
