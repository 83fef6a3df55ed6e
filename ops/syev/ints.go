package syev

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// int32sOf is the storage of buf seen as int32s, as many as fit: integer
// scratch (dc's permutations and positions) carved from the workspace of
// T the caller supplies, instead of made on the heap per matrix. Neither
// type holds pointers, so the garbage collector sees nothing different;
// what one view held is garbage to the other, as scratch is anyway.
func int32sOf[T batchlas.Float](buf []T) []int32 {
	if len(buf) == 0 {
		return nil
	}
	bytes := len(buf) * int(unsafe.Sizeof(buf[0]))
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(buf))), bytes/4)
}

// int32Elems is the number of elements of T that hold k int32s.
func int32Elems[T batchlas.Float](k int) int {
	var z T
	size := int(unsafe.Sizeof(z))
	return (4*k + size - 1) / size
}
