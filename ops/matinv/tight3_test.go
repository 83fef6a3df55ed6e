package matinv

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// Tight 3 x 3 batches (columns 3 apart in a and x) go through
// lanesinv.Inverse3 a chunk at a time, the rest of a chunk through the
// group path; padded ones through the group path alone. The lanes
// kernel gives the same X bit for bit and the same failures either way,
// for counts around a group and a chunk, on one worker and two, with the
// library's edge classes (zero and NaN pivots, Inf, tiny and huge
// scalings) among random matrices, and for a broadcast a.
func TestTightThreeMatchesGroups(t *testing.T) {
	t.Run("float64", tightThreeMatchesGroups[float64])
	t.Run("float32", tightThreeMatchesGroups[float32])
}

func tightThreeMatchesGroups[T batchlas.Float](t *testing.T) {
	lanes := pin(lanesChoice(t))
	edges := testmat.GeneralEdges(3, testmat.Eps[T]() > 1e-10)
	for _, count := range []int{1, 7, 8, 9, 64, 1000, 4099} {
		for _, workers := range []int{1, 2} {
			for _, broadcast := range []bool{false, true} {
				what := fmt.Sprintf("count=%d workers=%d broadcast=%v", count, workers, broadcast)
				ctx := batchlas.WithParallelism(lanes, workers)
				r := rand.New(rand.NewPCG(uint64(count), 7))
				tight := batchlas.NewBatch[T](3, 3, count)
				for i := range count {
					for e := range 9 {
						v := r.NormFloat64()
						if i%5 == 2 {
							v = edges[(i/5)%len(edges)].A[e]
						}
						tight.Data[9*i+e] = T(v)
					}
				}
				a := tight
				if broadcast {
					a = batchlas.Broadcast(matrixOf(tight, count/2), count)
				}
				padA := padded[T](3, a.Count)
				for i := range count {
					for c := range 3 {
						for row := range 3 {
							padA.Set(i, row, c, a.At(i, row, c))
						}
					}
				}
				x, padX := batchlas.NewBatch[T](3, 3, count), padded[T](3, count)
				err, padErr := Matinv(ctx, a, x, nil), Matinv(ctx, padA, padX, nil)
				require.Equal(t, fmt.Sprint(padErr), fmt.Sprint(err), what)
				for i := range count {
					for c := range 3 {
						for row := range 3 {
							got, want := x.At(i, row, c), padX.At(i, row, c)
							require.Equal(t, math.Float64bits(float64(want)), math.Float64bits(float64(got)), "%s: matrix %d (%d,%d): %v, group path %v", what, i, row, c, got, want)
						}
					}
				}
			}
		}
	}
}

// lanesChoice is the lanes candidate of float64, which the test needs.
func lanesChoice(t *testing.T) sel.Choice {
	for _, c := range Op.Candidates(sel.Float64) {
		if c.Family() == lanesFamily {
			return c
		}
	}
	t.Fatal("no lanes candidate")
	return sel.Choice{}
}

// The tight path keeps the lanes kernel's contract: no allocation with
// the workspace supplied, on one worker and two, and an interruption at
// any chunk leaves the completed inverses bit for bit an uninterrupted
// call's and nothing past them written.
func TestTightThreeAllocationsAndInterruption(t *testing.T) {
	ctx := pin(lanesChoice(t))
	r := rand.New(rand.NewPCG(15, 16))
	a := batchlas.NewBatch[float64](3, 3, 20003)
	for i := range a.Data {
		a.Data[i] = r.NormFloat64()
	}
	for _, w := range []int{1, 2} {
		ctx := batchlas.WithParallelism(ctx, w)
		x := batchlas.NewBatch[float64](3, 3, a.Count)
		size, err := BufferSize(ctx, a, x)
		require.NoError(t, err)
		ws := make([]float64, size)
		require.NoError(t, Matinv(ctx, a, x, ws))
		testmat.NoAllocs(t, fmt.Sprintf("tight n=3 workers=%d", w), func() {
			if err := Matinv(ctx, a, x, ws); err != nil {
				panic(err)
			}
		})
	}
	x0 := testmat.NaNs[float64](9 * a.Count)
	base := batchlas.Batch[float64]{Data: x0, Rows: 3, Cols: 3, LD: 3, Stride: 9, Count: a.Count}
	testmat.InterruptEverywhere(t, "lanes tight", "matinv", base, ctx, func(ctx context.Context) (batchlas.Batch[float64], error) {
		x := testmat.Clone(base)
		return x, Matinv(ctx, a, x, nil)
	})
}
