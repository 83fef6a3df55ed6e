package pocon_test

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/pocon"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle the Cholesky solve's switch to blocked solves and the
// small sizes where n == 1 and 2 are special in the estimator.
var orders = []int{1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100}

// exactRcond is 1/(||A||_1*||A^-1||_1) by gonum (the oracle).
func exactRcond(a []float64, n int) float64 {
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
	return 1 / (mat.Norm(m, 1) * mat.Norm(&inv, 1))
}

// estimate factors a copy of a with potrf, poisons the other triangle with
// NaN (pocon must not read it), and returns pocon's rcond under ctx and
// potrf's info per matrix.
func estimate[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T]) ([]T, []int) {
	t.Helper()
	anorm := make([]T, a.Count)
	if err := pocon.Norm(ctx, uplo, a, anorm); err != nil {
		t.Fatal(err)
	}
	f := testmat.Clone(a)
	info, ok := testmat.Infos(potrf.Potrf(context.Background(), uplo, f, nil), f.Count)
	if !ok {
		t.Fatal("potrf failed")
	}
	n := a.Rows
	for k := range f.Count {
		for j := range n {
			for i := range n {
				if (uplo == batchlas.Lower && i < j) || (uplo == batchlas.Upper && i > j) {
					f.Data[k*f.Stride+j*f.LD+i] = T(math.NaN())
				}
			}
		}
	}
	rcond := testmat.NaNs[T](a.Count)
	if err := pocon.Pocon(ctx, uplo, f, anorm, rcond, nil); err != nil {
		t.Fatalf("pocon n=%d: %v", n, err)
	}
	return rcond, info
}

func calls(dt sel.DType) map[string]context.Context {
	out := map[string]context.Context{"automatic": context.Background()}
	for _, c := range pocon.Op.Candidates(dt) {
		out[c.String()] = sel.WithPin(context.Background(), "pocon", c.String())
	}
	return out
}

// rcond is at least the exact value (less the solves' rounding) and at
// most 3 times it, for every candidate, both triangles and both dtypes.
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
				ms = append(ms, testmat.SPDWithCond(r, n, c), testmat.SPDWithCond(r, n, c))
			}
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				for name, ctx := range calls(dt) {
					var got []float64
					if f32 {
						g, _ := estimate(t, ctx, uplo, testmat.BatchOf[float32](ms, n))
						for _, v := range g {
							got = append(got, float64(v))
						}
					} else {
						got, _ = estimate(t, ctx, uplo, testmat.BatchOf[float64](ms, n))
					}
					for k, m := range ms {
						want := exactRcond(m, n)
						tol := 1e-6 * conds[k/2]
						if f32 {
							tol = 1e-3 * conds[k/2]
						}
						if !(got[k] >= want*(1-tol)) || !(got[k] <= 3*want) {
							t.Errorf("%s %s n=%d %s cond=%g: rcond %g, gonum's exact %g", dt, name, n, uplo, conds[k/2], got[k], want)
						}
					}
				}
			}
		}
	}
	t.Run("float64", func(t *testing.T) { check(t, sel.Float64, false) })
	t.Run("float32", func(t *testing.T) { check(t, sel.Float32, true) })
}

// A semidefinite matrix of rank n-1 (X*X^T, X random n x (n-1)) that potrf
// manages to factor has rcond below n*eps; a matrix of condition 1e10 is
// above it.
func TestThresholdSeparates(t *testing.T) {
	r := testmat.Rand(11)
	for _, n := range []int{2, 3, 8, 16, 33} {
		var sing, good [][]float64
		for range 200 {
			x := make([]float64, n*(n-1))
			for i := range x {
				x[i] = r.NormFloat64()
			}
			m := make([]float64, n*n)
			for j := range n {
				for i := range n {
					var s float64
					for l := range n - 1 {
						s += x[i+l*n] * x[j+l*n]
					}
					m[i+j*n] = s
				}
			}
			sing = append(sing, m)
		}
		for range 20 {
			good = append(good, testmat.SPDWithCond(r, n, 1e10))
		}
		thr := float64(n) * 0x1p-52
		for name, ctx := range calls(sel.Float64) {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				rc, info := estimate(t, ctx, uplo, testmat.BatchOf[float64](sing, n))
				for k, v := range rc {
					if info[k] == 0 && !(v < thr) {
						t.Errorf("%s n=%d %s rank-deficient matrix %d: rcond %g >= n*eps %g", name, n, uplo, k, v, thr)
					}
				}
				rc, info = estimate(t, ctx, uplo, testmat.BatchOf[float64](good, n))
				for k, v := range rc {
					if info[k] != 0 || !(v >= thr) {
						t.Errorf("%s n=%d %s matrix %d of condition 1e10: info %d, rcond %g (n*eps %g)", name, n, uplo, k, info[k], v, thr)
					}
				}
			}
		}
	}
}

