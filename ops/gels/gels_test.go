package gels_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gels"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// sizes straddle the small orders and the vector lengths of the loops.
var sizes = []int{1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100}

// calls are the pinned candidates of dt and the automatic choice.
func calls(dt sel.DType) map[string]context.Context {
	out := map[string]context.Context{"automatic": context.Background()}
	for _, c := range gels.Op.Candidates(dt) {
		out[c.String()] = sel.WithPin(context.Background(), "gels", c.String())
	}
	return out
}

// padded copies column-major rows x cols matrices into a batch with
// leading dimension rows+2 and NaN padding.
func padded[T batchlas.Float](ms [][]float64, rows, cols int) batchlas.Batch[T] {
	ld, stride := rows+2, (rows+2)*cols+3
	data := testmat.NaNs[T](max(stride*len(ms), 1))
	for k, m := range ms {
		for c := range cols {
			for r := range rows {
				data[k*stride+c*ld+r] = T(m[r+c*rows])
			}
		}
	}
	b, err := batchlas.WrapStrided(data, rows, cols, ld, stride, len(ms))
	if err != nil {
		panic(err)
	}
	return b
}

func random(seed uint64, rows, cols, count int) [][]float64 {
	r := testmat.Rand(seed)
	var out [][]float64
	for range count {
		m := make([]float64, rows*cols)
		for i := range m {
			m[i] = r.NormFloat64()
		}
		out = append(out, m)
	}
	return out
}

// lstsq is gonum's least-squares solution (the oracle): mat.QR's
// SolveTo, in float64.
func lstsq(a []float64, m, n int, b []float64, nrhs int) *mat.Dense {
	am := mat.NewDense(m, n, nil)
	for c := range n {
		for r := range m {
			am.Set(r, c, a[r+c*m])
		}
	}
	bm := mat.NewDense(m, nrhs, nil)
	for c := range nrhs {
		for r := range m {
			bm.Set(r, c, b[r+c*m])
		}
	}
	var qr mat.QR
	qr.Factorize(am)
	var x mat.Dense
	if err := qr.SolveTo(&x, false, bm); err != nil {
		panic(err)
	}
	return &x
}

// Every candidate and the automatic choice give gonum's solution (within
// 1e-9 relative in float64, 1e-3 in float32: random Gaussian matrices are
// well conditioned for m >= n), both dtypes, on shapes straddling the
// loops' limits with padded leading dimensions; the residual rows hold
// Q^T*(B - A*X), whose norm is the residual's.
func TestAgainstGonum(t *testing.T) {
	run := func(t *testing.T, dt sel.DType, f32 bool) {
		for _, n := range sizes {
			for _, m := range sizes {
				if m < n {
					continue
				}
				for _, nrhs := range []int{1, 3} {
					as, bs := random(uint64(m*1000+n), m, n, 3), random(uint64(n*1000+m), m, nrhs, 3)
					for name, ctx := range calls(dt) {
						var got func(i, r, c int) float64
						var err error
						if f32 {
							a, b := padded[float32](as, m, n), padded[float32](bs, m, nrhs)
							err = gels.Gels(ctx, a, b, nil)
							got = func(i, r, c int) float64 { return float64(b.At(i, r, c)) }
						} else {
							a, b := padded[float64](as, m, n), padded[float64](bs, m, nrhs)
							err = gels.Gels(ctx, a, b, nil)
							got = func(i, r, c int) float64 { return b.At(i, r, c) }
						}
						if err != nil && name != "automatic" && strings.Contains(err.Error(), "can_run refuses") {
							continue // past the pinned candidate's limits (lanes: m, nrhs <= 64)
						}
						if err != nil {
							t.Fatalf("%s %s m=%d n=%d: %v", dt, name, m, n, err)
						}
						tol := 1e-9
						if f32 {
							tol = 2e-3
						}
						for i := range as {
							want := lstsq(as[i], m, n, bs[i], nrhs)
							for c := range nrhs {
								var scale, res, wres float64
								for r := range n {
									scale = max(scale, math.Abs(want.At(r, c)))
								}
								for r := range n {
									if d := math.Abs(got(i, r, c) - want.At(r, c)); !(d <= tol*max(scale, 1)) {
										t.Fatalf("%s %s m=%d n=%d nrhs=%d matrix %d x(%d,%d) = %g, gonum %g", dt, name, m, n, nrhs, i, r, c, got(i, r, c), want.At(r, c))
									}
								}
								// the residual's norm from the rows below n
								for r := n; r < m; r++ {
									res += got(i, r, c) * got(i, r, c)
								}
								for r := range m {
									s := bs[i][r+c*m]
									for k := range n {
										s -= as[i][r+k*m] * want.At(k, c)
									}
									wres += s * s
								}
								if d := math.Abs(math.Sqrt(res) - math.Sqrt(wres)); !(d <= 10*tol*(math.Sqrt(wres)+1)) {
									t.Errorf("%s %s m=%d n=%d matrix %d column %d: residual norm from B's last rows %g, gonum's %g", dt, name, m, n, i, c, math.Sqrt(res), math.Sqrt(wres))
								}
							}
						}
					}
				}
			}
		}
	}
	t.Run("float64", func(t *testing.T) { run(t, sel.Float64, false) })
	t.Run("float32", func(t *testing.T) { run(t, sel.Float32, true) })
}

