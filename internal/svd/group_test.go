package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// TestGroupSquareIsGeneral: JacobiGroup's square path (groupSquare,
// finishLane) gives the same bits as its general path (prepare and finish
// per matrix) for every job pair, orders on both sides of its limits,
// partial groups, lanes that fall back (rank-deficient and zero
// matrices), and non-finite lanes (info n+1, outputs untouched).
func TestGroupSquareIsGeneral(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testGroupSquare[float64](t) })
	t.Run("float32", func(t *testing.T) { testGroupSquare[float32](t) })
}

func testGroupSquare[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(21, 0))
	L := GroupSize[T]()
	big, tiny := scales[T]()
	for _, n := range []int{1, 2, 3, 7, 8, 9, 17, 32, 33} {
		for _, count := range []int{1, 3, L} {
			for ji, jb := range [][2]Job{{None, None}, {Thin, Thin}, {All, All}, {Thin, None}, {None, Thin}, {All, Thin}} {
				// Lane i's matrix: a class in turn, a NaN in lane 1.
				mats := make([]general, count)
				for i := range mats {
					cls := classes[(i+ji)%len(classes)]
					mats[i] = rounded[T](cls.make(r, n, n, big, tiny))
				}
				if count > 1 {
					mats[1].d[n*n/2] = math.NaN()
				}
				where := fmt.Sprintf("%s n=%d count=%d jobs %s%s", typeName[T](), n, count, jobName(jb[0]), jobName(jb[1]))
				fast := runGroup[T](mats, jb[0], jb[1], false)
				slow := runGroup[T](mats, jb[0], jb[1], true)
				for i := range fast.info {
					if fast.info[i] != slow.info[i] {
						t.Fatalf("%s: lane %d info %d, general path %d", where, i, fast.info[i], slow.info[i])
					}
				}
				if count > 1 && fast.info[1] != int32(n+1) {
					t.Fatalf("%s: NaN lane info %d, want %d", where, fast.info[1], n+1)
				}
				for _, p := range [][2][]T{{fast.s, slow.s}, {fast.u, slow.u}, {fast.vt, slow.vt}} {
					for i := range p[0] {
						x, y := p[0][i], p[1][i]
						if x != y && !(x != x && y != y) {
							t.Fatalf("%s: element %d is %v, general path %v", where, i, x, y)
						}
					}
				}
				if count > 1 {
					// The NaN lane's outputs keep their sentinel.
					for j := range n {
						if fast.s[n+j] != sentinel {
							t.Fatalf("%s: NaN lane's s written", where)
						}
					}
				}
			}
		}
	}
}

type groupOut[T batchlas.Float] struct {
	s, u, vt []T
	info     []int32
}

// runGroup runs JacobiGroup on the n x n matrices (one per lane), tight
// storage, outputs starting as sentinel, through the square or the
// general path.
func runGroup[T batchlas.Float](mats []general, jobu, jobvt Job, general bool) groupOut[T] {
	defer func(old bool) { groupGeneral = old }(groupGeneral)
	groupGeneral = general
	count, n := len(mats), mats[0].m
	a := make([]T, count*n*n)
	for i, g := range mats {
		for e, x := range g.d {
			a[i*n*n+e] = T(x)
		}
	}
	fill := func(k int) []T {
		x := make([]T, k)
		for i := range x {
			x[i] = sentinel
		}
		return x
	}
	o := groupOut[T]{s: fill(count * n), info: make([]int32, count)}
	if jobu != None {
		o.u = fill(count * n * n)
	}
	if jobvt != None {
		o.vt = fill(count * n * n)
	}
	work := make([]T, GroupWorkSize[T](n, n, jobu, jobvt))
	JacobiGroup(count, n, n, a, n, n*n, o.s, n, jobu, jobvt, o.u, n, n*n, o.vt, n, n*n, work, o.info)
	return o
}

