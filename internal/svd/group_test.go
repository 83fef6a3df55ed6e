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
