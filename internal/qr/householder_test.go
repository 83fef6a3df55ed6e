package qr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

var qrSizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100}

// randCol returns a random m x n column-major matrix with leading
// dimension lda, its padding rows NaN.
func randCol(r *rand.Rand, m, n, lda int) []float64 {
	a := make([]float64, lda*n)
	for j := 0; j < n; j++ {
		for i := 0; i < lda; i++ {
			if i < m {
				a[i+j*lda] = r.NormFloat64()
			} else {
				a[i+j*lda] = math.NaN()
			}
		}
	}
	return a
}

// residuals returns ||A - QR||_F/(||A||_F max(m,n) eps) and ||Q^T Q -
// I||_F/(max(1,m) eps) for the factor f (with tau) of a, Q formed in
// float64 by applying the reflectors to the identity one at a time
// (independently of Larf).
func residuals(m, n int, a []float64, lda int, f []float64, ldf int, tau []float64, eps float64) (float64, float64) {
	k := min(m, n)
	q := make([]float64, m*m)
	for i := 0; i < m; i++ {
		q[i+i*m] = 1
	}
	v := func(l, i int) float64 {
		switch {
		case l == i:
			return 1
		case l < i:
			return 0
		}
		return f[l+i*ldf]
	}
	// Q = H_0 .. H_{k-1}: apply to I from the left, last first.
	for i := k - 1; i >= 0; i-- {
		for j := 0; j < m; j++ {
			d := 0.0
			for l := i; l < m; l++ {
				d += v(l, i) * q[l+j*m]
			}
			d *= tau[i]
			for l := i; l < m; l++ {
				q[l+j*m] -= d * v(l, i)
			}
		}
	}
	var na, nr, no float64
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			s := 0.0
			for l := 0; l <= min(j, m-1); l++ {
				s += q[i+l*m] * f[l+j*ldf]
			}
			d := a[i+j*lda] - s
			nr += d * d
			na += a[i+j*lda] * a[i+j*lda]
		}
	}
	for x := 0; x < m; x++ {
		for y := 0; y < m; y++ {
			s := 0.0
			for l := 0; l < m; l++ {
				s += q[l+x*m] * q[l+y*m]
			}
			if x == y {
				s--
			}
			no += s * s
		}
	}
	rr := 0.0
	if na > 0 {
		rr = math.Sqrt(nr) / (math.Sqrt(na) * float64(max(m, n)) * eps)
	}
	return rr, math.Sqrt(no) / (float64(max(1, m)) * eps)
}

func TestGeqr2AndBlockedAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	impl := gonum.Implementation{}
	for _, m := range qrSizes {
		for _, n := range qrSizes {
			lda := m + 2
			a := randCol(r, m, n, lda)
			k := min(m, n)
			want := toRow(m, n, a, lda)
			wtau := make([]float64, k)
			impl.Dgeqr2(m, n, want, max(1, n), wtau, make([]float64, max(1, n)))
			for _, nb := range []int{0, 1, 3, 8, 16, 32} {
				what := fmt.Sprintf("m=%d n=%d nb=%d", m, n, nb)
				got := append([]float64(nil), a...)
				tau := make([]float64, k)
				if nb == 0 {
					Geqr2(m, n, got, lda, tau, make([]float64, n))
				} else {
					GeqrfBlocked(m, n, got, lda, tau, nb, make([]float64, nb*nb), make([]float64, BlockedWork(m, n, nb)))
				}
				for i := 0; i < lda; i++ {
					for j := 0; j < n; j++ {
						g := got[i+j*lda]
						if i >= m {
							if !math.IsNaN(g) {
								t.Fatalf("%s: padding (%d,%d) written", what, i, j)
							}
							continue
						}
						if d := math.Abs(g - want[i*n+j]); !(d <= 1e-12*float64(m+n+1)) {
							t.Fatalf("%s: F(%d,%d) = %v, gonum %v", what, i, j, g, want[i*n+j])
						}
					}
				}
				for i := range tau {
					if d := math.Abs(tau[i] - wtau[i]); !(d <= 1e-12*float64(m+1)) {
						t.Fatalf("%s: tau[%d] = %v, gonum %v", what, i, tau[i], wtau[i])
					}
				}
				rr, ro := residuals(m, n, a, lda, got, lda, tau, 0x1p-53)
				if !(rr <= 64 && ro <= 64) {
					t.Fatalf("%s: residuals %.3g %.3g", what, rr, ro)
				}
			}
		}
	}
}

func TestGeqrFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range qrSizes {
		for _, n := range qrSizes {
			lda := m + 1
			a := randCol(r, m, n, lda)
			a32 := make([]float32, len(a))
			for i := range a {
				a32[i] = float32(a[i])
				a[i] = float64(a32[i])
			}
			k := min(m, n)
			for _, nb := range []int{0, 4, 16} {
				got := append([]float32(nil), a32...)
				tau := make([]float32, k)
				GeqrfBlocked(m, n, got, lda, tau, nb, make([]float32, nb*nb), make([]float32, BlockedWork(m, n, nb)))
				f := make([]float64, len(got))
				for i := range got {
					f[i] = float64(got[i])
				}
				t64 := make([]float64, k)
				for i := range tau {
					t64[i] = float64(tau[i])
				}
				rr, ro := residuals(m, n, a, lda, f, lda, t64, 0x1p-24)
				if !(rr <= 64 && ro <= 64) {
					t.Fatalf("m=%d n=%d nb=%d: float32 residuals %.3g %.3g", m, n, nb, rr, ro)
				}
			}
		}
	}
}

