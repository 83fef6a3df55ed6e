package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// opTuner is what the tuner knows about one op beyond its selection spec.
// Each op declares one in tools/tune/<op>_spec.go; the grid itself comes
// from the op's choice.go (sel.OpSpec.Grid), so it is never retyped here.
type opTuner struct {
	op *sel.Op
	// inputsBy are other ops whose entry points make this op's inputs
	// (getrs's factors come from getrf). They are measured before it, like
	// callees, so its inputs are made as their fresh tables decide; they
	// are not part of its kernels hash, since the inputs are checked, not
	// timed.
	inputsBy []string
	// flops is the floating-point work of one call of the whole batch, for
	// GFLOP/s and the --max-cell-flops cap.
	flops func(c cell) float64
	// elems is the number of elements the call's operands hold, for the
	// --max-cell-bytes cap; a float64, so that no key value overflows it.
	elems func(c cell) float64
	// newCase makes the inputs of a cell for a dtype, deterministically
	// from seed.
	newCase func(dt sel.DType, c cell, seed uint64) (opCase, error)
}

// opCase is one cell's inputs, shared by every candidate.
type opCase interface {
	// bind sizes the workspace with the op's BufferSize under ctx (which
	// carries the candidate's strict pin). An error means the pin is
	// refused: the candidate is skipped on this cell.
	bind(ctx context.Context) (*boundCase, error)
}

// boundCase runs one candidate on one cell.
type boundCase struct {
	// call makes one call of the op's public entry point on working copy
	// j of the operand an in-place op overwrites (j < copies); ops that
	// overwrite nothing they read ignore j.
	call func(ctx context.Context, j int) error
	// copies is the number of working copies (at least 1).
	copies int
	// restore puts back the first k working copies of the inputs an
	// in-place op overwrote; nil when the op overwrites nothing it reads.
	restore func(k int)
	// poison fills the outputs with NaN before a verified call, so an
	// output the kernel forgets to write is caught; nil if restore does.
	poison func()
	// check compares the result of one call on working copy 0 from fresh
	// inputs with an independent reference (first, middle and last
	// matrix).
	check func() error
}

// run makes calls calls and returns the time spent inside them. An
// in-place op is restored outside the timed stretch: up to copies calls
// run back to back on freshly restored working copies under one clock
// reading. Restoring and reading the clock around every single call
// instead cost about 90 ns of clock per sub-microsecond call here and made
// the timings of identical code differ by up to 30% between candidates.
func (b *boundCase) run(ctx context.Context, calls int) (time.Duration, error) {
	if b.restore == nil {
		t0 := time.Now()
		for i := 0; i < calls; i++ {
			if err := b.call(ctx, 0); err != nil {
				return 0, err
			}
		}
		return time.Since(t0), nil
	}
	var total time.Duration
	for done := 0; done < calls; {
		k := min(max(b.copies, 1), calls-done)
		b.restore(k)
		t0 := time.Now()
		for j := 0; j < k; j++ {
			if err := b.call(ctx, j); err != nil {
				return 0, err
			}
		}
		total += time.Since(t0)
		done += k
	}
	return total, nil
}

// verify makes one call from fresh inputs and checks its result.
func (b *boundCase) verify(ctx context.Context) error {
	if b.restore != nil {
		b.restore(1)
	}
	if b.poison != nil {
		b.poison()
	}
	if err := b.call(ctx, 0); err != nil {
		return fmt.Errorf("call failed: %w", err)
	}
	return b.check()
}

// kernelFiles are the op's kernel sources, derived from its package's
// imports (kernelFilesOf) under the module root: their hash is the table's
// kernels= provenance, and when it changes the table is stale.
func (t *opTuner) kernelFiles(root string) ([]string, error) {
	return kernelFilesOf(root, t.op.Name())
}

