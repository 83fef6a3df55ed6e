package matinv

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule for matinv: every candidate
// and the automatic choice give the reference's info and leave A as it
// was on every testmat.GeneralEdges class at every order of
// testmat.ConformOrders, both dtypes; a failed matrix's X is NaN, and a
// matrix inverted by both has an X that is finite everywhere exactly when
// the reference's is. Where an inverse overflows (the tiny classes) the
// candidates' methods (the solve against I, getri's inv(U) then X*L =
// inv(U)) meet Inf*0 at different places, so the pattern of Inf and NaN
// there is the method's, not the rule's. The reference is chain with
// getrf and getri pinned to their per-matrix kernels (getf2 and
// permatrix).
func TestNonFiniteRule(t *testing.T) {
	conform[float32](t, sel.Float32)
	conform[float64](t, sel.Float64)
}

func conform[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := sel.WithPin(sel.WithPin(sel.WithPin(context.Background(), "matinv", "chain"), "getrf", "unblocked"), "getri", "permatrix")
	for _, n := range testmat.ConformOrders {
		edges := testmat.GeneralEdges(n, dt == sel.Float32)
		a0, _ := testmat.EdgeBatch[T](n, edges)
		want := outcome(t, ref, a0)
		calls := map[string]context.Context{"automatic": context.Background()}
		for _, c := range Op.Candidates(dt) {
			if runs(c, n) {
				calls[c.String()] = pin(c)
			}
		}
		for name, ctx := range calls {
			got := outcome(t, ctx, a0)
			if d := testmat.Disagreements(edges, want, got); d != nil {
				t.Errorf("%s n=%d %s against chain(getf2, permatrix):\n%s", dt, n, name, testmat.Summary(d, 8))
			}
		}
	}
}

// outcome inverts a0 under ctx into a fresh X.
func outcome[T batchlas.Float](t *testing.T, ctx context.Context, a0 batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a := testmat.Clone(a0)
	x := batchlas.NewBatch[T](a.Rows, a.Cols, a.Count)
	err := Matinv(ctx, a, x, nil)
	info, ok := testmat.Infos(err, a.Count)
	if !ok {
		t.Fatalf("matinv n=%d: %v", a.Rows, err)
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
