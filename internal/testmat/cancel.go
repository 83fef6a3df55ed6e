package testmat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// StopAfter is a context that is done from the (n+1)th call of its Err
// method on: the batch loop checks Err before each chunk, so a test
// interrupts a call at a chosen chunk boundary, deterministically, without
// timing. Calls counts every Err call so far. Done returns nil (the loop
// never waits on it); values come from context.Background.
type StopAfter struct {
	context.Context
	left  atomic.Int64
	calls atomic.Int64
}

// NewStopAfter returns a context whose first n Err calls return nil and
// every later one context.Canceled; n = math.MaxInt64 never stops (it only
// counts).
func NewStopAfter(n int64) *StopAfter {
	c := &StopAfter{Context: context.Background()}
	c.left.Store(n)
	return c
}

// Err is nil for the first n calls, then context.Canceled.
func (c *StopAfter) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) < 0 {
		c.left.Store(-1) // no wrap-around, however many calls
		return context.Canceled
	}
	return nil
}

// Calls is the number of Err calls so far.
func (c *StopAfter) Calls() int64 { return c.calls.Load() }

// StopPoints are the n of NewStopAfter worth trying on a call that makes
// total Err calls when uninterrupted, at most about most of them: every
// one if total < most, else the first 16, the last 8 before total (a
// batch-wide kernel's last step, which some tests require a stop in: a
// spread point lands there only by luck) and the rest spread evenly; and
// total itself, which must not stop the call. Under -short (the test
// command's portable pass) at most 12: the first 4, 4 spread and the
// last 4 before total; the context is checked by the ops' drivers, which
// no build tag changes.
func StopPoints(total int64, most int) []int64 {
	head, tail := int64(16), int64(8)
	if testing.Short() {
		most = min(most, 12)
		head, tail = int64(most/3), int64(most/3)
	}
	var out []int64
	if total < int64(most) {
		for n := int64(0); n <= total; n++ {
			out = append(out, n)
		}
		return out
	}
	for n := int64(0); n < head; n++ {
		out = append(out, n)
	}
	spread := max(int64(most)-head-tail, 1)
	for j := int64(0); j < spread; j++ {
		out = append(out, head+(total-tail-head)*j/spread)
	}
	for n := total - tail; n < total; n++ {
		out = append(out, n)
	}
	return append(out, total)
}

// CheckInterrupted checks the report of a call on a batch of count
// matrices that returned err: nil (then nothing to check) or an
// *batchlas.InterruptedError of op wrapping context.Canceled with
// 0 <= Completed <= Touched <= Count = count and Completed < count. It
// returns the report, or nil for a nil err.
func CheckInterrupted(op string, count int, err error) (*batchlas.InterruptedError, error) {
	if err == nil {
		return nil, nil
	}
	if !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("got %v, want an error wrapping context.Canceled", err)
	}
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return nil, fmt.Errorf("got %T (%v), want *batchlas.InterruptedError", err, err)
	}
	switch {
	case ie.Op != op:
		return nil, fmt.Errorf("Op %q, want %q", ie.Op, op)
	case ie.Count != count:
		return nil, fmt.Errorf("Count %d, want %d", ie.Count, count)
	case !(0 <= ie.Completed && ie.Completed <= ie.Touched && ie.Touched <= ie.Count):
		return nil, fmt.Errorf("want 0 <= Completed %d <= Touched %d <= Count %d", ie.Completed, ie.Touched, ie.Count)
	case ie.Completed == ie.Count:
		return nil, fmt.Errorf("every matrix completed, yet the call returned %v", err)
	}
	return ie, nil
}

// SameMatrices reports the first matrix in [lo, hi) of got whose elements
// (both triangles, within its Rows x Cols) differ bitwise from want's, or
// -1 when none does; NaNs compare equal to NaNs.
func SameMatrices[T batchlas.Float](got, want batchlas.Batch[T], lo, hi int) int {
	for i := lo; i < hi; i++ {
		for c := 0; c < got.Cols; c++ {
			for r := 0; r < got.Rows; r++ {
				g, w := got.At(i, r, c), want.At(i, r, c)
				if !(g == w || (g != g && w != w)) {
					return i
				}
			}
		}
	}
	return -1
}

// Forever is the n of NewStopAfter that never stops.
const Forever = math.MaxInt64

// WithValues is stop (a StopAfter, or any context) carrying the values of
// values: a call on it is interrupted as stop says while it runs with the
// pins and worker caps of values.
func WithValues(stop, values context.Context) context.Context {
	return valuesOf{Context: stop, values: values}
}

// valuesOf is a context with the deadline and cancellation of Context and
// the values of values.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any { return v.values.Value(key) }