// TestLarftLarfbAgainstGonum: the block reflector's T (larftDense) and
// its application from either side (larfbDense), both on denseV's copy,
// against gonum's Dlarft and Dlarfb; and Larf against Dlarf.
func TestLarftLarfbAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	impl := gonum.Implementation{}
	for _, left := range []bool{true, false} {
		for _, trans := range []bool{false, true} {
			for _, m := range []int{1, 3, 8, 17, 33} {
				for _, n := range []int{1, 2, 9, 16, 31} {
					nq := n
					if left {
						nq = m
					}
					for _, k := range []int{1, 2, 5, 8} {
						if k > nq {
							continue
						}
						what := fmt.Sprintf("left=%v trans=%v m=%d n=%d k=%d", left, trans, m, n, k)
						ldv := nq + 1
						v := randCol(r, nq, k, ldv)
						tau := make([]float64, k)
						for i := 0; i < k; i++ {
							tau[i] = Larfg(nq-i, &v[i+i*ldv], v[i+1+i*ldv:nq+i*ldv])
						}
						// gonum's V: row-major nq x k with explicit unit heads.
						vr := toRow(nq, k, v, ldv)
						tt := make([]float64, k*k)
						vd := make([]float64, nq*k)
						denseV(nq, k, v, ldv, vd)
						larftDense(nq, k, transposed(nq, k, vd), tau, tt, k, make([]float64, k*k))
						tr := make([]float64, k*k)
						impl.Dlarft(lapack.Forward, lapack.ColumnWise, nq, k, vr, max(1, k), tau, tr, k)
						for i := 0; i < k; i++ {
							for j := i; j < k; j++ {
								if d := math.Abs(tt[i+j*k] - tr[i*k+j]); !(d <= 1e-13*float64(nq)) {
									t.Fatalf("%s: T(%d,%d) = %v, gonum %v", what, i, j, tt[i+j*k], tr[i*k+j])
								}
							}
						}
						ldc := m + 3
						c := randCol(r, m, n, ldc)
						want := toRow(m, n, c, ldc)
						side, bt := blas.Left, blas.NoTrans
						if !left {
							side = blas.Right
						}
						if trans {
							bt = blas.Trans
						}
						wr := make([]float64, max(m, n)*k)
						impl.Dlarfb(side, bt, lapack.Forward, lapack.ColumnWise, m, n, k, vr, max(1, k), tr, k, want, max(1, n), wr, k)
						larfbDense(left, trans, m, n, k, vd, transposed(nq, k, vd), tt, k, c, ldc, make([]float64, BlockedWork(m, n, k)))
						for i := 0; i < m; i++ {
							for j := 0; j < n; j++ {
								if d := math.Abs(c[i+j*ldc] - want[i*n+j]); !(d <= 1e-13*float64(m+n)) {
									t.Fatalf("%s: C(%d,%d) = %v, gonum %v", what, i, j, c[i+j*ldc], want[i*n+j])
								}
							}
						}
						// Larf against Dlarf, one reflector.
						c2 := randCol(r, m, n, ldc)
						w2 := toRow(m, n, c2, ldc)
						vv := make([]float64, nq)
						vv[0] = math.NaN() // never read
						for l := 1; l < nq; l++ {
							vv[l] = v[l]
						}
						vg := append([]float64(nil), vv...)
						vg[0] = 1
						impl.Dlarf(side, m, n, vg, 1, tau[0], w2, max(1, n), make([]float64, max(m, n)))
						Larf(left, m, n, vv, tau[0], c2, ldc, make([]float64, max(m, n)))
						for i := 0; i < m; i++ {
							for j := 0; j < n; j++ {
								if d := math.Abs(c2[i+j*ldc] - w2[i*n+j]); !(d <= 1e-13*float64(m+n)) {
									t.Fatalf("%s: Larf C(%d,%d) = %v, gonum %v", what, i, j, c2[i+j*ldc], w2[i*n+j])
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestLarfgEdgeCases(t *testing.T) {
	// Tiny norms take the rescaling loop and still reflect exactly.
	for _, s := range []float64{1e-300, 1e-310, 0} {
		alpha := 3 * s
		x := []float64{4 * s}
		tau := Larfg(2, &alpha, x)
		if s == 0 {
			if tau != 0 || alpha != 0 {
				t.Fatalf("zero: tau %v alpha %v", tau, alpha)
			}
			continue
		}
		if d := math.Abs(alpha/(-5*s) - 1); !(d < 1e-14) || !(tau >= 1 && tau <= 2) {
			t.Fatalf("s=%g: beta %v tau %v", s, alpha, tau)
		}
	}
	// NaN and Inf end, with NaN.
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		alpha := 1.0
		x := []float64{bad, 1}
		tau := Larfg(3, &alpha, x)
		if !math.IsNaN(tau) && !math.IsNaN(alpha) && !math.IsNaN(x[1]) {
			t.Fatalf("%v: tau %v alpha %v x %v", bad, tau, alpha, x)
		}
		alpha32 := float32(bad)
		x32 := []float32{1e-40, 0}
		Larfg(3, &alpha32, x32)
	}
	// Large values do not overflow the norm.
	alpha := 1e300
	x := []float64{1e300}
	Larfg(2, &alpha, x)
	if d := math.Abs(alpha/(-math.Sqrt2*1e300) - 1); !(d < 1e-14) {
		t.Fatalf("large: beta %v", alpha)
	}
}

// transposed returns the k x m transpose of the m x k column-major vd.
func transposed(m, k int, vd []float64) []float64 {
	vt := make([]float64, k*m)
	for j := range k {
		for i := range m {
			vt[i*k+j] = vd[j*m+i]
		}
	}
	return vt
}
