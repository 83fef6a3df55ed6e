//go:build amd64 && !purego

package gemm

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/klauspost/cpuid/v2"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// The suite runs on the AVX2 tile on an AVX-512 machine by presenting the
// process as x86-64-v3 (simd.AVX512 follows the device key's level), as
// make test does:
//
//	BATCHLAS_DEVICE=x86-64-v3 go test ./ops/gemm/

// tilePath is one of the packed kernel's code paths, set by flipping the
// package variables, so every path this CPU has runs on one machine.
type tilePath struct {
	name         string
	avx512, avx2 bool
}

var tilePaths = []tilePath{
	{"avx512", true, false}, // the AVX-512 wide tile
	{"avx2", false, true},   // the AVX2 wide tile
	{"portable", false, false},
}

// hostAVX512 and hostAVX2 are the switches as the process set them: what
// this CPU can run.
var hostAVX512, hostAVX2 = simd.AVX512, simd.AVX2

// use sets the path and returns the restore; ok is false when this CPU
// cannot run it.
func (p tilePath) use() (restore func(), ok bool) {
	if (p.avx512 && !hostAVX512) || (p.avx2 && !hostAVX512 && !hostAVX2) {
		return nil, false
	}
	simd.AVX512, simd.AVX2 = p.avx512, p.avx2
	return func() { simd.AVX512, simd.AVX2 = hostAVX512, hostAVX2 }, true
}

// wideSizes are m (or n) values straddling the tile edges of mr (1..2mr+1
// around each multiple) and nr.
func wideSizes(mr int) []int {
	var s []int
	for x := 1; x <= 2*mr+1; x++ {
		if x <= 10 || x%mr <= 1 || x%mr == mr-1 || x%8 <= 1 || x%8 == 7 {
			s = append(s, x)
		}
	}
	return s
}

// Every path of the packed kernel agrees with gonum's Dgemm (the oracle's
// rounding bound) and with the portable path (twice that bound) on shapes
// straddling the wide tile's edges, every transpose, several alpha/beta,
// and depths straddling kc=128.
func TestPackedTilePaths(t *testing.T) {
	if !simd.AVX512 {
		t.Log("this CPU has no AVX-512: only the avx2 and portable paths run")
	}
	widePathsAgree[float64](t, "packed:kc=128", 24, []int{1, 2, 127, 128, 129, 300})
	widePathsAgree[float32](t, "packed:kc=128", 48, []int{1, 2, 127, 128, 129, 300})
}

// The same for the simd family, whose tile (package simd) runs as AVX-512
// or AVX2 assembly or as its portable twin: row counts straddle each
// vector and the tile, columns its 8, and depths the 64-deep transposed
// copy of A.
func TestSIMDTilePaths(t *testing.T) {
	if !simd.AVX512 {
		t.Log("this CPU has no AVX-512: only the avx2 and portable simd tiles run")
	}
	widePathsAgree[float64](t, "simd", 24, []int{1, 2, 63, 64, 65, 200})
	widePathsAgree[float32](t, "simd", 48, []int{1, 2, 63, 64, 65, 200})
}

