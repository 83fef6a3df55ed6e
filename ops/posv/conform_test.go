package posv

import (
	"context"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for posv: every candidate, nested under every
// potrs candidate and potrf's tiny and unblocked kernels, and the
// automatic choice give the reference's info, leave a failed system's B
// as it was, and give the reference's finite/non-finite pattern in the
// factor and in X, on every testmat.SPDEdges class at every order of
// testmat.ConformOrders, both triangles and both dtypes. The reference is
// LAPACK (nested with potrf and potrs pinned to vendor) for float64 and
// fused (the unblocked factorisation) for float32 or without a vendor.
func TestNonFiniteRule(t *testing.T) {
	conformPosv[float32](t, sel.Float32)
	conformPosv[float64](t, sel.Float64)
}

// hasVendor reports whether op lists a vendor candidate for dt.
func hasVendor(op *sel.Op, dt sel.DType) bool {
	for _, c := range op.Candidates(dt) {
		if c.Family().Vendor {
			return true
		}
	}
	return false
}

// reference is the context the rule's results are stated under.
func reference(dt sel.DType) (context.Context, string) {
	if hasVendor(potrf.Op, dt) && hasVendor(potrs.Op, dt) {
		ctx := sel.WithPin(sel.WithPin(pin(context.Background(), nestedFamily.With()), "potrf", "vendor"), "potrs", "vendor")
		return ctx, "LAPACK"
	}
	return pin(context.Background(), fusedFamily.With()), "fused"
}

func conformPosv[T batchlas.Float](t *testing.T, dt sel.DType) {
	refCtx, refName := reference(dt)
	for _, n := range testmat.ConformOrders {
		edges := testmat.SPDEdges(n, dt == sel.Float32)
		a0, b0 := testmat.EdgeBatch[T](n, edges)
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			want := posvOutcome(t, refCtx, uplo, a0, b0)
			calls := map[string]context.Context{"automatic": context.Background()}
			for _, c := range Op.Candidates(dt) {
				if !runs(c, uplo, n, testmat.EdgeRHS, a0.Count) {
					continue
				}
				ctx := pin(context.Background(), c)
				calls[c.String()] = ctx
				if !c.Is(nestedFamily) {
					continue
				}
				for _, s := range potrs.Op.Candidates(dt) {
					calls[c.String()+"/potrs="+s.String()] = sel.WithPin(ctx, "potrs", s.String())
				}
				for _, f := range []string{"tiny", "unblocked"} {
					if f == "tiny" && n > 16 {
						continue
					}
					calls[c.String()+"/potrf="+f] = sel.WithPin(ctx, "potrf", f)
				}
			}
			for name, ctx := range calls {
				got := posvOutcome(t, ctx, uplo, a0, b0)
				if d := testmat.Disagreements(edges, want, got); d != nil {
					t.Errorf("%s n=%d %s %s against %s:\n%s", dt, n, uplo, name, refName, testmat.Summary(d, 8))
				}
			}
		}
	}
}

// posvOutcome solves copies of a0 and b0 under ctx.
func posvOutcome[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, a0, b0 batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a, b := testmat.Clone(a0), testmat.Clone(b0)
	err := Posv(ctx, uplo, a, b, nil)
	info, ok := testmat.Infos(err, a.Count)
	if !ok {
		t.Fatalf("posv %s n=%d: %v", uplo, a.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, a.Count), Kept: make([]bool, a.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(a, i, uplo.String()[0]), testmat.Pattern(b, i, 0)}
		out.Kept[i] = info[i] == 0 || testmat.SameMatrices(b, b0, i, i+1) == -1
	}
	return out
}

// TestInfinitePivotSolve is issue 31's posv input under every candidate
// (nested also under each of nestedPins): A = [[4,1,1],[1,+Inf,1],[1,1,4]]
// and B = 1 give X = [0.2, 0, 0.2], as LAPACK does (nested returned NaN
// through potrf tiny's NaN below the infinite pivot).
func TestInfinitePivotSolve(t *testing.T) {
	forEachCandidate(t, infinitePivotSolve[float32], infinitePivotSolve[float64])
}

func infinitePivotSolve[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	a := batchlas.NewBatch[T](3, 3, 1)
	for r := range 3 {
		for col := range 3 {
			a.Set(0, r, col, 1)
		}
	}
	a.Set(0, 0, 0, 4)
	a.Set(0, 1, 1, T(math.Inf(1)))
	a.Set(0, 2, 2, 4)
	b := batchlas.NewBatch[T](3, 1, 1)
	for r := range 3 {
		b.Set(0, r, 0, 1)
	}
	if err := Posv(ctx, uplo, a, b, nil); err != nil {
		t.Fatalf("%s %s: %v", c, uplo, err)
	}
	got := []float64{float64(b.At(0, 0, 0)), float64(b.At(0, 1, 0)), float64(b.At(0, 2, 0))}
	for i, want := range []float64{0.2, 0, 0.2} {
		if !(math.Abs(got[i]-want) <= 1e-6) {
			t.Fatalf("%s %s: X = %v, want [0.2 0 0.2]", c, uplo, got)
		}
	}
}
