package testmat

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// InterruptEverywhere checks an op whose kernels write each matrix on one
// worker from start to end: call(ctx) runs it on a fresh copy of orig (a
// batch of count matrices) under ctx, which carries the values of values.
// It runs once uninterrupted, then stopped at every StopPoints of that run,
// and requires of each an *InterruptedError of op (CheckInterrupted) with
// Completed == Touched, the completed matrices bit for bit the
// uninterrupted run's and every later one orig's.
func InterruptEverywhere[T batchlas.Float](t testing.TB, what, op string, orig batchlas.Batch[T], values context.Context, call func(ctx context.Context) (batchlas.Batch[T], error)) {
	t.Helper()
	interruptEverywhere(t, what, op, orig, values, call, true)
}

// InterruptEverywhereTouched is InterruptEverywhere for an op that may
// write matrices past the completed ones (a kernel that copies the batch
// before it works on it): Touched >= Completed, and the matrices from
// Touched on are orig's.
func InterruptEverywhereTouched[T batchlas.Float](t testing.TB, what, op string, orig batchlas.Batch[T], values context.Context, call func(ctx context.Context) (batchlas.Batch[T], error)) {
	t.Helper()
	interruptEverywhere(t, what, op, orig, values, call, false)
}

func interruptEverywhere[T batchlas.Float](t testing.TB, what, op string, orig batchlas.Batch[T], values context.Context, call func(ctx context.Context) (batchlas.Batch[T], error), exact bool) {
	t.Helper()
	count := orig.Count
	counter := NewStopAfter(Forever)
	ref, err := call(WithValues(counter, values))
	if err != nil {
		t.Fatalf("%s: uninterrupted: %v", what, err)
	}
	stops := StopPoints(counter.Calls(), 50)
	if !exact && len(stops) == 0 {
		t.Fatalf("%s: the uninterrupted run checked its context nowhere", what)
	}
	for _, k := range stops {
		x, err := call(WithValues(NewStopAfter(k), values))
		ie, bad := CheckInterrupted(op, count, err)
		if bad != nil {
			t.Fatalf("%s stopped after %d checks: %v", what, k, bad)
		}
		done, touched := count, count
		if ie != nil {
			if exact && ie.Completed != ie.Touched {
				t.Fatalf("%s k=%d: Completed %d != Touched %d", what, k, ie.Completed, ie.Touched)
			}
			if ie.Touched < ie.Completed {
				t.Fatalf("%s k=%d: Touched %d < Completed %d", what, k, ie.Touched, ie.Completed)
			}
			done, touched = ie.Completed, ie.Touched
		}
		if i := SameMatrices(x, ref, 0, done); i != -1 {
			t.Fatalf("%s k=%d: completed matrix %d differs", what, k, i)
		}
		if i := SameMatrices(x, orig, touched, count); i != -1 {
			t.Fatalf("%s k=%d: untouched matrix %d changed", what, k, i)
		}
	}
}