// A matrix with a zero column (exactly rank-deficient: R has a zero on
// its diagonal) or a NaN is reported with info the position, its B left
// as it was bit for bit, and the other systems solved; every candidate
// agrees.
func TestRankDeficient(t *testing.T) {
	m, n, nrhs := 9, 4, 2
	as, bs := random(5, m, n, 4), random(6, m, nrhs, 4)
	for r := range m {
		as[1][r+0*m] = 0 // column 0 of matrix 1 is zero: R(0,0) = 0
		as[3][r+2*m] = as[3][r+1*m]
	}
	as[2][3] = math.NaN()
	for name, ctx := range calls(sel.Float64) {
		a, b := padded[float64](as, m, n), padded[float64](bs, m, nrhs)
		b0 := testmat.Clone(b)
		err := gels.Gels(ctx, a, b, nil)
		var ne *batchlas.NumericalError
		if !errors.As(err, &ne) {
			t.Fatalf("%s: %v, want a NumericalError", name, err)
		}
		infos := map[int]int{}
		for j, i := range ne.Index {
			infos[i] = ne.Info[j]
		}
		if infos[1] != 1 || infos[2] == 0 || infos[0] != 0 {
			t.Errorf("%s: infos %v, want matrix 1 with info 1, matrix 2 (NaN) reported, matrix 0 not", name, infos)
		}
		for i, info := range infos {
			for c := range nrhs {
				for r := range m {
					g, w := b.At(i, r, c), b0.At(i, r, c)
					if math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s: matrix %d (info %d) had its B written", name, i, info)
					}
				}
			}
		}
		want := lstsq(as[0], m, n, bs[0], nrhs)
		if d := math.Abs(b.At(0, 0, 0) - want.At(0, 0)); d > 1e-9 {
			t.Errorf("%s: matrix 0 not solved next to the failures", name)
		}
	}
}

// Refused arguments name the argument; a call with nothing to solve
// writes nothing.
func TestArguments(t *testing.T) {
	wide := batchlas.NewBatch[float64](3, 4, 2)
	a, b := batchlas.NewBatch[float64](5, 3, 2), batchlas.NewBatch[float64](5, 2, 2)
	cases := []struct {
		name, arg string
		err       error
	}{
		{"wide A", "a", gels.Gels(nil, wide, batchlas.NewBatch[float64](3, 1, 2), nil)},
		{"B rows", "b", gels.Gels(nil, a, batchlas.NewBatch[float64](4, 1, 2), nil)},
		{"B count", "b", gels.Gels(nil, a, batchlas.NewBatch[float64](5, 1, 3), nil)},
		{"broadcast A", "a", gels.Gels(nil, batchlas.Broadcast(batchlas.NewBatch[float64](5, 3, 1), 2), b, nil)},
		{"B inside A", "b", gels.Gels(nil, a, batchlas.Batch[float64]{Data: a.Data, Rows: 5, Cols: 1, LD: 5, Stride: 15, Count: 2}, nil)},
		{"short ws", "ws", gels.Gels(nil, a, b, make([]float64, 1))},
	}
	for _, c := range cases {
		var ae *batchlas.ArgError
		if !errors.As(c.err, &ae) || ae.Op != "gels" || ae.Arg != c.arg {
			t.Errorf("%s: %v, want an *ArgError from gels on %s", c.name, c.err, c.arg)
		}
	}
	a0 := padded[float64](random(1, 5, 3, 2), 5, 3)
	orig := append([]float64(nil), a0.Data...)
	if err := gels.Gels(sel.WithPin(context.Background(), "gels", "nonsense"), a0, batchlas.NewBatch[float64](5, 0, 2), nil); err != nil {
		t.Errorf("nrhs 0: %v (no decision: the pin is not read)", err)
	}
	for i, v := range a0.Data {
		if math.Float64bits(v) != math.Float64bits(orig[i]) {
			t.Fatal("nrhs 0: A was written")
		}
	}
}

