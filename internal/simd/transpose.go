package simd

import "github.com/batchlas-go/batchlas"

// TransposeGo is the portable twin of Transpose: dst[l*ldd+i] =
// src[i*lds+l] for i < m and l < k.
func TransposeGo[T batchlas.Float](dst []T, ldd int, src []T, lds, m, k int) {
	for i := range m {
		for l, v := range src[i*lds : i*lds+k] {
			dst[l*ldd+i] = v
		}
	}
}
