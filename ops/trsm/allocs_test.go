package trsm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestNoAllocationsWithWorkspace(t *testing.T) {
	eachCandidate(t, noAllocs[float32], noAllocs[float64])
}

// noAllocs: with the BufferSize workspace supplied, the public call of the
// pinned candidate allocates nothing, on one worker and on all, for each
// side and direction of the solve on orders that reach every path (order 1's scaling, the small
// triangles, substitution, blocked's recursion with its gemm updates)
// over one matrix and a batch cut into several chunks; the nested gemm
// left to choose or pinned to packed, which needs workspace of its own
// (blocked hands it a part of the caller's). The vendor candidate (gonum)
// allocates nothing either.
func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	for _, gemmPin := range []string{"", "packed:kc=128"} {
		ctx := ctx
		if gemmPin != "" {
			ctx = sel.WithPin(ctx, "gemm", gemmPin)
		}
		// Each side with each direction of the solve and each diagonal.
		for vi, v := range []variant{
			{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit},
			{batchlas.Left, batchlas.Upper, batchlas.Trans, batchlas.Unit},
			{batchlas.Right, batchlas.Lower, batchlas.Trans, batchlas.NonUnit},
			{batchlas.Right, batchlas.Upper, batchlas.NoTrans, batchlas.Unit},
		} {
			for _, s := range []struct{ t, other, count int }{{1, 3, 40}, {3, 5, 300}, {20, 9, 1}, {70, 6, 1}, {70, 3, 300}} {
				if gemmPin != "" && s.t < 70 {
					continue // no gemm update below blocked's nb
				}
				if s.count == 300 && s.t == 70 && !strings.HasPrefix(c.String(), "blocked") {
					s.count = 40 // several chunks matter to blocked only
				}
				m, n := s.t, s.other
				if v.side == batchlas.Right {
					m, n = s.other, s.t
				}
				a, b := randomInput[T](uint64(vi), v, m, n, s.count, false)
				size, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b)
				if err != nil {
					t.Fatal(err)
				}
				ws := make([]T, size)
				what := fmt.Sprintf("%v t=%d count=%d gemm pin %q", v, s.t, s.count, gemmPin)
				orig := append([]T(nil), b.Data...)
				testmat.NoAllocs(t, what, func() {
					// B again: solves of solves grow to Inf or shrink to
					// subnormals, which only slow the test down.
					copy(b.Data, orig)
					if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 0.75, a, b, ws); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}
