package getrs_test

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for getrs: on the factors getrf's unblocked
// kernel makes of every testmat.GeneralEdges class (subnormal pivots,
// 1e-310 and 1e+300 scalings, Inf and NaN in A or B) at every order of
// testmat.ConformOrders, every candidate, nested under every trsm
// candidate, and the automatic choice give the reference's
// finite/non-finite pattern in X, both transposes and both dtypes, for
// every system getrf factored (a singular factor's X is not covered: BLAS
// implementations differ where its Inf meets a zero). The reference is
// the vendor candidate (BLAS) for float64 and permatrix for float32.
func TestNonFiniteRule(t *testing.T) {
	conformGetrs[float32](t, sel.Float32)
	conformGetrs[float64](t, sel.Float64)
}

func conformGetrs[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := "permatrix"
	if dt == sel.Float64 {
		for _, c := range getrs.Op.Candidates(dt) {
			if c.Family().Vendor {
				ref = c.String()
			}
		}
	}
	for _, n := range testmat.ConformOrders {
		edges := testmat.GeneralEdges(n, dt == sel.Float32)
		lu, b0 := testmat.EdgeBatch[T](n, edges)
		ipiv := batchlas.NewVectors[int32](n, lu.Count)
		info, ok := testmat.Infos(getrf.Getrf(sel.WithPin(context.Background(), "getrf", "unblocked"), lu, ipiv, nil), lu.Count)
		if !ok {
			t.Fatalf("getrf n=%d failed", n)
		}
		for _, trans := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
			want := getrsOutcome(t, sel.WithPin(context.Background(), "getrs", ref), trans, lu, ipiv, b0, info)
			calls := map[string]context.Context{"automatic": context.Background()}
			for _, c := range getrs.Op.Candidates(dt) {
				ctx := sel.WithPin(context.Background(), "getrs", c.String())
				calls[c.String()] = ctx
				if c.String() == "nested" {
					for _, s := range trsm.Op.Candidates(dt) {
						calls["nested/trsm="+s.String()] = sel.WithPin(ctx, "trsm", s.String())
					}
				}
			}
			for name, ctx := range calls {
				got := getrsOutcome(t, ctx, trans, lu, ipiv, b0, info)
				if d := testmat.Disagreements(edges, want, got); d != nil {
					t.Errorf("%s n=%d %s %s against %s:\n%s", dt, n, trans, name, ref, testmat.Summary(d, 8))
				}
			}
		}
	}
}

// getrsOutcome solves a copy of b0 with the factors under ctx; info is
// getrf's, the same for every call.
func getrsOutcome[T batchlas.Float](t *testing.T, ctx context.Context, trans batchlas.Transpose, lu batchlas.Batch[T], ipiv batchlas.Vectors[int32], b0 batchlas.Batch[T], info []int) testmat.Outcome {
	t.Helper()
	b := testmat.Clone(b0)
	if err := getrs.Getrs(ctx, trans, lu, ipiv, b, nil); err != nil {
		t.Fatalf("getrs %s n=%d: %v", trans, lu.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, b.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(b, i, 0)}
	}
	return out
}
