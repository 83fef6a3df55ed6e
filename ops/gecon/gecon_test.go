package gecon_test

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gecon"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle the per-matrix solve's switch to blocked solves (twice
// the vector tile's block) and the small sizes where n == 1 and 2 are
// special in the estimator.
var orders = []int{1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100}

// exactRcond is 1/(||A||*||A^-1||) in norm by gonum (the oracle): the
// inverse by gonum's LU, both norms by mat.Norm.
func exactRcond(a []float64, n int, norm batchlas.Norm) float64 {
	m := mat.NewDense(n, n, nil)
	for j := range n {
		for i := range n {
			m.Set(i, j, a[i+j*n])
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(m); err != nil {
		var c mat.Condition
		if !errors.As(err, &c) {
			return 0
		}
	}
	ord := 1.0
	if norm == batchlas.InfNorm {
		ord = math.Inf(1)
	}
	return 1 / (mat.Norm(m, ord) * mat.Norm(&inv, ord))
}

// estimate factors a copy of a with getrf and returns gecon's rcond under
// ctx, with the norm taken by gecon.Norm.
func estimate[T batchlas.Float](t *testing.T, ctx context.Context, norm batchlas.Norm, a batchlas.Batch[T]) []T {
	t.Helper()
	anorm := make([]T, a.Count)
	if err := gecon.Norm(ctx, norm, a, anorm); err != nil {
		t.Fatal(err)
	}
	lu := testmat.Clone(a)
	ipiv := batchlas.NewVectors[int32](a.Rows, a.Count)
	var ne *batchlas.NumericalError
	if err := getrf.Getrf(context.Background(), lu, ipiv, nil); err != nil && !errors.As(err, &ne) {
		t.Fatal(err)
	}
	rcond := testmat.NaNs[T](a.Count)
	if err := gecon.Gecon(ctx, norm, lu, anorm, rcond, nil); err != nil {
		t.Fatalf("gecon n=%d: %v", a.Rows, err)
	}
	return rcond
}

// calls are the pinned candidates of dt and the automatic choice.
func calls(dt sel.DType) map[string]context.Context {
	out := map[string]context.Context{"automatic": context.Background()}
	for _, c := range gecon.Op.Candidates(dt) {
		out[c.String()] = sel.WithPin(context.Background(), "gecon", c.String())
	}
	return out
}

// The estimate is a lower bound of ||A^-1||, so rcond is at least the
// exact value (less the solves' rounding, which grows with the condition
// number) and, on these matrices, at most 3 times it; for every
// candidate, both norms and both dtypes, on orders straddling the kernels'
// limits and condition numbers 1 to 1e8 (1e4 in float32).
func TestAgainstGonum(t *testing.T) {
	check := func(t *testing.T, dt sel.DType, f32 bool) {
		r := testmat.Rand(7)
		conds := []float64{1, 10, 1e4, 1e8}
		if f32 {
			conds = conds[:3]
		}
		for _, n := range orders {
			var ms [][]float64
			for _, c := range conds {
				ms = append(ms, testmat.WithCond(r, n, c), testmat.WithCond(r, n, c))
			}
			for _, norm := range []batchlas.Norm{batchlas.OneNorm, batchlas.InfNorm} {
				for name, ctx := range calls(dt) {
					var got []float64
					if f32 {
						for _, v := range estimate(t, ctx, norm, testmat.BatchOf[float32](ms, n)) {
							got = append(got, float64(v))
						}
					} else {
						got = estimate(t, ctx, norm, testmat.BatchOf[float64](ms, n))
					}
					for k, m := range ms {
						want := exactRcond(m, n, norm)
						tol := 1e-6 * conds[k/2]
						if f32 {
							tol = 1e-3 * conds[k/2]
						}
						if !(got[k] >= want*(1-tol)) || !(got[k] <= 3*want) {
							t.Errorf("%s %s n=%d norm=%s cond=%g: rcond %g, gonum's exact %g", dt, name, n, norm, conds[k/2], got[k], want)
						}
					}
				}
			}
		}
	}
	t.Run("float64", func(t *testing.T) { check(t, sel.Float64, false) })
	t.Run("float32", func(t *testing.T) { check(t, sel.Float32, true) })
}

// Every exactly rank-deficient matrix, whatever getrf's pivots say, has
// rcond below n*eps, and every matrix of condition number up to 1e10
// (1e5 in float32) is above it: the threshold of
// batchlas.WithConditionCheck separates them.
func TestThresholdSeparates(t *testing.T) {
	r := testmat.Rand(11)
	for _, n := range []int{2, 3, 8, 16, 33} {
		sing := testmat.RankDeficient(r, n, 300)
		var good [][]float64
		for range 20 {
			good = append(good, testmat.WithCond(r, n, 1e10))
		}
		for name, ctx := range calls(sel.Float64) {
			thr := float64(n) * 0x1p-52
			for k, v := range estimate(t, ctx, batchlas.OneNorm, testmat.BatchOf[float64](sing, n)) {
				if !(v < thr) {
					t.Errorf("float64 %s n=%d rank-deficient matrix %d: rcond %g >= n*eps %g", name, n, k, v, thr)
				}
			}
			for k, v := range estimate(t, ctx, batchlas.OneNorm, testmat.BatchOf[float64](good, n)) {
				if !(v >= thr) {
					t.Errorf("float64 %s n=%d matrix %d of condition 1e10: rcond %g < n*eps %g", name, n, k, v, thr)
				}
			}
		}
		var good32 [][]float64
		for range 20 {
			good32 = append(good32, testmat.WithCond(r, n, 1e4))
		}
		thr := float64(n) * 0x1p-23
		for k, v := range estimate(t, context.Background(), batchlas.OneNorm, testmat.BatchOf[float32](sing, n)) {
			if !(float64(v) < thr) {
				t.Errorf("float32 n=%d rank-deficient matrix %d: rcond %g >= n*eps %g", n, k, v, thr)
			}
		}
		for k, v := range estimate(t, context.Background(), batchlas.OneNorm, testmat.BatchOf[float32](good32, n)) {
			if !(float64(v) >= thr) {
				t.Errorf("float32 n=%d matrix %d of condition 1e4: rcond %g < n*eps %g", n, k, v, thr)
			}
		}
	}
}

// Scaling A by a power of ten changes nothing: the solves run on A/s, so a
// matrix of 1e-300s or 1e300s (1e-30, 1e30 in float32) gets the rcond of
// the unscaled one instead of overflowing.
func TestScaleInvariance(t *testing.T) {
	r := testmat.Rand(3)
	n := 12
	base := testmat.WithCond(r, n, 100)
	for name, ctx := range calls(sel.Float64) {
		ref := estimate(t, ctx, batchlas.OneNorm, testmat.BatchOf[float64]([][]float64{base}, n))[0]
		for _, s := range []float64{1e-300, 1e-200, 1e200, 1e300} {
			m := make([]float64, len(base))
			for i, v := range base {
				m[i] = v * s
			}
			got := estimate(t, ctx, batchlas.OneNorm, testmat.BatchOf[float64]([][]float64{m}, n))[0]
			if math.Abs(got-ref) > 1e-8*ref {
				t.Errorf("float64 %s scaled by %g: rcond %g, unscaled %g", name, s, got, ref)
			}
		}
	}
	ref := estimate(t, context.Background(), batchlas.OneNorm, testmat.BatchOf[float32]([][]float64{base}, n))[0]
	for _, s := range []float64{1e-30, 1e30} {
		m := make([]float64, len(base))
		for i, v := range base {
			m[i] = v * s
		}
		got := estimate(t, context.Background(), batchlas.OneNorm, testmat.BatchOf[float32]([][]float64{m}, n))[0]
		if math.Abs(float64(got-ref)) > 1e-3*float64(ref) {
			t.Errorf("float32 scaled by %g: rcond %g, unscaled %g", s, got, ref)
		}
	}
}

// What each matrix gets without an estimate: 0 for a zero or infinite
// norm and for an exactly singular factor, NaN for a NaN norm or a factor
// holding Inf or NaN; 1 for n == 0. Every candidate agrees.
func TestSpecialValues(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	n := 4
	good := testmat.WithCond(testmat.Rand(5), n, 10)
	singular := append([]float64(nil), good...)
	for i := range n {
		singular[i+2*n] = 0 // a zero column: U has a zero pivot
	}
	withNaN := append([]float64(nil), good...)
	withNaN[5] = nan
	withInf := append([]float64(nil), good...)
	withInf[6] = inf
	for name, ctx := range calls(sel.Float64) {
		a := testmat.BatchOf[float64]([][]float64{good, good, good, singular, withNaN, withInf}, n)
		anorm := make([]float64, a.Count)
		if err := gecon.Norm(ctx, batchlas.OneNorm, a, anorm); err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(anorm[4]) || !math.IsInf(anorm[5], 1) {
			t.Errorf("Norm: a NaN gives %g (want NaN), an Inf %g (want +Inf)", anorm[4], anorm[5])
		}
		anorm[0], anorm[1], anorm[2] = 0, inf, nan
		anorm[5] = 1 // the Inf in the factor decides, not the norm
		lu := testmat.Clone(a)
		_ = getrf.Getrf(context.Background(), lu, batchlas.NewVectors[int32](n, a.Count), nil)
		rcond := testmat.NaNs[float64](a.Count)
		if err := gecon.Gecon(ctx, batchlas.OneNorm, lu, anorm, rcond, nil); err != nil {
			t.Fatal(err)
		}
		want := []float64{0, 0, nan, 0, nan, nan}
		for i, w := range want {
			if g := rcond[i]; !(g == w || (math.IsNaN(g) && math.IsNaN(w))) {
				t.Errorf("%s matrix %d: rcond %g, want %g", name, i, g, w)
			}
		}
	}
	empty, _ := batchlas.WrapBatch([]float64{}, 0, 0, 3)
	rcond := []float64{7, 7, 7}
	if err := gecon.Gecon(context.Background(), batchlas.OneNorm, empty, []float64{0, 0, 0}, rcond, nil); err != nil || rcond[0] != 1 || rcond[2] != 1 {
		t.Errorf("n == 0: rcond %v, err %v; want 1s", rcond, err)
	}
}

// Refused arguments name the argument and write nothing.
func TestArgumentErrors(t *testing.T) {
	n := 3
	a := testmat.BatchOf[float64]([][]float64{testmat.WithCond(testmat.Rand(1), n, 2), testmat.WithCond(testmat.Rand(2), n, 2)}, n)
	ok := []float64{1, 1}
	cases := []struct {
		name, arg string
		call      func() error
	}{
		{"bad norm", "norm", func() error { return gecon.Gecon(nil, 'F', a, ok, make([]float64, 2), nil) }},
		{"short anorm", "anorm", func() error { return gecon.Gecon(nil, batchlas.OneNorm, a, ok[:1], make([]float64, 2), nil) }},
		{"short rcond", "rcond", func() error { return gecon.Gecon(nil, batchlas.OneNorm, a, ok, make([]float64, 1), nil) }},
		{"negative anorm", "anorm", func() error { return gecon.Gecon(nil, batchlas.OneNorm, a, []float64{1, -1}, make([]float64, 2), nil) }},
		{"rcond inside lu", "rcond", func() error { return gecon.Gecon(nil, batchlas.OneNorm, a, ok, a.Data[:2], nil) }},
		{"rcond is anorm", "rcond", func() error { r := []float64{1, 1}; return gecon.Gecon(nil, batchlas.OneNorm, a, r, r, nil) }},
		{"not square", "lu", func() error {
			b, _ := batchlas.WrapBatch(make([]float64, 12), 2, 3, 2)
			return gecon.Gecon(nil, batchlas.OneNorm, b, ok, make([]float64, 2), nil)
		}},
		{"short workspace", "ws", func() error { return gecon.Gecon(nil, batchlas.OneNorm, a, ok, make([]float64, 2), make([]float64, 1)) }},
		{"Norm: short anorm", "anorm", func() error { return gecon.Norm(nil, batchlas.OneNorm, a, ok[:1]) }},
		{"Norm: bad norm", "norm", func() error { return gecon.Norm(nil, 'X', a, ok) }},
	}
	for _, c := range cases {
		err := c.call()
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Op != "gecon" || ae.Arg != c.arg {
			t.Errorf("%s: %v, want an *ArgError from gecon on %s", c.name, err, c.arg)
		}
	}
}

// With its workspace supplied, a permatrix call allocates nothing.
func TestNoAllocs(t *testing.T) {
	n := 20
	var ms [][]float64
	r := testmat.Rand(9)
	for range 16 {
		ms = append(ms, testmat.WithCond(r, n, 50))
	}
	a := testmat.BatchOf[float64](ms, n)
	anorm, rcond := make([]float64, a.Count), make([]float64, a.Count)
	_ = gecon.Norm(nil, batchlas.OneNorm, a, anorm)
	_ = getrf.Getrf(nil, a, batchlas.NewVectors[int32](n, a.Count), nil)
	ctx := sel.WithPin(context.Background(), "gecon", "permatrix")
	size, err := gecon.BufferSize(ctx, batchlas.OneNorm, a, anorm, rcond)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]float64, size)
	testmat.NoAllocs(t, "gecon permatrix with its workspace", func() {
		if err := gecon.Gecon(ctx, batchlas.OneNorm, a, anorm, rcond, ws); err != nil {
			t.Fatal(err)
		}
	})
}
