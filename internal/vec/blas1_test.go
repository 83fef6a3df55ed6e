package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// TestLevel1 checks Dot, Axpy, Axpy2 and DotAxpy on every path against
// float64 arithmetic (to a few units of T's roundoff), the entries past
// the length untouched, and, with AVX-512, the assembly against the Go
// twin bit for bit, on lengths that straddle a vector and its masked
// tail.
func TestLevel1(t *testing.T) {
	testLevel1[float64](t)
	testLevel1[float32](t)
}

func testLevel1[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	eps := unitRoundoff[T]()
	vector := func(n int) []T {
		x := columns[T](r, n, n+3, 1) // three poisoned entries past the end
		return x
	}
	for _, n := range append([]int{0}, rowCounts...) {
		x, y, z := vector(n), vector(n), vector(n)
		a, b := T(r.NormFloat64()), T(r.NormFloat64())
		// The float64 results and the size of their terms.
		var dot, dotScale float64
		for i := range n {
			dot += float64(x[i]) * float64(y[i])
			dotScale += math.Abs(float64(x[i]) * float64(y[i]))
		}
		checkDot := func(name string, got T) {
			if math.Abs(float64(got)-dot) > 2*float64(n+1)*eps*dotScale {
				t.Fatalf("%s: %v, want %v", name, got, dot)
			}
		}
		checkVec := func(name string, got []T, want func(i int) (float64, float64)) {
			for i, g := range got {
				if i >= n {
					if g != poison {
						t.Fatalf("%s: entry %d past the end written", name, i)
					}
					continue
				}
				w, scale := want(i)
				if math.Abs(float64(g)-w) > 4*eps*scale {
					t.Fatalf("%s: entry %d is %v, want %v", name, i, g, w)
				}
			}
		}
		var dots []T
		var outs [][]T
		for _, path := range simdpath.Paths() {
			name := fmt.Sprintf("%T n=%d path=%s", T(0), n, path)
			withPath(path, func() {
				d := Dot(x[:n], y)
				checkDot(name+" Dot", d)

				y1 := slices.Clone(y)
				Axpy(a, x[:n], y1)
				checkVec(name+" Axpy", y1, func(i int) (float64, float64) {
					p := float64(a) * float64(x[i])
					return p + float64(y[i]), math.Abs(p) + math.Abs(float64(y[i]))
				})

				z1 := slices.Clone(z)
				Axpy2(a, x[:n], b, y, z1)
				checkVec(name+" Axpy2", z1, func(i int) (float64, float64) {
					p, q := float64(a)*float64(x[i]), float64(b)*float64(y[i])
					return p + q + float64(z[i]), math.Abs(p) + math.Abs(q) + math.Abs(float64(z[i]))
				})

				z2 := slices.Clone(z)
				d2 := DotAxpy(a, x[:n], y, z2)
				checkDot(name+" DotAxpy's dot", d2)
				checkVec(name+" DotAxpy", z2, func(i int) (float64, float64) {
					p := float64(a) * float64(x[i])
					return p + float64(z[i]), math.Abs(p) + math.Abs(float64(z[i]))
				})
				dots = append(dots, d, d2)
				outs = append(outs, y1, z1, z2)
			})
		}
		// Each assembly path against the twin, the last.
		last := len(outs) - 3
		for k := 0; k < last; k += 3 {
			name := fmt.Sprintf("%T n=%d %s", T(0), n, simdpath.Paths()[k/3])
			testmat.SameBits(t, name+" dots", dots[2*k/3:2*k/3+2], dots[2*last/3:])
			for i := range 3 {
				testmat.SameBits(t, name, outs[k+i], outs[last+i])
			}
		}
	}
}

// TestFourColumns checks DotAxpy4, Axpy4 and Axpy2x4 on every path against
// float64 arithmetic (to a few units of T's roundoff), the gaps between
// the columns and the entries past y untouched, and, with AVX-512, the
// assembly against the Go twin bit for bit, on row counts that straddle
// a vector and its masked tail, with columns tight and padded.
func TestFourColumns(t *testing.T) {
	testFourColumns[float64](t)
	testFourColumns[float32](t)
}

