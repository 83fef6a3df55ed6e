package lanesqr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/qr"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "qr_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "qr_avx2_amd64.s")
}

// paths runs f on every code path this machine has: the AVX-512 assembly,
// the AVX2 one and the Go twin.
func paths(t *testing.T, f func(t *testing.T)) {
	for _, path := range simdpath.Paths() {
		t.Run(path, func(t *testing.T) {
			defer simdpath.Use(path)()
			f(t)
		})
	}
}

// group factors count m x n matrices (column-major, tight, one after
// another in src) as one group and returns the factors and tau the same
// way, count*k of them.
func group[T batchlas.Float](src []T, m, n, count int) (f, tau []T) {
	L := lanes.Lanes[T]()
	k := min(m, n)
	ld := lanes.GroupLD(m)
	g := make([]T, max(n*ld, 1)*L)
	lanes.Gather(g, src, m*n, m, m, n, count, ld)
	gt := make([]T, max(k, 1)*L)
	QR(g, m, n, ld, count, gt, make([]T, Slot[T](m)))
	f = make([]T, len(src))
	lanes.Scatter(f, g, m*n, m, m, n, uint64(1)<<count-1, ld)
	tau = make([]T, count*k)
	for l := range count {
		for j := range k {
			tau[l*k+j] = gt[j*L+l]
		}
	}
	return f, tau
}

// perMatrix is qr.Geqr2 on each matrix: the reference.
func perMatrix[T batchlas.Float](src []T, m, n, count int) (f, tau []T) {
	k := min(m, n)
	f = append([]T(nil), src...)
	tau = make([]T, count*k)
	for l := range count {
		qr.Geqr2(m, n, f[l*m*n:(l+1)*m*n], m, tau[l*k:(l+1)*k], make([]T, n))
	}
	return f, tau
}

// close reports whether got and want agree within tol relative to scale,
// NaN matching NaN.
func close(got, want, tol, scale float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) == math.IsNaN(got)
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*scale
}

func checkAgainstGeqr2[T batchlas.Float](t *testing.T, src []T, m, n, count int, what string) {
	t.Helper()
	f, tau := group(src, m, n, count)
	wf, wtau := perMatrix(src, m, n, count)
	eps := 0x1p-52
	if lanes.Lanes[T]() == 16 {
		eps = 0x1p-23
	}
	tol := 64 * float64(max(m, n)) * eps
	for l := range count {
		scale := 0.0
		for _, v := range src[l*m*n : (l+1)*m*n] {
			scale = max(scale, math.Abs(float64(v)))
		}
		for i := range m * n {
			g, w := float64(f[l*m*n+i]), float64(wf[l*m*n+i])
			s := scale
			if i%m > i/m { // a reflector's tail: of order one
				s = 1
			}
			if !close(g, w, tol, s) {
				t.Fatalf("%s m=%d n=%d lane %d: element (%d,%d) is %g, qr.Geqr2's %g", what, m, n, l, i%m, i/m, g, w)
			}
		}
		k := min(m, n)
		for j := range k {
			if g, w := float64(tau[l*k+j]), float64(wtau[l*k+j]); !close(g, w, tol, 1) {
				t.Fatalf("%s m=%d n=%d lane %d: tau %d is %g, qr.Geqr2's %g", what, m, n, l, j, g, w)
			}
		}
	}
}

func random[T batchlas.Float](r *rand.Rand, m, n, count int, scale float64) []T {
	src := make([]T, m*n*count)
	for i := range src {
		src[i] = T((2*r.Float64() - 1) * scale)
	}
	return src
}

// Every order around the lanes width and the kernel's loops, tall, square
// and wide, full and short groups, agrees with qr.Geqr2 lane by lane.
func TestQRAgreesWithGeqr2(t *testing.T) { paths(t, testQRAgreesWithGeqr2) }

func testQRAgreesWithGeqr2(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{1, 2, 3, 7, 8, 9, 16, 17, 33}
	for _, m := range sizes {
		for _, n := range sizes {
			for _, count := range []int{1, 5} {
				checkAgainstGeqr2(t, random[float64](r, m, n, 8*count/5+count%5, 1), m, n, min(8, 8*count/5+count%5), "float64")
				checkAgainstGeqr2(t, random[float32](r, m, n, 16*count/5+count%5, 1), m, n, min(16, 16*count/5+count%5), "float32")
			}
		}
	}
}