// Scaling A by a power of ten changes nothing: the solves run on A/s.
func TestScaleInvariance(t *testing.T) {
	r := testmat.Rand(3)
	n := 12
	base := testmat.SPDWithCond(r, n, 100)
	for name, ctx := range calls(sel.Float64) {
		ref, _ := estimate(t, ctx, batchlas.Lower, testmat.BatchOf[float64]([][]float64{base}, n))
		for _, s := range []float64{1e-300, 1e300} {
			m := make([]float64, len(base))
			for i, v := range base {
				m[i] = v * s
			}
			got, _ := estimate(t, ctx, batchlas.Lower, testmat.BatchOf[float64]([][]float64{m}, n))
			if math.Abs(got[0]-ref[0]) > 1e-8*ref[0] {
				t.Errorf("%s scaled by %g: rcond %g, unscaled %g", name, s, got[0], ref[0])
			}
		}
	}
}

// Norm reads one triangle only, and a NaN in it is never lost.
func TestNorm(t *testing.T) {
	n := 5
	m := testmat.SPDWithCond(testmat.Rand(2), n, 10)
	want := 0.0
	for j := range n {
		var s float64
		for i := range n {
			s += math.Abs(m[i+j*n])
		}
		want = max(want, s)
	}
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		a := testmat.BatchOf[float64]([][]float64{m, m}, n)
		for j := range n {
			for i := range n {
				if (uplo == batchlas.Lower && i < j) || (uplo == batchlas.Upper && i > j) {
					a.Data[j*a.LD+i] = math.NaN()
				}
			}
		}
		bad := 3 + 1*a.LD // (3, 1): in the lower triangle
		if uplo == batchlas.Upper {
			bad = 1 + 3*a.LD
		}
		a.Data[a.Stride+bad] = math.NaN()
		got := make([]float64, 2)
		if err := pocon.Norm(nil, uplo, a, got); err != nil {
			t.Fatal(err)
		}
		if math.Abs(got[0]-want) > 1e-12*want || !math.IsNaN(got[1]) {
			t.Errorf("%s: norms %v, want %g and NaN", uplo, got, want)
		}
	}
}

// Refused arguments name the argument.
func TestArgumentErrors(t *testing.T) {
	n := 3
	a := testmat.BatchOf[float64]([][]float64{testmat.SPDWithCond(testmat.Rand(1), n, 2), testmat.SPDWithCond(testmat.Rand(2), n, 2)}, n)
	ok := []float64{1, 1}
	cases := []struct {
		name, arg string
		call      func() error
	}{
		{"bad uplo", "uplo", func() error { return pocon.Pocon(nil, 'X', a, ok, make([]float64, 2), nil) }},
		{"short anorm", "anorm", func() error { return pocon.Pocon(nil, batchlas.Lower, a, ok[:1], make([]float64, 2), nil) }},
		{"negative anorm", "anorm", func() error { return pocon.Pocon(nil, batchlas.Lower, a, []float64{-1, 1}, make([]float64, 2), nil) }},
		{"rcond inside chol", "rcond", func() error { return pocon.Pocon(nil, batchlas.Lower, a, ok, a.Data[1:3], nil) }},
		{"short workspace", "ws", func() error { return pocon.Pocon(nil, batchlas.Lower, a, ok, make([]float64, 2), make([]float64, 1)) }},
		{"Norm: not square", "a", func() error {
			b, _ := batchlas.WrapBatch(make([]float64, 12), 2, 3, 2)
			return pocon.Norm(nil, batchlas.Lower, b, ok)
		}},
	}
	for _, c := range cases {
		err := c.call()
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Op != "pocon" || ae.Arg != c.arg {
			t.Errorf("%s: %v, want an *ArgError from pocon on %s", c.name, err, c.arg)
		}
	}
}

// With its workspace supplied, a permatrix call allocates nothing.
func TestNoAllocs(t *testing.T) {
	n := 20
	var ms [][]float64
	r := testmat.Rand(9)
	for range 16 {
		ms = append(ms, testmat.SPDWithCond(r, n, 50))
	}
	a := testmat.BatchOf[float64](ms, n)
	anorm, rcond := make([]float64, a.Count), make([]float64, a.Count)
	_ = pocon.Norm(nil, batchlas.Lower, a, anorm)
	_ = potrf.Potrf(nil, batchlas.Lower, a, nil)
	ctx := sel.WithPin(context.Background(), "pocon", "permatrix")
	size, err := pocon.BufferSize(ctx, batchlas.Lower, a, anorm, rcond)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]float64, size)
	testmat.NoAllocs(t, "pocon permatrix with its workspace", func() {
		if err := pocon.Pocon(ctx, batchlas.Lower, a, anorm, rcond, ws); err != nil {
			t.Fatal(err)
		}
	})
}
