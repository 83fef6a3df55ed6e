package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// allocShapes reach every internal path of every kernel: one matrix and
// big batches, thin C (small's dot products, swapped's buffer), op(A) = A^T
// (simd's copies), and one matrix big enough to be split over the workers
// (splitColumns, simd and packed).
var allocShapes = []shape{
	{batchlas.NoTrans, batchlas.NoTrans, 8, 8, 8, 1},
	{batchlas.NoTrans, batchlas.NoTrans, 4, 4, 4, 600},
	{batchlas.Trans, batchlas.NoTrans, 9, 7, 5, 300},
	{batchlas.NoTrans, batchlas.Trans, 3, 200, 8, 4},
	{batchlas.Trans, batchlas.Trans, 1, 5, 3, 64},
	{batchlas.Trans, batchlas.NoTrans, 70, 70, 300, 2},
	{batchlas.NoTrans, batchlas.NoTrans, 320, 320, 320, 1},
}

// With the BufferSize workspace supplied, the public call of every native
// candidate allocates nothing, on one worker and on all of them. The
// vendor candidate (gonum BLAS) allocates inside gonum for matrices past
// its blocking threshold, within vendorAllocBound (gemm's doc states it).
func TestNoAllocationsWithWorkspace(t *testing.T) {
	t.Run("float32", noAllocs[float32])
	t.Run("float64", noAllocs[float64])
}

// vendorAllocBound is the documented bound on the vendor candidate's
// allocations: gonum's Dgemm/Sgemm run a matrix of at least four 64x64
// blocks of C on goroutines of their own, about two allocations per block
// (measured: 10 for a 3 x 200 C, 40 for 320 x 320), and allocate nothing
// for a smaller one. The bound is loose: 4 plus 2 per block, per matrix.
func vendorAllocBound(s shape) float64 {
	blocks := (s.m + 63) / 64 * ((s.n + 63) / 64)
	if blocks < 4 {
		return 0
	}
	return float64(s.batch * (4 + 2*blocks))
}

func noAllocs[T batchlas.Float](t *testing.T) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(31, 5))
	for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
		for _, s := range allocShapes {
			ctx := pinned(c)
			a, b, cc := operands[T](r, s, layout{})
			n, err := BufferSize(ctx, s.ta, s.tb, a, b, cc)
			if err != nil {
				t.Fatal(err)
			}
			ws := make([]T, n)
			call := func() {
				if err := Gemm(ctx, s.ta, s.tb, 1.5, a, b, 0.5, cc, ws); err != nil {
					t.Fatal(err)
				}
			}
			what := fmt.Sprintf("%s %v", c, s)
			runs := testmat.AllocRuns
			if s.m*s.n*s.k*s.batch > 1<<24 {
				runs = 3
			}
			if c.Vendor() {
				if testmat.RaceEnabled {
					continue
				}
				bound := vendorAllocBound(s)
				if got := testmat.FewestAllocs(runs, call); got > bound {
					t.Errorf("%s: %v allocations per call, above the documented bound %v", what, got, bound)
				}
				continue
			}
			testmat.NoAllocsRuns(t, what, runs, call)
		}
	}
}
