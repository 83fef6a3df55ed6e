package sel

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Measure is what an op declares so that its candidates can be timed on a
// call shape: by tools/tune, and by first-use tuning inside a program
// (BATCHLAS_TUNE=online). It lives in the op's package (trial.go), next to
// the kernels whose results it checks, so that a program linking the op
// links its measurement too.
type Measure struct {
	// New makes synthetic inputs of the shape k for dtype dt,
	// deterministically from seed.
	New func(dt DType, k Key, seed uint64) (Trial, error)
	// Flops is the floating-point work of one call of the whole batch.
	Flops func(k Key) float64
	// Elems is the number of elements the call's operands hold (a float64,
	// so that no key value overflows it): the memory a trial allocates.
	Elems func(k Key) float64
	// InputsBy are other ops whose entry points make this op's inputs
	// (getrs's factors come from getrf).
	InputsBy []string
	// Problem, when set, says why the shape k is no call of the op (gels
	// needs m >= n), nil when it is one: the tuner skips the cells of its
	// grid that are none. A nil Problem means every cell is a call.
	Problem func(k Key) error
}

// Trial is one call shape's inputs, shared by every candidate.
type Trial interface {
	// Bind sizes the workspace with the op's BufferSize under ctx (which
	// carries the candidate's strict pin). An error means the pin is
	// refused: the candidate is skipped on this shape.
	Bind(ctx context.Context) (*Bound, error)
}

// Bound runs one candidate on one trial's inputs.
type Bound struct {
	// Call makes one call of the op's public entry point on working copy
	// j of the operand an in-place op overwrites (j < Copies); ops that
	// overwrite nothing they read ignore j.
	Call func(ctx context.Context, j int) error
	// Copies is the number of working copies (at least 1).
	Copies int
	// Restore puts back the first k working copies of the inputs an
	// in-place op overwrote; nil when the op overwrites nothing it reads.
	Restore func(k int)
	// Poison fills the outputs with NaN before a verified call, so an
	// output the kernel forgets to write is caught; nil if Restore does.
	Poison func()
	// Check compares the result of one call on working copy 0 from fresh
	// inputs with an independent reference.
	Check func() error
}

// Run makes calls calls and returns the time spent inside them. An
// in-place op is restored outside the timed stretch: up to Copies calls
// run back to back on freshly restored working copies under one clock
// reading. Restoring and reading the clock around every single call
// instead cost about 90 ns of clock per sub-microsecond call and made the
// timings of identical code differ by up to 30% between candidates.
func (b *Bound) Run(ctx context.Context, calls int) (time.Duration, error) {
	if b.Restore == nil {
		t0 := time.Now()
		for i := 0; i < calls; i++ {
			if err := b.Call(ctx, 0); err != nil {
				return 0, err
			}
		}
		return time.Since(t0), nil
	}
	var total time.Duration
	for done := 0; done < calls; {
		k := min(max(b.Copies, 1), calls-done)
		b.Restore(k)
		t0 := time.Now()
		for j := 0; j < k; j++ {
			if err := b.Call(ctx, j); err != nil {
				return 0, err
			}
		}
		total += time.Since(t0)
		done += k
	}
	return total, nil
}

// Verify makes one call from fresh inputs and checks its result.
func (b *Bound) Verify(ctx context.Context) error {
	if b.Restore != nil {
		b.Restore(1)
	}
	if b.Poison != nil {
		b.Poison()
	}
	if err := b.Call(ctx, 0); err != nil {
		return fmt.Errorf("call failed: %w", err)
	}
	return b.Check()
}

// SetMeasure declares how the op's candidates are timed. Ops call it from
// an init function in their trial.go (a field of OpSpec would make the
// op's variable refer to its own entry points during initialisation). A
// second call panics: one declaration per op.
func (o *Op) SetMeasure(m Measure) {
	if m.New == nil || m.Flops == nil || m.Elems == nil {
		panic("sel: op " + o.spec.Name + ": SetMeasure needs New, Flops and Elems")
	}
	if o.measure != nil {
		panic("sel: op " + o.spec.Name + ": SetMeasure called twice")
	}
	o.measure = &m
}

// Measurement returns what SetMeasure declared, or nil.
func (o *Op) Measurement() *Measure { return o.measure }

// SetKernelsHash records the hash of the op's kernel sources (the kernels=
// word of a table's header). It is generated into the op's kernelshash.go
// by `go run ./tools/tune docs` and checked by the tuner's tests: a
// deployed program has no sources to hash, and first-use tuning keys the
// rows it caches by it.
func (o *Op) SetKernelsHash(h string) { o.kernelsHash = h }

// KernelsHash returns what SetKernelsHash recorded ("" if nothing).
func (o *Op) KernelsHash() string { return o.kernelsHash }

// parallelismOf reads a call's worker cap from its context (0: none). The
// cap lives in the root package, which imports this one; the trial helpers
// every op links set the reader (SetParallelismReader).
var parallelismOf atomic.Pointer[func(context.Context) int]

// SetParallelismReader installs the function that reads a context's worker
// cap (the one batchlas.WithParallelism sets; internal/trial installs it).
// First-use tuning never runs for a call capped below the device's cores:
// its timings would rank kernels for a machine smaller than the one the
// row is recorded for.
func SetParallelismReader(f func(context.Context) int) { parallelismOf.Store(&f) }
