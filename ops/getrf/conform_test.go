package getrf

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for getrf: every candidate and the automatic
// choice give the reference candidate's info, and for the matrices
// factored its pivots and finite/non-finite pattern in L and U, on every
// testmat.GeneralEdges class (exact zero pivots from zero rows and
// columns, subnormal pivots, 1e-310 and 1e+300 scalings, Inf and NaN on
// and off the diagonal) at every order of testmat.ConformOrders, both
// dtypes. The reference is the vendor candidate (LAPACK) for float64 and
// unblocked for float32, where gonum has no LAPACK.
func TestNonFiniteRule(t *testing.T) {
	conformGetrf[float32](t, sel.Float32)
	conformGetrf[float64](t, sel.Float64)
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

func conformGetrf[T batchlas.Float](t *testing.T, dt sel.DType) {
	ref := referenceFor(dt)
	for _, n := range testmat.ConformOrders {
		edges := testmat.GeneralEdges(n, dt == sel.Float32)
		input, _ := testmat.EdgeBatch[T](n, edges)
		want := getrfOutcome(t, pin(ref), input)
		calls := map[string]context.Context{"automatic": context.Background()}
		for _, c := range Op.Candidates(dt) {
			if runnable(c, n, input.Count) {
				calls[c.String()] = pin(c)
			}
		}
		for name, ctx := range calls {
			got := getrfOutcome(t, ctx, input)
			if d := testmat.Disagreements(edges, want, got); d != nil {
				t.Errorf("%s n=%d %s against %s:\n%s", dt, n, name, ref, testmat.Summary(d, 8))
			}
		}
	}
}

// getrfOutcome factors a copy of input under ctx: the pattern of L\U and
// the pivots as text.
func getrfOutcome[T batchlas.Float](t *testing.T, ctx context.Context, input batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a := testmat.Clone(input)
	ipiv := batchlas.NewVectors[int32](a.Rows, a.Count)
	err := Getrf(ctx, a, ipiv, nil)
	info, ok := testmat.Infos(err, a.Count)
	if !ok {
		t.Fatalf("getrf n=%d: %v", a.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, a.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(a, i, 0), fmt.Sprint(ipiv.Vector(i))}
	}
	return out
}
