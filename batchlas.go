package batchlas

import (
	"context"
	"fmt"
	"math"
	"strings"

	sel "github.com/batchlas-go/batchlas/select"
)

// Float is the element types of the CPU ops.
type Float interface{ float32 | float64 }

// DTypeOf returns the dtype spelling of T (float32 or float64).
func DTypeOf[T Float]() sel.DType {
	var z T
	if _, ok := any(z).(float32); ok {
		return sel.Float32
	}
	return sel.Float64
}

// Batch is a strided batch of Count column-major matrices of Rows x Cols.
// Matrix i starts at Data[i*Stride]; element (r, c) of it is at
// Data[i*Stride + c*LD + r]. LD >= max(1, Rows). Stride >= LD*Cols, or 0 to
// broadcast one matrix to every call of the batch (read-only operands only).
type Batch[T Float] struct {
	Data   []T
	Rows   int
	Cols   int
	LD     int
	Stride int
	Count  int
}

// NewBatch allocates a contiguous zeroed batch (LD = Rows, Stride = LD*Cols).
func NewBatch[T Float](rows, cols, count int) Batch[T] {
	ld := max(1, rows)
	return Batch[T]{Data: make([]T, ld*cols*count), Rows: rows, Cols: cols, LD: ld, Stride: ld * cols, Count: count}
}

// Matrix returns the storage of matrix i, from its first element to its last.
func (b Batch[T]) Matrix(i int) []T {
	off := i * b.Stride
	if b.Rows == 0 || b.Cols == 0 {
		return b.Data[off:off]
	}
	return b.Data[off : off+(b.Cols-1)*b.LD+b.Rows]
}

// At returns element (r, c) of matrix i.
func (b Batch[T]) At(i, r, c int) T { return b.Data[i*b.Stride+c*b.LD+r] }

// Set sets element (r, c) of matrix i.
func (b Batch[T]) Set(i, r, c int, v T) { b.Data[i*b.Stride+c*b.LD+r] = v }

// Empty reports whether the batch has no element to touch.
func (b Batch[T]) Empty() bool { return b.Count == 0 || b.Rows == 0 || b.Cols == 0 }

