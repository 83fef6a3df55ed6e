package lanesqr

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/qr"
)

//go:generate go run gen.go
//go:generate go run gen_avx2.go

// Slot is the scratch QR needs besides the group, in elements of T: one
// lane's column for the reflectors made by qr.Larfg, and per-lane values.
func Slot[T batchlas.Float](m int) int { return m + 3*lanes.Lanes[T]() }

// QR computes the Householder QR factorisation of the first count (1 to
// lanes.Lanes[T]()) m x n matrices of a group interleaved in a (element
// (i, j) of lane l at (j*ld+i)*Lanes+l, ld >= m), one column at a time
// as LAPACK's geqr2 and qr.Geqr2: R on and above the diagonal, the tails
// of the k = min(m, n) reflectors below it, their factors in tau
// (reflector j of lane l at tau[j*Lanes+l]). The lanes from count on are
// left as they are, their tau 0. work holds Slot[T](m) elements.
//
// A reflector is made on whole rows of lanes where the sum of squares of
// its column lies in a range where its square root is safe (the formula
// of qr.Larfg's fast path, the sum in T). A lane where it is not (a
// column near overflow or underflow, zero, NaN, Inf) gets its reflector
// from qr.Larfg on a copy of that lane's column, scaling included, so
// every lane gets qr.Larfg's reflector within rounding. A reflector with
// tau = 0 leaves the lane's trailing columns untouched, as qr.Larf does:
// an Inf there never meets a zero.
//
// The column loop is AVX-512 assembly on x86-64-v4 (qr_amd64.s, written
// by gen.go) and AVX2 on x86-64-v3 (qr_avx2_amd64.s, gen_avx2.go);
// elsewhere, with -tags purego, or when neither simd switch is set,
// stepGo runs the same steps in Go, fused multiply-adds included, with
// the same bits.
func QR[T batchlas.Float](a []T, m, n, ld, count int, tau, work []T) {
	L := lanes.Lanes[T]()
	k := min(m, n)
	if k == 0 || count <= 0 {
		return
	}
	a = a[:((n-1)*ld+m)*L]
	tau = tau[:k*L]
	s := &scratch[T]{col: work[:m], scale: work[m : m+L], w: work[m+L : m+2*L], beta: work[m+2*L : m+3*L]}
	live := uint64(1)<<min(count, L) - 1
	kc := fastRange[T]()
	j, resume := 0, false
	for {
		stop, careful := step(a, m, n, ld, j, k, live, resume, tau, &kc, s)
		if careful == 0 {
			return
		}
		s.larfg(a, (stop*ld+stop)*L, m-stop, tau[stop*L:(stop+1)*L], careful)
		j, resume = stop, true
	}
}

// scratch is the per-lane values of one column, and one lane's column.
type scratch[T batchlas.Float] struct {
	col, scale, w, beta []T
}

// fastRange is the fast path's bounds, as QR's steps read them: the sum
// of squares is trusted in [lo, hi], beta in [safmin, maxsafe] (qr.Larfg's
// bounds), |alpha| below amax (so alpha^2 + the sum cannot overflow), and
// one. float64's range is qr.Larfg's own; float32 sums its squares in
// float32 here (qr.Larfg: in float64), so its range is narrower.
func fastRange[T batchlas.Float]() [6]T {
	r := [6]float64{0x1p-900, 0x1p900, math.Ldexp(1, -969), math.Ldexp(1, 1000), 0x1p450, 1}
	if lanes.Lanes[T]() == 16 {
		r = [6]float64{0x1p-100, 0x1p100, 0x1p-102, 0x1p120, 0x1p50, 1}
	}
	var out [6]T
	for i, v := range r {
		out[i] = T(v)
	}
	return out
}

// larfg makes the reflector of the column at diag (rows rows) in the
// careful lanes, with qr.Larfg on a copy of each lane's column.
func (s *scratch[T]) larfg(a []T, diag, rows int, t []T, careful uint64) {
	L := len(t)
	x := a[diag+L : diag+rows*L]
	for l := range L {
		if careful>>l&1 == 0 {
			continue
		}
		col := s.col[:rows-1]
		for i := range col {
			col[i] = x[i*L+l]
		}
		al := a[diag+l]
		t[l] = qr.Larfg(rows, &al, col)
		a[diag+l] = al
		for i, e := range col {
			x[i*L+l] = e
		}
	}
}

