// Package overlap decides whether two strided batches of column-major
// matrices share an element, and finds one they share: the algorithm
// behind batchlas.Overlap and the ops' checks that a written operand or a
// workspace shares no element with another operand (internal/opkit's
// CheckDisjoint and CheckWorkspace). It works on a batch's Layout and its
// slice, so that it imports nothing of the module: the root package and
// opkit both use it, and the root package cannot import opkit.
//
// Elements are what counts, not address ranges: padding between columns
// (LD > Rows) and between matrices (Stride > LD*Cols) belongs to neither
// batch, so two sub-matrix views of one parent, [A | B] stacked in the
// same columns of a larger LD, do not overlap although their address
// ranges interleave. A batch of Stride 0 (a broadcast) is its one matrix.
//
// The algorithm:
//
//  0. Slices of different arrays never overlap. They are told apart by the
//     byte ranges the batches span: two live Go allocations never share an
//     address, so ranges that meet lie in one array, and the distance
//     between the two Data pointers, in elements, puts both batches on a
//     common origin. (Views misaligned by unsafe, whose elements straddle,
//     count as overlapping when their ranges meet.)
//  1. Each batch becomes a region of element offsets from that origin:
//     off + b*stride + j*ld + i for matrix b < count, column j < cols and
//     row i < rows. A broadcast batch has count 1; a batch whose columns
//     are contiguous (ld == rows) is one column per matrix, and one whose
//     matrices are contiguous too is a single run. The region is a sorted
//     list of disjoint runs (column segments): columns ascend within a
//     matrix (ld >= rows) and matrices ascend (stride >= span, the
//     distance from a matrix's first element to its last, which
//     Batch.Check guarantees).
//  2. Regions whose hulls [first, last] are disjoint do not overlap.
//  3. Because the runs are sorted, the first element of a region at or
//     after any address x is found in O(1) by division: matrix b =
//     (x-off)/stride, column j of it = (x-off-b*stride)/ld, and x is in
//     the region iff the row it falls on is below rows; otherwise the
//     answer is the next column's or the next matrix's start. A run
//     [s, s+n) of one region meets the other iff that region's first
//     element at or after s is below s+n.
//  4. So the exact check walks the runs of the region with fewer runs,
//     only those inside the other's hull, and asks step 3 of the other:
//     O(columns*count) at worst, never O(elements).
//  5. When both batches have the same stride S over more than one matrix
//     (views of one parent batch, as the blocked kernels pass), matrix b
//     of x and matrix b+d of y lie at a distance that does not depend on
//     b. Since S is at least either span, only the two or three values of
//     d for which the matrices can touch are possible; each is one
//     single-matrix check of step 4 (for some b where both exist), so the
//     cost is O(columns), whatever the batch size.
package overlap

import (
	"fmt"
	"math"
	"unsafe"
)

// Layout is a batch's shape in its slice: Count matrices of Rows x Cols,
// column-major with leading dimension LD, matrix b starting at b*Stride.
// A Layout given to Shared has passed Batch.Check.
type Layout struct {
	Rows, Cols, LD, Stride, Count int
}

// Empty reports whether the layout has no element.
func (l Layout) Empty() bool { return l.Count == 0 || l.Rows == 0 || l.Cols == 0 }

// Shared finds an element that the batch of layout lx over x and the
// batch of layout ly over y share: its offset from x's first element and
// from y's. ok is false when they share none.
func Shared[T any](x []T, lx Layout, y []T, ly Layout) (ex, ey int, ok bool) {
	if lx.Empty() || ly.Empty() {
		return 0, 0, false
	}
	rx, ry := regionOf(lx), regionOf(ly)
	// Both pointers are read with no call in between, so they are
	// positions in the same address space even if a stack moves.
	px := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	py := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	size := uintptr(unsafe.Sizeof(x[0]))
	// Byte hulls first: slices of different arrays never meet, since two
	// live Go allocations never share an address.
	if px+uintptr(rx.end())*size <= py || py+uintptr(ry.end())*size <= px {
		return 0, 0, false
	}
	// Same array: y's offset from x's first element, in elements.
	d := int(py) - int(px)
	if d%int(size) != 0 {
		// Misaligned views of one array (only unsafe makes them): their
		// hulls meet, and elements that straddle each other share bytes.
		return 0, 0, true
	}
	ry.off = d / int(size)
	e, ok := rx.shared(ry)
	return e, e - ry.off, ok
}

