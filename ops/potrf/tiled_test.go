package potrf

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// tiledCall factors a with tiles of order nb, with exactly the workspace
// tiled asks for (NaN-filled), and returns the matrices' info.
func tiledCall[T batchlas.Float](t *testing.T, ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], nb int) []int32 {
	t.Helper()
	info := make([]int32, a.Count)
	ws := testmat.NaNs[T](tiledScratch[T](uplo, a.Rows))
	require.NoError(t, tiledPotrfNB(ctx, uplo, a, ws, info, nb))
	return info
}

// TestTiledAgainstGonum: the tiled kernel with small tiles (many tasks on
// small matrices, every partial last tile) and with its own tile order on
// orders that straddle its tile edges, both triangles, tight and padded:
// residual, gonum's factor, the other triangle and the padding
// (checkFactor).
func TestTiledAgainstGonum(t *testing.T) {
	t.Run("float32", tiledAgainstGonum[float32])
	t.Run("float64", tiledAgainstGonum[float64])
}

func tiledAgainstGonum[T batchlas.Float](t *testing.T) {
	r := testmat.Rand(21)
	type shape struct{ nb, n, count int }
	var shapes []shape
	for _, nb := range []int{1, 5, 8, 24} {
		for _, n := range []int{1, 7, 24, 25, 49, 100, 130} {
			shapes = append(shapes, shape{nb, n, 2})
		}
	}
	big := []int{tiledNB - 1, tiledNB + 1, 2*tiledNB - 1, 2 * tiledNB, 2*tiledNB + 1, 3*tiledNB + 6}
	if testing.Short() {
		// The portable pass runs the same tiling on the Go twins, which
		// the small tiles above reach; two of the kernel's own sizes do.
		big = []int{tiledNB + 1, 2*tiledNB + 1}
	}
	for _, n := range big {
		shapes = append(shapes, shape{tiledNB, n, 1})
	}
	for si, s := range shapes {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, padded := range []bool{false, true} {
				if testing.Short() && s.n > tiledNB && padded != (si%2 == 0) {
					continue // one layout a large shape, in turn
				}
				a := batchFor[T](r, s.n, s.count, padded)
				orig := testmat.Clone(a)
				info := tiledCall(t, context.Background(), uplo, a, s.nb)
				require.Equal(t, make([]int32, s.count), info, "nb=%d n=%d %v: SPD matrices", s.nb, s.n, uplo)
				checkFactor(t, uplo, orig, a)
			}
		}
	}
}

// TestTiledSameForEveryParallelism: with 1 to 4 workers (GOMAXPROCS 4),
// three runs each (under -short, the portable pass, whose tiles are the Go
// twins' and whose tasks are scheduled as in the plain pass: one run with
// 1 and with 3 workers), the factor is the same bit for bit: small tiles
// on a matrix of 13 tiles a side (169 tasks) and the kernel's own tiles on
// one of 5.
func TestTiledSameForEveryParallelism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := testmat.Rand(22)
	runs, workerCounts := 3, []int{1, 2, 3, 4}
	if testing.Short() {
		runs, workerCounts = 1, []int{1, 3}
	}
	for _, s := range []struct{ nb, n int }{{24, 300}, {tiledNB, 4*tiledNB + 8}} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			a0 := batchFor[float64](r, s.n, 2, true)
			var ref batchlas.Batch[float64]
			for _, workers := range workerCounts {
				for run := range runs {
					a := testmat.Clone(a0)
					tiledCall(t, batchlas.WithParallelism(context.Background(), workers), uplo, a, s.nb)
					if ref.Data == nil {
						checkFactor(t, uplo, a0, a)
						ref = a
						continue
					}
					for i := range a.Data {
						if math.Float64bits(a.Data[i]) != math.Float64bits(ref.Data[i]) {
							t.Fatalf("nb=%d n=%d %v, %d workers, run %d: element %d is %v, %v with one worker", s.nb, s.n, uplo, workers, run, i, a.Data[i], ref.Data[i])
						}
					}
				}
			}
		}
	}
}

// TestTiledInfo: a matrix whose leading minor of order p is the first that
// is not positive definite (a negative or NaN pivot, or NaN below the
// diagonal in column p, which spoils the last pivot: info n) reports
// that info, in every tile of a matrix of many small tiles; the tiles left
// of the failing one hold the same factor as the unspoilt matrix's, and
// the matrix beside it is factored.
func TestTiledInfo(t *testing.T) {
	const n, nb = 70, 8
	r := testmat.Rand(23)
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		clean := batchFor[float64](r, n, 2, true)
		ref := testmat.Clone(clean)
		tiledCall(t, context.Background(), uplo, ref, nb)
		for _, p := range []int{1, 2, 8, 9, 17, 40, 64, 65, 70} {
			for _, v := range []float64{-1, math.NaN(), math.Inf(-1)} {
				for _, below := range []bool{false, true} {
					if below && p == n {
						continue // the spoil is the pivot itself
					}
					a := testmat.Clone(clean)
					row, col := p-1, p-1
					if below {
						row = n - 1 // the pivot of column p sums it in
					}
					if uplo == batchlas.Upper {
						row, col = col, row
					}
					a.Set(0, row, col, v)
					info := tiledCall(t, context.Background(), uplo, a, nb)
					if below {
						// Column p's entry in the last row spoils that
						// row's pivot, the last one, unless it is finite.
						if v != -1 {
							require.Equal(t, []int32{n, 0}, info, "%v p=%d v=%v below", uplo, p, v)
						}
						continue
					}
					require.Equal(t, []int32{int32(p), 0}, info, "%v p=%d v=%v", uplo, p, v)
					done := (p - 1) / nb * nb // columns of the tiles left of the failed one
					for c := range done {
						for r := c; r < n; r++ {
							rr, cc := r, c
							if uplo == batchlas.Upper {
								rr, cc = c, r
							}
							require.Equal(t, math.Float64bits(ref.At(0, rr, cc)), math.Float64bits(a.At(0, rr, cc)),
								"%v p=%d v=%v: factored entry (%d, %d) of a tile left of the failed one", uplo, p, v, rr, cc)
						}
					}
					require.Equal(t, -1, testmat.SameMatrices(a, ref, 1, 2), "p=%d: the SPD matrix beside it", p)
				}
			}
		}
	}
}

// TestTiledRowBlockFollowsL2: the rows of one update product scale with
// the device's L2 from the 192 measured on a 1 MiB L2, in whole tiles of
// 24, within [48, 768]; a device without an L2 gets the common default's.
func TestTiledRowBlockFollowsL2(t *testing.T) {
	for _, c := range []struct{ l2, want int }{
		{1 << 20, 192}, {2 << 20, 384}, {512 << 10, 96}, {0, 96}, {64 << 10, 48}, {32 << 20, 768},
	} {
		if got := tiledRowBlock(&sel.Device{L2: c.l2}); got != c.want {
			t.Errorf("L2 %d: %d rows, want %d", c.l2, got, c.want)
		}
	}
}