// stepGo is the assembly's twin (the same operations in the same order,
// fused multiply-adds included, so the two give the same bits): from
// column j up to column kk
// (excluded; kk <= min(m, n)), each column's reflector
// in the live lanes where the fast path holds, its tail scaled, then the
// reflector applied to the columns right of it, until a column has a live
// lane it does not hold for: it returns that column and those lanes, with
// the other lanes' reflector made and nothing applied. resume starts by
// applying column j's reflector, made by the caller, from tau.
func stepGo[T batchlas.Float](a []T, m, n, ld, j, kk int, live uint64, resume bool, tau []T, kc *[6]T, s *scratch[T]) (int, uint64) {
	L := lanes.Lanes[T]()
	for ; j < kk; j, resume = j+1, false {
		diag := (j*ld + j) * L
		t := tau[j*L : (j+1)*L]
		rows := m - j
		if rows <= 1 {
			if !resume {
				clear(t) // H = I: a 1-row column has nothing to annihilate
			}
			continue
		}
		if !resume {
			if careful := s.make(a, diag, rows, t, live, kc); careful != 0 {
				return j, careful
			}
		}
		s.apply(a, diag, rows, n-j-1, ld, t)
	}
	return kk, 0
}

// make makes the reflector of the column at diag (rows rows) in the live
// lanes where the fast path holds: beta over the diagonal, the scaled
// tail below it, tau in t (0 in the other lanes, which are not changed).
// It returns the live lanes it did not make.
func (s *scratch[T]) make(a []T, diag, rows int, t []T, live uint64, kc *[6]T) uint64 {
	L := len(t)
	alpha := a[diag : diag+L]
	x := a[diag+L : diag+rows*L]
	ss := s.w
	clear(ss)
	for i := 0; i < len(x); i += L {
		for l, e := range x[i : i+L] {
			ss[l] = fma.Of(e, e, ss[l])
		}
	}
	lo, hi, safmin, maxsafe, amax := kc[0], kc[1], kc[2], kc[3], kc[4]
	var careful uint64
	for l := range L {
		su, al := ss[l], alpha[l]
		s.scale[l], s.beta[l], t[l] = 1, al, 0
		if live>>l&1 == 0 {
			continue
		}
		if su >= lo && su <= hi && abs(al) < amax {
			if r := T(math.Sqrt(float64(fma.Of(al, al, su)))); r >= safmin && r <= maxsafe {
				b := -T(math.Copysign(float64(r), float64(al)))
				t[l] = (b - al) / b
				s.scale[l] = 1 / (al - b)
				s.beta[l] = b
				continue
			}
		}
		careful |= 1 << l
	}
	for i := 0; i < len(x); i += L {
		v := x[i : i+L]
		for l := range v {
			v[l] *= s.scale[l] // 1 in the lanes not made here
		}
	}
	copy(alpha, s.beta)
	return careful
}

// apply applies the reflector of the column at diag (its head 1 implied,
// its tail below it, rows rows) from the left to the cols columns right
// of it, in every lane whose tau is not 0: w = tau*(c_0 + v^T c), then
// c_0 -= w and c -= w*v, qr.Larf's operations.
func (s *scratch[T]) apply(a []T, diag, rows, cols, ld int, t []T) {
	L := len(t)
	v := a[diag+L : diag+rows*L]
	w := s.w
	for c := 1; c <= cols; c++ {
		top := diag + c*ld*L
		head := a[top : top+L]
		tail := a[top+L : top+rows*L]
		copy(w, head)
		for i := 0; i < len(v); i += L {
			vi, ci := v[i:i+L], tail[i:i+L]
			for l := range w {
				w[l] = fma.Of(vi[l], ci[l], w[l])
			}
		}
		for l := range w {
			if t[l] == 0 {
				w[l] = 0 // H = I in this lane: its column stays as it is
				continue
			}
			w[l] *= t[l]
			head[l] -= w[l]
		}
		for i := 0; i < len(v); i += L {
			vi, ci := v[i:i+L], tail[i:i+L]
			for l := range w {
				ci[l] = fma.Of(-w[l], vi[l], ci[l])
			}
		}
	}
}

