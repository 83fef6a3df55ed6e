package gemm

import (
	"fmt"
	"sync"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestConcurrentCalls: many goroutines call gemm at once, each on its own
// C with a different candidate and sharing read-only A and B; every result
// must match the oracle.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	r := testmat.Rand(23)
	s := shape{batchlas.NoTrans, batchlas.Trans, 9, 7, 11, 40}
	a, b, c0 := operands[float64](r, s, layout{})
	want, bound := oracle(s.ta, s.tb, 1, a, b, 0.5, c0)
	cands := Op.Candidates(sel.Float64)
	const goroutines = 16
	results := make([]batchlas.Batch[float64], goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		results[g] = testmat.Clone(c0)
		wg.Go(func() {
			ctx := t.Context()
			if g%2 == 1 { // half automatic, half pinned
				ctx = pinned(cands[g/2%len(cands)])
			}
			if err := Gemm(ctx, s.ta, s.tb, 1, a, b, 0.5, results[g], nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for g, c := range results {
		checkAgainst(t, fmt.Sprint("goroutine ", g), c, want, bound)
	}
}
