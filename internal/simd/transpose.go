package simd

import "github.com/batchlas-go/batchlas"

// TransposeGo is the portable twin of Transpose: dst[l*ldd+i] =
// src[i*lds+l] for i < m and l < k.
func TransposeGo[T batchlas.Float](dst []T, ldd int, src []T, lds, m, k int) {
	transposeEdges(dst, ldd, src, lds, m, k, 0, 0)
}

// transposeEdges is Transpose on what lies outside the leading mb x kb
// block: columns kb .. k-1 of rows 0 .. mb-1, and rows mb .. m-1 whole.
func transposeEdges[T batchlas.Float](dst []T, ldd int, src []T, lds, m, k, mb, kb int) {
	for i := range m {
		l0 := 0
		if i < mb {
			l0 = kb
		}
		for l, v := range src[i*lds+l0 : i*lds+k] {
			dst[(l0+l)*ldd+i] = v
		}
	}
}
