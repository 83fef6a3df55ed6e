package batchlas

import (
	"fmt"
	"math"
)

// Batch is a strided batch of Count column-major matrices of Rows x Cols.
// Matrix i starts at Data[i*Stride]; element (r, c) of it is at
// Data[i*Stride + c*LD + r]. LD >= max(1, Rows) and Stride >= LD*Cols give
// every matrix storage of its own; a read-only operand may also use a
// Stride between the span of one matrix, (Cols-1)*LD + Rows, and LD*Cols
// (each matrix then starts in the padding after the previous one's last
// column).
//
// Stride 0 over more than one matrix is a broadcast: every matrix of the
// batch is one stored matrix. Only Broadcast makes one, through a field no
// struct literal outside this package can set, so a literal that leaves
// Stride out is refused by Check instead of silently repeating its first
// matrix. A broadcast may be passed where an op only reads (gemm's a and b,
// trsm's a), never as an operand the op writes.
//
// NewBatch, NewIdentity, WrapBatch, WrapStrided and Broadcast build
// batches; a keyed literal works too. Ops validate every batch with Check.
type Batch[T Float] struct {
	Data   []T
	Rows   int
	Cols   int
	LD     int
	Stride int
	Count  int

	// bcast is how Broadcast marks its result; every literal outside this
	// package leaves it notBroadcast. Copies of the struct keep it, so a
	// view of a broadcast (Sub, or an op cutting its operands into
	// sub-matrices or chunks) stays a broadcast.
	bcast broadcastMark
}

// broadcastMark records whether Broadcast made a batch, and from what.
type broadcastMark uint8

const (
	notBroadcast broadcastMark = iota
	// broadcastOne: the first matrix of a batch, repeated.
	broadcastOne
	// broadcastNone: Broadcast was given a batch with no matrix (Count <
	// 1); Check refuses the result unless its Count is 0 too. Broadcast
	// cannot return an error, and a batch that fails later with the reason
	// is more useful than one that panics or reads storage nobody meant.
	broadcastNone
)

