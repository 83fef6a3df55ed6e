package trial

import (
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// DistinctMatrices is how many different matrices a timing batch holds;
// the rest repeat them. Generating 32768 SPD matrices would take longer
// than timing them, and the kernels' speed does not depend on the values
// of well-conditioned inputs. Seven is odd, so the first, middle and last
// matrices a verification checks are usually different ones.
const DistinctMatrices = 7

// copiesBytes bounds the working copies of an operand an in-place op
// overwrites: small enough that they stay in the L2 cache, as the one copy
// restored right before each call did, and maxCopies of them at most.
const (
	copiesBytes = 256 << 10
	maxCopies   = 64
)

// InPlace is the operand of an in-place op (trsm's B, potrf's A): its
// pristine values and the working copies the timed calls overwrite.
type InPlace[T batchlas.Float] struct {
	Orig batchlas.Batch[T]
	Work []batchlas.Batch[T]
}

// NewInPlace keeps orig and as many working copies of it as fit in the
// copies' cache budget (at least one).
func NewInPlace[T batchlas.Float](orig batchlas.Batch[T]) *InPlace[T] {
	return InPlaceCopies(orig, CopiesOf[T](len(orig.Data)))
}

// CopiesOf is how many working copies of elems elements of T fit in the
// copies' cache budget: at least one, at most 64. An op that overwrites
// two operands (gesv's A and B) asks for both together and makes that
// many copies of each (InPlaceCopies), so that call j finds both fresh.
func CopiesOf[T batchlas.Float](elems int) int {
	var zero T
	bytes := max(elems*int(unsafe.Sizeof(zero)), 1)
	return min(max(copiesBytes/bytes, 1), maxCopies)
}

// InPlaceCopies is NewInPlace with exactly k working copies.
func InPlaceCopies[T batchlas.Float](orig batchlas.Batch[T], k int) *InPlace[T] {
	p := &InPlace[T]{Orig: orig, Work: make([]batchlas.Batch[T], k)}
	for j := range p.Work {
		p.Work[j] = matgen.Clone(orig)
	}
	return p
}

// Restore copies the pristine values back into the first k working copies.
func (p *InPlace[T]) Restore(k int) {
	for _, w := range p.Work[:k] {
		copy(w.Data, p.Orig.Data)
	}
}

// Workspace is the workspace buffer the candidates of a trial share, so
// that where a buffer happens to land in memory is not one more difference
// between candidates. A candidate bound before the buffer grows keeps the
// old one, so it starts at minWorkspace elements, enough for every
// candidate of trsm and most of potrf's and gemm's.
type Workspace[T batchlas.Float] struct{ buf []T }

const minWorkspace = 1 << 16

// NaN returns the first size elements of the buffer, grown if needed,
// filled with NaN so that a kernel reading workspace it did not write
// fails verification.
func (w *Workspace[T]) NaN(size int) []T {
	if len(w.buf) < size {
		w.buf = make([]T, max(size, minWorkspace))
	}
	ws := w.buf[:size]
	for i := range ws {
		ws[i] = T(math.NaN())
	}
	return ws
}

// TiledBatch returns a batch of count rows x cols matrices whose matrix i
// is a copy of matrix i%DistinctMatrices of a random batch that fill
// shapes (SPD, triangular, ...). It is tight unless OperandLayout says
// otherwise.
func TiledBatch[T batchlas.Float](r *rand.Rand, rows, cols, count int, fill func(batchlas.Batch[T])) batchlas.Batch[T] {
	d := min(count, DistinctMatrices)
	src := matgen.Batch[T](r, rows, cols, d, 0, 0)
	if fill != nil {
		fill(src)
	}
	if d == count && OperandLayout.Tight() {
		return src
	}
	return Repeat(src, count)
}

// NewLaidBatch allocates count zeroed rows x cols matrices with the
// leading dimension OperandLayout gives (stride ld*cols). The rows past
// rows in each column are NaN: a kernel that reads them into a result
// fails verification.
func NewLaidBatch[T batchlas.Float](rows, cols, count int) batchlas.Batch[T] {
	if OperandLayout.Tight() {
		return batchlas.NewBatch[T](rows, cols, count)
	}
	ld := OperandLayout.Of(rows)
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

// Repeat returns a batch of count matrices laid out by OperandLayout,
// matrix i a copy of matrix i%src.Count of src.
func Repeat[T batchlas.Float](src batchlas.Batch[T], count int) batchlas.Batch[T] {
	if src.Count == count && src.LD == OperandLayout.Of(src.Rows) {
		return src
	}
	out := NewLaidBatch[T](src.Rows, src.Cols, count)
	for i := 0; i < count; i++ {
		j := i % src.Count
		for c := 0; c < src.Cols; c++ {
			copy(out.Data[i*out.Stride+c*out.LD:][:src.Rows], src.Data[j*src.Stride+c*src.LD:][:src.Rows])
		}
	}
	return out
}

// Output is implemented by every op's trial for dtype T: the batch one
// call writes and Check reads (the solution of a solve, the eigenvalues of
// syev). Tests corrupt it to see Check fail, and compare it bit for bit
// between candidates the op declares the same computation
// (sel.OpSpec.Twin).
type Output[T batchlas.Float] interface {
	Output() batchlas.Batch[T]
}

// Estimated is implemented by the trials whose output is an estimate
// (the condition numbers of gecon and pocon): Slack is the factor by which
// their check lets a value exceed the exact one, so a test that corrupts
// the output to see Check fail must move it further than that.
type Estimated interface {
	Slack() float64
}

// RcondSlack is the factor by which an estimated reciprocal condition
// number may exceed the exact one in a check: Higham's estimator is
// almost always within 3 on random matrices; 10 leaves room without
// letting a broken kernel through.
const RcondSlack = 10