func abs[T batchlas.Float](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// Org2R overwrites the first count m x n matrices (m >= n >= k) of a
// group interleaved in a, which hold k reflectors below their diagonals
// as QR leaves them, with the first n columns of each Q = H_0 .. H_{k-1}
// (LAPACK's dorg2r, qr.Org2r's order: the reflectors applied one at a
// time, last first, each to the columns right of it). tau holds the
// factors as QR writes them; the lanes from count on must hold tau 0.
// work holds Slot[T](m) elements.
func Org2R[T batchlas.Float](a []T, m, n, k, ld, count int, tau, work []T) {
	L := lanes.Lanes[T]()
	if n == 0 || count <= 0 {
		return
	}
	a = a[:((n-1)*ld+m)*L]
	s := &scratch[T]{col: work[:m], scale: work[m : m+L], w: work[m+L : m+2*L], beta: work[m+2*L : m+3*L]}
	live := uint64(1)<<min(count, L) - 1
	kc := fastRange[T]()
	// Columns k .. n-1 start as those of the identity.
	for j := k; j < n; j++ {
		col := a[j*ld*L : (j*ld+m)*L]
		clear(col)
		for l := range L {
			col[j*L+l] = 1
		}
	}
	for i := k - 1; i >= 0; i-- {
		if i < n-1 {
			// H_i on the columns right of it: the column step's apply.
			step(a, m, n, ld, i, i+1, live, true, tau, &kc, s)
		}
		t := tau[i*L : (i+1)*L]
		col := a[i*ld*L : (i*ld+m)*L]
		for r := i + 1; r < m; r++ {
			v := col[r*L : (r+1)*L]
			for l := range v {
				v[l] *= -t[l]
			}
		}
		for l := range L {
			col[i*L+l] = 1 - t[l]
		}
		clear(col[:i*L])
	}
}

// LeastSquares solves the least-squares problems min ||A X - B|| of the
// first count (1 to lanes.Lanes[T]()) lanes of a group interleaved in a
// as [A | B]: the m x n A (m >= n) in columns 0 .. n-1 and the m x nrhs
// B in columns n .. n+nrhs-1, ld >= m vectors apart. QR's column steps
// factor A and apply each reflector to B as to the rest of A (Q^T B
// comes with the factorisation), then R X = (Q^T B)(0:n) is solved by
// back-substitution. info[l] gets lane l's failure: 0, or j+1 for the
// first zero or NaN on R's diagonal; such a lane's B columns hold garbage
// (the caller keeps its own B there). A holds the factor and tau the
// reflectors' factors, as QR leaves them. work holds Slot[T](m) elements.
func LeastSquares[T batchlas.Float](a []T, m, n, nrhs, ld, count int, tau, work []T, info []int32) {
	L := lanes.Lanes[T]()
	info = info[:L]
	clear(info)
	cols := n + nrhs
	if n == 0 || count <= 0 {
		return
	}
	a = a[:((cols-1)*ld+m)*L]
	tau = tau[:n*L]
	s := &scratch[T]{col: work[:m], scale: work[m : m+L], w: work[m+L : m+2*L], beta: work[m+2*L : m+3*L]}
	live := uint64(1)<<min(count, L) - 1
	kc := fastRange[T]()
	j, resume := 0, false
	for {
		stop, careful := step(a, m, cols, ld, j, n, live, resume, tau, &kc, s)
		if careful == 0 {
			break
		}
		s.larfg(a, (stop*ld+stop)*L, m-stop, tau[stop*L:(stop+1)*L], careful)
		j, resume = stop, true
	}
	for l := range L {
		for j := range n {
			if d := a[(j*ld+j)*L+l]; !(d > 0 || d < 0) {
				info[l] = int32(j + 1)
				break
			}
		}
	}
	for c := range nrhs {
		x := a[(n+c)*ld*L:]
		for k := n - 1; k >= 0; k-- {
			d := a[(k*ld+k)*L : (k*ld+k+1)*L]
			xk := x[k*L : (k+1)*L]
			for l := range xk {
				xk[l] /= d[l]
			}
			col := a[k*ld*L : (k*ld+k)*L]
			for r := 0; r < k; r++ {
				u, xr := col[r*L:(r+1)*L], x[r*L:(r+1)*L]
				for l := range xr {
					xr[l] -= u[l] * xk[l]
				}
			}
		}
	}
}
