package sel

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas/coverage"
	"github.com/batchlas-go/batchlas/trace"
)

// Op is a registered op: its spec, parsed key names and the state the core
// keeps for it. Ops register once, at package initialisation.
type Op struct {
	spec OpSpec
	keys []KeySpec
	idx  int // registration order, mixed into the memo hash

	loadMu sync.Mutex // serialises table loading
	tabs   atomic.Pointer[opTables]

	measure     *Measure // set once at initialisation (SetMeasure)
	kernelsHash string   // set once at initialisation (SetKernelsHash)
}

var registry struct {
	sync.RWMutex
	ops    []*Op
	byName map[string]*Op
}

// Register declares an op to the core. An invalid spec is a programming
// error in the op's choice.go and panics at initialisation, where every test
// of the op sees it.
func Register(spec OpSpec) *Op {
	if !validName(spec.Name) {
		panic(fmt.Sprintf("sel: op name %q must match [a-z][a-z0-9_]*", spec.Name))
	}
	keys, err := ParseKeys(spec.Keys)
	if err != nil {
		panic(fmt.Sprintf("sel: op %s: %v", spec.Name, err))
	}
	if spec.CanRun == nil {
		panic(fmt.Sprintf("sel: op %s has no CanRun", spec.Name))
	}
	if spec.LastResort == nil {
		spec.LastResort = []string{"blocked", "vendor"}
	}
	for dt, cands := range spec.Candidates {
		seen := map[Choice]bool{}
		for _, c := range cands {
			if c.IsZero() || seen[c] {
				panic(fmt.Sprintf("sel: op %s %s: zero or duplicate candidate %v", spec.Name, dt, c))
			}
			seen[c] = true
		}
	}
	op := &Op{spec: spec, keys: keys}
	registry.Lock()
	if registry.byName == nil {
		registry.byName = map[string]*Op{}
	}
	if _, dup := registry.byName[spec.Name]; dup {
		registry.Unlock()
		panic(fmt.Sprintf("sel: op %s registered twice", spec.Name))
	}
	op.idx = len(registry.ops)
	registry.ops = append(registry.ops, op)
	registry.byName[spec.Name] = op
	registry.Unlock()
	// A shard opened before this op registered still lists what it links.
	if s := cur.Load(); s != nil && s.rec != nil {
		s.rec.Link(op.Name(), op.linkedRows())
	}
	return op
}

// linkedRows are the op's coverage "linked" rows: one per compiled
// candidate per dtype.
func (o *Op) linkedRows() []coverage.Row {
	var rows []coverage.Row
	for _, dt := range o.DTypes() {
		cands := o.spec.Candidates[dt]
		existed := 0
		for _, c := range cands {
			if !c.Vendor() {
				existed = 1
			}
		}
		for _, c := range cands {
			rows = append(rows, coverage.Row{Kind: coverage.Linked, Op: o.spec.Name, DType: string(dt), Choice: c.String(),
				Origin: origin(c), NativeExisted: existed, NativeSupported: -1, VendorLib: o.spec.VendorLib})
		}
	}
	return rows
}

// Ops returns every registered op in registration order.
func Ops() []*Op {
	registry.RLock()
	defer registry.RUnlock()
	return append([]*Op(nil), registry.ops...)
}

// Lookup returns the registered op of that name, or nil.
func Lookup(name string) *Op {
	registry.RLock()
	defer registry.RUnlock()
	return registry.byName[name]
}

// Name is the op's name.
func (o *Op) Name() string { return o.spec.Name }

// Spec returns the op's declaration. Callers must not modify it.
func (o *Op) Spec() *OpSpec { return &o.spec }

// Keys returns the parsed key names.
func (o *Op) Keys() []KeySpec { return o.keys }

// Candidates returns the compiled candidates for a dtype, in candidate order.
func (o *Op) Candidates(dt DType) []Choice { return o.spec.Candidates[dt] }

// DTypes returns the dtypes the op has candidates for, float32 before float64.
func (o *Op) DTypes() []DType {
	var out []DType
	for _, dt := range []DType{Float32, Float64, "complex64", "complex128"} {
		if _, ok := o.spec.Candidates[dt]; ok {
			out = append(out, dt)
		}
	}
	return out
}

// ParseChoice parses a spelling against the op's families.
func (o *Op) ParseChoice(s string) (Choice, error) { return ParseChoice(s, o.spec.Families) }

// IsCandidate reports whether c is a compiled candidate for dt.
func (o *Op) IsCandidate(dt DType, c Choice) bool {
	for _, x := range o.spec.Candidates[dt] {
		if x == c {
			return true
		}
	}
	return false
}

// CanRun applies the op's can_run.
func (o *Op) CanRun(c Choice, k Key, d *Device) bool { return o.spec.CanRun(c, k, d) }

// LaunchFunc runs the chosen kernel. The context carries the trace nesting,
// so a kernel that calls another op's public entry point passes it on.
type LaunchFunc func(ctx context.Context, c Choice) error

// Run makes the one decision for a call, opens its trace and coverage scope
// and hands the choice to launch. An error from the decision (a bad pin, no
// route, a malformed override table) is returned without launching.
func (o *Op) Run(ctx context.Context, dt DType, k Key, d *Device, launch LaunchFunc) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if launch == nil {
		return errors.New(o.spec.Name + ": Run needs a launch function")
	}
	s := current()
	dec := o.decide(ctx, s, dt, k, d)
	// A measurement's calls (first-use tuning) are not the program's:
	// neither counted nor traced.
	quiet := s.tune.online && measuring(ctx)
	if dec.cov != nil && !quiet {
		dec.cov.Add()
	}
	if dec.err != nil {
		return dec.err
	}
	if s.trace && !quiet {
		traceHeader(s, d)
		if !dec.tunedNow || !dec.printed.Swap(true) {
			trace.Print(ctx, dec.line)
		} else {
			trace.Print(ctx, dec.lineAfter)
		}
		// Only while tracing: nesting costs a context allocation.
		ctx = trace.Nest(ctx)
	}
	if s.tune.online && !insideOp(ctx) {
		// The calls this call makes inside itself never tune (online.go).
		ctx = context.WithValue(ctx, opCallKey{}, nestedCall)
	}
	return launch(ctx, dec.choice)
}

// Pick makes the same decision as Run without launching: an op's
// BufferSize sizes the workspace of exactly the kernel the call will run.
// It neither traces nor counts coverage: sizing is not a call.
func (o *Op) Pick(ctx context.Context, dt DType, k Key, d *Device) (Choice, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	dec := o.decide(ctx, current(), dt, k, d)
	return dec.choice, dec.err
}
