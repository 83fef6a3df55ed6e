package simd

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// Transpose, on every path, moves every element of shapes straddling the
// AVX-512 path's 8 x 8 blocks and the AVX2 path's four-row blocks (and
// their edges in either direction) to its place, and leaves the
// destination's gaps (ldd > m) as they were.
func TestTranspose(t *testing.T) {
	onEachPath(func(path string) {
		transposeAgrees[float64](t, path)
		transposeAgrees[float32](t, path)
	})
}

func transposeAgrees[T batchlas.Float](t *testing.T, path string) {
	sizes := []int{1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 49}
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

// CopyColumns, on every path, copies columns of rows around the AVX2
// path's 96-byte runs (12 float64, 24 float32) into contiguous and padded
// destinations, and leaves the gaps and what follows alone.
func TestCopyColumns(t *testing.T) {
	onEachPath(func(path string) {
		copyAgrees[float64](t, path)
		copyAgrees[float32](t, path)
	})
}

func copyAgrees[T batchlas.Float](t *testing.T, path string) {
	run := 96 / int(unsafe.Sizeof(T(0)))
	for _, rows := range []int{1, run - 1, run, run + 1} {
		for _, cols := range []int{1, 2, 7} {
			for _, pad := range []int{0, 2} {
				lds, ldd := rows+3, rows+pad
				src := make([]T, (cols-1)*lds+rows)
				for i := range src {
					src[i] = T(i + 1)
				}
				dst := make([]T, cols*ldd+1)
				for i := range dst {
					dst[i] = T(math.NaN())
				}
				CopyColumns(dst, ldd, src, lds, rows, cols)
				for j := range cols {
					for i := range ldd {
						got := dst[j*ldd+i]
						if i < rows && got != src[j*lds+i] {
							t.Fatalf("%T path=%s rows=%d cols=%d pad=%d: (%d, %d) = %v, want %v", T(0), path, rows, cols, pad, i, j, got, src[j*lds+i])
						}
						if i >= rows && got == got {
							t.Fatalf("%T path=%s rows=%d cols=%d pad=%d: wrote the gap at (%d, %d)", T(0), path, rows, cols, pad, i, j)
						}
					}
				}
				if v := dst[cols*ldd]; v == v {
					t.Fatalf("%T path=%s rows=%d cols=%d pad=%d: wrote past the last column", T(0), path, rows, cols, pad)
				}
			}
		}
	}
}
