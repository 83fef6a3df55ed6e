package lanes

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// Inverse inverts a group of Lanes[T]() n x n matrices interleaved in a
// (columns ld >= n vectors apart, GroupLD) into x (same layout): a is
// factored by LU, as LU factors it (getf2's pivots, factors and
// arithmetic, bit for bit), piv receives its pivots, and info[l] getrf's
// info of lane l as a number of T: the first d+1 whose u_dd is zero or
// NaN, 0 when there is none (that lane's x is then garbage). The rows
// between n and ld of x are not written.
//
// For orders 2..8 with ld = GroupLD(n) x is solved column by column from
// the identity with its rows swapped as the factorisation swapped them,
// each update a fused multiply-add: L forward, then U backward
// multiplying by the reciprocals of U's diagonal (one division per
// diagonal entry instead of one per entry of x, what LAPACK's getri does
// too), except in a lane whose |u_kk| is outside [small, 1/small], zero
// and infinity included, where the reciprocal would overflow or lose
// digits: x_k is divided by u_kk there. Each lane's result depends on its
// own matrix only. Other orders and strides solve with LU's arithmetic
// against the identity.
func Inverse[T batchlas.Float](a, x, piv []T, n, ld int, small T, info []T) {
	L := Lanes[T]()
	info = info[:L]
	if n == 0 {
		clear(info)
		return
	}
	a, x, piv = a[:((n-1)*ld+n)*L], x[:((n-1)*ld+n)*L], piv[:n*L]
	k := [3]T{small, T(math.Copysign(0, -1)), 1}
	if n >= 2 && n <= invSmallMax && ld == GroupLD(n) {
		invRun(a, x, piv, n, ld, &k, info)
		return
	}
	identity(x, n, ld)
	luRun(a, x, piv, n, n, ld, &k)
	diagInfo(a, n, ld, info)
}

// identity sets the n x n group x (columns ld vectors apart) to the
// identity in every lane.
func identity[T batchlas.Float](x []T, n, ld int) {
	L := Lanes[T]()
	for c := range n {
		col := x[c*ld*L : (c*ld+n)*L]
		clear(col)
		for l := range L {
			col[c*L+l] = 1
		}
	}
}

// diagInfo sets info[l] to getrf's info of lane l of the factored group
// a: the first d+1 whose u_dd is zero or NaN, else 0.
func diagInfo[T batchlas.Float](a []T, n, ld int, info []T) {
	L := Lanes[T]()
	for l := range L {
		info[l] = 0
		for d := n - 1; d >= 0; d-- {
			if u := a[(d*ld+d)*L+l]; u == 0 || u != u {
				info[l] = T(d + 1)
			}
		}
	}
}

// invGo is invSmall's twin (orders 2..8, ld = GroupLD(n)): the same
// operations in the same order, the factorisation's products rounded
// before they are subtracted (getf2's arithmetic), the solve's updates
// fused multiply-adds.
func invGo[T batchlas.Float](a, x, piv []T, n, ld int, k *[3]T, info []T) {
	L := Lanes[T]()
	luGo(a, nil, piv, n, 0, ld, k)
	diagInfo(a, n, ld, info)
	small, one := k[0], k[2]
	big := one / small
	col := ld * L
	// The lanes' row numbers swapped as the factorisation swapped rows:
	// row r of P is e_sigma(r).
	var sigma [invSmallMax][64]int8
	for r := range n {
		for l := range L {
			sigma[r][l] = int8(r)
		}
	}
	for j := 0; j < n-1; j++ {
		for l := range L {
			p := int(piv[j*L+l])
			sigma[j][l], sigma[p][l] = sigma[p][l], sigma[j][l]
		}
	}
	var z [invSmallMax]T
	for c := range n {
		for l := range L {
			for i := range n {
				z[i] = 0
				if int(sigma[i][l]) == c {
					z[i] = 1
				}
			}
			for kk := 0; kk < n-1; kk++ {
				for i := kk + 1; i < n; i++ {
					z[i] = fma.Of(-a[kk*col+i*L+l], z[kk], z[i])
				}
			}
			for kk := n - 1; kk >= 0; kk-- {
				u := a[kk*col+kk*L+l]
				if abs(u) < small || abs(u) > big {
					z[kk] /= u
				} else {
					z[kk] = T(z[kk] * T(one/u))
				}
				for i := 0; i < kk; i++ {
					z[i] = fma.Of(-a[kk*col+i*L+l], z[kk], z[i])
				}
			}
			for i := range n {
				x[c*col+i*L+l] = z[i]
			}
		}
	}
}

// invSmallMax is the largest order Inverse solves in registers: gen.go's
// luSmallMax, to which invSmall unrolls.
const invSmallMax = 8