func testFourColumns[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	eps := unitRoundoff[T]()
	for _, n := range append([]int{0}, rowCounts...) {
		for _, pad := range []int{0, 3} {
			lda := n + pad
			a := columns[T](r, n, lda, 4)
			if lda == 0 {
				a = make([]T, 1)
			}
			x, y := columns[T](r, n, n+3, 1), columns[T](r, n, n+3, 1)
			var tc [4]T
			var pq [8]T
			for c := range tc {
				tc[c] = T(r.NormFloat64())
			}
			for c := range pq {
				pq[c] = T(r.NormFloat64())
			}
			var dotsAll [][4]T
			var outs [][]T
			for _, path := range simdpath.Paths() {
				name := fmt.Sprintf("%T n=%d lda=%d path=%s", T(0), n, lda, path)
				// checkY wants got (y after what) to be y plus the four
				// columns times tc in float64, and nothing past n written.
				checkY := func(what string, got []T) {
					for i, g := range got {
						if i >= n {
							if g != poison {
								t.Fatalf("%s %s: y entry %d past the end written", name, what, i)
							}
							continue
						}
						w, scale := float64(y[i]), math.Abs(float64(y[i]))
						for c := range 4 {
							p := float64(tc[c]) * float64(a[c*lda+i])
							w += p
							scale += math.Abs(p)
						}
						if math.Abs(float64(g)-w) > 8*eps*scale {
							t.Fatalf("%s %s: y entry %d is %v, want %v", name, what, i, g, w)
						}
					}
				}
				withPath(path, func() {
					y1 := slices.Clone(y)
					var dots [4]T
					DotAxpy4(&tc, a, lda, x[:n], y1, &dots)
					checkY("DotAxpy4", y1)
					for c := range 4 {
						var w, scale float64
						for i := range n {
							p := float64(a[c*lda+i]) * float64(x[i])
							w += p
							scale += math.Abs(p)
						}
						if math.Abs(float64(dots[c])-w) > 2*float64(n+1)*eps*scale {
							t.Fatalf("%s DotAxpy4: dot %d is %v, want %v", name, c, dots[c], w)
						}
					}
					y4 := slices.Clone(y)
					Axpy4(&tc, a, a[lda:], a[2*lda:], a[3*lda:], y4[:n])
					checkY("Axpy4", y4)
					a1 := slices.Clone(a)
					Axpy2x4(&pq, a1, lda, x[:n], y)
					for i, g := range a1 {
						c, row := i/max(lda, 1), i%max(lda, 1)
						if row >= n || n == 0 {
							if g != a[i] {
								t.Fatalf("%s Axpy2x4: gap entry %d written", name, i)
							}
							continue
						}
						p, q := float64(pq[c])*float64(x[row]), float64(pq[4+c])*float64(y[row])
						w := float64(a[i]) + p + q
						if math.Abs(float64(g)-w) > 4*eps*(math.Abs(float64(a[i]))+math.Abs(p)+math.Abs(q)) {
							t.Fatalf("%s Axpy2x4: column %d row %d is %v, want %v", name, c, row, g, w)
						}
					}
					dotsAll = append(dotsAll, dots)
					outs = append(outs, y1, a1, y4)
				})
			}
			// Each assembly path against the twin, the last.
			last := len(dotsAll) - 1
			for k := 0; k < last; k++ {
				name := fmt.Sprintf("%T n=%d lda=%d %s", T(0), n, lda, simdpath.Paths()[k])
				testmat.SameBits(t, name+" DotAxpy4's dots", dotsAll[k][:], dotsAll[last][:])
				testmat.SameBits(t, name+" DotAxpy4", outs[3*k], outs[3*last])
				testmat.SameBits(t, name+" Axpy2x4", outs[3*k+1], outs[3*last+1])
				testmat.SameBits(t, name+" Axpy4", outs[3*k+2], outs[3*last+2])
			}
		}
	}
}
