package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// tile_amd64.s is exactly what gen.go writes.
func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "tile_amd64.s") }

// TestAVX2AssemblyIsGenerated: tile_avx2_amd64.s is exactly what
// gen_avx2.go writes.
func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "tile_avx2_amd64.s")
}

// hostAVX512 and hostAVX2 are the switches as the process set them: the
// paths this machine can run.
var hostAVX512, hostAVX2 = AVX512, AVX2

// paths are the tile's code paths this machine can run: the AVX-512
// assembly (on an AVX-512 machine presented as x86-64-v4), the AVX2
// assembly (there, or on an x86-64-v3 machine) and the Go twin.
func paths() []string {
	var ps []string
	if hostAVX512 {
		ps = append(ps, "avx512")
	}
	if hostAVX512 || hostAVX2 {
		ps = append(ps, "avx2")
	}
	return append(ps, "go")
}

// onEachPath runs run once per path of paths, with AVX512 and AVX2
// switched to it, and puts them back.
func onEachPath(run func(path string)) {
	defer func() { AVX512, AVX2 = hostAVX512, hostAVX2 }()
	for _, path := range paths() {
		AVX512, AVX2 = path == "avx512", path == "avx2"
		run(path)
	}
}

// Gemm agrees with a float64 reference on shapes straddling every vector
// and tile edge (rows around 8, 16, 24, 48; columns around 8 and each
// column variant of the assembly, 1, 2, 4 and 8; depths around
// the 64-deep transposed copy), every transpose, beta 0 (C, full of NaN,
// is not read), and leaves C's rows past m alone (ldc > m, NaN-poisoned
// gaps stay NaN and other gaps stay as they were).
func TestGemmMatchesReference(t *testing.T) {
	onEachPath(func(path string) {
		gemmAgrees[float64](t, path, 1e-13)
		gemmAgrees[float32](t, path, 2e-5)
	})
}

func gemmAgrees[T batchlas.Float](t *testing.T, path string, tol float64) {
	r := rand.New(rand.NewPCG(1, 2))
	rows := []int{1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 47, 48, 49, 70}
	cols := []int{1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 17}
	ks := []int{1, 3, 63, 64, 65, 130}
	if testing.Short() {
		ks = []int{1, 65}
	}
	for _, m := range rows {
		for _, n := range cols {
			for _, k := range ks {
				for _, ta := range []bool{false, true} {
					for _, tb := range []bool{false, true} {
						for _, beta := range []T{0, 0.5} {
							what := fmt.Sprintf("%T path=%v m=%d n=%d k=%d ta=%v tb=%v beta=%v", T(0), path, m, n, k, ta, tb, beta)
							checkGemm(t, r, what, ta, tb, m, n, k, beta, tol)
						}
					}
				}
			}
		}
	}
}