func widePathsAgree[T batchlas.Float](t *testing.T, pin string, mrw int, ks []int) {
	ctx := sel.WithPin(context.Background(), opName, pin)
	r := testmat.Rand(11)
	ab := [][2]T{{1, 0}, {1.5, -0.5}, {-1, 1}}
	if testing.Short() {
		ks = []int{1, ks[len(ks)-2]}
	}
	// Around the AVX-512 tile's rows (mrw) and the AVX2 tile's (mrw/2).
	sizes := append(wideSizes(mrw), wideSizes(mrw/2)...)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	edge := []int{1, 7, 8, 9, mrw/2 - 1, mrw / 2, mrw/2 + 1, mrw - 1, mrw, mrw + 1, 2*mrw + 1}
	var mns [][2]int
	for _, m := range sizes {
		for _, n := range edge {
			mns = append(mns, [2]int{m, n}, [2]int{n, m})
		}
	}
	count := 0
	for i, mn := range mns {
		// Two depths a shape, taken in turn from ks: every shape and every
		// depth is checked, each depth with a third of the shapes, in a
		// third of the time every pair took (with -short, both depths).
		for _, k := range []int{ks[i%len(ks)], ks[(i+len(ks)/2)%len(ks)]} {
			for ti, ta := range transCases {
				tb := transCases[(ti+mn[0]+k)%len(transCases)]
				abi := ab[(mn[0]+mn[1]+k)%len(ab)]
				alpha, beta := abi[0], abi[1]
				s := shape{ta, tb, mn[0], mn[1], k, 1}
				a, b, c := operands[T](r, s, layout{padLD: 1})
				want, bound := oracle(ta, tb, alpha, a, b, beta, c)
				got := map[string]batchlas.Batch[T]{}
				for _, p := range tilePaths {
					restore, ok := p.use()
					if !ok {
						continue
					}
					cc := c
					cc.Data = append([]T(nil), c.Data...)
					err := Gemm(ctx, ta, tb, alpha, a, b, beta, cc, nil)
					restore()
					require.NoError(t, err)
					what := fmt.Sprintf("%s %T path=%s %c%c m=%d n=%d k=%d alpha=%v beta=%v", pin, alpha, p.name, ta, tb, s.m, s.n, s.k, alpha, beta)
					checkAgainst(t, what, cc, want, bound)
					got[p.name] = cc
					count++
				}
				// The fast paths against the portable one, to twice the
				// oracle's bound (each is within it of the exact product).
				if port, ok := got["portable"]; ok {
					pw := make([][]float64, port.Count)
					pb := make([][]float64, port.Count)
					for i := range pw {
						d := testmat.Dense(port, i)
						pw[i] = make([]float64, len(d))
						for j, v := range d {
							pw[i][j] = float64(v)
						}
						pb[i] = make([]float64, len(bound[i]))
						for j, v := range bound[i] {
							pb[i][j] = 2 * v
						}
					}
					for name, cc := range got {
						checkAgainst(t, fmt.Sprintf("%T path=%s vs portable %c%c m=%d n=%d k=%d", alpha, name, ta, tb, s.m, s.n, s.k), cc, pw, pb)
					}
				}
			}
		}
	}
	t.Logf("%T: %d products checked", T(0), count)
}

// BenchmarkPackedTiles times the packed kernel's three paths on one
// n x n matrix, C = A*B + C, in GFLOP/s, float64 and float32.
func BenchmarkPackedTiles(b *testing.B) {
	benchTiles[float64](b, "f64")
	benchTiles[float32](b, "f32")
}

func benchTiles[T batchlas.Float](b *testing.B, dt string) {
	for _, n := range []int{256, 512, 1024} {
		for _, p := range tilePaths {
			b.Run(fmt.Sprintf("%s/n=%d/path=%s", dt, n, p.name), func(b *testing.B) {
				restore, ok := p.use()
				if !ok {
					b.Skip("this CPU cannot run the path")
				}
				defer restore()
				r := testmat.Rand(7)
				a := testmat.Batch[T](r, n, n, 1, 0, 0)
				bb := testmat.Batch[T](r, n, n, 1, 0, 0)
				c := testmat.Batch[T](r, n, n, 1, 0, 0)
				ctx := sel.WithPin(context.Background(), opName, "packed:kc=128")
				start := time.Now()
				for b.Loop() {
					if err := Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, bb, 1, c, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/time.Since(start).Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// The AVX-512 and AVX2 paths follow the level of the key the process
// presents: AVX-512 on with the detected x86-64-v4 key of an AVX-512
// machine, off under BATCHLAS_DEVICE=x86-64-v3 (make test's v3 run), so
// tables tuned that way measure what an x86-64-v3 machine runs; AVX2 on at
// x86-64-v3 and above.
func TestAVX512FollowsTheDeviceKey(t *testing.T) {
	h := batchlas.Host()
	// The detected level, whatever BATCHLAS_DEVICE says (batchlas.Host's
	// Arch on amd64, before the key is replaced).
	level := cpuid.CPU.X64Level()
	want := level >= 4 && h.Family == "x86-64" && h.Arch >= 4
	require.Equal(t, want, simd.AVX512, "device %s on a host with level %d", h.Key, level)
	if os.Getenv("BATCHLAS_DEVICE") == "x86-64-v3" {
		require.False(t, simd.AVX512, "presented as x86-64-v3")
	}
	// The AVX2 tile likewise needs level 3, and AVX2 and FMA.
	want2 := level >= 3 && cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3) && h.Family == "x86-64" && h.Arch >= 3
	require.Equal(t, want2, simd.AVX2, "device %s on a host with level %d", h.Key, level)
}
