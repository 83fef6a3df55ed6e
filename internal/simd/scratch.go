package simd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// Scratch is a buffer for copies of operands whose columns conflict in
// cache (package cache): a kernel that sizes no workspace for such copies
// (gemm's simd kernel) takes one for the length of a call and puts it
// back. The buffers are float64 storage viewed as either element
// type; a free list keeps them between calls, so a call allocates nothing
// once they exist.
type Scratch struct{ words []float64 }

var scratches = parallel.NewFreeList[*Scratch]()

// GetScratch returns a buffer and a view of at least n elements of T in it.
// Put it back with PutScratch when the view is no longer used.
func GetScratch[T batchlas.Float](n int) (*Scratch, []T) {
	words := (n*elemSize[T]() + 7) / 8
	s, ok := scratches.Get()
	if !ok || len(s.words) < max(words, 1) {
		s = &Scratch{words: make([]float64, max(words, 1))}
	}
	return s, unsafe.Slice((*T)(unsafe.Pointer(&s.words[0])), n)
}

// PutScratch hands a buffer back for another call.
func PutScratch(s *Scratch) { scratches.Put(s) }

// CopyColumns copies the rows x cols matrix src (columns lds apart) to dst
// (columns ldd apart).
func CopyColumns[T batchlas.Float](dst []T, ldd int, src []T, lds, rows, cols int) {
	if copyColumnsFast(dst, ldd, src, lds, rows, cols) {
		return
	}
	for j := range cols {
		copy(dst[j*ldd:j*ldd+rows], src[j*lds:j*lds+rows])
	}
}
