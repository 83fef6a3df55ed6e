package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	sel "github.com/batchlas-go/batchlas/select"
)

// The confirmation pass runs after the grid and the refinement. A row's
// leave-one-out regret says what the table loses there if the row were
// missing: the nearest other row stands in, and its first choice runs. A
// large regret is either a real cliff between two close sizes or a ranking
// made by a disturbed measurement (a sub-microsecond cell on a shared
// machine, where even the wake-up of a second worker varies by tens of
// microseconds). Measuring both rows again tells the two apart. Each
// candidate's time becomes the fastest of its measurements, because load
// from elsewhere only ever adds time. A real cliff survives that and noise
// does not. A cell is measured again at most confirmRounds times, so the
// pass costs a few cells per fragile row, and it never moves a row or adds
// one.

// confirmRegret is the leave-one-out regret above which a row and the row
// standing in for it are measured again. It sits between check's
// geometric-mean target (1.05) and its worst-row target (1.5): rows that
// fragile are the ones a single disturbed timing can push past 1.5.
const confirmRegret = 1.25

// confirmNear is how far apart, as a ratio on every log key, a row and its
// stand-in may be for the row to be measured again (exact keys equal): a
// step or two of the finest refinement. On a sparse design a row whose
// nearest other row is farther mispredicts because nothing measured lies
// between them, not because of noise: that is what refinement is for, and
// measuring it again would only spend the budget.
const confirmNear = 1.5

// nearRows reports whether rows a and b of t have equal exact keys and log
// keys within confirmNear of each other.
func nearRows(t *sel.Table, a, b *sel.Row) bool {
	for i, k := range t.Keys {
		if k.Kind == sel.Exact {
			if a.Key.Str(i) != b.Key.Str(i) {
				return false
			}
			continue
		}
		x, y := float64(a.Key.Int(i)), float64(b.Key.Int(i))
		if max(x, y) > confirmNear*min(x, y) {
			return false
		}
	}
	return true
}

// confirmRounds bounds the passes: a row measured again can change the
// winner of its neighbour and make another row fragile, measured in the
// next round.
const confirmRounds = 3

// confirm measures again the cells of fragile rows of one op and dtype, and
// keeps each candidate's faster time.
func (r *opRun) confirm(ctx context.Context, cfg *runConfig, p opPlan, dev *sel.Device, prog *progress, st *runStats) error {
	for round := 0; round < confirmRounds; round++ {
		cells, err := r.fragileCells(p.dt, dev)
		if err != nil {
			return err
		}
		if len(cells) == 0 {
			return nil
		}
		g := cfg.est.group(p.t, p.dt)
		prog.grow(g.name(), len(cells), g.costs(cells))
		for _, c := range cells {
			prog.start(fmt.Sprintf("%s %s %s (confirming)", p.t.op.Name(), p.dt, c))
			t0 := time.Now()
			again, err := measureCell(ctx, p.t, p.dt, c, r.settingsFor(cfg, p.dt, c))
			if err != nil {
				return err
			}
			i := r.resultIndex(p.dt, c)
			merged := mergeMeasurements(p.t.op, p.dt, r.results[p.dt][i], again)
			merged.Device, merged.Revision, merged.Kernels = dev.Label()+profileSuffix(cfg.profile), p.t.op.Spec().Revision, r.kernels
			if w := r.results[p.dt][i].Wall; w != nil {
				// The first measurement's time stays; this one's is added
				// to the confirmations' (when this host measured both).
				w2 := *w
				if w.Host == hostLine(dev) {
					w2.AgainMS += durationMS(time.Since(t0))
				}
				merged.Wall = &w2
			}
			if err := r.ledger.record(merged); err != nil {
				return err
			}
			r.results[p.dt][i] = merged
			st.confirmed++
			prog.finish(g.name(), g.cost(c))
		}
	}
	return nil
}

