package syev

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// tridiagCase is a symmetric tridiagonal test matrix: diagonal d and
// subdiagonal e.
type tridiagCase struct {
	name string
	d, e []float64
}

// tridiagCases are the matrices that exercise divide and conquer's
// deflation and secular equation: random entries, a graded matrix, the
// Wilkinson matrix (pairs of eigenvalues equal to many digits), glued
// Wilkinson blocks (clusters), equal diagonals (a repeated eigenvalue
// structure), tiny and zero couplings (tears that deflate everything),
// the identity and zero, and entries of one sign with very different
// magnitudes.
func tridiagCases(r *rand.Rand, n int) []tridiagCase {
	mk := func(name string, fd func(i int) float64, fe func(i int) float64) tridiagCase {
		c := tridiagCase{name: name, d: make([]float64, n), e: make([]float64, max(n-1, 0))}
		for i := range c.d {
			c.d[i] = fd(i)
		}
		for i := range c.e {
			c.e[i] = fe(i)
		}
		return c
	}
	half := float64(n-1) / 2
	return []tridiagCase{
		mk("random", func(int) float64 { return 2*r.Float64() - 1 }, func(int) float64 { return 2*r.Float64() - 1 }),
		mk("graded", func(i int) float64 { return math.Pow(10, -float64(i)/4) }, func(i int) float64 { return math.Pow(10, -float64(i)/4-1) }),
		mk("wilkinson", func(i int) float64 { return math.Abs(float64(i) - half) }, func(int) float64 { return 1 }),
		mk("glued", func(i int) float64 { return math.Abs(float64(i%7) - 3) }, func(i int) float64 {
			if i%7 == 6 {
				return 1e-9
			}
			return 1
		}),
		mk("equal", func(int) float64 { return 2 }, func(int) float64 { return 1 }),
		mk("tiny couplings", func(int) float64 { return r.Float64() }, func(i int) float64 { return 1e-18 * r.Float64() }),
		mk("torn", func(i int) float64 { return float64(i % 3) }, func(i int) float64 {
			if i == n/2-1 {
				return 0
			}
			return 0.5
		}),
		mk("identity", func(int) float64 { return 1 }, func(int) float64 { return 0 }),
		mk("zero", func(int) float64 { return 0 }, func(int) float64 { return 0 }),
		mk("wide range", func(i int) float64 { return math.Pow(2, float64(i%40)-20) }, func(i int) float64 { return math.Pow(2, -float64(i%30)) }),
	}
}

// TestDivideAndConquer runs dcEig on tridiagCases with leaves of 1, 2, 5
// and the default size, so that small orders go through many merges, and
// checks each result against gonum's Dsterf (the eigenvalues) and against
// the matrix itself: the residual |T z - lambda z| and the orthogonality
// |Z^T Z - I| within a small multiple of n eps |T|, both dtypes.
func TestDivideAndConquer(t *testing.T) {
	defer func(l int) { dcLeaf = l }(dcLeaf)
	for _, leaf := range []int{1, 2, 5, dcLeaf} {
		dcLeaf = leaf
		for _, n := range []int{1, 2, 3, 4, 7, 8, 16, 33, 64, 100, 130} {
			r := testmat.Rand(uint64(n))
			for _, tc := range tridiagCases(r, n) {
				what := fmt.Sprintf("leaf=%d n=%d %s", leaf, n, tc.name)
				checkDC[float64](t, what, tc)
				checkDC[float32](t, what, tc)
			}
		}
	}
}

