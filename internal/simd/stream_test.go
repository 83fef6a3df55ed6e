package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// aligned returns n elements of T whose first one is 64-byte aligned.
func aligned[T batchlas.Float](n int) []T {
	var z T
	per := 64 / int(unsafe.Sizeof(z))
	x := make([]T, n+per)
	off := 0
	for uintptr(unsafe.Pointer(&x[off]))%64 != 0 {
		off++
	}
	return x[off : off+n]
}

// TileStream writes the bits Tile writes without beta, over every row
// count around the vector edges (a masked last vector stores as usual),
// each column variant, one and several matrices, and leaves the rows past
// the tile alone; an unaligned C falls back to Tile.
func TestTileStreamMatchesTile(t *testing.T) {
	onEachPath(func(path string) {
		streamAgrees[float64](t, path)
		streamAgrees[float32](t, path)
	})
}

func streamAgrees[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(3, 4))
	lanes := Lanes[T]()
	for _, rows := range []int{1, lanes - 1, lanes, lanes + 1, 2*lanes + 3, 3 * lanes} {
		for _, ncols := range []int{1, 2, 3, 5, 8} {
			for _, count := range []int{1, 3} {
				for _, shift := range []int{0, 1} { // 1: C one element off alignment
					what := fmt.Sprintf("%T path=%v rows=%d ncols=%d count=%d shift=%d", T(0), path, rows, ncols, count, shift)
					const k = 19
					lda, ldc := rows+1, (rows+lanes-1)/lanes*lanes+lanes
					sa, sc := lda*k+3, ldc*ncols
					a := make([]T, sa*count)
					b := make([]T, k*Cols*count)
					for i := range a {
						a[i] = T(r.Float64()*2 - 1)
					}
					for i := range b {
						b[i] = T(r.Float64()*2 - 1)
					}
					boff := [Cols]int{}
					for cc := range boff {
						boff[cc] = min(cc, ncols-1) * k
					}
					ab := [2]T{1.25, 0}
					cs := [2][]T{aligned[T](sc*count + shift), aligned[T](sc*count + shift)}
					for _, c := range cs {
						for i := range c {
							c[i] = T(math.NaN())
						}
					}
					c0, c1 := cs[0][shift:], cs[1][shift:]
					if got := StreamAligned(c1, ldc, sc); path == "avx512" && got != (shift == 0) {
						t.Fatalf("%s: StreamAligned = %v", what, got)
					}
					Tile(k, a, lda, b, 1, &boff, c0, ldc, rows, ncols, &ab, false, count, sa, k*Cols, sc)
					TileStream(k, a, lda, b, 1, &boff, c1, ldc, rows, ncols, &ab, count, sa, k*Cols, sc)
					for i := range c0 {
						x, y := c0[i], c1[i]
						if math.Float64bits(float64(x)) != math.Float64bits(float64(y)) && !(math.IsNaN(float64(x)) && math.IsNaN(float64(y))) {
							t.Fatalf("%s: element %d: Tile %v, TileStream %v", what, i, x, y)
						}
						if inTile := i%sc%ldc < rows && i%sc/ldc < ncols; inTile == math.IsNaN(float64(y)) {
							t.Fatalf("%s: element %d (in the tile: %v) is %v", what, i, inTile, y)
						}
					}
				}
			}
		}
	}
}