// hashExempt are the packages of the module an op imports that are not
// part of its kernels hash: the selection core, its trace lines and its
// coverage instrument, and the guarded file access and message cutting
// they share. They decide which kernel a call runs, not what a
// pinned candidate computes. The exception is a nested call (potrf's and
// trsm's blocked kernels call trsm and gemm through their entry points),
// which picks from the other op's table: re-tuning gemm can change the time
// of potrf's blocked without changing potrf's hash (docs/tuning.md).
var hashExempt = []string{"select", "trace", "coverage", "internal/safefile", "internal/quote"}

var tuners = map[string]*opTuner{}

// registerTuner is called by each <op>_spec.go from init.
func registerTuner(t *opTuner) {
	if _, dup := tuners[t.op.Name()]; dup {
		panic("tune: two specs for op " + t.op.Name())
	}
	tuners[t.op.Name()] = t
}

// tunerNames lists the ops the tuner can time, sorted.
func tunerNames() []string {
	var out []string
	for name := range tuners {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// selectTuners resolves --op: a comma-separated list of op names or "all".
func selectTuners(list string) ([]*opTuner, error) {
	var out []*opTuner
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(strings.ToLower(name))
		if name == "" {
			continue
		}
		if name == "all" {
			for _, n := range tunerNames() {
				if !seen[n] {
					seen[n] = true
					out = append(out, tuners[n])
				}
			}
			continue
		}
		t, ok := tuners[name]
		if !ok {
			return nil, fmt.Errorf("--op: no op %s (have: %s, or all)", quote.Q(name), strings.Join(tunerNames(), ", "))
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--op: name at least one op (%s, or all)", strings.Join(tunerNames(), ", "))
	}
	return calleesFirst(out), nil
}

// callees are the other ops whose kernels t's kernels call, read from its
// kernel sources (ops/<name>/...), each before the ops it calls itself
// (trsm before gemm), by name otherwise. Outside the module (no sources to
// read) there are none, and the run's kernels hash reports why.
func (t *opTuner) callees() []string {
	out := t.opsCalled()
	reach := func(name string) int {
		if u := tuners[name]; u != nil {
			return len(u.opsCalled())
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if d := reach(b) - reach(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// opsCalled is callees in no particular order.
func (t *opTuner) opsCalled() []string {
	var out []string
	root, err := moduleRoot()
	if err != nil {
		return nil
	}
	files, err := t.kernelFiles(root)
	if err != nil {
		return nil
	}
	for _, f := range files {
		rest, ok := strings.CutPrefix(f, "ops/")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if name != t.op.Name() && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// calleesFirst orders ops so that every op comes after the selected ops it
// calls (gemm, then trsm, then potrf) or whose entry points make its inputs
// (inputsBy: getrf before getrs), otherwise keeping the given order: a
// run writes each op's table before it measures the ops that call it, and
// their blocked kernels' nested decisions read that fresh table.
func calleesFirst(ts []*opTuner) []*opTuner {
	var out []*opTuner
	placed := map[string]bool{}
	for len(out) < len(ts) {
		progress := false
		for _, t := range ts {
			if placed[t.op.Name()] {
				continue
			}
			ready := true
			for _, c := range append(t.callees(), t.inputsBy...) {
				if !placed[c] && slices.ContainsFunc(ts, func(u *opTuner) bool { return u.op.Name() == c }) {
					ready = false
				}
			}
			if ready {
				placed[t.op.Name()] = true
				out = append(out, t)
				progress = true
			}
		}
		if !progress { // a cycle: keep the given order for the rest
			for _, t := range ts {
				if !placed[t.op.Name()] {
					placed[t.op.Name()] = true
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// selectDTypes resolves --dtype against what an op compiles.
func selectDTypes(list string) ([]sel.DType, error) {
	var out []sel.DType
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		switch sel.DType(s) {
		case sel.Float32, sel.Float64:
			if !containsDType(out, sel.DType(s)) {
				out = append(out, sel.DType(s))
			}
		case "":
		default:
			return nil, fmt.Errorf("--dtype: %s: want float32, float64 or both comma-separated", quote.Q(s))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--dtype: name float32, float64 or both")
	}
	return out, nil
}

func containsDType(ds []sel.DType, d sel.DType) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}