// Where names the element at offset e from the first element of a batch
// of layout l called name: "name[b](r,c)", matrix b, row r, column c.
func Where(name string, l Layout, e int) string {
	b := 0
	if l.Stride > 0 && l.Count > 1 {
		b = min(e/l.Stride, l.Count-1)
	}
	e -= b * l.Stride
	j := e / l.LD
	return fmt.Sprintf("%s[%d](%d,%d)", name, b, e-j*l.LD, j)
}

// region is the set of element offsets off + b*stride + j*ld + i for
// b < count, j < cols, i < rows; stride >= span when count > 1.
type region struct {
	off, rows, cols, ld, stride, count int
}

// none is the answer of next when no element lies at or after x.
const none = math.MaxInt

// regionOf is l's region at offset 0, with its runs merged where they are
// contiguous. l is not empty.
func regionOf(l Layout) region {
	r := region{rows: l.Rows, cols: l.Cols, ld: l.LD, stride: l.Stride, count: l.Count}
	if r.stride == 0 || r.count == 1 {
		r.stride, r.count = 0, 1
	}
	if r.cols == 1 || r.ld == r.rows {
		r.rows *= r.cols
		r.cols, r.ld = 1, r.rows
	}
	if r.count > 1 && r.stride == r.rows && r.cols == 1 {
		r.rows *= r.count
		r.ld, r.stride, r.count = r.rows, 0, 1
	}
	return r
}

// span is the distance from one matrix's first element to past its last.
func (r *region) span() int { return (r.cols-1)*r.ld + r.rows }

// end is past the last element of the region.
func (r *region) end() int { return r.off + (r.count-1)*r.stride + r.span() }

// runs is the number of runs (column segments) of the region.
func (r *region) runs() int { return r.cols * r.count }

// next is the first element of the region at or after x, or none.
func (r *region) next(x int) int {
	d := x - r.off
	if d <= 0 {
		return r.off
	}
	b := 0
	if r.count > 1 {
		b = min(d/r.stride, r.count-1)
	}
	e := d - b*r.stride
	if e >= r.span() {
		if b+1 < r.count {
			return r.off + (b+1)*r.stride
		}
		return none
	}
	j := e / r.ld
	if e-j*r.ld < r.rows {
		return x
	}
	// j < cols-1 here: the last column ends the span.
	return r.off + b*r.stride + (j+1)*r.ld
}

// shared returns an offset that is in both regions.
func (x region) shared(y region) (int, bool) {
	if x.end() <= y.off || y.end() <= x.off {
		return 0, false
	}
	if x.count > 1 && y.count > 1 && x.stride == y.stride {
		return x.sameStride(y)
	}
	if y.runs() < x.runs() {
		return y.walk(x)
	}
	return x.walk(y)
}

// sameStride is shared for regions of one stride S over several matrices:
// matrix b of x and matrix b+d of y are y.off-x.off+d*S apart for every b,
// so each d is one single-matrix check, made at the first b where both
// matrices exist.
func (x region) sameStride(y region) (int, bool) {
	s := x.stride
	delta := y.off - x.off
	// Matrices b of x and b+d of y can meet only when
	// -y.span() < delta + d*s < x.span().
	dlo := floorDiv(-y.span()-delta, s) // d > dlo
	dhi := ceilDiv(x.span()-delta, s)   // d < dhi
	for d := dlo + 1; d < dhi; d++ {
		b := max(0, -d)
		if b >= x.count || b+d >= y.count {
			continue
		}
		xm, ym := x, y
		xm.off += b * s
		ym.off += (b + d) * s
		xm.count, xm.stride = 1, 0
		ym.count, ym.stride = 1, 0
		if e, ok := xm.shared(ym); ok {
			return e, true
		}
	}
	return 0, false
}

// walk checks each run of x inside y's hull against y.
func (x region) walk(y region) (int, bool) {
	lo, hi := y.off, y.end()
	span := x.span()
	b0, b1 := 0, 0
	if x.count > 1 {
		// Matrices whose [start, start+span) meets [lo, hi).
		b0 = max(0, ceilDiv(lo-span+1-x.off, x.stride))
		b1 = min(x.count-1, floorDiv(hi-1-x.off, x.stride))
	}
	for b := b0; b <= b1; b++ {
		base := x.off + b*x.stride
		// Columns whose [start, start+rows) meets [lo, hi).
		j0 := max(0, ceilDiv(lo-x.rows+1-base, x.ld))
		j1 := min(x.cols-1, floorDiv(hi-1-base, x.ld))
		for j := j0; j <= j1; j++ {
			s := base + j*x.ld
			if e := y.next(s); e < s+x.rows {
				return e, true
			}
		}
	}
	return 0, false
}

// floorDiv is a/b rounded down, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// ceilDiv is a/b rounded up, for b > 0.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
