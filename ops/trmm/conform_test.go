package trmm

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule: every candidate, and the automatic choice, gives the
// finite/non-finite pattern of BLAS's xTRMM (gonum's, called here
// directly, so a novendor build is checked too) on inputs where no zero
// meets an Inf or NaN: a triangle and a B of nonzero small integers, with
// an Inf or NaN in B, in A's triangle or in both, the rest of A (and a
// unit diagonal) NaN. One batch per order holds every class, the
// elements between matrices NaN, and the call is made again on a device
// whose small L2 cuts the batch into several of the gemm family's passes
// and of the tile kernel's groups, and with A broadcast.
func TestNonFiniteRule(t *testing.T) {
	small := *batchlas.Host()
	small.L2 = 4 << 10
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, cf := range calls() {
			ctxs := map[string]context.Context{"automatic": context.Background()}
			for _, c := range Op.Candidates(dt) {
				if c.Family() == swapped && cf.side == batchlas.Right {
					continue // side Left only (canRun)
				}
				ctxs[c.String()] = pin(c)
				ctxs[c.String()+" small L2"] = batchlas.WithDevice(pin(c), &small)
			}
			for _, tt := range nonFiniteOrders {
				r := []int{1, 3, 17}[tt%3]
				for name, ctx := range ctxs {
					what := fmt.Sprintf("%s %s %s t=%d r=%d", dt, name, cf, tt, r)
					if dt == sel.Float32 {
						nonFiniteRule[float32](t, ctx, what, cf, tt, r)
					} else {
						nonFiniteRule[float64](t, ctx, what, cf, tt, r)
					}
				}
			}
		}
	}
}

// nonFiniteOrders straddle the vector widths (8 and 16 elements), the
// tile kernel's block (16: one block goes by groups) and two blocks.
var nonFiniteOrders = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47}

// nonFiniteEdge is one class: an A (every element, the unread ones NaN)
// and a B.
type nonFiniteEdge struct {
	name string
	a, b []float64
}

// nonFiniteEdges is the classes at triangle order tt and B of m x n.
func nonFiniteEdges(cf call, tt, m, n int) []nonFiniteEdge {
	inside := func(row, c int) bool { return row == c || (row > c) == (cf.uplo == batchlas.Lower) }
	a := make([]float64, tt*tt)
	for c := range tt {
		for row := range tt {
			v := float64(1 + (row+2*c)%4)
			if (row+c)%3 == 0 {
				v = -v
			}
			if !inside(row, c) || (row == c && cf.diag == batchlas.Unit) {
				v = math.NaN()
			}
			a[row+c*tt] = v
		}
	}
	b := make([]float64, m*n)
	for i := range b {
		b[i] = float64(1 + i%5)
		if i%4 == 1 {
			b[i] = -b[i]
		}
	}
	with := func(x []float64, i int, v float64) []float64 {
		y := append([]float64(nil), x...)
		y[i] = v
		return y
	}
	ends := func(k int) []int {
		if k == 1 {
			return []int{0}
		}
		return []int{0, k / 2, k - 1}
	}
	edges := []nonFiniteEdge{{"finite", a, b}}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		for _, row := range ends(m) {
			for _, c := range ends(n) {
				edges = append(edges, nonFiniteEdge{fmt.Sprintf("%v in B(%d,%d)", v, row, c), a, with(b, row+c*m, v)})
			}
		}
		for _, k := range ends(tt) {
			diag := with(a, k+k*tt, v)
			edges = append(edges,
				nonFiniteEdge{fmt.Sprintf("%v in A(%d,%d)", v, k, k), diag, b},
				nonFiniteEdge{fmt.Sprintf("%v in A(%d,%d) and NaN in B(%d,0)", v, k, k, m-1), diag, with(b, m-1, math.NaN())})
		}
		if tt > 1 {
			row, c := tt-1, 0
			if cf.uplo == batchlas.Upper {
				row, c = 0, tt-1
			}
			edges = append(edges, nonFiniteEdge{fmt.Sprintf("%v in A(%d,%d)", v, row, c), with(a, row+c*tt, v), b})
		}
	}
	return edges
}

