package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

func TestMoves(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testMoves[float64](t, path)
		testMoves[float32](t, path)
	}
}

// testMoves gathers count matrices (leading dimension above rows, gaps
// between them holding NaN) into a group and scatters a changed group
// back to the lanes of a mask: every element lands where the layout says,
// the lanes past count are zero, and nothing outside the masked matrices'
// elements is written.
func testMoves[T batchlas.Float](t *testing.T, path string) {
	defer simdpath.Use(path)()
	r := rand.New(rand.NewPCG(13, 14))
	L := Lanes[T]()
	// ld = gld = rows (count even) moves the matrices as one column each.
	for _, shape := range [][3]int{{1, 1, 2}, {3, 2, 2}, {8, 8, 2}, {9, 1, 2}, {17, 5, 2}, {3, 3, 0}, {5, 5, 0}, {9, 2, 0}} {
		rows, cols := shape[0], shape[1]
		ld := rows + shape[2]
		stride := cols*ld + 3
		for _, count := range []int{1, L/2 + 1, L} {
			gld := rows + count%2 // tight, and one row of slack
			name := fmt.Sprintf("%T path=%s %dx%d ld=%d count=%d gld=%d", T(0), path, rows, cols, ld, count, gld)
			src := make([]T, L*stride)
			for i := range src {
				src[i] = T(math.NaN())
			}
			for l := 0; l < count; l++ {
				for c := 0; c < cols; c++ {
					for row := 0; row < rows; row++ {
						src[l*stride+c*ld+row] = T(r.NormFloat64())
					}
				}
			}
			g := make([]T, gld*cols*L)
			for i := range g {
				g[i] = 7
			}
			Gather(g, src, stride, ld, rows, cols, count, gld)
			for l := 0; l < L; l++ {
				for c := 0; c < cols; c++ {
					for row := 0; row < rows; row++ {
						want := T(0)
						if l < count {
							want = src[l*stride+c*ld+row]
						}
						if got := g[(c*gld+row)*L+l]; got != want {
							t.Fatalf("%s: gathered (%d, %d) of lane %d is %v, want %v", name, row, c, l, got, want)
						}
					}
					for row := rows; row < gld; row++ {
						if got := g[(c*gld+row)*L+l]; got != 7 {
							t.Fatalf("%s: the slack row %d of column %d, lane %d, was written: %v", name, row, c, l, got)
						}
					}
				}
			}
			for i := range g {
				g[i] = T(i)
			}
			mask := uint64(0b1011) & (uint64(1)<<count - 1)
			dst := slices.Clone(src)
			Scatter(dst, g, stride, ld, rows, cols, mask, gld)
			for i := range dst {
				l, off := i/stride, i%stride
				c, row := off/ld, off%ld
				want := src[i]
				if mask&(1<<l) != 0 && c < cols && row < rows {
					want = g[(c*gld+row)*L+l]
				}
				if got := dst[i]; got != want && !(got != got && want != want) {
					t.Fatalf("%s: scattered element %d (lane %d) is %v, want %v", name, i, l, got, want)
				}
			}
		}
	}
}
