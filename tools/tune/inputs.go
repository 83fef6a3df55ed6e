package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// distinctMatrices is how many different matrices a timing batch holds; the
// rest repeat them. Generating 32768 SPD matrices would take longer than
// timing them, and the kernels' speed does not depend on the values of
// well-conditioned inputs. Seven is odd, so the first, middle and last
// matrices a verification checks are usually different ones.
const distinctMatrices = 7

// copiesBytes bounds the working copies of an operand an in-place op
// overwrites: small enough that they stay in the L2 cache, as the one copy
// restored right before each call did, and maxCopies of them at most.
const (
	copiesBytes = 256 << 10
	maxCopies   = 64
)

// inPlace is the operand of an in-place op (trsm's B, potrf's A): its
// pristine values and the working copies the timed calls overwrite.
type inPlace[T batchlas.Float] struct {
	orig batchlas.Batch[T]
	work []batchlas.Batch[T]
}

// newInPlace keeps orig and as many working copies of it as fit in
// copiesBytes (at least one).
func newInPlace[T batchlas.Float](orig batchlas.Batch[T]) *inPlace[T] {
	var zero T
	bytes := max(len(orig.Data)*int(unsafe.Sizeof(zero)), 1)
	k := min(max(copiesBytes/bytes, 1), maxCopies)
	p := &inPlace[T]{orig: orig, work: make([]batchlas.Batch[T], k)}
	for j := range p.work {
		p.work[j] = testmat.Clone(orig)
	}
	return p
}

// restore copies the pristine values back into the first k working copies.
func (p *inPlace[T]) restore(k int) {
	for _, w := range p.work[:k] {
		copy(w.Data, p.orig.Data)
	}
}

// workspace is the workspace buffer the candidates of a cell share, so
// that where a buffer happens to land in memory is not one more difference
// between candidates. A candidate bound before the buffer grows keeps the
// old one, so it starts at minWorkspace elements, enough for every
// candidate of trsm and most of potrf's and gemm's.
type workspace[T batchlas.Float] struct{ buf []T }

const minWorkspace = 1 << 16

// nan returns the first size elements of the buffer, grown if needed,
// filled with NaN so that a kernel reading workspace it did not write
// fails verification.
func (w *workspace[T]) nan(size int) []T {
	if len(w.buf) < size {
		w.buf = make([]T, max(size, minWorkspace))
	}
	ws := w.buf[:size]
	for i := range ws {
		ws[i] = T(math.NaN())
	}
	return ws
}

// tiledBatch returns a batch of count rows x cols matrices whose matrix i
// is a copy of matrix i%distinct of a random batch that fill shapes (SPD,
// triangular, ...). It is tight unless a command set operandLayout.
func tiledBatch[T batchlas.Float](r *rand.Rand, rows, cols, count int, fill func(batchlas.Batch[T])) batchlas.Batch[T] {
	d := min(count, distinctMatrices)
	src := testmat.Batch[T](r, rows, cols, d, 0, 0)
	if fill != nil {
		fill(src)
	}
	if d == count && operandLayout.tight() {
		return src
	}
	return repeat(src, count)
}

// layout is the storage of the matrices a case builds: tight (LD = rows,
// the default), or every operand with a leading dimension of its own, as a
// view of a larger array has. Table keys carry no leading dimension, so
// only bench and stride set one: a leading dimension that is a multiple of
// the cache's set period can make a kernel read a column panel through a
// few cache sets, and these time it.
type layout struct {
	ld  int // at least this leading dimension (0: the operand's rows)
	pad int // and this many elements more
}

func (l layout) tight() bool { return l.ld == 0 && l.pad == 0 }

// of is the leading dimension of an operand of rows rows.
func (l layout) of(rows int) int { return max(l.ld, rows, 1) + l.pad }

func (l layout) String() string {
	switch {
	case l.tight():
		return "tight"
	case l.ld == 0:
		return fmt.Sprintf("rows+%d", l.pad)
	}
	return fmt.Sprintf("%d", l.ld+l.pad)
}

// operandLayout is the layout newCase builds its matrices with. A command
// sets it before it builds a case (bench --ld, stride); tune run and peers
// leave it tight.
var operandLayout layout