// With its workspace supplied, a native call allocates nothing.
func TestNoAllocs(t *testing.T) {
	m, n := 40, 20 // past blocked:nb=16's first panel
	as, bs := random(2, m, n, 32), random(3, m, 2, 32)
	a0, b0 := padded[float64](as, m, n), padded[float64](bs, m, 2)
	for _, c := range gels.Op.Candidates(sel.Float64) {
		if c.Family().Vendor {
			continue
		}
		a, b := testmat.Clone(a0), testmat.Clone(b0)
		ctx := sel.WithPin(context.Background(), "gels", c.String())
		size, err := gels.BufferSize(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		ws := make([]float64, size)
		testmat.NoAllocs(t, "gels "+c.String()+" with its workspace", func() {
			copy(a.Data, a0.Data)
			copy(b.Data, b0.Data)
			if err := gels.Gels(ctx, a, b, ws); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Every candidate treats extreme and non-finite systems as fused does:
// A and B scaled by 2^±990 give the unscaled solution (to rounding), an
// Inf or NaN in A_i gives the same info and the same places of NaN and
// Inf in B_i, and an Inf in one column of B_i leaves its other columns
// solved as alone. (gonum's Dgels, the vendor kernel, got the scaled
// systems wrong without an error, and spoiled B's finite columns.)
func TestExtremeAndNonFiniteAsFused(t *testing.T) {
	const m, n, nrhs = 5, 3, 2
	inf, nan := math.Inf(1), math.NaN()
	base := random(31, m, n, 1)[0]
	rhs := random(32, m, nrhs, 1)[0]
	with := func(x []float64, i int, v float64) []float64 {
		y := slices.Clone(x)
		y[i] = v
		return y
	}
	scaled := func(x []float64, s float64) []float64 {
		y := slices.Clone(x)
		for i := range y {
			y[i] *= s
		}
		return y
	}
	cases := []struct {
		name string
		a, b []float64
	}{
		{"good", base, rhs},
		{"scaled 2^990", scaled(base, 0x1p990), scaled(rhs, 0x1p990)},
		{"scaled 2^-990", scaled(base, 0x1p-990), scaled(rhs, 0x1p-990)},
		{"A scaled 2^990", scaled(base, 0x1p990), rhs},
		{"+Inf in A", with(base, m*n-1, inf), rhs},
		{"NaN in A", with(base, 1, nan), rhs},
		{"+Inf in B's first column", base, with(rhs, 1, inf)},
	}
	var as, bs [][]float64
	for _, c := range cases {
		as, bs = append(as, c.a), append(bs, c.b)
	}
	solveWith := func(ctx context.Context) (x batchlas.Batch[float64], info []int) {
		a, b := padded[float64](as, m, n), padded[float64](bs, m, nrhs)
		info, ok := testmat.Infos(gels.Gels(ctx, a, b, nil), len(cases))
		require.True(t, ok)
		return b, info
	}
	want, wantInfo := solveWith(sel.WithPin(context.Background(), "gels", "fused"))
	unscaled := lstsq(base, m, n, rhs, nrhs)
	for name, ctx := range calls(sel.Float64) {
		got, info := solveWith(ctx)
		for i, c := range cases {
			what := fmt.Sprintf("%s, %s", name, c.name)
			require.Equal(t, wantInfo[i], info[i], "%s: info", what)
			for col := range nrhs {
				for r := range n {
					g, w := got.At(i, r, col), want.At(i, r, col)
					if math.IsNaN(w) || math.IsInf(w, 0) {
						require.Equal(t, math.IsNaN(w), math.IsNaN(g), "%s: X(%d,%d) = %v, fused %v", what, r, col, g, w)
						require.Equal(t, math.IsInf(w, 1), math.IsInf(g, 1), "%s: X(%d,%d) = %v, fused %v", what, r, col, g, w)
						continue
					}
					require.InDelta(t, w, g, 1e-12*math.Abs(w)+1e-300, "%s: X(%d,%d)", what, r, col)
				}
			}
		}
		// The scaled systems' solution is the unscaled one, and a finite
		// column of B beside an infinite one is solved as alone.
		for i, c := range cases {
			if !strings.HasPrefix(c.name, "scaled") && c.name != "+Inf in B's first column" {
				continue
			}
			for col := range nrhs {
				if c.name == "+Inf in B's first column" && col == 0 {
					continue
				}
				for r := range n {
					w := unscaled.At(r, col)
					require.InDelta(t, w, got.At(i, r, col), 1e-9*math.Abs(w)+1e-12, "%s, %s: X(%d,%d)", name, c.name, r, col)
				}
			}
		}
	}
}