func checkDC[T batchlas.Float](t *testing.T, what string, tc tridiagCase) {
	t.Helper()
	n := len(tc.d)
	what = fmt.Sprintf("%T %s", T(0), what)
	d, e := make([]T, n), make([]T, max(n, 1))
	var norm float64
	for i := range tc.d {
		d[i] = T(tc.d[i])
		norm = max(norm, math.Abs(float64(d[i])))
	}
	for i := range tc.e {
		e[i] = T(tc.e[i])
		norm = max(norm, math.Abs(float64(e[i])))
	}
	// The reference sees the same rounded entries.
	rd, re := make([]float64, n), make([]float64, max(n, 1))
	for i := range rd {
		rd[i] = float64(d[i])
	}
	for i := range tc.e {
		re[i] = float64(e[i])
	}
	td, te := slices.Clone(rd), slices.Clone(re)
	if !(gonum.Implementation{}).Dsterf(n, rd, re) {
		t.Fatalf("%s: gonum's Dsterf did not converge", what)
	}
	z := testmat.NaNs[T](n * n)
	u, p := make([]T, n*n), make([]T, n*n)
	info, err := dcEig(context.Background(), d, e, n, z, n, u, p, make([]T, dcWork(n)), make([]int32, dcInts(n)), nil)
	if err != nil || info != 0 {
		t.Fatalf("%s: info %d, err %v", what, info, err)
	}
	tol := 8 * float64(n+1) * testmat.Eps[T]() * max(norm, math.SmallestNonzeroFloat64)
	got := make([]float64, n)
	for i := range got {
		got[i] = float64(d[i])
	}
	slices.Sort(got)
	for i := range got {
		if !(math.Abs(got[i]-rd[i]) <= tol) {
			t.Fatalf("%s: eigenvalue %d is %g, gonum's Dsterf %g (tolerance %g)", what, i, got[i], rd[i], tol)
		}
	}
	for j := 0; j < n; j++ {
		col := z[j*n : (j+1)*n]
		for i := 0; i < n; i++ {
			// (T z_j)_i - lambda_j z_ji
			v := (td[i] - float64(d[j])) * float64(col[i])
			if i > 0 {
				v += te[i-1] * float64(col[i-1])
			}
			if i < n-1 {
				v += te[i] * float64(col[i+1])
			}
			if !(math.Abs(v) <= tol) {
				t.Fatalf("%s: residual of vector %d row %d is %g (tolerance %g)", what, j, i, v, tol)
			}
		}
		for k := 0; k <= j; k++ {
			var dot float64
			for i := 0; i < n; i++ {
				dot += float64(col[i]) * float64(z[k*n+i])
			}
			if k == j {
				dot--
			}
			if !(math.Abs(dot) <= 8*float64(n+1)*testmat.Eps[T]()) {
				t.Fatalf("%s: vectors %d and %d: z^T z - I is %g", what, k, j, dot)
			}
		}
	}
}

// TestSecularRoot: on random and clustered poles, every root secularRoot
// returns makes f change sign within a few ulps of it, and lies in its
// interval, both dtypes.
func TestSecularRoot(t *testing.T) {
	testSecularRoot[float64](t)
	testSecularRoot[float32](t)
}

func testSecularRoot[T batchlas.Float](t *testing.T) {
	r := testmat.Rand(5)
	for _, k := range []int{2, 3, 10, 50} {
		for _, clustered := range []bool{false, true} {
			d, v := make([]T, k), make([]T, k)
			x := 0.0
			var vv float64
			for j := range d {
				gap := r.Float64() + 0.01
				if clustered && j%2 == 1 {
					gap = 1e-4 * gap
				}
				x += gap
				d[j] = T(x)
				v[j] = T(r.Float64() + 1e-3)
				vv += float64(v[j]) * float64(v[j])
			}
			rho := T(0.5 + r.Float64())
			diff := make([]T, k)
			for i := 0; i < k; i++ {
				org, tau := secularRoot(d, v, i, rho, diff)
				lam := float64(d[org]) + float64(tau)
				hiEnd := float64(d[k-1]) + float64(rho)*vv
				if i < k-1 {
					hiEnd = float64(d[i+1])
				}
				what := fmt.Sprintf("%T k=%d clustered=%v root %d", T(0), k, clustered, i)
				if !(lam >= float64(d[i]) && lam <= hiEnd) {
					t.Fatalf("%s: %g outside [%g, %g]", what, lam, float64(d[i]), hiEnd)
				}
				// f in float64 a little below and above the root, in
				// offsets from the origin pole as secularRoot works.
				f := func(ofs float64) float64 {
					s := 1 / float64(rho)
					for j := range d {
						s += float64(v[j]) * float64(v[j]) / ((float64(d[j]) - float64(d[org])) - ofs)
					}
					return s
				}
				step := 64 * testmat.Eps[T]() * math.Abs(float64(tau))
				if ofs := float64(tau); !(f(ofs-step) <= 0 && f(ofs+step) >= 0) {
					t.Fatalf("%s: f does not change sign around %g (f = %g, %g)", what, lam, f(ofs-step), f(ofs+step))
				}
			}
		}
	}
}