// TestGroupResultDoesNotDependOnPlace: a matrix gets the same bits in any
// lane of either half of a group (the halves' sweeps interleaved by
// lanessvd.Sweeps2, a lone half swept alone), square and not, with
// another matrix needing more sweeps beside it, and when the whole first
// half is non-finite (info nn+1, outputs untouched) and only the second
// is swept.
func TestGroupResultDoesNotDependOnPlace(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testGroupPlace[float64](t) })
	t.Run("float32", func(t *testing.T) { testGroupPlace[float32](t) })
}

func testGroupPlace[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 0))
	G := GroupSize[T]()
	half := G / 2
	big, tiny := scales[T]()
	for _, sh := range [][2]int{{3, 3}, {8, 8}, {17, 17}, {12, 5}, {5, 9}} {
		m, n := sh[0], sh[1]
		for _, count := range []int{half - 1, half, half + 1, G} {
			mats := make([]general, count)
			for i := range mats {
				mats[i] = rounded[T](classes[i%len(classes)].make(r, m, n, big, tiny))
			}
			nanFirst := count > half
			if nanFirst {
				for i := range half {
					mats[i].d[0] = math.NaN()
				}
			}
			for _, jb := range [][2]Job{{None, None}, {Thin, Thin}} {
				base := runGroupMN[T](mats, m, n, jb[0], jb[1])
				// Every matrix moved on by one place, and across halves.
				for _, shift := range []int{1, half} {
					moved := make([]general, count)
					for i := range mats {
						moved[(i+shift)%count] = mats[i]
					}
					got := runGroupMN[T](moved, m, n, jb[0], jb[1])
					where := fmt.Sprintf("%s %dx%d count=%d shift=%d jobs %s%s", typeName[T](), m, n, count, shift, jobName(jb[0]), jobName(jb[1]))
					k := min(m, n)
					for i := range mats {
						j := (i + shift) % count
						if got.info[j] != base.info[i] {
							t.Fatalf("%s: matrix %d info %d in place %d, %d in place %d", where, i, got.info[j], j, base.info[i], i)
						}
						if nanFirst && i < half && base.info[i] != int32(k+1) {
							t.Fatalf("%s: non-finite matrix %d info %d, want %d", where, i, base.info[i], k+1)
						}
						for _, p := range [][2][]T{
							{got.s[j*k : (j+1)*k], base.s[i*k : (i+1)*k]},
							{slice(got.u, j, m*k), slice(base.u, i, m*k)},
							{slice(got.vt, j, k*n), slice(base.vt, i, k*n)},
						} {
							for e := range p[0] {
								x, y := p[0][e], p[1][e]
								if math.Float64bits(float64(x)) != math.Float64bits(float64(y)) {
									t.Fatalf("%s: matrix %d element %d is %v in place %d, %v in place %d", where, i, e, x, j, y, i)
								}
							}
						}
					}
				}
			}
		}
	}
}

// slice is matrix i's block of size elements of x, nil for a nil x.
func slice[T batchlas.Float](x []T, i, size int) []T {
	if x == nil {
		return nil
	}
	return x[i*size : (i+1)*size]
}

// runGroupMN runs JacobiGroup on the m x n matrices, tight storage, thin
// vectors, outputs starting as sentinel.
func runGroupMN[T batchlas.Float](mats []general, m, n int, jobu, jobvt Job) groupOut[T] {
	count, k := len(mats), min(m, n)
	a := make([]T, count*m*n)
	for i, g := range mats {
		for e, x := range g.d {
			a[i*m*n+e] = T(x)
		}
	}
	fill := func(size int) []T {
		x := make([]T, size)
		for i := range x {
			x[i] = sentinel
		}
		return x
	}
	o := groupOut[T]{s: fill(count * k), info: make([]int32, count)}
	if jobu != None {
		o.u = fill(count * m * k)
	}
	if jobvt != None {
		o.vt = fill(count * k * n)
	}
	work := make([]T, GroupWorkSize[T](m, n, jobu, jobvt))
	JacobiGroup(count, m, n, a, m, m*n, o.s, k, jobu, jobvt, o.u, m, m*k, o.vt, k, k*n, work, o.info)
	return o
}