// newLaidBatch allocates count zeroed rows x cols matrices with the
// leading dimension operandLayout gives (stride ld*cols). The rows past
// rows in each column are NaN: a kernel that reads them into a result
// fails verification.
func newLaidBatch[T batchlas.Float](rows, cols, count int) batchlas.Batch[T] {
	if operandLayout.tight() {
		return batchlas.NewBatch[T](rows, cols, count)
	}
	ld := operandLayout.of(rows)
	data := make([]T, ld*cols*count)
	for i := range data {
		if i%ld >= rows {
			data[i] = T(math.NaN())
		}
	}
	b, err := batchlas.WrapStrided(data, rows, cols, ld, ld*cols, count)
	if err != nil {
		panic(err) // sizes made here: a bug, not an input
	}
	return b
}

// repeat returns a batch of count matrices laid out by operandLayout,
// matrix i a copy of matrix i%src.Count of src.
func repeat[T batchlas.Float](src batchlas.Batch[T], count int) batchlas.Batch[T] {
	if src.Count == count && src.LD == operandLayout.of(src.Rows) {
		return src
	}
	out := newLaidBatch[T](src.Rows, src.Cols, count)
	for i := 0; i < count; i++ {
		j := i % src.Count
		for c := 0; c < src.Cols; c++ {
			copy(out.Data[i*out.Stride+c*out.LD:][:src.Rows], src.Data[j*src.Stride+c*src.LD:][:src.Rows])
		}
	}
	return out
}

// checkedMatrices are the matrices of a batch a verification looks at.
func checkedMatrices(count int) []int {
	switch count {
	case 0:
		return nil
	case 1:
		return []int{0}
	case 2:
		return []int{0, 1}
	}
	return []int{0, count / 2, count - 1}
}

// dense is a column-major float64 matrix, the reference arithmetic of the
// verifications: independent of every kernel, and in higher precision than
// float32 kernels.
type dense struct {
	r, c int
	v    []float64
}

func denseOf[T batchlas.Float](b batchlas.Batch[T], i int) dense {
	return dense{r: b.Rows, c: b.Cols, v: testmat.Dense(b, i)}
}

func (d dense) at(i, j int) float64 { return d.v[i+j*d.r] }

// t returns the transpose of d when trans is set.
func (d dense) op(trans bool) dense {
	if !trans {
		return d
	}
	out := dense{r: d.c, c: d.r, v: make([]float64, len(d.v))}
	for j := 0; j < d.c; j++ {
		for i := 0; i < d.r; i++ {
			out.v[j+i*out.r] = d.v[i+j*d.r]
		}
	}
	return out
}

// mulAbs returns a*b and |a|*|b| (the scale of the rounding error of a*b).
func mulAbs(a, b dense) (prod, abs dense) {
	prod = dense{r: a.r, c: b.c, v: make([]float64, a.r*b.c)}
	abs = dense{r: a.r, c: b.c, v: make([]float64, a.r*b.c)}
	// Column slices, not at(): the checks of a tuning run multiply
	// matrices of order 512 for every candidate of every cell, and the
	// index arithmetic and bounds checks of at() made them most of an
	// express run's time. |x*y| is |x|*|y| exactly (rounding is symmetric
	// in sign), and a zero is multiplied like any other value, so a NaN
	// still reaches the product.
	for j := 0; j < b.c; j++ {
		pc, ac := prod.v[j*a.r:(j+1)*a.r], abs.v[j*a.r:(j+1)*a.r]
		for k := 0; k < a.c; k++ {
			bkj := b.v[k+j*b.r]
			abkj := math.Abs(bkj)
			acol := a.v[k*a.r : (k+1)*a.r]
			acol = acol[:len(pc)]
			for i, x := range acol {
				pc[i] += x * bkj
				ac[i] += math.Abs(x) * abkj
			}
		}
	}
	return prod, abs
}

// withinBound checks |got - want| <= tol * scale + tiny elementwise, with NaN
// failing (the comparison is written so NaN falls on the failing side).
func withinBound(what string, got, want, scale dense, tol float64) error {
	const tiny = 1e-300
	worst, at := 0.0, -1
	for i := range got.v {
		err := math.Abs(got.v[i] - want.v[i])
		bound := tol*scale.v[i] + tiny
		if !(err <= bound) {
			ratio := err / bound
			if at < 0 || !(ratio <= worst) {
				worst, at = ratio, i
			}
		}
	}
	if at < 0 {
		return nil
	}
	return fmt.Errorf("%s: element (%d,%d) is off by %.3g times the bound (got %g, want %g)",
		what, at%got.r, at/got.r, worst, got.v[at], want.v[at])
}

// eps is the unit round-off of a dtype.
func epsOf[T batchlas.Float]() float64 { return testmat.Eps[T]() }
