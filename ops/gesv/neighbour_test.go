package gesv_test

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestSingularNeighbour: a system's answer does not depend on its
// neighbours. For every candidate (and the automatic choice), with the
// work spread over one worker and over several, the factors, pivots and X
// of the good systems are bit-identical whether or not some systems of
// the batch are singular (a zero column), at orders and batch sizes
// straddling the kernels' limits (nested's runs between singular systems
// used to get their own getrs decisions, which rounded differently).
func TestSingularNeighbour(t *testing.T) {
	testSingularNeighbour[float32](t, sel.Float32)
	testSingularNeighbour[float64](t, sel.Float64)
}

func testSingularNeighbour[T batchlas.Float](t *testing.T, dt sel.DType) {
	calls := map[string]context.Context{"automatic": context.Background()}
	for _, c := range gesv.Op.Candidates(dt) {
		calls[c.String()] = pin(context.Background(), c)
	}
	for _, n := range []int{1, 2, 3, 8, 16, 17, 33, 64} {
		for _, count := range []int{3, 9, 40} {
			a, ipiv, b := system[T](uint64(n*100+count), n, 3, count, false)
			singular := testmat.Clone(a)
			bad := map[int]bool{count / 2: true, count - 1: true}
			if count > 3 {
				bad[1] = true
			}
			for i := range bad {
				for r := range n {
					singular.Set(i, r, n/2, 0)
				}
			}
			for name, ctx := range calls {
				for _, workers := range []int{1, 4} {
					ctx := batchlas.WithParallelism(ctx, workers)
					if c, ok := choiceOf(name, dt); ok && !runs(c, n, 3, count) {
						continue
					}
					alone := run(t, ctx, a, ipiv, b)
					among := run(t, ctx, singular, ipiv, b)
					for i := range count {
						if bad[i] {
							continue
						}
						if testmat.SameMatrices(among.x, alone.x, i, i+1) != -1 || testmat.SameMatrices(among.lu, alone.lu, i, i+1) != -1 {
							t.Errorf("%s %s n=%d batch=%d workers=%d: system %d differs with singular neighbours", dt, name, n, count, workers, i)
						}
						for j := range n {
							if among.ipiv.At(i, j) != alone.ipiv.At(i, j) {
								t.Errorf("%s %s n=%d batch=%d: system %d pivots differ with singular neighbours", dt, name, n, count, i)
								break
							}
						}
					}
				}
			}
		}
	}
}

// choiceOf is the candidate spelled name, if it is one.
func choiceOf(name string, dt sel.DType) (sel.Choice, bool) {
	for _, c := range gesv.Op.Candidates(dt) {
		if c.String() == name {
			return c, true
		}
	}
	return sel.Choice{}, false
}