func nonFiniteRule[T batchlas.Float](t *testing.T, ctx context.Context, what string, cf call, tt, r int) {
	t.Helper()
	m, n := tt, r
	if cf.side == batchlas.Right {
		m, n = r, tt
	}
	edges := nonFiniteEdges(cf, tt, m, n)
	count := len(edges)
	a, b0 := padded[T](tt, tt, count), padded[T](m, n, count)
	for i, e := range edges {
		for c := range tt {
			for row := range tt {
				a.Set(i, row, c, T(e.a[row+c*tt]))
			}
		}
		for c := range n {
			for row := range m {
				b0.Set(i, row, c, T(e.b[row+c*m]))
			}
		}
	}
	const alpha = -2
	check := func(what string, a batchlas.Batch[T]) {
		b := testmat.Clone(b0)
		require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, alpha, a, b, nil), what)
		want := testmat.Clone(b0)
		for i := range count {
			gonumTrmm(cf, m, n, alpha, a, want, i)
			if got, w := testmat.Pattern(b, i, 0), testmat.Pattern(want, i, 0); got != w {
				t.Fatalf("%s, %s: pattern\n\t got %s\n\twant %s", what, edges[i].name, got, w)
			}
		}
	}
	check(what, a)
	// A broadcast: the finite triangle for every B.
	one := padded[T](tt, tt, 1)
	copy(one.Data, a.Data[:a.Stride])
	check(what+" broadcast A", batchlas.Broadcast(one, count))
}

// gonumTrmm is BLAS's xTRMM on B_i, through gonum's row-major interface
// as the vendor kernel calls it (vendor.go).
func gonumTrmm[T batchlas.Float](cf call, m, n int, alpha float64, a, b batchlas.Batch[T], i int) {
	side, ul := blas.Right, blas.Upper
	if cf.side == batchlas.Right {
		side = blas.Left
	}
	if cf.uplo == batchlas.Upper {
		ul = blas.Lower
	}
	tA, dg := blas.NoTrans, blas.NonUnit
	if cf.ta == batchlas.Trans {
		tA = blas.Trans
	}
	if cf.diag == batchlas.Unit {
		dg = blas.Unit
	}
	impl := gonum.Implementation{}
	switch ad := any(a.Data).(type) {
	case []float64:
		impl.Dtrmm(side, ul, tA, dg, n, m, alpha, ad[i*a.Stride:], a.LD, any(b.Data).([]float64)[i*b.Stride:], b.LD)
	case []float32:
		impl.Strmm(side, ul, tA, dg, n, m, float32(alpha), ad[i*a.Stride:], a.LD, any(b.Data).([]float32)[i*b.Stride:], b.LD)
	}
}

// TestFinite: finite (the assembly where the CPU has it) and its Go loop
// find one Inf or NaN anywhere in a strided matrix, at every row count
// around the vector widths, and never read the gap between columns.
func TestFinite(t *testing.T) {
	for _, rows := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33} {
		for _, cols := range []int{1, 2, 5} {
			ld := rows + 3
			x := testmat.NaNs[float64](ld*cols + 1)
			y := testmat.NaNs[float32](ld*cols + 1)
			for c := range cols {
				for row := range rows {
					x[c*ld+row], y[c*ld+row] = float64(row-c), float32(row+c)
				}
			}
			what := fmt.Sprintf("rows=%d cols=%d", rows, cols)
			require.True(t, finite(x, rows, cols, ld), what)
			require.True(t, finite(y, rows, cols, ld), what)
			require.True(t, finiteGo(x, rows, cols, ld), what)
			require.True(t, finiteGo(y, rows, cols, ld), what)
			for c := range cols {
				for row := range rows {
					for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
						at := fmt.Sprintf("%s: %v at (%d,%d)", what, v, row, c)
						x0, y0 := x[c*ld+row], y[c*ld+row]
						x[c*ld+row], y[c*ld+row] = v, float32(v)
						require.False(t, finite(x, rows, cols, ld), at)
						require.False(t, finite(y, rows, cols, ld), at)
						require.False(t, finiteGo(x, rows, cols, ld), at)
						require.False(t, finiteGo(y, rows, cols, ld), at)
						x[c*ld+row], y[c*ld+row] = x0, y0
					}
				}
			}
		}
	}
}
