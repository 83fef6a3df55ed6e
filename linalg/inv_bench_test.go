package linalg

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/matinv"
)

// BenchmarkInv splits the one-call inverse at issue 38's small shapes into
// its parts, each timed alone, in matrices per second:
//
//   - inv: Inv as a user calls it (the output allocated, then matinv);
//   - op: matinv into an output the caller keeps between calls;
//   - alloc: the output's allocation alone (Go zeroes the memory it hands
//     out, a write of the whole output);
//   - copy: Go's copy of A into the output, the bytes a call must read and
//     write (`tune peers`' copy floor).
//
// inv is about op plus alloc: at n = 3 the allocation alone took longer
// than the copy on the Zen 5 guest, so the one-call inverse cannot come
// within 2x of the copy floor there while it allocates its result
// (docs/performance.md, stop 53).
func BenchmarkInv(b *testing.B) {
	ctx := context.Background()
	for _, s := range []struct{ n, count int }{{3, 100000}, {8, 65536}} {
		a := testmat.Batch[float64](testmat.Rand(1), s.n, s.n, s.count, 0, 0)
		testmat.General(testmat.Rand(2), a)
		x := batchlas.NewBatch[float64](s.n, s.n, s.count)
		parts := []struct {
			name string
			call func() error
		}{
			{"inv", func() error { _, err := Inv(ctx, a); return err }},
			{"op", func() error { return matinv.Matinv(ctx, a, x, nil) }},
			{"alloc", func() error { x := batchlas.NewBatch[float64](s.n, s.n, s.count); x.Data[0] = 1; return nil }},
			{"copy", func() error { copy(x.Data, a.Data); return nil }},
		}
		for _, p := range parts {
			b.Run(fmt.Sprintf("n=%d/batch=%d/%s", s.n, s.count, p.name), func(b *testing.B) {
				for b.Loop() {
					if err := p.call(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
			})
		}
	}
}
