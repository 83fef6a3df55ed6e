package svd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// triples are 2x2 upper triangular matrices [f g; 0 h] that reach every
// branch of las2 and lasv2: zeros, each entry the largest, g dominating
// by more than 1/eps, equal diagonals, signs, and the ends of the range.
func triples(r *rand.Rand) [][3]float64 {
	t := [][3]float64{
		{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 3, -2}, {-2, 3, 0},
		{1, 1, 1}, {-1, 1, 1}, {1, -1, 1}, {1, 1, -1}, {2, 0, -3}, {-3, 0, 2},
		{1, 1e20, 1}, {1e-20, 1, 1e-20}, {1, 1e-20, 1}, {3, 1e-17, 3},
		{1e300, 1e300, 1e300}, {1e-300, 1e-300, 1e-300}, {1e300, 1, 1e-300},
		{1e-300, 1, 1e300}, {1e-310, 1e-310, 1e-320}, {5, 1e300, 7},
	}
	for range 300 {
		var x [3]float64
		for i := range x {
			x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
		}
		t = append(t, x)
	}
	return t
}

// ulps is |x - y| in units of eps*scale (scale: the magnitude the error
// is relative to).
func ulps(x, y, scale float64) float64 {
	if x == y {
		return 0
	}
	return math.Abs(x-y) / (0x1p-52 * scale)
}

// TestLasv2AgainstGonum compares lasv2 and las2 with gonum's Dlasv2 and
// Dlas2, and checks lasv2's rotations diagonalise the matrix.
func TestLasv2AgainstGonum(t *testing.T) {
	impl := gonum.Implementation{}
	r := rand.New(rand.NewPCG(11, 0))
	for _, x := range triples(r) {
		f, g, h := x[0], x[1], x[2]
		smin, smax, snr, csr, snl, csl := lasv2(f, g, h)
		wmin, wmax, wsnr, wcsr, wsnl, wcsl := impl.Dlasv2(f, g, h)
		big := math.Abs(wmax)
		for _, p := range [][3]float64{{smin, wmin, big}, {smax, wmax, big}, {snr, wsnr, 1}, {csr, wcsr, 1}, {snl, wsnl, 1}, {csl, wcsl, 1}} {
			if d := ulps(p[0], p[1], p[2]); !(d <= 4) {
				t.Fatalf("lasv2(%v, %v, %v) = %v %v %v %v %v %v, gonum %v %v %v %v %v %v (%.3g ulps)",
					f, g, h, smin, smax, snr, csr, snl, csl, wmin, wmax, wsnr, wcsr, wsnl, wcsl, d)
			}
		}
		// [csl snl; -snl csl] [f g; 0 h] [csr -snr; snr csr] = diag(smax, smin).
		a11 := csl*(f*csr+g*snr) + snl*(h*snr)
		a12 := csl*(-f*snr+g*csr) + snl*(h*csr)
		a21 := -snl*(f*csr+g*snr) + csl*(h*snr)
		a22 := -snl*(-f*snr+g*csr) + csl*(h*csr)
		if big > 1e-290 && big < 1e290 {
			for _, p := range [][2]float64{{a11, smax}, {a12, 0}, {a21, 0}, {a22, smin}} {
				if d := ulps(p[0], p[1], big); !(d <= 8) {
					t.Fatalf("lasv2(%v, %v, %v): rotations give [%v %v; %v %v], want diag(%v, %v)", f, g, h, a11, a12, a21, a22, smax, smin)
				}
			}
		}
		lmin, lmax := las2(f, g, h)
		gmin, gmax := impl.Dlas2(f, g, h)
		if ulps(lmin, gmin, gmax) > 4 || ulps(lmax, gmax, gmax) > 4 {
			t.Fatalf("las2(%v, %v, %v) = %v %v, gonum %v %v", f, g, h, lmin, lmax, gmin, gmax)
		}
	}
}

// TestLartg checks the rotation's defining properties on ordinary pairs,
// zeros and pairs whose squares overflow or underflow (the scaled path),
// in both types.
func TestLartg(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0))
	pairs := [][2]float64{{0, 0}, {1, 0}, {0, 1}, {0, -2}, {-3, 0}, {3, 4}, {-3, 4}, {3, -4}, {-3, -4},
		{1e300, 1e300}, {1e-300, 3e-300}, {1e300, 1e-300}, {-1e-300, 1e300}, {1e-320, 1e-321}, {1e200, 1}}
	for range 200 {
		pairs = append(pairs, [2]float64{r.NormFloat64() * math.Pow(10, float64(r.IntN(13)-6)), r.NormFloat64()})
	}
	for _, p := range pairs {
		f, g := p[0], p[1]
		c, s, rr := lartg(f, g)
		want := math.Hypot(f, g)
		if c < 0 || ulps(c*c+s*s, 1, 1) > 4 || ulps(math.Abs(rr), want, want) > 4 {
			t.Fatalf("lartg(%v, %v) = %v %v %v: want c >= 0, c^2+s^2 = 1, |r| = %v", f, g, c, s, rr, want)
		}
		if f != 0 && math.Signbit(rr) != math.Signbit(f) {
			t.Fatalf("lartg(%v, %v): r = %v has not f's sign", f, g, rr)
		}
		if want > 1e-290 && want < 1e290 {
			if ulps(c*f+s*g, rr, want) > 4 || ulps(-s*f+c*g, 0, want) > 4 {
				t.Fatalf("lartg(%v, %v) = %v %v %v does not rotate (f, g) to (r, 0)", f, g, c, s, rr)
			}
		}
		// float32, where it is representable.
		f32, g32 := float32(f), float32(g)
		if math.IsInf(float64(f32), 0) || math.IsInf(float64(g32), 0) {
			continue
		}
		c32, s32, r32 := lartg(f32, g32)
		w32 := math.Hypot(float64(f32), float64(g32))
		if c32 < 0 || math.Abs(float64(c32*c32+s32*s32)-1) > 4*0x1p-23 || math.Abs(math.Abs(float64(r32))-w32) > 4*0x1p-23*w32 {
			t.Fatalf("float32 lartg(%v, %v) = %v %v %v, |r| want %v", f32, g32, c32, s32, r32, w32)
		}
	}
}