// Check validates the batch as argument name of op. written says the op
// writes it, which forbids broadcasting (stride 0) over more than one
// matrix and strides that make matrices overlap.
func (b Batch[T]) Check(op, name string, written bool) error {
	bad := func(format string, args ...any) error {
		return &ArgError{Op: op, Arg: name, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case b.Rows < 0:
		return bad("rows %d < 0", b.Rows)
	case b.Cols < 0:
		return bad("cols %d < 0", b.Cols)
	case b.Count < 0:
		return bad("count %d < 0", b.Count)
	case b.LD < max(1, b.Rows):
		return bad("ld %d < max(1, rows %d)", b.LD, b.Rows)
	case b.Stride < 0:
		return bad("stride %d < 0", b.Stride)
	}
	if b.Count == 0 || b.Rows == 0 || b.Cols == 0 {
		return nil
	}
	// Sizes so large that the storage they describe overflows int cannot
	// be backed by a slice; refuse them before any product wraps around.
	if b.Cols-1 > (math.MaxInt-b.Rows)/b.LD {
		return bad("ld %d and cols %d describe more elements than an int can count", b.LD, b.Cols)
	}
	span := (b.Cols-1)*b.LD + b.Rows
	if b.Stride != 0 && b.Count-1 > (math.MaxInt-span)/b.Stride {
		return bad("stride %d and count %d describe more elements than an int can count", b.Stride, b.Count)
	}
	if b.Stride != 0 && b.Stride/b.LD < b.Cols {
		if written || b.Stride < span {
			return bad("stride %d < ld*cols %d (matrices overlap); use ld*cols or more, or 0 to broadcast a read-only operand", b.Stride, b.LD*b.Cols)
		}
	}
	if b.Stride == 0 && written && b.Count > 1 {
		return bad("stride 0 broadcasts one matrix but %s is written; give each of the %d matrices its own storage", name, b.Count)
	}
	need := (b.Count-1)*b.Stride + span
	if len(b.Data) < need {
		return bad("data has %d elements, need %d for %d matrices of %dx%d with ld %d and stride %d", len(b.Data), need, b.Count, b.Rows, b.Cols, b.LD, b.Stride)
	}
	return nil
}

// Uplo says which triangle of a matrix is referenced.
type Uplo byte

const (
	Lower Uplo = 'L'
	Upper Uplo = 'U'
)

// letters[b] is string(rune(b)), made once: the enums' String methods build
// every trsm and potrf selection key, and converting a rune allocated a
// string on each call.
var letters = func() (out [256]string) {
	for i := range out {
		out[i] = string(rune(i))
	}
	return out
}()

func (u Uplo) String() string { return letters[u] }

// Check returns an error unless u is Lower or Upper.
func (u Uplo) Check(op string) error {
	if u != Lower && u != Upper {
		return &ArgError{Op: op, Arg: "uplo", Msg: fmt.Sprintf("uplo %q: want Lower ('L') or Upper ('U')", rune(u))}
	}
	return nil
}

// Side says on which side the triangular matrix multiplies.
type Side byte

const (
	Left  Side = 'L'
	Right Side = 'R'
)

func (s Side) String() string { return letters[s] }

// Check returns an error unless s is Left or Right.
func (s Side) Check(op string) error {
	if s != Left && s != Right {
		return &ArgError{Op: op, Arg: "side", Msg: fmt.Sprintf("side %q: want Left ('L') or Right ('R')", rune(s))}
	}
	return nil
}

// Transpose says whether an operand is used as is or transposed.
type Transpose byte

const (
	NoTrans Transpose = 'N'
	Trans   Transpose = 'T'
)

func (t Transpose) String() string { return letters[t] }

// Check returns an error unless t is NoTrans or Trans; arg names the operand.
func (t Transpose) Check(op, arg string) error {
	if t != NoTrans && t != Trans {
		return &ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf("%s %q: want NoTrans ('N') or Trans ('T')", arg, rune(t))}
	}
	return nil
}

// Diag says whether a triangular matrix has an implicit unit diagonal.
type Diag byte

const (
	NonUnit Diag = 'N'
	Unit    Diag = 'U'
)

func (d Diag) String() string { return letters[d] }

// Check returns an error unless d is NonUnit or Unit.
func (d Diag) Check(op string) error {
	if d != NonUnit && d != Unit {
		return &ArgError{Op: op, Arg: "diag", Msg: fmt.Sprintf("diag %q: want NonUnit ('N') or Unit ('U')", rune(d))}
	}
	return nil
}

// ArgError is a bad argument: it names the op and the argument, and says
// what is expected.
type ArgError struct {
	Op  string
	Arg string
	Msg string // includes the argument's name: "lda 3 < n 4"
}

func (e *ArgError) Error() string { return e.Op + ": " + e.Msg }

// Argf makes an ArgError.
func Argf(op, arg, format string, args ...any) error {
	return &ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf(format, args...)}
}

// NumericalError reports the matrices of a batch whose computation failed
// (LAPACK's info > 0), while every other matrix of the batch was computed.
// Index is sorted; Info[j] is the info of matrix Index[j] (for potrf, the
// order of the leading minor that is not positive definite).
type NumericalError struct {
	Op    string
	Index []int
	Info  []int
}

func (e *NumericalError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d matrix(es) failed:", e.Op, len(e.Index))
	for j, i := range e.Index {
		if j == 8 {
			fmt.Fprintf(&b, " and %d more", len(e.Index)-j)
			break
		}
		fmt.Fprintf(&b, " #%d (info %d)", i, e.Info[j])
	}
	return b.String()
}

