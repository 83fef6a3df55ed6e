package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// measureSettings are the knobs of one measurement of a cell.
type measureSettings struct {
	proto protocol
	seed  uint64
	// maxBytes is the memory cap a cell's operands must fit before they
	// are allocated (--max-cell-bytes; 0 means defaultMaxCellBytes).
	maxBytes int64
	// keep, when not nil, names the only candidates timed (by spelling):
	// the express profile's pick from a prior table (prior.go). The others
	// are neither run nor listed in the cell's result.
	keep map[string]bool
}

// newCellCase makes a cell's inputs once the cell is known to fit the
// memory cap. Every measurement (run, validate, bench) allocates through
// it, so no command can ask for more memory than the cap, whatever keys it
// is given.
func newCellCase(t *opTuner, dt sel.DType, c cell, ms measureSettings) (sel.Trial, error) {
	if err := memoryErr(t, dt, c, ms.maxBytes); err != nil {
		return nil, err
	}
	return t.newCase(dt, c, ms.seed)
}

// candidateRun is one candidate bound to a cell, ready to time.
type candidateRun struct {
	choice sel.Choice
	order  int // position in the candidate list
	bound  *sel.Bound
	ctx    context.Context // carries the candidate's strict pin
}

// prepareCandidates binds every candidate of dt to the cell's inputs oc
// under a strict pin, verifies its result and warms it up. Candidates whose
// pin is refused are skipped; candidates with a wrong result are bad. Both
// are reported in res; the rest are returned, with their calls per timing.
func prepareCandidates(ctx context.Context, t *opTuner, dt sel.DType, oc sel.Trial, ms measureSettings, res *cellResult) ([]candidateRun, []int, error) {
	var runs []candidateRun
	var calls []int
	for i, ch := range t.op.Candidates(dt) {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if ms.keep != nil && !ms.keep[ch.String()] {
			continue
		}
		pctx := sel.WithStrictPin(ctx, t.op.Name(), ch.String())
		b, err := oc.Bind(pctx)
		if err != nil {
			res.Skipped = append(res.Skipped, note{ch.String(), err.Error()})
			continue
		}
		// The verified call is also the first warm-up call.
		if err := b.Verify(pctx); err != nil {
			res.Bad = append(res.Bad, note{ch.String(), err.Error()})
			continue
		}
		// A second warm-up call, then one timed call to size the timings.
		if _, err := b.Run(pctx, 1); err != nil {
			res.Bad = append(res.Bad, note{ch.String(), "warm-up call failed: " + err.Error()})
			continue
		}
		one, err := b.Run(pctx, 1)
		if err != nil {
			res.Bad = append(res.Bad, note{ch.String(), "timed call failed: " + err.Error()})
			continue
		}
		runs = append(runs, candidateRun{choice: ch, order: i, bound: b, ctx: pctx})
		calls = append(calls, ms.proto.calibrate(one))
	}
	return runs, calls, nil
}

// measureGCPercent is the garbage collector's target while a cell is
// timed. Every call of an op allocates a few small objects, so with the
// default target a collection landed every few milliseconds, and which
// candidate's timing it fell into decided rankings of sub-microsecond
// cells: repeated runs of one cell disagreed by 20-50%. With a heap
// collected (or grown little since: quietGC) at the start of each cell and
// a high target, collections stay out of
// the timings; the allocations are the same for every candidate (they come
// from the op's entry point), so the ranking is unchanged by leaving their
// collection out.
const measureGCPercent = 2000

