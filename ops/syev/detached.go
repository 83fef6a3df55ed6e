package syev

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/batchlas-go/batchlas"
)

// detached is a context with its parent's values but no cancellation and
// no deadline (what context.WithoutCancel makes), and optionally a
// parallelism cap of its own: the context of the work a kernel runs to
// the end once started (a lanestri group's lanes, a dc matrix's merges and
// products) and of the gemm calls nested in it.
//
// It replaces context.WithoutCancel on the allocation-free path: that
// returns a struct value in an interface (an allocation per call), and
// every Value lookup through it allocates again (Go 1.26's value() takes
// it as a Context), which the nested gemm calls make several times each.
// A detached lives inside the pooled job of the loop that runs under it.
type detached struct {
	parent context.Context
	capped context.Context // nil, or a context holding only a parallelism cap
}

func (d *detached) Deadline() (time.Time, bool) { return time.Time{}, false }
func (d *detached) Done() <-chan struct{}       { return nil }
func (d *detached) Err() error                  { return nil }

// Value is the cap's value for the parallelism key, the parent's for
// every other key.
func (d *detached) Value(key any) any {
	if d.capped != nil {
		if v := d.capped.Value(key); v != nil {
			return v
		}
	}
	return d.parent.Value(key)
}

// set makes d a context with parent's values, never cancelled, under a
// parallelism cap of workers when workers is at least 1 (0: parent's
// own). d lives in the job of the loop that uses it (a pooled job: no
// allocation), and nothing keeps it past that loop.
func (d *detached) set(parent context.Context, workers int) {
	d.parent, d.capped = parent, capContext(workers)
}

// maxCachedCap bounds the caps capContext keeps; a larger cap (on a
// machine with more than this many cores) is made per call.
const maxCachedCap = 1024

// capContexts holds batchlas.WithParallelism(Background, k) for each k
// asked for, made once.
var capContexts [maxCachedCap + 1]atomic.Pointer[context.Context]

// capContext is a context holding only the parallelism cap k (nil for
// k < 1: no cap of its own).
func capContext(k int) context.Context {
	if k < 1 {
		return nil
	}
	if k > maxCachedCap {
		return batchlas.WithParallelism(context.Background(), k)
	}
	if p := capContexts[k].Load(); p != nil {
		return *p
	}
	c := batchlas.WithParallelism(context.Background(), k)
	capContexts[k].CompareAndSwap(nil, &c)
	return *capContexts[k].Load()
}