// Columns near overflow and underflow take qr.Larfg's careful path in
// their lane only; zero columns give tau 0 and leave Inf beside them
// alone; NaN and Inf stay in their lane.
func TestQRExtremeAndNonFiniteLanes(t *testing.T) { paths(t, testQRExtremeAndNonFiniteLanes) }

func testQRExtremeAndNonFiniteLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{2, 5, 9} {
		n := 4
		src := random[float64](r, m, n, 8, 1)
		for i := range m * n {
			src[1*m*n+i] *= 1e300  // lane 1: near overflow
			src[2*m*n+i] *= 1e-300 // lane 2: near underflow
		}
		for i := range m {
			src[3*m*n+i] = 0 // lane 3: a zero first column...
		}
		src[3*m*n+m+m-1] = math.Inf(1) // ...and an Inf in the next
		src[4*m*n+1] = math.NaN()      // lane 4: NaN
		src[5*m*n+m] = math.Inf(-1)    // lane 5: -Inf
		checkAgainstGeqr2(t, src, m, n, 8, "extreme float64")

		f, tau := group(src, m, n, 8)
		clean := append([]float64(nil), src...)
		for _, l := range []int{4, 5} {
			copy(clean[l*m*n:(l+1)*m*n], random[float64](r, m, n, 1, 1))
		}
		cf, ctau := group(clean, m, n, 8)
		for _, l := range []int{0, 1, 2, 6, 7} {
			assert.Equal(t, cf[l*m*n:(l+1)*m*n], f[l*m*n:(l+1)*m*n], "m=%d lane %d depends on NaN in another lane", m, l)
			assert.Equal(t, ctau[l*min(m, n):(l+1)*min(m, n)], tau[l*min(m, n):(l+1)*min(m, n)])
		}
		nan := false
		for _, v := range tau[4*min(m, n) : 5*min(m, n)] {
			nan = nan || math.IsNaN(v)
		}
		require.True(t, nan || m == 1, "m=%d: NaN input gives NaN in tau", m)

		s32 := make([]float32, 16*m*n)
		for i := range s32 {
			s32[i] = float32(2*r.Float64() - 1)
		}
		for i := range m * n {
			s32[1*m*n+i] *= 1e36
			s32[2*m*n+i] *= 1e-36
		}
		checkAgainstGeqr2(t, s32, m, n, 16, "extreme float32")
	}
}

// Org2R forms the same Q as qr.Org2r from QR's factors, lane by lane,
// for tall and square shapes and every k <= n, full and short groups.
func TestOrg2RAgreesWithOrg2r(t *testing.T) { paths(t, testOrg2R) }

