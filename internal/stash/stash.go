package stash

import "github.com/batchlas-go/batchlas"

// Save copies matrices idx of b, column by column, into one new slice
// (nil when idx is empty).
func Save[T batchlas.Float](b batchlas.Batch[T], idx []int) []T {
	if len(idx) == 0 {
		return nil
	}
	n, nrhs := b.Rows, b.Cols
	out := make([]T, 0, len(idx)*n*nrhs)
	for _, i := range idx {
		for c := 0; c < nrhs; c++ {
			o := i*b.Stride + c*b.LD
			out = append(out, b.Data[o:o+n]...)
		}
	}
	return out
}

// Restore writes back what Save copied from the same matrices idx.
func Restore[T batchlas.Float](b batchlas.Batch[T], idx []int, saved []T) {
	n, nrhs := b.Rows, b.Cols
	k := 0
	for _, i := range idx {
		for c := 0; c < nrhs; c++ {
			o := i*b.Stride + c*b.LD
			k += copy(b.Data[o:o+n], saved[k:k+n])
		}
	}
}