// fragileCells are the cells of every row whose leave-one-out regret
// exceeds confirmRegret, and of the rows that stood in for them, that have
// not been measured again yet. A cell is measured again once: on a sparse
// design a row next to a real boundary stays fragile however often it is
// measured, and a second measurement already removes what one disturbed
// timing did.
func (r *opRun) fragileCells(dt sel.DType, dev *sel.Device) ([]cell, error) {
	t, err := r.sectionTable(dt, dev)
	if err != nil {
		return nil, fmt.Errorf("confirming %s %s: %w", r.t.op.Name(), dt, err)
	}
	rep := leaveOneOut(t, dt, r.t.op, dev)
	var out []cell
	seen := map[string]bool{}
	add := func(row *sel.Row) {
		c := rowCell(t, row, r.t.op)
		i := r.resultIndex(dt, c)
		if seen[c.String()] || i < 0 || r.results[dt][i].Again > 0 {
			return
		}
		seen[c.String()] = true
		out = append(out, c)
	}
	for _, rr := range rep.rows {
		if math.IsNaN(rr.slowdown) || rr.slowdown <= confirmRegret || rr.from == nil || !nearRows(t, rr.row, rr.from) {
			continue
		}
		add(rr.row)
		add(rr.from)
	}
	return out, nil
}

// sectionTable is the table section dt would be if written now, parsed back
// the way the selection core reads it.
func (r *opRun) sectionTable(dt sel.DType, dev *sel.Device) (*sel.Table, error) {
	prov := provenance{op: r.t.op.Name(), device: dev.Key, identity: dev.Identity, revision: r.t.op.Spec().Revision,
		kernels: r.kernels, date: time.Now()}
	prov.deviceFacts(dev)
	doc := &tableDoc{header: prov.header(), keys: r.t.op.Keys()}
	if sec := r.section(dt); len(sec.rows) > 0 {
		doc.sections = []tableSection{sec}
	}
	return sel.ParseTable(tableFileName(r.t.op.Name(), dev.Label()), doc.bytes(), r.t.op)
}

// resultIndex is the position of cell c in the results of dt, -1 if absent.
func (r *opRun) resultIndex(dt sel.DType, c cell) int {
	want := c.String()
	for i, res := range r.results[dt] {
		if newCell(r.t.op.Keys(), res.Vals).String() == want {
			return i
		}
	}
	return -1
}

// mergeMeasurements combines the measurements so far of one cell (a) with
// a new one (b): each candidate keeps the faster of its times (and the
// noise flag of the measurement it came from), a candidate that failed
// verification in either is dropped and reported, and the entries are
// ranked again by the tie rule.
func mergeMeasurements(op *sel.Op, dt sel.DType, a, b cellResult) cellResult {
	out := a
	out.Again = a.Again + 1
	out.Bad = nil
	bad := map[string]bool{}
	for _, n := range append(append([]note(nil), a.Bad...), b.Bad...) {
		if !bad[n.Spelling] { // reported once, however often it failed
			out.Bad = append(out.Bad, n)
		}
		bad[n.Spelling] = true
	}
	best := map[string]entry{}
	noisy, screened := map[string]bool{}, map[string]bool{}
	for _, r := range []cellResult{a, b} {
		for _, e := range r.Entries {
			if cur, ok := best[e.Spelling]; !ok || e.MS < cur.MS {
				best[e.Spelling] = e
				noisy[e.Spelling] = slices.Contains(r.Noisy, e.Spelling)
				screened[e.Spelling] = slices.Contains(r.Screened, e.Spelling)
			}
		}
	}
	var es []entry
	out.Noisy, out.Screened = nil, nil
	for _, ch := range op.Candidates(dt) {
		s := ch.String()
		if e, ok := best[s]; ok && !bad[s] {
			es = append(es, e)
			if noisy[s] {
				out.Noisy = append(out.Noisy, s)
			}
			if screened[s] {
				out.Screened = append(out.Screened, s)
			}
		}
	}
	out.Entries = rankEntries(withOrder(op, dt, es))
	return out
}