// TestDCWithSmallLeaves runs the whole dc kernel, reduction and reflectors
// included, with leaves of 2 and 3 rows (so that a matrix of order 33 goes
// through four levels of merges) on every kind of test matrix, tight and
// padded, both triangles, against gonum's Dsyev (checkSolved): the merges
// meet the repeated, clustered and graded spectra of the conformance
// suite at orders where they are cheap to check.
func TestDCWithSmallLeaves(t *testing.T) {
	defer func(l int) { dcLeaf = l }(dcLeaf)
	c := dcFamily.With()
	for _, leaf := range []int{2, 3} {
		dcLeaf = leaf
		for _, n := range []int{33, 40, 65, 100} {
			for k, uplo := range uplos {
				r := testmat.Rand(uint64(n*10 + leaf))
				what := fmt.Sprintf("leaf=%d n=%d uplo=%v", leaf, n, uplo)
				p64 := newProblem[float64](r, WithVectors, uplo, n, kinds, 0, (n+k)%2 == 0)
				a, w := p64.clone()
				if err := Syev(pin(context.Background(), c), WithVectors, uplo, a, w, nil); err != nil {
					t.Fatalf("float64 %s: %v", what, err)
				}
				checkSolved(t, "float64 "+what, p64, a, w, nil)
				p32 := newProblem[float32](r, WithVectors, uplo, n, kinds, 0, (n+k)%2 == 1)
				a32, w32 := p32.clone()
				if err := Syev(pin(context.Background(), c), WithVectors, uplo, a32, w32, nil); err != nil {
					t.Fatalf("float32 %s: %v", what, err)
				}
				checkSolved(t, "float32 "+what, p32, a32, w32, nil)
			}
		}
	}
}

// TestDCSameForEveryParallelism: at order 300 dc's merges are big enough
// for their secular roots, recomputed z and vectors to be split over
// workers (and its products to be split by the gemm op): the results are
// the same bits with 1, 2 and the default number of workers.
func TestDCSameForEveryParallelism(t *testing.T) {
	testDCSameForEveryParallelism[float64](t)
	testDCSameForEveryParallelism[float32](t)
}

func testDCSameForEveryParallelism[T batchlas.Float](t *testing.T) {
	const n = 300
	p := newProblem[T](testmat.Rand(33), WithVectors, batchlas.Lower, n, 2, kindRandom, false)
	var ref []T
	for _, w := range []int{0, 1, 2} {
		ctx := batchlas.WithParallelism(pin(context.Background(), dcFamily.With()), w)
		a, wv := p.clone()
		if err := Syev(ctx, WithVectors, batchlas.Lower, a, wv, nil); err != nil {
			t.Fatalf("%T cap %d: %v", T(0), w, err)
		}
		got := append(slices.Clone(a.Data), wv.Data...)
		if w == 0 {
			ref = got
			continue
		}
		if !sameBits(ref, got) {
			t.Fatalf("%T: workers capped at %d change the result", T(0), w)
		}
	}
}
