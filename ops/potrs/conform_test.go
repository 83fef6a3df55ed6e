package potrs

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for potrs: on the factors potrf's unblocked
// kernel makes of every testmat.SPDEdges class (subnormal pivots, 1e-310
// and 1e+300 scalings, Inf and NaN in A or B) at every order of
// testmat.ConformOrders, every candidate, nested under every trsm
// candidate, and the automatic choice give the reference's
// finite/non-finite pattern in X, both triangles and both dtypes, for
// every matrix potrf factored. The reference is the vendor candidate
// (LAPACK) for float64 and fused for float32 or without a vendor.
func TestNonFiniteRule(t *testing.T) {
	conformPotrs[float32](t, sel.Float32)
	conformPotrs[float64](t, sel.Float64)
}

func conformPotrs[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := fusedFamily.With()
	for _, c := range Op.Candidates(dt) {
		if c.Is(vendorFamily) {
			ref = c
		}
	}
	for _, n := range testmat.ConformOrders {
		edges := testmat.SPDEdges(n, dt == sel.Float32)
		a0, b0 := testmat.EdgeBatch[T](n, edges)
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			l := testmat.Clone(a0)
			info, ok := testmat.Infos(potrf.Potrf(sel.WithPin(context.Background(), "potrf", "unblocked"), uplo, l, nil), l.Count)
			if !ok {
				t.Fatalf("potrf n=%d failed", n)
			}
			want := potrsOutcome(t, sel.WithPin(context.Background(), opName, ref.String()), uplo, l, b0, info)
			calls := map[string]context.Context{"automatic": context.Background()}
			for _, c := range Op.Candidates(dt) {
				ctx := sel.WithPin(context.Background(), opName, c.String())
				calls[c.String()] = ctx
				if c.Is(nestedFamily) {
					for _, s := range trsm.Op.Candidates(dt) {
						calls["nested/trsm="+s.String()] = sel.WithPin(ctx, "trsm", s.String())
					}
				}
			}
			for name, ctx := range calls {
				got := potrsOutcome(t, ctx, uplo, l, b0, info)
				if d := testmat.Disagreements(edges, want, got); d != nil {
					t.Errorf("%s n=%d %s %s against %s:\n%s", dt, n, uplo, name, ref, testmat.Summary(d, 8))
				}
			}
		}
	}
}

// potrsOutcome solves a copy of b0 with the factors l under ctx; info is
// potrf's, the same for every call.
func potrsOutcome[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, l, b0 batchlas.Batch[T], info []int) testmat.Outcome {
	t.Helper()
	b := testmat.Clone(b0)
	if err := Potrs(ctx, uplo, l, b, nil); err != nil {
		t.Fatalf("potrs %s n=%d: %v", uplo, l.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, b.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(b, i, 0)}
	}
	return out
}
