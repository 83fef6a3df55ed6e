package gesv_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNonFiniteRule is the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures") for gesv: every candidate, nested under every
// getrf and getrs candidate, and the automatic choice give the
// reference's info, leave a singular system's B as it was, and for the
// systems solved give the reference's pivots and finite/non-finite
// pattern in L\U and in X, on every testmat.GeneralEdges class at every
// order of testmat.ConformOrders, both dtypes. The reference is LAPACK
// (nested with getrf and getrs pinned to vendor) for float64 and fused
// (getf2, the unblocked factorisation) for float32 or without a vendor.
func TestNonFiniteRule(t *testing.T) {
	conformGesv[float32](t, sel.Float32)
	conformGesv[float64](t, sel.Float64)
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
	if hasVendor(getrf.Op, dt) && hasVendor(getrs.Op, dt) {
		ctx := sel.WithPin(sel.WithPin(sel.WithPin(context.Background(), "gesv", "nested"), "getrf", "vendor"), "getrs", "vendor")
		return ctx, "LAPACK"
	}
	return sel.WithPin(context.Background(), "gesv", "fused"), "fused"
}

func conformGesv[T batchlas.Float](t *testing.T, dt sel.DType) {
	refCtx, refName := reference(dt)
	for _, n := range testmat.ConformOrders {
		edges := testmat.GeneralEdges(n, dt == sel.Float32)
		a0, b0 := testmat.EdgeBatch[T](n, edges)
		want := gesvOutcome(t, refCtx, a0, b0)
		calls := map[string]context.Context{"automatic": context.Background()}
		for _, c := range gesv.Op.Candidates(dt) {
			if !runs(c, n, testmat.EdgeRHS, a0.Count) {
				continue
			}
			ctx := pin(context.Background(), c)
			calls[c.String()] = ctx
			if c.String() != "nested" {
				continue
			}
			for _, op := range []*sel.Op{getrf.Op, getrs.Op} {
				for _, s := range op.Candidates(dt) {
					if op.CanRun(s, nestedKey(op, n, a0.Count), batchlas.Host()) {
						calls[c.String()+"/"+op.Name()+"="+s.String()] = sel.WithPin(ctx, op.Name(), s.String())
					}
				}
			}
		}
		for name, ctx := range calls {
			got := gesvOutcome(t, ctx, a0, b0)
			if d := testmat.Disagreements(edges, want, got); d != nil {
				t.Errorf("%s n=%d %s against %s:\n%s", dt, n, name, refName, testmat.Summary(d, 8))
			}
		}
	}
}

// nestedKey is the key of nested's call of op on the whole batch.
func nestedKey(op *sel.Op, n, count int) sel.Key {
	if op == getrf.Op {
		return sel.MakeKey(sel.Int(n), sel.Int(count))
	}
	return sel.MakeKey(sel.Str("N"), sel.Int(n), sel.Int(testmat.EdgeRHS), sel.Int(count))
}

// gesvOutcome solves copies of a0 and b0 under ctx.
func gesvOutcome[T batchlas.Float](t *testing.T, ctx context.Context, a0, b0 batchlas.Batch[T]) testmat.Outcome {
	t.Helper()
	a, b := testmat.Clone(a0), testmat.Clone(b0)
	ipiv := batchlas.NewVectors[int32](a.Rows, a.Count)
	err := gesv.Gesv(ctx, a, ipiv, b, nil)
	info, ok := testmat.Infos(err, a.Count)
	if !ok {
		t.Fatalf("gesv n=%d: %v", a.Rows, err)
	}
	out := testmat.Outcome{Info: info, Patterns: make([][]string, a.Count), Kept: make([]bool, a.Count)}
	for i := range out.Patterns {
		out.Patterns[i] = []string{testmat.Pattern(a, i, 0), fmt.Sprint(ipiv.Vector(i)), testmat.Pattern(b, i, 0)}
		out.Kept[i] = info[i] == 0 || testmat.SameMatrices(b, b0, i, i+1) == -1
	}
	return out
}
