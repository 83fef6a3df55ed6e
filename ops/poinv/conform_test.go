package poinv

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule for poinv: every candidate
// and the automatic choice give the reference's info and leave A as it
// was on every testmat.SPDEdges class at every order of
// testmat.ConformOrders, both triangles and dtypes; a failed matrix's X
// is NaN, and a matrix inverted by both has an X that is finite
// everywhere exactly when the reference's is (where an inverse
// overflows, the place Inf meets 0 is the method's). The reference is
// chain with potrf and potri pinned to their per-matrix kernels
// (unblocked and permatrix).
func TestNonFiniteRule(t *testing.T) {
	conform[float32](t, sel.Float32)
	conform[float64](t, sel.Float64)
}

func conform[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := sel.WithPin(sel.WithPin(sel.WithPin(context.Background(), "poinv", "chain"), "potrf", "unblocked"), "potri", "permatrix")
	for _, uplo := range uplos {
		conformUplo[T](t, dt, ref, uplo)
	}
}

func conformUplo[T batchlas.Float](t *testing.T, dt sel.DType, ref context.Context, uplo batchlas.Uplo) {
	for _, n := range testmat.ConformOrders {
		edges := testmat.SPDEdges(n, dt == sel.Float32)
		a0, _ := testmat.EdgeBatch[T](n, edges)
		want := outcome(t, ref, uplo, a0)
		calls := map[string]context.Context{"automatic": context.Background()}
		for _, c := range Op.Candidates(dt) {
			if runs(c, n) {
				calls[c.String()] = pin(c)
			}
		}
		for name, ctx := range calls {
			got := outcome(t, ctx, uplo, a0)
			if d := testmat.Disagreements(edges, want, got); d != nil {
				t.Errorf("%s %s n=%d %s against chain(unblocked, permatrix):\n%s", dt, uplo, n, name, testmat.Summary(d, 8))
			}
		}
	}
}

// outcome inverts a0 under ctx into a fresh X.
func outcome[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, a0 batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a := testmat.Clone(a0)
	x := batchlas.NewBatch[T](a.Rows, a.Cols, a.Count)
	err := Poinv(ctx, uplo, a, x, nil)
	info, ok := testmat.Infos(err, a.Count)
	if !ok {
		t.Fatalf("poinv %s n=%d: %v", uplo, a.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, a.Count), Kept: make([]bool, a.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{finiteness(x, i)}
		out.Kept[i] = testmat.SameMatrices(a, a0, i, i+1) == -1
		if info[i] != 0 {
			out.Kept[i] = out.Kept[i] && allNaN(x, i)
		}
	}
	return out
}

// allNaN reports whether X_i is NaN everywhere.
func allNaN[T batchlas.Float](x batchlas.Batch[T], i int) bool {
	for c := range x.Cols {
		for r := range x.Rows {
			if v := x.At(i, r, c); v == v {
				return false
			}
		}
	}
	return true
}

// finiteness says whether X_i is finite everywhere.
func finiteness[T batchlas.Float](x batchlas.Batch[T], i int) string {
	for c := range x.Cols {
		for r := range x.Rows {
			if v := float64(x.At(i, r, c)); v-v != 0 {
				return "not finite"
			}
		}
	}
	return "finite"
}
