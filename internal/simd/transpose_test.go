package simd

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// Transpose, on both paths, moves every element of shapes straddling the
// 8 x 8 blocks (and their edges in either direction) to its place, and
// leaves the destination's gaps (ldd > m) as they were.
func TestTranspose(t *testing.T) {
	onEachPath(func(path string) {
		transposeAgrees[float64](t, path)
		transposeAgrees[float32](t, path)
	})
}

func transposeAgrees[T batchlas.Float](t *testing.T, path string) {
	sizes := []int{1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 49}
	for _, m := range sizes {
		for _, k := range sizes {
			for _, pad := range []int{0, 3} {
				lds, ldd := k+pad, m+pad
				src := make([]T, (m-1)*lds+k)
				for i := range src {
					src[i] = T(i + 1)
				}
				dst := make([]T, (k-1)*ldd+m)
				for i := range dst {
					dst[i] = T(math.NaN())
				}
				Transpose(dst, ldd, src, lds, m, k)
				name := fmt.Sprintf("%T path=%v m=%d k=%d pad=%d", T(0), path, m, k, pad)
				for l := range k {
					for i := range m {
						if got, want := dst[l*ldd+i], src[i*lds+l]; got != want {
							t.Fatalf("%s: dst(%d, %d) = %v, want %v", name, i, l, got, want)
						}
					}
					for i := m; i < ldd && l*ldd+i < len(dst); i++ {
						if v := dst[l*ldd+i]; v == v {
							t.Fatalf("%s: wrote the gap at row %d of column %d", name, i, l)
						}
					}
				}
			}
		}
	}
}
