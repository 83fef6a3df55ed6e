package syev

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// TestRotQueueKeepsBits: sequences pushed through a rotQueue leave z with
// the same bits as the same sequences applied one by one, on orders around
// the queue's row blocks, with more sequences than the queue holds (so it
// flushes midway) and a padded leading dimension, both dtypes.
func TestRotQueueKeepsBits(t *testing.T) {
	testRotQueueKeepsBits[float64](t)
	testRotQueueKeepsBits[float32](t)
}

func testRotQueueKeepsBits[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{2, 7, 31, 33, 64, 65, 100} {
		ld := workLD[T](n)
		z0 := make([]T, ld*n)
		for i := range z0 {
			z0[i] = T(r.NormFloat64())
		}
		type seq struct {
			forward bool
			col0, k int
			c, s    []T
		}
		var seqs []seq
		for range 3*queueSequences/2 + 5 {
			k := 2 + r.IntN(n-1)
			col0 := r.IntN(n - k + 1)
			c, s := make([]T, k-1), make([]T, k-1)
			for j := range c {
				th := r.Float64() * 2 * math.Pi
				c[j], s[j] = T(math.Cos(th)), T(math.Sin(th))
			}
			seqs = append(seqs, seq{r.IntN(2) == 0, col0, k, c, s})
		}
		want, got := slices.Clone(z0), slices.Clone(z0)
		q := newRotQueue(got, ld, n, make([]T, steqrWork(n)-2*n))
		for _, sq := range seqs {
			if sq.forward {
				vec.RotForward(want[sq.col0*ld:], ld, n, sq.k, sq.c, sq.s)
			} else {
				vec.RotBackward(want[sq.col0*ld:], ld, n, sq.k, sq.c, sq.s)
			}
			q.push(sq.forward, sq.col0, sq.k, sq.c, sq.s)
		}
		q.flush()
		name := fmt.Sprintf("%T n=%d", T(0), n)
		for i := range want {
			if math.Float64bits(float64(want[i])) != math.Float64bits(float64(got[i])) {
				t.Fatalf("%s: entry %d is %v queued, %v applied one by one", name, i, got[i], want[i])
			}
		}
		if q.nseq != 0 || q.used != 0 {
			t.Fatalf("%s: the queue is not empty after flush", name)
		}
	}
}