func checkGemm[T batchlas.Float](t *testing.T, r *rand.Rand, what string, ta, tb bool, m, n, k int, beta T, tol float64) {
	ar, ac := m, k
	if ta {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb {
		br, bc = n, k
	}
	lda, ldb, ldc := ar+2, br+1, m+3
	fill := func(len int) []T {
		x := make([]T, len)
		for i := range x {
			x[i] = T(r.Float64()*2 - 1)
		}
		return x
	}
	a, b := fill(lda*ac), fill(ldb*bc)
	c := fill(ldc * n)
	gap := T(math.NaN())
	for j := range n {
		for i := m; i < ldc; i++ {
			c[j*ldc+i] = gap
		}
		if beta == 0 {
			for i := range m {
				c[j*ldc+i] = T(math.NaN())
			}
		}
	}
	c0 := append([]T(nil), c...)
	const alpha = 1.25
	Gemm(ta, tb, m, n, k, T(alpha), a, lda, b, ldb, beta, c, ldc)
	for j := range n {
		for i := range ldc {
			got := c[j*ldc+i]
			if i >= m {
				if !math.IsNaN(float64(got)) {
					t.Fatalf("%s: wrote the gap at (%d,%d)", what, i, j)
				}
				continue
			}
			var s, mag float64
			for l := range k {
				var x, y T
				if ta {
					x = a[i*lda+l]
				} else {
					x = a[l*lda+i]
				}
				if tb {
					y = b[l*ldb+j]
				} else {
					y = b[j*ldb+l]
				}
				s += float64(x) * float64(y)
				mag += math.Abs(float64(x) * float64(y))
			}
			want := alpha * s
			if beta != 0 {
				want += float64(beta) * float64(c0[j*ldc+i])
				mag += math.Abs(float64(c0[j*ldc+i]))
			}
			if d := math.Abs(float64(got) - want); !(d <= tol*(mag+1)) {
				t.Fatalf("%s: (%d,%d) got %v want %v", what, i, j, got, want)
			}
		}
	}
}

// The AVX2 tile does the AVX-512 tile's operations in the same order, so
// on a machine with both every tile gives the same bits on either, over
// rows and columns straddling both tiles' vectors and pieces, beta zero and
// not, and several matrices a call. It skips where there is no AVX-512.
func TestAVX2TileMatchesAVX512Bits(t *testing.T) {
	if !hostAVX512 {
		t.Skip("no AVX-512 here: the AVX2 tile is checked against the reference only")
	}
	defer func() { AVX512, AVX2 = hostAVX512, hostAVX2 }()
	tileBitsAgree[float64](t)
	tileBitsAgree[float32](t)
}

func tileBitsAgree[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lanes := Lanes[T]()
	const k, count = 37, 3
	for _, rows := range []int{1, lanes/2 - 1, lanes / 2, lanes/2 + 1, lanes + 3, 3*lanes/2 + 1, 2*lanes + 1, 3 * lanes} {
		for _, ncols := range []int{1, 3, 4, 5, 8} {
			for _, hasBeta := range []bool{false, true} {
				lda, ldc := rows+1, rows+2
				sa, sc := k*lda+3, ncols*ldc+1
				a := make([]T, count*sa)
				b := make([]T, count*(k*Cols+2))
				c := make([]T, count*sc)
				for _, x := range [][]T{a, b, c} {
					for i := range x {
						x[i] = T(r.Float64()*2 - 1)
					}
				}
				var boff [Cols]int
				for i := range boff {
					boff[i] = min(i, ncols-1)
				}
				ab := [2]T{1.25, -0.75}
				var got [2][]T
				for p, wide := range []bool{true, false} {
					AVX512, AVX2 = wide, !wide
					got[p] = append([]T(nil), c...)
					Tile(k, a, lda, b, Cols, &boff, got[p], ldc, rows, ncols, &ab, hasBeta, count, sa, k*Cols+2, sc)
				}
				for i := range c {
					if math.Float64bits(float64(got[0][i])) != math.Float64bits(float64(got[1][i])) {
						t.Fatalf("%T rows=%d ncols=%d beta=%v: element %d: avx512 %v, avx2 %v", T(0), rows, ncols, hasBeta, i, got[0][i], got[1][i])
					}
				}
			}
		}
	}
}

// TestPrefetchIsOnlyAHint runs Prefetch over whole matrices, triangles,
// empty shapes and shapes larger than the slice: nothing panics and no
// element changes.
func TestPrefetchIsOnlyAHint(t *testing.T) {
	x := make([]float64, 40*37)
	for i := range x {
		x[i] = float64(i)
	}
	for _, c := range []struct{ rows, ld, ncols, tri int }{
		{40, 40, 37, 0}, {37, 40, 37, 1}, {37, 40, 37, 2}, {1, 1, 1, 0}, {0, 40, 3, 0},
		{40, 40, 0, 0}, {41, 41, 37, 0}, {len(x), len(x), 1, 0}, {len(x) + 1, 1, 1, 0},
	} {
		Prefetch(x, c.rows, c.ld, c.ncols, c.tri)
		Prefetch(make([]float32, 8), c.rows, c.ld, c.ncols, c.tri)
	}
	for i, v := range x {
		if v != float64(i) {
			t.Fatalf("x[%d] = %v after Prefetch", i, v)
		}
	}
}
