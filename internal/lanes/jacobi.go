package lanes

//go:generate go run gen.go
//go:generate go run gen_avx2.go

import (
	"math"
	"sync"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// Lanes is the number of matrices of T in one interleaved group: the
// elements of T in a 64-byte vector (8 float64, 16 float32).
func Lanes[T batchlas.Float]() int {
	var z T
	return 64 / int(unsafe.Sizeof(z))
}

// Jacobi runs cyclic two-sided Jacobi on a group of Lanes[T]() symmetric
// n x n matrices interleaved in a, of which it reads and keeps the upper
// triangle (the lower one is neither read nor written). A sweep visits
// every pair p < q once, in n-1 (n even) or n (n odd) steps of disjoint
// pairs (the round-robin ordering of parallel Jacobi), and in each matrix
// rotates the pairs whose off-diagonal entry is not negligible:
//
//	|a_pq| <= tiny  or  a_pq^2 <= eps^2*|a_pp*a_qq|
//
// (a NaN is never negligible). The rotations of a step, being disjoint,
// are computed together from the matrix as the step found it and then
// applied from both sides at once; each rotated 2x2 block is set to
// Rutishauser's values and its off-diagonal entry to zero. Each matrix is
// driven towards diagonal form, its eigenvalues left on the diagonal
// (unsorted); when v is not nil (the same layout as a, holding the
// identity or any starting basis), the rotations are accumulated into its
// columns. The scaling that keeps the tests above from overflowing is the
// caller's: entries up to about sqrt of T's largest value over n are safe.
// The columns of a and v are ld >= n vectors apart (GroupLD); w is
// scratch of at least JacobiWork(n) elements.
//
// Sweeps stop when one rotates nothing in any lane, or after sweeps.
// made is the number of sweeps made, and rotated has bit l set when lane
// l rotated something in the last of them: with made == sweeps, those
// lanes have not converged. A lane that stopped rotating is left as it is
// by later sweeps (its rotations are exact identities), so every lane's
// result is what it would be alone, but for the sign of zeros.
func Jacobi[T batchlas.Float](a, v []T, n, ld, sweeps int, eps, tiny T, w []T) (rotated uint64, made int) {
	if n == 0 || sweeps <= 0 {
		return 0, 0
	}
	size := ((n-1)*ld + n) * Lanes[T]()
	a, w = a[:size], w[:JacobiWork[T](n)]
	if v != nil {
		v = v[:size]
	}
	low, up := scaleUp[T]()
	k := [6]T{tiny, eps * eps, 1, low, T(math.Copysign(0, -1)), up}
	return jacobi(a, v, n, ld, sweeps, &k, schedule(n, ld), w)
}

// JacobiWork is the scratch Jacobi needs for order n: six vectors (c, s,
// the new 2x2 block and a flag) for each pair of a step.
func JacobiWork[T batchlas.Float](n int) int { return max(1, n/2) * 6 * Lanes[T]() }

// The schedule's marks: the end of a step, and after the last step's mark
// the end of the sweep.
const (
	stepEnd  = -1
	sweepEnd = -2
)

// schedules holds each order's schedule, made on first use.
var schedules sync.Map // [2]int{n, ld} -> []int64

// schedule returns the sweep order of Jacobi for order n: the steps of the
// round-robin tournament on n players (one sits out each step when n is
// odd; player 0 stays in place while the others turn), each step laid out
// as the assembly walks it, every number a byte offset:
//
//   - its pairs p < q, four entries each: rows p and q in a column (64
//     bytes a row) and columns p and q in the group (ld*64 bytes a
//     column); then (stepEnd, blocks, idle, next): where the step's
//     block list, idle list and the next step start, from this step's
//     start;
//   - the blocks of two pairs i < j, six entries each: where the upper
//     triangle keeps (p_i, p_j), (p_i, q_j), (q_i, p_j) and (q_i, q_j),
//     and where pairs i and j start in the scratch (384 bytes a pair);
//     then a stepEnd mark (six entries);
//   - for the index z that sits out, per pair j, three entries: where
//     (z, p_j) and (z, q_j) are kept and where pair j starts in the
//     scratch; then a stepEnd mark (three entries).
//
// After the last step, (sweepEnd, 0, 0, 0).
func schedule(n, ld int) []int64 {
	if s, ok := schedules.Load([2]int{n, ld}); ok {
		return s.([]int64)
	}
	m := n + n%2
	seat := make([]int, m)
	for i := range seat {
		seat[i] = i
	}
	// at is where the upper triangle keeps entry (r, c).
	at := func(r, c int) int64 { return int64(max(r, c)*ld*64 + min(r, c)*64) }
	var s []int64
	for range m - 1 {
		start := len(s)
		var pairs [][2]int
		idle := -1
		for i := 0; i < m/2; i++ {
			p, q := seat[i], seat[m-1-i]
			if p > q {
				p, q = q, p
			}
			if q < n {
				pairs = append(pairs, [2]int{p, q})
				s = append(s, int64(p*64), int64(q*64), int64(p*ld*64), int64(q*ld*64))
			} else {
				idle = p
			}
		}
		mark := len(s)
		s = append(s, stepEnd, 0, 0, 0)
		s[mark+1] = int64(len(s)-start) * 8
		for i, pi := range pairs {
			for j := i + 1; j < len(pairs); j++ {
				pj := pairs[j]
				s = append(s, at(pi[0], pj[0]), at(pi[0], pj[1]), at(pi[1], pj[0]), at(pi[1], pj[1]), int64(i*384), int64(j*384))
			}
		}
		s = append(s, stepEnd, 0, 0, 0, 0, 0)
		s[mark+2] = int64(len(s)-start) * 8
		if idle >= 0 {
			for j, pj := range pairs {
				s = append(s, at(idle, pj[0]), at(idle, pj[1]), int64(j*384))
			}
		}
		s = append(s, stepEnd, 0, 0)
		s[mark+3] = int64(len(s)-start) * 8
		// The others turn one seat: the last moves to seat 1.
		last := seat[m-1]
		copy(seat[2:], seat[1:m-1])
		seat[1] = last
	}
	s = append(s, sweepEnd, 0, 0, 0)
	got, _ := schedules.LoadOrStore([2]int{n, ld}, s)
	return got.([]int64)
}

// scaleUp returns the bound below which |a_qq - a_pp| and |2*a_pq| are
// both scaled up before they are squared, and the power of two they are
// scaled by: the squares then neither underflow (from the smallest
// subnormal up) nor, from just under the bound, overflow.
func scaleUp[T batchlas.Float]() (low, up T) {
	if Lanes[T]() == 16 {
		return 0x1p-40, 0x1p86
	}
	l, u := 0x1p-400, 0x1p600
	return T(l), T(u)
}

// jacobiGo is the assembly's twin: step by step and phase by phase, the
// same operations in the same order in every lane, and the same pairs
// skipped. Every product is converted to T before it is added so that the
// compiler cannot fuse it into a multiply-add the assembly does not make
// (fma makes the ones it does). k holds tiny, eps^2, 1,
// low, -0 (the sign bit) and up; w holds each pair's c, s, new a_pp,
// a_qq and a_pq and its flag, as the assembly's.
func jacobiGo[T batchlas.Float](a, v []T, n, ld, sweeps int, k *[6]T, sched []int64, w []T) (rotated uint64, made int) {
	L := Lanes[T]()
	tiny, eps2, low, up := k[0], k[1], k[3], k[5]
	col := ld * L
	for made < sweeps {
		made++
		var swept uint64
		for step := sched; step[0] != sweepEnd; {
			np := 0
			for step[4*np] != stepEnd {
				np++
			}
			// pair j's p and q, from its row offsets.
			pq := func(j int) (int, int) { return int(step[4*j] / 64), int(step[4*j+1] / 64) }
			// Phase 1: every pair's rotation in every lane, from the
			// matrix as the step found it; a pair no lane rotates is
			// flagged and skipped by the other phases.
			for j := 0; j < np; j++ {
				p, q := pq(j)
				e := w[j*6*L : (j+1)*6*L]
				any := false
				for l := 0; l < L; l++ {
					app, aqq, apq := a[p*col+p*L+l], a[q*col+q*L+l], a[q*col+p*L+l]
					ab := abs(apq)
					rot := !(ab <= tiny) && !(T(ab*ab) <= T(eps2*abs(T(app*aqq))))
					d, e2 := aqq-app, apq+apq
					if abs(d) < low && abs(e2) < low {
						d, e2 = d*up, e2*up
					}
					r := sqrt(T(d*d) + T(e2*e2))
					u := abs(d) + r
					t := e2 / u
					if d < 0 {
						t = -t
					}
					c := T(1)
					if !rot {
						t = 0
					} else {
						any = true
						swept |= 1 << l
						ru := T(r * u)
						c = u * (1 / sqrt(ru+ru))
					}
					tapq := t * apq
					if rot {
						apq = 0
					}
					e[l], e[L+l], e[2*L+l], e[3*L+l], e[4*L+l] = c, t*c, app-tapq, aqq+tapq, apq
				}
				e[5*L] = 0
				if any {
					e[5*L] = 1
				}
			}
			// Phases 2 to 4, lane by lane. ent is the entry at byte
			// offset off of the step.
			ent := func(off int64) []int64 { return step[off/8:] }
			mark := step[4*np:]
			for l := 0; l < L; l++ {
				if v != nil {
					for j := 0; j < np; j++ {
						p, q := pq(j)
						if e := w[j*6*L:]; e[5*L] != 0 {
							rotate(v[p*col:], v[q*col:], L, n, l, e[l], e[L+l])
						}
					}
				}
				// elem is lane l's entry at byte offset off of the group.
				elem := func(off int64) *T { return &a[int(off/64)*L+l] }
				for b := ent(mark[1]); b[0] >= 0; b = b[6:] {
					ei, ej := w[int(b[4]/64)*L:], w[int(b[5]/64)*L:]
					if ei[5*L] == 0 && ej[5*L] == 0 {
						continue
					}
					ci, si, cj, sj := ei[l], ei[L+l], ej[l], ej[L+l]
					pa, pb, pc, pd := elem(b[0]), elem(b[1]), elem(b[2]), elem(b[3])
					a1, b1 := rot(*pa, *pb, cj, sj)
					c1, d1 := rot(*pc, *pd, cj, sj)
					*pa, *pc = rot(a1, c1, ci, si)
					*pb, *pd = rot(b1, d1, ci, si)
				}
				for z := ent(mark[2]); z[0] >= 0; z = z[3:] {
					if e := w[int(z[2]/64)*L:]; e[5*L] != 0 {
						px, py := elem(z[0]), elem(z[1])
						*px, *py = rot(*px, *py, e[l], e[L+l])
					}
				}
				for j := 0; j < np; j++ {
					p, q := pq(j)
					if e := w[j*6*L:]; e[5*L] != 0 {
						a[p*col+p*L+l], a[q*col+q*L+l] = e[2*L+l], e[3*L+l]
						a[q*col+p*L+l] = e[4*L+l]
					}
				}
			}
			step = ent(mark[3])
		}
		rotated = swept
		if swept == 0 {
			break
		}
	}
	return rotated, made
}

// rotate applies the plane rotation (c, s) to the n pairs x[i*inc+l],
// y[i*inc+l] (rot on each).
func rotate[T batchlas.Float](x, y []T, inc, n, l int, c, s T) {
	for i := 0; i < n; i++ {
		x[i*inc+l], y[i*inc+l] = rot(x[i*inc+l], y[i*inc+l], c, s)
	}
}

// rot returns c*x - s*y and s*x + c*y, each sum rounded once (the
// assembly's fused multiply-add on the other product).
func rot[T batchlas.Float](x, y, c, s T) (T, T) {
	return fma.Of(c, x, -T(s*y)), fma.Of(s, x, T(c*y))
}

func abs[T batchlas.Float](x T) T { return T(math.Abs(float64(x))) }

// sqrt is correctly rounded for float32 too: the float64 square root of a
// float32, rounded to float32, is the float32 square root.
func sqrt[T batchlas.Float](x T) T { return T(math.Sqrt(float64(x))) }
