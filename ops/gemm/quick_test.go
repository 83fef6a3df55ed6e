package gemm

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestQuickAllCandidates(t *testing.T) {
	r := testmat.Rand(1)
	for _, ch := range Op.Candidates(sel.Float64) {
		ctx := sel.WithPin(context.Background(), opName, ch.String())
		for _, ta := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
			for _, tb := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
				for _, s := range [][3]int{{1, 1, 1}, {3, 5, 7}, {9, 8, 17}, {33, 31, 65}} {
					m, n, k := s[0], s[1], s[2]
					ar, ac := m, k
					if ta == batchlas.Trans {
						ar, ac = k, m
					}
					br, bc := k, n
					if tb == batchlas.Trans {
						br, bc = n, k
					}
					a := testmat.Batch[float64](r, ar, ac, 5, ar+2, 0)
					b := testmat.Batch[float64](r, br, bc, 5, 0, 0)
					c := testmat.Batch[float64](r, m, n, 5, m+1, (m+1)*n+3)
					want, bound := oracle(ta, tb, 1.5, a, b, -0.5, c)
					if err := Gemm(ctx, ta, tb, 1.5, a, b, -0.5, c, nil); err != nil {
						t.Fatal(err)
					}
					checkAgainst(t, fmt.Sprintf("%s %c%c %v", ch, ta, tb, s), c, want, bound)
				}
			}
		}
	}
}
