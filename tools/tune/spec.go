package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// opTuner is what the tuner knows about one op beyond its selection spec:
// the op's measurement (sel.Measure), declared next to its kernels in
// ops/<op>/trial.go, in the tuner's terms (cells). The grid itself comes
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
	// from seed: one sel.Trial, which every candidate binds to
	// (sel.Trial.Bind) under its strict pin.
	newCase func(dt sel.DType, c cell, seed uint64) (sel.Trial, error)
	// problem says why a cell of the grid is no call of the op (nil when
	// it is one): such cells are skipped like cells over the caps.
	problem func(c cell) error
}

// tunerOf is the tuner's view of an op's measurement.
func tunerOf(op *sel.Op, m *sel.Measure) *opTuner {
	return &opTuner{
		op:       op,
		inputsBy: slices.Clone(m.InputsBy),
		flops:    func(c cell) float64 { return m.Flops(c.key()) },
		elems:    func(c cell) float64 { return m.Elems(c.key()) },
		newCase: func(dt sel.DType, c cell, seed uint64) (sel.Trial, error) {
			return m.New(dt, c.key(), seed)
		},
		problem: func(c cell) error {
			if m.Problem == nil {
				return nil
			}
			return m.Problem(c.key())
		},
	}
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

// tuners are the ops the tuner can time: every registered op that declares
// its measurement (ops/<op>/trial.go; the ops are linked by ops.go), by
// name.
var tuners = registeredTuners()

func registeredTuners() map[string]*opTuner {
	out := map[string]*opTuner{}
	for _, op := range sel.Ops() {
		if m := op.Measurement(); m != nil {
			out[op.Name()] = tunerOf(op, m)
		}
	}
	return out
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