func testOrg2R(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	L := lanes.Lanes[float64]()
	for _, m := range []int{1, 2, 3, 7, 8, 9, 17, 33} {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 17, 33} {
			if n > m {
				continue
			}
			for _, k := range []int{0, 1, n / 2, n} {
				for _, count := range []int{L, 3} {
					src := random[float64](r, m, n, count, 1)
					f, tau := perMatrix(src, m, n, count)
					kk := min(m, n)
					// want: qr.Org2r on each; got: Org2R on the group.
					want := append([]float64(nil), f...)
					for l := range count {
						qr.Org2r(m, n, k, want[l*m*n:(l+1)*m*n], m, tau[l*kk:l*kk+k], make([]float64, n))
					}
					ld := lanes.GroupLD(m)
					g := make([]float64, n*ld*L)
					lanes.Gather(g, f, m*n, m, m, n, count, ld)
					gt := make([]float64, max(k, 1)*L)
					for l := range count {
						for j := range k {
							gt[j*L+l] = tau[l*kk+j]
						}
					}
					Org2R(g, m, n, k, ld, count, gt, make([]float64, Slot[float64](m)))
					got := make([]float64, len(f))
					lanes.Scatter(got, g, m*n, m, m, n, uint64(1)<<count-1, ld)
					for i := range got {
						if math.Abs(got[i]-want[i]) > 64*float64(m)*0x1p-52 {
							t.Fatalf("m=%d n=%d k=%d count=%d: entry %d is %g, qr.Org2r's %g", m, n, k, count, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// LeastSquares solves what qr.Geqr2, qr.Orm2r and back-substitution
// solve, lane by lane; a lane with a zero column reports its index and
// the others are solved.
func TestLeastSquaresAgreesWithPerMatrix(t *testing.T) { paths(t, testLeastSquares) }

func testLeastSquares(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	L := lanes.Lanes[float64]()
	for _, m := range []int{1, 2, 5, 8, 9, 17, 33} {
		for _, n := range []int{1, 2, 5, 8, 9, 17} {
			if n > m {
				continue
			}
			for _, nrhs := range []int{1, 3} {
				count := L - 1
				cols := n + nrhs
				src := random[float64](r, m, cols, count, 1)
				for i := range m {
					src[2*m*cols+(n-1)*m+i] = 0 // lane 2: A's last column zero
				}
				ld := lanes.GroupLD(m)
				g := make([]float64, cols*ld*L)
				lanes.Gather(g, src, m*cols, m, m, cols, count, ld)
				info := make([]int32, L)
				LeastSquares(g, m, n, nrhs, ld, count, make([]float64, n*L), make([]float64, Slot[float64](m)), info)
				got := make([]float64, len(src))
				lanes.Scatter(got, g, m*cols, m, m, cols, uint64(1)<<count-1, ld)
				for l := range count {
					a := append([]float64(nil), src[l*m*cols:l*m*cols+m*n]...)
					b := append([]float64(nil), src[l*m*cols+m*n:(l+1)*m*cols]...)
					tau := make([]float64, n)
					qr.Geqr2(m, n, a, m, tau, make([]float64, n))
					want := int32(0)
					for j := range n {
						if d := a[j*m+j]; !(d > 0 || d < 0) {
							want = int32(j + 1)
							break
						}
					}
					require.Equal(t, want, info[l], "m=%d n=%d lane %d", m, n, l)
					if l == 2 {
						require.Equal(t, int32(n), info[l], "the zero column is R's last diagonal entry")
					}
					if want != 0 {
						continue
					}
					qr.Orm2r(true, true, m, nrhs, n, a, m, tau, b, m, make([]float64, nrhs))
					for c := range nrhs {
						x := b[c*m : c*m+n]
						for k := n - 1; k >= 0; k-- {
							x[k] /= a[k*m+k]
							for row := range k {
								x[row] -= a[k*m+row] * x[k]
							}
						}
						for row := range n {
							g := got[l*m*cols+(n+c)*m+row]
							require.InDelta(t, x[row], g, 1e-9*(1+math.Abs(x[row])), "m=%d n=%d nrhs=%d lane %d x(%d,%d)", m, n, nrhs, l, row, c)
						}
					}
				}
			}
		}
	}
}

// TestPathsAgreeBitwise factors the same groups, random and with lanes
// on the careful path, on every path the machine has and wants the
// twin's bits from each assembly: the kernels make the twin's operations,
// fused multiply-adds included, in its order.
func TestPathsAgreeBitwise(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{1, 2, 5, 8, 9, 17} {
		for _, n := range []int{1, 3, 8, 9} {
			src := random[float64](r, m, n, 8, 1)
			for i := range m * n {
				src[1*m*n+i] *= 1e300
				src[6*m*n+i] *= 1e-300
			}
			s32 := random[float32](r, m, n, 16, 1)
			for i := range m * n {
				s32[3*m*n+i] *= 1e36
				s32[12*m*n+i] *= 1e-36
			}
			restore := simdpath.Use(simdpath.Go)
			f, tau := group(src, m, n, 8)
			f32, tau32 := group(s32, m, n, 16)
			restore()
			for _, path := range simdpath.Asm() {
				restore := simdpath.Use(path)
				g, gtau := group(src, m, n, 8)
				g32, gtau32 := group(s32, m, n, 16)
				restore()
				name := fmt.Sprintf("%s m=%d n=%d", path, m, n)
				testmat.SameBits(t, name+" float64 factor", g, f)
				testmat.SameBits(t, name+" float64 tau", gtau, tau)
				testmat.SameBits(t, name+" float32 factor", g32, f32)
				testmat.SameBits(t, name+" float32 tau", gtau32, tau32)
			}
		}
	}
}
