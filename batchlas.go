package batchlas

import (
	"context"
	"fmt"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/rootlink"
	sel "github.com/batchlas-go/batchlas/select"
)

// Float is the element types of the CPU ops.
type Float interface{ float32 | float64 }

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

// Error is "<op>: <msg>", at most 1 KiB (quote.MaxMessage): a message that
// repeats a value it was given cuts it first (quote.Q), and this is the
// last guard.
func (e *ArgError) Error() string { return quote.Message(e.Op + ": " + e.Msg) }

// argf makes an ArgError.
func argf(op, arg, format string, args ...any) error {
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
// resumed on the sub-batch [Completed, Count) (Batch.Sub). Kernels that
// work on the whole batch in phases (potrf's and trsm's blocked) complete
// few or no matrices and may have touched many; each op's documentation
// says which.
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

// WithDevice returns a context whose calls run on d instead of the host.
// A nil ctx is context.Background().
func WithDevice(ctx context.Context, d *sel.Device) context.Context {
	return rootlink.WithDevice(ctx, d)
}
