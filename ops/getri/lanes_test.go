package getri

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// TestLanesSameBitsAsPermatrix: the lanes kernel repeats permatrix's
// short-order loops, so its inverses are permatrix's bit for bit, at every
// order up to shortOrder and at batch counts around the group size (a short last
// group, padded), with singular factors among them (the same info, left
// as they were) and on one worker or all.
func TestLanesSameBitsAsPermatrix(t *testing.T) {
	sameBits[float64](t)
	sameBits[float32](t)
}

func sameBits[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	L := lanes.Lanes[T]()
	for n := 1; n <= shortOrder; n++ {
		for _, count := range []int{1, L - 1, L, L + 1, 2*L + 3} {
			_, lu, ipiv := factors[T](t, r, n, count)
			if count > 2 {
				lu.Set(2, n/2, n/2, 0)
				lu.Set(count-1, n-1, n-1, T(math.NaN()))
			}
			want := testmat.Clone(lu)
			errWant := Getri(pin(permatrix.With()), want, ipiv, nil)
			for _, w := range []int{1, 0} {
				ctx := pin(lanesFamily.With())
				if w > 0 {
					ctx = batchlas.WithParallelism(ctx, w)
				}
				got := testmat.Clone(lu)
				errGot := Getri(ctx, got, ipiv, nil)
				what := fmt.Sprintf("%s n=%d count=%d workers=%d", opkit.DTypeOf[T](), n, count, w)
				wantInfo, _ := testmat.Infos(errWant, count)
				gotInfo, _ := testmat.Infos(errGot, count)
				require.Equal(t, wantInfo, gotInfo, what)
				testmat.SameBits(t, what, got.Data, want.Data)
			}
		}
	}
}
