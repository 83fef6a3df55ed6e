package potrf

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for potrf: every candidate, and the automatic
// choice, gives the reference candidate's info and the reference's
// finite/non-finite pattern in the factor, on every testmat.SPDEdges class
// (exact zero and negative pivots, subnormal pivots, 1e-310 and 1e+300
// scalings, Inf and NaN on and off the diagonal), at every order of
// testmat.ConformOrders, both triangles and both dtypes. The reference is
// the vendor candidate (LAPACK) for float64 and unblocked for float32,
// where gonum has no LAPACK.
func TestNonFiniteRule(t *testing.T) {
	conformPotrf[float32](t, sel.Float32)
	conformPotrf[float64](t, sel.Float64)
}

// referenceFor is the candidate whose results the rule is stated by.
func referenceFor(dt sel.DType) sel.Choice {
	for _, c := range Op.Candidates(dt) {
		if c.Is(vendorFamily) {
			return c
		}
	}
	return unblockedFamily.With()
}

func conformPotrf[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := referenceFor(dt)
	for _, n := range testmat.ConformOrders {
		edges := testmat.SPDEdges(n, dt == sel.Float32)
		input, _ := testmat.EdgeBatch[T](n, edges)
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			want := potrfOutcome(t, pin(ref), uplo, input)
			runs := map[string]context.Context{"automatic": context.Background()}
			for _, c := range Op.Candidates(dt) {
				if !runnable(c, uplo, n, input.Count) {
					continue
				}
				runs[c.String()] = pin(c)
				if c.Is(blockedFamily) {
					runs[c.String()+"/nested"] = batchlas.WithDevice(pin(c), smallCache())
				}
			}
			for name, ctx := range runs {
				got := potrfOutcome(t, ctx, uplo, input)
				if d := testmat.Disagreements(edges, want, got); d != nil {
					t.Errorf("%s n=%d %s %s against %s:\n%s", dt, n, uplo, name, ref, testmat.Summary(d, 8))
				}
			}
		}
	}
}

// potrfOutcome factors a copy of input under ctx.
func potrfOutcome[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, input batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a := testmat.Clone(input)
	info, ok := testmat.Infos(Potrf(ctx, uplo, a, nil), a.Count)
	if !ok {
		t.Fatalf("potrf %s n=%d: %v", uplo, a.Rows, Potrf(ctx, uplo, testmat.Clone(input), nil))
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, a.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(a, i, uplo.String()[0])}
	}
	return out
}