// InfoError builds a NumericalError from a per-matrix info slice (0 = ok),
// or returns nil when every matrix succeeded.
func InfoError(op string, info []int32) error {
	var e *NumericalError
	for i, v := range info {
		if v != 0 {
			if e == nil {
				e = &NumericalError{Op: op}
			}
			e.Index = append(e.Index, i)
			e.Info = append(e.Info, int(v))
		}
	}
	if e == nil {
		return nil
	}
	return e
}

// InterruptedError is returned by every op whose context was cancelled or
// passed its deadline before the call finished. It wraps the context's
// error, so errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) hold as for ctx.Err().
//
// It says how far the call got over the matrices of the batch it writes
// (C for gemm, B for trsm, A for potrf), as three consecutive ranges:
//
//   - [0, Completed): complete, exactly as an uninterrupted call leaves
//     them (bit for bit, for the kernel the call ran);
//   - [Completed, Touched): may be partly written (some elements new, some
//     old, some intermediate);
//   - [Touched, Count): untouched, as they were before the call.
//
// 0 <= Completed <= Touched <= Count, and Completed < Count: a call that
// completed every matrix returns nil, even if its context was cancelled
// meanwhile, and so does a call with nothing to do (an empty batch, gemm
// with alpha = 0 and beta = 1). A call whose context is already done when
// it starts reports Completed = Touched = 0.
//
// A kernel that writes each matrix on one worker from start to end
// reports Completed == Touched: the batch is handed out in order and a
// chunk once started runs to its end, so an interrupted call can be
// resumed on the sub-batch [Completed, Count). Kernels that work on the
// whole batch in phases (potrf's and trsm's blocked) complete few or no
// matrices and may have touched many; each op's documentation says which.
type InterruptedError struct {
	Op        string
	Count     int // matrices in the written batch
	Completed int // matrices [0, Completed) are complete
	Touched   int // matrices [Touched, Count) are untouched
	// Failed lists the matrices among [0, Completed) whose computation
	// failed (potrf: not positive definite), as the NumericalError the
	// uninterrupted call would have returned lists them; nil when none did.
	Failed *NumericalError
	Err    error // the context's error: context.Canceled or context.DeadlineExceeded
}

func (e *InterruptedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: interrupted with %d of %d matrices completed", e.Op, e.Completed, e.Count)
	if p := e.Touched - e.Completed; p > 0 {
		fmt.Fprintf(&b, ", %d (#%d to #%d) possibly partly written", p, e.Completed, e.Touched-1)
	}
	if e.Touched < e.Count {
		fmt.Fprintf(&b, ", #%d to #%d untouched", e.Touched, e.Count-1)
	}
	if e.Failed != nil {
		fmt.Fprintf(&b, "; %d completed matrix(es) failed", len(e.Failed.Index))
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the context's error.
func (e *InterruptedError) Unwrap() error { return e.Err }

// Interrupted names op in err when err is an *InterruptedError (the batch
// loop and the kernels leave the name to the op's entry point) and returns
// err unchanged otherwise.
func Interrupted(op string, err error) error {
	if e, ok := err.(*InterruptedError); ok {
		e.Op = op
	}
	return err
}

type deviceKey struct{}

// Context returns ctx, or context.Background() when ctx is nil: every entry
// point of batchlas and its ops treats a nil context as Background.
func Context(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// WithDevice returns a context whose calls run on d instead of the host.
// A nil ctx is context.Background().
func WithDevice(ctx context.Context, d *sel.Device) context.Context {
	return context.WithValue(Context(ctx), deviceKey{}, d)
}

// DeviceFrom returns the device a call with this context runs on: the one
// set by WithDevice, else the host CPU. A nil ctx is context.Background(),
// so it runs on the host.
func DeviceFrom(ctx context.Context) *sel.Device {
	if ctx == nil {
		return Host()
	}
	if d, ok := ctx.Value(deviceKey{}).(*sel.Device); ok && d != nil {
		return d
	}
	return Host()
}
