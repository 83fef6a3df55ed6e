package syev

import (
	"sync"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// A call that passes no workspace gets one from these pools (by element
// size) and gives it back when it returns, so that repeated calls reuse
// it: the blocked kernel's chunk is 8.6 MB of float64 at n = 1024, and a
// fresh one per call cost its zeroing and page faults, about a tenth of a
// jobz=N call at that order. What a workspace holds on entry never
// matters to a kernel.
var scratch64, scratch32 sync.Pool // of *[]float64, *[]float32

func scratchPool[T batchlas.Float]() *sync.Pool {
	if vec.Width[T]() == 8 {
		return &scratch64
	}
	return &scratch32
}

// getScratch returns a workspace of n elements, from the pool when it has
// one big enough.
func getScratch[T batchlas.Float](n int) *[]T {
	if p, ok := scratchPool[T]().Get().(*[]T); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]T, n)
	return &s
}

// putScratch gives a workspace of getScratch back to the pool.
func putScratch[T batchlas.Float](p *[]T) { scratchPool[T]().Put(p) }