// NewBatch allocates a batch of count zeroed rows x cols matrices, stored
// tight: LD = max(1, rows), Stride = LD*cols. It takes sizes only, no data,
// and like make it panics when a size is negative or the storage is more
// elements than an int can count, saying which. Matrices without elements
// (rows or cols 0) need no storage, whatever count. To use existing data,
// see WrapBatch.
func NewBatch[T Float](rows, cols, count int) Batch[T] {
	ld, stride, n, ok := tight(rows, cols, count)
	if !ok {
		_, msg := sizeFault(rows, cols, count, "rows", "cols")
		panic("batchlas.NewBatch: " + msg)
	}
	return Batch[T]{Data: make([]T, n), Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
}

// NewIdentity allocates a tight batch of count n x n identity matrices.
// Like NewBatch, it panics when a size is negative or too large.
func NewIdentity[T Float](n, count int) Batch[T] {
	ld, stride, size, ok := tight(n, n, count)
	if !ok {
		_, msg := sizeFault(n, n, count, "n", "n")
		panic("batchlas.NewIdentity: " + msg)
	}
	b := Batch[T]{Data: make([]T, size), Rows: n, Cols: n, LD: ld, Stride: stride, Count: count}
	b.setDiagonal()
	return b
}

// tight returns the leading dimension, stride and storage length of a
// tight batch of these sizes; ok is false when a size is negative or the
// length is more than an int can count (sizeFault says which). Matrices
// without elements take no storage, however many.
func tight(rows, cols, count int) (ld, stride, n int, ok bool) {
	if rows < 0 || cols < 0 || count < 0 {
		return 0, 0, 0, false
	}
	ld = max(1, rows)
	if cols > 0 && ld > math.MaxInt/cols {
		return 0, 0, 0, false
	}
	stride = ld * cols
	if rows == 0 || cols == 0 {
		return ld, stride, 0, true
	}
	if count > math.MaxInt/stride {
		return 0, 0, 0, false
	}
	return ld, stride, stride * count, true
}

// sizeFault says which size tight refuses and why: the argument at fault
// and the message. rowsName and colsName are what the caller calls its
// sizes (NewIdentity has one order, n).
func sizeFault(rows, cols, count int, rowsName, colsName string) (arg, msg string) {
	switch {
	case rows < 0:
		return rowsName, fmt.Sprintf("%s %d < 0", rowsName, rows)
	case cols < 0:
		return colsName, fmt.Sprintf("%s %d < 0", colsName, cols)
	case count < 0:
		return "count", fmt.Sprintf("count %d < 0", count)
	}
	if _, _, _, one := tight(rows, cols, min(count, 1)); !one {
		return colsName, fmt.Sprintf("a matrix of %dx%d is more elements than an int can count", rows, cols)
	}
	return "count", fmt.Sprintf("%d matrices of %dx%d are more elements than an int can count", count, rows, cols)
}

// WrapBatch returns count rows x cols matrices stored tight in data, as
// numpy and gonum store a contiguous stack of matrices, but column-major:
// LD = max(1, rows), Stride = LD*cols, element (r, c) of matrix i at
// data[i*Stride + c*LD + r]. The batch shares data, copying nothing;
// elements of data past the last matrix are not part of it. It returns an
// *ArgError from "WrapBatch" when a size is negative, the matrices are
// more elements than an int can count, or data is too short. Matrices
// without elements (rows or cols 0) need no data, however many.
//
// Row-major data wrapped as it is reads as the transposes: see the
// package documentation.
func WrapBatch[T Float](data []T, rows, cols, count int) (Batch[T], error) {
	const op = "WrapBatch"
	ld, stride, _, ok := tight(rows, cols, count)
	if !ok && rows >= 0 && cols >= 0 && count >= 0 {
		arg, msg := sizeFault(rows, cols, count, "rows", "cols")
		return Batch[T]{}, argf(op, arg, "%s", msg)
	}
	// Negative sizes reach wrap as they are, which names the one at fault.
	return wrap(op, "data", data, rows, cols, ld, stride, count)
}

// WrapStrided returns count rows x cols column-major matrices in data with
// leading dimension ld and stride: element (r, c) of matrix i is at
// data[i*stride + c*ld + r]. It shares data, copying nothing. It returns an
// *ArgError from "WrapStrided" naming the argument when the batch would
// fail Check as a read-only operand: a negative size, ld < max(1, rows),
// a stride below the span of a matrix, stride 0 over more than one matrix
// (use Broadcast to repeat one matrix), or data too short.
func WrapStrided[T Float](data []T, rows, cols, ld, stride, count int) (Batch[T], error) {
	return wrap("WrapStrided", "data", data, rows, cols, ld, stride, count)
}

// wrap builds the batch and validates it as a read-only operand, naming
// the argument of op at fault; dataName is the name of op's slice.
func wrap[T Float](op, dataName string, data []T, rows, cols, ld, stride, count int) (Batch[T], error) {
	b := Batch[T]{Data: data, Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
	if field, msg := b.fault(dataName, dataName, false); msg != "" {
		if field == "data" {
			field = dataName
		}
		return Batch[T]{}, &ArgError{Op: op, Arg: field, Msg: msg}
	}
	return b, nil
}

// Broadcast returns a batch of count matrices that are all the first
// matrix of m: m's Data, Rows, Cols and LD with Stride 0 and Count count,
// sharing m's storage. Ops read every matrix of it as that one matrix. It
// may be passed for operands an op only reads (gemm's a and b, trsm's a);
// an op refuses it for an operand it writes unless count <= 1.
//
// Broadcast does not fail: when m would fail Check, count is negative, or
// m has no matrix (Count < 1) while count > 0, the result is a batch that
// Check, and so every op, refuses with an *ArgError saying why.
func Broadcast[T Float](m Batch[T], count int) Batch[T] {
	mark := broadcastOne
	if m.Count < 1 {
		mark = broadcastNone
	}
	m.Stride, m.Count, m.bcast = 0, count, mark
	return m
}

// IsBroadcast reports whether b is a broadcast: made by Broadcast, or a
// copy or view of one, with Stride still 0. A batch whose Stride is set
// again after Broadcast is an ordinary strided batch.
func (b Batch[T]) IsBroadcast() bool { return b.bcast != notBroadcast && b.Stride == 0 }

// Sub returns matrices [lo, hi) of b as a batch sharing b's storage:
// matrix j of it is matrix lo+j of b, and a broadcast stays a broadcast.
// It resumes an interrupted call (b.Sub(e.Completed, b.Count) for an
// *InterruptedError e) or hands a batch out in parts. It returns an
// *ArgError from "Batch.Sub" unless b passes Check as a read-only operand
// and 0 <= lo <= hi <= b.Count.
func (b Batch[T]) Sub(lo, hi int) (Batch[T], error) {
	const op = "Batch.Sub"
	if err := b.Check(op, "b", false); err != nil {
		return Batch[T]{}, err
	}
	switch {
	case lo < 0 || lo > b.Count:
		return Batch[T]{}, argf(op, "lo", "lo %d outside [0, count %d]", lo, b.Count)
	case hi < lo || hi > b.Count:
		return Batch[T]{}, argf(op, "hi", "hi %d outside [lo %d, count %d]", hi, lo, b.Count)
	}
	s := b
	s.Count = hi - lo
	if lo == hi || b.Empty() {
		// No element to reach; Check bounds lo*Stride only for a matrix
		// that exists and has elements.
		s.Data = b.Data[len(b.Data):]
	} else {
		s.Data = b.Data[lo*b.Stride:]
	}
	return s, nil
}

// Matrix returns the storage of matrix i, from its first element to its
// last. Like At, it indexes like a slice: for i outside [0, Count) of a
// batch that passes Check it panics as an out-of-range slice index does.
func (b Batch[T]) Matrix(i int) []T {
	off := i * b.Stride
	if b.Rows == 0 || b.Cols == 0 {
		return b.Data[off:off]
	}
	return b.Data[off : off+(b.Cols-1)*b.LD+b.Rows]
}

// At returns element (r, c) of matrix i. It indexes like a slice, with no
// check of its own: an index outside the batch panics as an out-of-range
// slice index does when it falls outside Data, and reads another element
// when it falls inside (r >= Rows in the padding, say). CopyMatrixOut
// checks its arguments and returns errors instead.
func (b Batch[T]) At(i, r, c int) T { return b.Data[i*b.Stride+c*b.LD+r] }

// Set sets element (r, c) of matrix i. It indexes like a slice, as At
// does; CopyMatrixIn checks its arguments and returns errors instead.
// Setting an element of a broadcast sets it in every matrix.
func (b Batch[T]) Set(i, r, c int, v T) { b.Data[i*b.Stride+c*b.LD+r] = v }

// Empty reports whether the batch has no element to touch.
func (b Batch[T]) Empty() bool { return b.Count == 0 || b.Rows == 0 || b.Cols == 0 }

// Check validates the batch as argument name of op and returns an
// *ArgError naming them, or nil. written says the op writes it, which
// forbids a broadcast over more than one matrix and strides that make
// matrices overlap. Stride 0 over more than one matrix is legal only for
// a broadcast (Broadcast) that is not written.
func (b Batch[T]) Check(op, name string, written bool) error {
	if _, msg := b.fault(name, "data", written); msg != "" {
		return &ArgError{Op: op, Arg: name, Msg: msg}
	}
	return nil
}

// fault is Check's verdict: the field at fault ("rows", "cols", "count",
// "ld", "stride" or "data") and the message, or "" when b is valid. name
// is what the messages call the batch, data what they call its storage.
func (b Batch[T]) fault(name, data string, written bool) (field, msg string) {
	switch {
	case b.Rows < 0:
		return "rows", fmt.Sprintf("rows %d < 0", b.Rows)
	case b.Cols < 0:
		return "cols", fmt.Sprintf("cols %d < 0", b.Cols)
	case b.Count < 0:
		return "count", fmt.Sprintf("count %d < 0", b.Count)
	case b.LD < max(1, b.Rows):
		return "ld", fmt.Sprintf("ld %d < max(1, rows %d)", b.LD, b.Rows)
	case b.Stride < 0:
		return "stride", fmt.Sprintf("stride %d < 0", b.Stride)
	case b.bcast == broadcastNone && b.Stride == 0 && b.Count > 0:
		return "count", fmt.Sprintf("%s was made by Broadcast from a batch with no matrix (Count < 1): give Broadcast a batch that holds the matrix to repeat", name)
	}
	if b.Count == 0 || b.Rows == 0 || b.Cols == 0 {
		return "", ""
	}
	// Sizes so large that the storage they describe overflows int cannot
	// be backed by a slice; refuse them before any product wraps around.
	if b.Cols-1 > (math.MaxInt-b.Rows)/b.LD {
		return "ld", fmt.Sprintf("ld %d and cols %d describe more elements than an int can count", b.LD, b.Cols)
	}
	span := (b.Cols-1)*b.LD + b.Rows
	if b.Stride != 0 && b.Count-1 > (math.MaxInt-span)/b.Stride {
		return "stride", fmt.Sprintf("stride %d and count %d describe more elements than an int can count", b.Stride, b.Count)
	}
	if b.Stride != 0 && b.Stride/b.LD < b.Cols {
		if written || b.Stride < span {
			return "stride", fmt.Sprintf("stride %d < ld*cols %d (matrices overlap): use ld*cols or more, or batchlas.Broadcast to repeat one matrix of a read-only operand", b.Stride, b.LD*b.Cols)
		}
	}
	if b.Stride == 0 && b.Count > 1 {
		// The ld*cols product cannot overflow: span fits in an int and
		// ld*cols <= span + ld - rows.
		switch {
		case written && b.IsBroadcast():
			return "stride", fmt.Sprintf("%s is a broadcast (one matrix for all %d) but is written: give each matrix its own storage (Stride ld*cols = %d or more)", name, b.Count, b.LD*b.Cols)
		case written:
			return "stride", fmt.Sprintf("stride 0 with count %d, and %s is written: give each matrix its own storage, Stride ld*cols = %d or more", b.Count, name, b.LD*b.Cols)
		case !b.IsBroadcast():
			return "stride", fmt.Sprintf("stride 0 with count %d: set Stride to ld*cols = %d (or more) for %d matrices of their own, or repeat one matrix with batchlas.Broadcast(m, %d)", b.Count, b.LD*b.Cols, b.Count, b.Count)
		}
	}
	need := (b.Count-1)*b.Stride + span
	if len(b.Data) < need {
		return "data", fmt.Sprintf("%s has %d elements, need %d for %d matrices of %dx%d with ld %d and stride %d", data, len(b.Data), need, b.Count, b.Rows, b.Cols, b.LD, b.Stride)
	}
	return "", ""
}

// stored is the number of matrices b stores: one for a stride-0 batch (a
// broadcast, or a single matrix), Count otherwise. The helpers that write
// every matrix write each stored one once.
func (b Batch[T]) stored() int {
	if b.Stride == 0 {
		return min(b.Count, 1)
	}
	return b.Count
}

// Clone returns a copy of b in new, tight storage (LD = max(1, Rows),
// Stride = LD*Cols) that shares nothing with b. A broadcast clones to a
// broadcast of one stored matrix; an empty batch to one with no storage.
// It returns an *ArgError from "Batch.Clone" when b fails Check as a
// read-only operand.
func (b Batch[T]) Clone() (Batch[T], error) {
	if err := b.Check("Batch.Clone", "b", false); err != nil {
		return Batch[T]{}, err
	}
	if b.Empty() {
		c := b
		c.Data = []T{}
		return c, nil
	}
	// Check proved the original's storage fits in an int, and the tight
	// layout is never larger, so NewBatch cannot panic.
	if b.IsBroadcast() {
		one := NewBatch[T](b.Rows, b.Cols, 1)
		copyMatrix(one, 0, b, 0)
		return Broadcast(one, b.Count), nil
	}
	c := NewBatch[T](b.Rows, b.Cols, b.Count)
	for i := range b.Count {
		copyMatrix(c, i, b, i)
	}
	return c, nil
}

// copyMatrix copies matrix j of src into matrix i of dst, of the same
// sizes, column by column. Matrices without elements have no offsets to
// take, however large their count or stride.
func copyMatrix[T Float](dst Batch[T], i int, src Batch[T], j int) {
	if dst.Rows == 0 {
		return
	}
	for c := range dst.Cols {
		d := i*dst.Stride + c*dst.LD
		s := j*src.Stride + c*src.LD
		copy(dst.Data[d:d+dst.Rows], src.Data[s:s+dst.Rows])
	}
}

// CopyMatrixIn copies the Rows x Cols column-major matrix in src, with
// leading dimension ld (element (r, c) at src[c*ld + r]), into matrix i of
// b. It returns an *ArgError from "Batch.CopyMatrixIn" when b fails Check
// as a read-only operand, i is outside [0, Count), ld < max(1, Rows), src
// is too short, src shares an element with matrix i (src that is matrix
// i itself, with b's LD, is allowed and copies nothing), or b is a
// broadcast of more than one matrix (writing its one stored matrix would
// change all of them).
func (b Batch[T]) CopyMatrixIn(i int, src []T, ld int) error {
	const op = "Batch.CopyMatrixIn"
	m, err := b.outside(op, "src", i, src, ld)
	if err != nil {
		return err
	}
	if b.IsBroadcast() && b.Count > 1 {
		return argf(op, "b", "b is a broadcast: its %d matrices are one stored matrix, so writing matrix %d would change all of them; copy into a batch with storage per matrix (Clone, NewBatch)", b.Count, i)
	}
	copyMatrix(b, i, m, 0)
	return nil
}

// CopyMatrixOut copies matrix i of b into the Rows x Cols column-major
// matrix in dst with leading dimension ld (element (r, c) at
// dst[c*ld + r]), leaving dst's other elements as they are. It returns an
// *ArgError from "Batch.CopyMatrixOut" when b fails Check as a read-only
// operand, i is outside [0, Count), ld < max(1, Rows), dst is too short,
// or dst shares an element with matrix i (dst that is matrix i itself,
// with b's LD, is allowed and copies nothing).
func (b Batch[T]) CopyMatrixOut(i int, dst []T, ld int) error {
	m, err := b.outside("Batch.CopyMatrixOut", "dst", i, dst, ld)
	if err != nil {
		return err
	}
	copyMatrix(m, 0, b, i)
	return nil
}

// outside validates the arguments of CopyMatrixIn and CopyMatrixOut and
// returns the single matrix in x (argument xname) as a batch.
func (b Batch[T]) outside(op, xname string, i int, x []T, ld int) (Batch[T], error) {
	if err := b.Check(op, "b", false); err != nil {
		return Batch[T]{}, err
	}
	if i < 0 || i >= b.Count {
		return Batch[T]{}, argf(op, "i", "matrix %d outside [0, count %d)", i, b.Count)
	}
	m, err := wrap(op, xname, x, b.Rows, b.Cols, ld, 0, 1)
	if err != nil {
		return Batch[T]{}, err
	}
	mi := b
	mi.Count = 1
	if !b.Empty() {
		mi.Data = b.Data[i*b.Stride:]
	}
	// Copying column by column between two layouts of shared elements
	// would read elements already overwritten; the same element in the
	// same place (x is matrix i itself, with its ld) copies nothing.
	if ex, ey, ok := shared(mi, m); ok && !(ld == b.LD && &mi.Data[0] == &m.Data[0]) {
		return Batch[T]{}, argf(op, xname, "%s shares elements with matrix %d of b (%s[%d] is its element (%d,%d)): give %s storage of its own", xname, i, xname, ey, ex%b.LD, ex/b.LD, xname)
	}
	return m, nil
}

// SetZero sets every element of every matrix of b to 0, and nothing else:
// padding between columns and between matrices is left as it is. It
// returns an *ArgError from "Batch.SetZero" when b fails Check as a
// read-only operand. For a broadcast it zeroes the one stored matrix,
// which is every matrix of it.
func (b Batch[T]) SetZero() error {
	if err := b.Check("Batch.SetZero", "b", false); err != nil {
		return err
	}
	b.setZero()
	return nil
}

func (b Batch[T]) setZero() {
	if b.Empty() {
		return
	}
	for i := range b.stored() {
		for c := range b.Cols {
			o := i*b.Stride + c*b.LD
			clear(b.Data[o : o+b.Rows])
		}
	}
}

// SetIdentity sets every matrix of b to the identity: ones on the main
// diagonal, (k, k) for k < min(Rows, Cols), zeros elsewhere (a
// rectangular matrix gets the same, as LAPACK's laset does). Padding is
// left as it is. It returns an *ArgError from "Batch.SetIdentity" when b
// fails Check as a read-only operand. For a broadcast it sets the one
// stored matrix, which is every matrix of it.
func (b Batch[T]) SetIdentity() error {
	if err := b.Check("Batch.SetIdentity", "b", false); err != nil {
		return err
	}
	b.setZero()
	b.setDiagonal()
	return nil
}

// setDiagonal sets the main diagonal of every stored matrix to 1.
func (b Batch[T]) setDiagonal() {
	if b.Empty() {
		return
	}
	for i := range b.stored() {
		for k := range min(b.Rows, b.Cols) {
			b.Data[i*b.Stride+k*b.LD+k] = 1
		}
	}
}