// TestBdsqrRelativeAccuracy: on bidiagonals graded over 300 decades (float64)
// or 30 (float32), bdsqr gets every singular value to a few ulps of
// itself, not only of the largest (gonum's Dbdsqr is the reference, in
// float64; both have this accuracy), and the rotations it accumulates
// give B = U diag(d) V^T.
func TestBdsqrRelativeAccuracy(t *testing.T) {
	impl := gonum.Implementation{}
	r := rand.New(rand.NewPCG(13, 0))
	for _, n := range []int{2, 3, 5, 17, 40} {
		for _, decades := range []float64{0, 30, 300} {
			d, e := make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = (0.5 + r.Float64()) * math.Pow(10, -decades*float64(i)/float64(n))
				if r.IntN(2) == 0 {
					d[i] = -d[i]
				}
			}
			for i := range e {
				e[i] = (0.5 + r.Float64()) * math.Pow(10, -decades*(float64(i)+0.5)/float64(n))
			}
			ref := append([]float64(nil), d...)
			refE := append([]float64(nil), e...)
			if !impl.Dbdsqr('U', n, 0, 0, 0, ref, refE, nil, 1, nil, 1, nil, 1, make([]float64, 4*n)) {
				t.Fatal("gonum Dbdsqr failed")
			}
			check := func(name string, got []float64, tol float64) {
				t.Helper()
				for i := range got {
					got[i] = math.Abs(got[i])
				}
				slices.Sort(got)
				slices.Reverse(got)
				for i := range got {
					if rel := math.Abs(got[i]-ref[i]) / ref[i]; !(rel <= tol) {
						t.Fatalf("%s n=%d graded 1e-%v: s[%d] = %v, gonum %v (relative %.3g)", name, n, decades, i, got[i], ref[i], rel)
					}
				}
			}
			// float64, with vectors: U and V start as the identity.
			d64, e64 := append([]float64(nil), d...), append([]float64(nil), e...)
			u, v := eye(n), eye(n)
			if info := bdsqr(n, d64, e64, u, n, n, v, n, n, make([]float64, bdsqrWork(n))); info != 0 {
				t.Fatalf("n=%d: info %d", n, info)
			}
			checkFactors(t, n, d, e, d64, u, v)
			check("float64", d64, 40*float64(n)*0x1p-52)
			if decades > 30 {
				continue
			}
			d32, e32 := make([]float32, n), make([]float32, n-1)
			for i := range d {
				d32[i] = float32(d[i])
			}
			for i := range e {
				e32[i] = float32(e[i])
			}
			if info := bdsqr(n, d32, e32, nil, n, n, nil, n, n, make([]float32, bdsqrWork(n))); info != 0 {
				t.Fatalf("float32 n=%d: info %d", n, info)
			}
			got := make([]float64, n)
			for i := range got {
				got[i] = float64(d32[i])
			}
			// The rounding of the input to float32 moves each value by a
			// few float32 ulps relatively too.
			check("float32", got, 40*float64(n)*0x1p-23)
		}
	}
}

func eye(n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		a[i+i*n] = 1
	}
	return a
}

// checkFactors checks that U diag(s) V^T is the bidiagonal (d0, e0) to
// n eps ||B|| and that U and V are orthogonal.
func checkFactors(t *testing.T, n int, d0, e0, s, u, v []float64) {
	t.Helper()
	var nb float64
	for _, x := range append(append([]float64(nil), d0...), e0...) {
		nb = math.Max(nb, math.Abs(x))
	}
	for i := range n {
		for j := range n {
			var b float64
			switch j {
			case i:
				b = d0[i]
			case i + 1:
				b = e0[i]
			}
			var x, ou, ov float64
			for l := range n {
				x += u[i+l*n] * s[l] * v[j+l*n]
				ou += u[l+i*n] * u[l+j*n]
				ov += v[l+i*n] * v[l+j*n]
			}
			if i == j {
				ou, ov = ou-1, ov-1
			}
			if math.Abs(x-b) > 20*float64(n)*0x1p-52*nb || math.Abs(ou) > 20*float64(n)*0x1p-52 || math.Abs(ov) > 20*float64(n)*0x1p-52 {
				t.Fatalf("n=%d: (U S V^T)(%d,%d) = %v, B %v; (U^T U - I) %v, (V^T V - I) %v", n, i, j, x, b, ou, ov)
			}
		}
	}
}

// TestBdsqrNaNEnds: a NaN in the bidiagonal (which the kernels never pass:
// they check the input first) fails every convergence test, and bdsqr
// still ends, at its iteration limit, reporting the entries not
// converged. (A 2x2 block is solved in closed form, NaN and all: n >= 3.)
func TestBdsqrNaNEnds(t *testing.T) {
	for _, n := range []int{3, 4, 10} {
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = float64(i + 1)
		}
		for i := range e {
			e[i] = 0.5
		}
		e[(n-1)/2] = math.NaN()
		if info := bdsqr(n, d, e, nil, n, n, nil, n, n, make([]float64, bdsqrWork(n))); info < 1 || info > n-1 {
			t.Errorf("n=%d: info %d, want 1..%d", n, info, n-1)
		}
	}
}