// quietGC collects the heap where it has grown since the last collection
// and raises the collector's target until the returned function restores
// it.
func quietGC() (restore func()) {
	if heapGrown() {
		runtime.GC()
	}
	old := debug.SetGCPercent(measureGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// quietGrowth is how far the heap may have grown past what the last
// collection left live, as a share of it, and still count as collected
// for quietGC. A collection forced at every cell cost more than the
// timings of the tiny cells (a quarter of an express run's CPU on the grid
// of gemm's orders 1 to 4, on the Intel Xeon guest): at a quarter, no
// collection has been triggered since (the default target starts one near
// twice the live heap), so none is running, and with the raised target
// the heap has room for twenty times more before one starts.
const quietGrowth = 0.25

// heapGrown reports whether the heap holds more than quietGrowth of the
// last collection's live heap in new objects.
func heapGrown() bool {
	ms := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(ms)
	if ms[0].Value.Kind() != metrics.KindUint64 || ms[1].Value.Kind() != metrics.KindUint64 {
		return true // a runtime without these metrics: collect, as always
	}
	live, now := ms[0].Value.Uint64(), ms[1].Value.Uint64()
	return float64(now) > (1+quietGrowth)*float64(live)
}

// measureCell runs the whole protocol on one cell for one dtype. A
// candidate the op declares a twin of an earlier one on this cell
// (OpSpec.Twin) is verified but not timed: it gets the earlier one's time,
// so the tie rule ranks the two by candidate order instead of noise
// ranking identical code, and the neighbouring row, where the two differ,
// does not inherit the noise's pick.
func measureCell(ctx context.Context, t *opTuner, dt sel.DType, c cell, ms measureSettings) (cellResult, error) {
	defer quietGC()()
	res := cellResult{Op: t.op.Name(), DType: dt, Vals: c.vals}
	oc, err := newCellCase(t, dt, c, ms)
	if err != nil {
		return res, err
	}
	runs, calls, err := prepareCandidates(ctx, t, dt, oc, ms, &res)
	if err != nil {
		return res, err
	}
	timedAs := sameComputation(t, dt, c, runs)
	var timers []timer
	var timedCalls []int
	slot := make([]int, len(runs)) // index into timers of run i's time
	for i, r := range runs {
		if timedAs[i] != i {
			slot[i] = slot[timedAs[i]]
			continue
		}
		slot[i] = len(timers)
		timedCalls = append(timedCalls, calls[i])
		timers = append(timers, func(ctx context.Context, n int) (time.Duration, error) {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			return r.bound.Run(r.ctx, n)
		})
	}
	got, err := ms.proto.measure(ctx, timers, timedCalls)
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, fmt.Errorf("%s %s %s: %w", t.op.Name(), dt, c, err)
	}
	res.Entries, res.Noisy, res.Screened = entriesOf(runs, slot, got)
	return res, nil
}

// entriesOf turns the protocol's measurements into a cell's entries: run i
// gets the measurement of timer slot[i] (its own, or the one of the twin
// it is timed as), rounded, ranked by the tie rule; and the candidates
// whose measurement was noisy or screened.
func entriesOf(runs []candidateRun, slot []int, got []measured) (es []entry, noisy, screened []string) {
	for i, r := range runs {
		m := got[slot[i]]
		es = append(es, entry{Spelling: r.choice.String(), Order: r.order, MS: roundMS(m.MS)})
		if m.Noisy {
			noisy = append(noisy, r.choice.String())
		}
		if m.Screened {
			screened = append(screened, r.choice.String())
		}
	}
	return rankEntries(es), noisy, screened
}

// sameComputation maps each run to the run whose timing it shares: itself,
// or the earlier run the op names as its twin on cell c (when that one is
// timed itself).
func sameComputation(t *opTuner, dt sel.DType, c cell, runs []candidateRun) []int {
	out := make([]int, len(runs))
	twin := t.op.Spec().Twin
	for i, r := range runs {
		out[i] = i
		if twin == nil {
			continue
		}
		name := twin(r.choice, dt, c.key(), batchlas.Host())
		for j := range i {
			if name != "" && runs[j].choice.String() == name && out[j] == j {
				out[i] = j
			}
		}
	}
	return out
}

// winner is the first entry of a measured cell, "" when nothing ran.
func (r cellResult) winner() string {
	if len(r.Entries) == 0 {
		return ""
	}
	return r.Entries[0].Spelling
}

// withOrder fills the candidate positions of entries read back from a
// ledger (they are not stored: the candidate list is the source of truth).
func withOrder(op *sel.Op, dt sel.DType, es []entry) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		e.Order = len(op.Candidates(dt))
		for j, ch := range op.Candidates(dt) {
			if ch.String() == e.Spelling {
				e.Order = j
			}
		}
		out[i] = e
	}
	return out
}
