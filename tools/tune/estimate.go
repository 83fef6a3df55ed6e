package main

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strconv"
	"time"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// How long a run takes. The cost model (runConfig.cellCost) prices a cell
// from its flops at --plan-gflops and the protocol's timings; it knows
// nothing of a machine's speed, of what making and checking a cell's inputs
// costs (getrs's factors come from a getrf), or of how many cells
// refinement and confirmation add, and on the 2-core machine one op took 6x
// its modelled time while another took half. So:
//
//   - Each measured cell's wall time goes into the ledger (wallRecord),
//     with the host that measured it and the protocol it used.
//   - --plan with --ledger fits, per op and dtype, wall = a + b*model over
//     the cells of that ledger measured on this host (fitCost), and the
//     time refinement and confirmation took as a fraction of the grid's.
//     A ledger of another host is not fitted, and the plan says so.
//   - The progress ETA (etaState) prices what is left at the plan's
//     estimate times the rate observed so far in this run: per op and
//     dtype once it has started, blended with the plan while little of it
//     is done, and the run's overall rate for those not started.

// hostLine names the machine a cell's wall time was measured on: the CPU's
// name and its cores as the table header spells them, and the scheduler's
// threads when GOMAXPROCS differs from the cores. A ledger measured
// elsewhere (another CPU, another core count) is not fitted.
func hostLine(d *sel.Device) string {
	s := "host=" + strconv.Quote(hostName(d)) + " cores=" + strconv.Itoa(d.Cores)
	if p := runtime.GOMAXPROCS(0); p != d.Cores {
		s += " procs=" + strconv.Itoa(p)
	}
	return s
}

// minFitCells is the fewest ledger cells an op and dtype is fitted on; with
// fewer, both dtypes of the op are fitted together, and with fewer still
// the plan uses the model.
const minFitCells = 5

// modelExtra is the share refinement and confirmation add to the grid's
// time when no ledger tells: the express run of potrf on the 2-core
// machine measured 13 refinement cells and confirmed 24 on 272 grid cells.
// It is at most the --refine-max share of cells.
const modelExtra = 0.15

// costFit prices a cell of one op and dtype on this host: a + b*model ms,
// model being the cost model's estimate, and extra times that again for the
// refinement and confirmation cells the grid brings.
type costFit struct {
	a, b  float64
	extra float64
	cells int // ledger cells it was fitted on
}

func (f *costFit) cost(model float64) float64 { return f.a + f.b*model }

// costPoint is one ledger cell for the fit: the cost model's estimate of
// it, and its wall time (first measurement; again for its confirmations).
type costPoint struct {
	model, ms, againMS float64
	refined            bool
}

// fitCost fits wall = a + b*model by least squares over points, with a and
// b kept non-negative (b = 0: every cell costs the mean; a = 0: the ratio of
// the sums, which keeps the total). Either way the fit's sum over the points
// equals theirs, so the same grid measured again is priced at what it took.
// extra is the time of refinement cells and confirmations over the time of
// the grid cells. ok is false when fewer than minFitCells points are
// usable (finite, model > 0, wall >= 0).
func fitCost(points []costPoint) (f costFit, ok bool) {
	var n, sm, sw, grid, extra float64
	var use []costPoint
	for _, p := range points {
		if !(p.model > 0) || !finite(p.model) || !(p.ms >= 0) || !finite(p.ms) {
			continue
		}
		if !(p.againMS >= 0) || !finite(p.againMS) {
			p.againMS = 0
		}
		use = append(use, p)
		n++
		sm += p.model
		sw += p.ms
		if p.refined {
			extra += p.ms
		} else {
			grid += p.ms
		}
		extra += p.againMS
	}
	if len(use) < minFitCells || !finite(sm) || !finite(sw) {
		return costFit{}, false
	}
	mm, mw := sm/n, sw/n
	var sxx, sxy float64
	for _, p := range use {
		sxx += (p.model - mm) * (p.model - mm)
		sxy += (p.model - mm) * (p.ms - mw)
	}
	f.cells = len(use)
	switch {
	case !(sxx > 1e-12*mm*mm*n) || !finite(sxx) || !finite(sxy):
		f.b = sw / sm // all cells alike: the ratio
	default:
		f.b = sxy / sxx
		f.a = mw - f.b*mm
		if f.b < 0 {
			f.a, f.b = mw, 0
		} else if f.a < 0 {
			f.a, f.b = 0, sw/sm
		}
	}
	if grid > 0 {
		f.extra = extra / grid
	}
	if !finite(f.a) || !finite(f.b) || !finite(f.extra) {
		return costFit{}, false
	}
	return f, true
}

// groupPlan is the estimate of one op and dtype of a run.
type groupPlan struct {
	opPlan
	cfg *runConfig
	// fit prices its cells on this host; nil when the model does.
	fit *costFit
	// fitFrom says what the fit was made of ("potrf float64", or "potrf"
	// for both dtypes together).
	fitFrom string
	// resumed counts the grid cells the ledger already has (current
	// kernels): a run takes them from it at no cost.
	resumed map[string]bool
	// grid is the estimate of the grid cells to measure, extra of the
	// refinement and confirmation cells they bring, both in ms; fresh is
	// both for a run that resumes nothing.
	grid, extra, fresh float64
}

func (g *groupPlan) name() string { return g.t.op.Name() + " " + string(g.dt) }

// cost is the plan's estimate of one cell of the group, in ms.
func (g *groupPlan) cost(c cell) float64 {
	m := g.cfg.cellCost(g.t, g.dt, c)
	if g.fit != nil {
		return g.fit.cost(m)
	}
	return m
}

// costs is the plan's estimate of cells of the group, in ms.
func (g *groupPlan) costs(cells []cell) float64 {
	sum := 0.0
	for _, c := range cells {
		sum += g.cost(c)
	}
	return sum
}

// total is the estimate of the group, refinement and confirmation
// included, in ms.
func (g *groupPlan) total() float64 { return g.grid + g.extra }

// runEstimate is a run's plan: per op and dtype, and what it rests on.
type runEstimate struct {
	groups []*groupPlan
	// source says what the estimate rests on, for the plan's last line.
	source string
}

func (e *runEstimate) group(t *opTuner, dt sel.DType) *groupPlan {
	if e == nil {
		return nil
	}
	for _, g := range e.groups {
		if g.t == t && g.dt == dt {
			return g
		}
	}
	return nil
}

// total is the estimate of the whole run, in ms.
func (e *runEstimate) total() float64 {
	sum := 0.0
	for _, g := range e.groups {
		sum += g.total()
	}
	return sum
}

// fresh is the estimate of the whole run resuming nothing, in ms.
func (e *runEstimate) fresh() float64 {
	sum := 0.0
	for _, g := range e.groups {
		sum += g.fresh
	}
	return sum
}

// ledgerView is what the estimate needs of an op's ledger: nil ledger
// when there is none, or err when it could not be read.
type ledgerView struct {
	l   *ledger
	err error
}

// estimate prices the plans. ledgers holds each op's ledger by op name
// (read or opened for this run; none without --ledger). host is hostLine
// of this machine: only its cells are fitted.
func (cfg *runConfig) estimate(plans []opPlan, ledgers map[string]ledgerView, host string) *runEstimate {
	e := &runEstimate{}
	var why estimateWhy
	why.host = host
	type opPoints struct {
		all   []costPoint
		by    map[sel.DType][]costPoint
		model bool // some group of the op priced by the model
	}
	ops := map[string]*opPoints{}
	var opOrder []string
	for _, p := range plans {
		name := p.t.op.Name()
		if ops[name] != nil {
			continue
		}
		op := &opPoints{by: map[sel.DType][]costPoint{}}
		ops[name] = op
		opOrder = append(opOrder, name)
		lv := ledgers[name]
		if lv.err != nil {
			why.unread++
			why.unreadErr = lv.err
		}
		if lv.l == nil {
			continue
		}
		why.oldCells += lv.l.unwalled
		why.badLines += len(lv.l.invalid)
		for _, r := range lv.l.timed {
			pt, ok := cfg.ledgerPoint(p.t, r)
			if !ok {
				continue
			}
			if r.Wall.Host != host {
				why.otherCells++
				why.otherHost = r.Wall.Host
				continue
			}
			op.all = append(op.all, pt)
			op.by[r.DType] = append(op.by[r.DType], pt)
		}
	}
	for _, p := range plans {
		name := p.t.op.Name()
		op := ops[name]
		g := &groupPlan{opPlan: p, cfg: cfg, resumed: map[string]bool{}}
		e.groups = append(e.groups, g)
		if l := ledgers[name].l; l != nil {
			for _, c := range p.cells {
				if _, ok := l.lookup(p.dt, c); ok {
					g.resumed[c.String()] = true
				}
			}
		}
		if f, ok := fitCost(op.by[p.dt]); ok {
			g.fit, g.fitFrom = &f, g.name()
		} else if f, ok := fitCost(op.all); ok {
			g.fit, g.fitFrom = &f, name
		} else {
			op.model = true
		}
		all := 0.0
		for _, c := range p.cells {
			all += g.cost(c)
			if !g.resumed[c.String()] {
				g.grid += g.cost(c)
			}
		}
		share := cfg.modelExtraShare()
		if g.fit != nil {
			share = g.fit.extra
		}
		// The express profile's deferred cells: the share a run ends up
		// measuring where this machine disagrees with the prior.
		deferred := 0.0
		for _, c := range p.deferred {
			deferred += settleShare * g.cost(c)
		}
		g.extra = share*g.grid + deferred
		g.fresh = (1+share)*all + deferred
	}
	for _, name := range opOrder {
		op := ops[name]
		if op.model {
			why.modelOps++
		} else {
			why.fittedOps++
			why.fitted += len(op.all)
		}
	}
	e.source = cfg.sourceText(why)
	return e
}

// estimateWhy is what the plan's last line says about the estimate.
type estimateWhy struct {
	host              string
	fitted, fittedOps int // cells and ops fitted on this machine's ledger
	modelOps          int // ops (some of) whose dtypes the model prices
	otherCells        int // ledger cells of another machine
	otherHost         string
	oldCells          int // ledger records without wall times
	badLines          int // ledger lines that are not usable records
	unread            int // ledgers that could not be read
	unreadErr         error
}

// modelExtraShare is modelExtra within the run's refinement limit.
func (cfg *runConfig) modelExtraShare() float64 {
	if !cfg.refine {
		return modelExtra / 3 // confirmation alone
	}
	if cfg.refineMax >= 0 {
		return min(modelExtra, cfg.refineMax+modelExtra/3)
	}
	return modelExtra
}

// ledgerPoint turns a ledger record of t into a point of the fit, its model
// computed again with the record's own protocol and candidate count.
func (cfg *runConfig) ledgerPoint(t *opTuner, r cellResult) (costPoint, bool) {
	w := r.Wall
	keys := t.op.Keys()
	if w == nil || len(r.Vals) != len(keys) || w.Reps < 1 || !(w.TargetMS >= 0) || !finite(w.TargetMS) {
		return costPoint{}, false
	}
	for i, k := range keys {
		if checkValue(k, r.Vals[i]) != nil {
			return costPoint{}, false
		}
	}
	n := len(r.Entries) + len(r.Skipped) + len(r.Bad)
	if n == 0 {
		return costPoint{}, false
	}
	m := modelCost(t.flops(newCell(keys, r.Vals)), n, w.Reps, w.TargetMS, cfg.planGFlops, cfg.measure.proto.screen > 1)
	return costPoint{model: m, ms: w.MS, againMS: w.AgainMS, refined: w.Refined}, true
}

// sourceText says what an estimate rests on.
func (cfg *runConfig) sourceText(w estimateWhy) string {
	model := fmt.Sprintf("the model at %g GFLOP/s, with %.0f%% for refinement and confirmation", cfg.planGFlops, 100*cfg.modelExtraShare())
	if w.fittedOps == 0 {
		var why string
		switch {
		case cfg.ledgerDir == "":
			why = "no ledger: --ledger DIR fits the estimate on an earlier run's wall times"
		case w.unread > 0:
			why = fmt.Sprintf("the ledger %s could not be read: %v", cfg.ledgerDir, w.unreadErr)
		case w.otherCells > 0:
			why = fmt.Sprintf("the ledger %s was measured on another machine (%d cells, %s; this is %s): not used", cfg.ledgerDir, w.otherCells, w.otherHost, w.host)
		case w.oldCells > 0:
			why = fmt.Sprintf("the ledger %s has %d cells without wall times (written before they were recorded): not used", cfg.ledgerDir, w.oldCells)
		case w.badLines > 0:
			why = fmt.Sprintf("the ledger %s has %d lines that are not usable records and no cells with wall times", cfg.ledgerDir, w.badLines)
		default:
			why = fmt.Sprintf("no cells of these ops in the ledger %s", cfg.ledgerDir)
		}
		return model + " (model, " + why + ")"
	}
	s := fmt.Sprintf("fitted on %d cells of the ledger %s measured on this machine (%s), refinement and confirmation included", w.fitted, cfg.ledgerDir, w.host)
	if w.modelOps > 0 {
		s += fmt.Sprintf("; for %d op(s) without enough cells there, %s", w.modelOps, model)
	}
	if w.otherCells > 0 {
		s += fmt.Sprintf("; %d cells of another machine (%s) not used", w.otherCells, w.otherHost)
	}
	return s
}

// planLedgers reads each op's ledger for --plan without writing anything:
// none without --ledger, an empty view where the file does not exist.
func (cfg *runConfig) planLedgers(dev *sel.Device) map[string]ledgerView {
	out := map[string]ledgerView{}
	if cfg.ledgerDir == "" {
		return out
	}
	root, rootErr := moduleRoot()
	for _, t := range cfg.tuners {
		kernels := "unknown"
		if h, err := currentKernelsHash(root, rootErr, t); err == nil {
			kernels = h
		}
		l, f, err := readLedger(cfg.ledgerDir, t.op, dev.Label()+profileSuffix(cfg.profile), t.op.Spec().Revision, kernels)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out[t.op.Name()] = ledgerView{}
		case err != nil:
			out[t.op.Name()] = ledgerView{err: err}
		default:
			f.Close()
			out[t.op.Name()] = ledgerView{l: l}
		}
	}
	return out
}

// planHost is hostLine of the machine the tuner runs on.
func planHost() string { return hostLine(batchlas.Host()) }

// etaState is the progress estimate: per op and dtype, the plan's estimate
// of the cells known so far and what the measured ones took.
type etaState struct {
	groups map[string]*etaGroup
	order  []string
}

type etaGroup struct {
	planned  float64 // ms: the plan's estimate of every cell known so far
	reserve  float64 // ms: the plan's estimate of refinement and confirmation not yet known
	measured float64 // ms: the plan's estimate of the cells measured so far
	took     float64 // ms: what they took
	skipped  float64 // ms: the plan's estimate of cells taken from the ledger
	ended    bool
}

// etaPrior and etaGroupPrior are how much planned work the plan counts as,
// as a share of the run's and of a group's: while less than that has been
// measured the rate leans on the plan (on the run's rate, for a group), so
// the first few cells, often tiny ones, do not swing the estimate.
const (
	etaPrior      = 0.05
	etaGroupPrior = 0.2
)

func newETA() *etaState { return &etaState{groups: map[string]*etaGroup{}} }

func (e *etaState) group(name string) *etaGroup {
	g := e.groups[name]
	if g == nil {
		g = &etaGroup{}
		e.groups[name] = g
		e.order = append(e.order, name)
	}
	return g
}

// add plans cells of a group (planned ms) and the reserve expected for the
// cells refinement and confirmation will add.
func (e *etaState) add(name string, planned, reserve float64) {
	g := e.group(name)
	g.planned += clean(planned)
	g.reserve += clean(reserve)
}

// grow adds cells found along the way; they use up the group's reserve.
func (e *etaState) grow(name string, planned float64) {
	g := e.group(name)
	planned = clean(planned)
	g.planned += planned
	g.reserve = max(g.reserve-planned, 0)
}

// done counts a measured cell: its planned ms and the ms it took.
func (e *etaState) done(name string, planned, took float64) {
	g := e.group(name)
	g.measured += clean(planned)
	g.took += clean(took)
}

// skip counts a cell taken from the ledger (or abandoned): no time.
func (e *etaState) skip(name string, planned float64) {
	e.group(name).skipped += clean(planned)
}

// end marks a group finished: nothing of it is left.
func (e *etaState) end(name string) { e.group(name).ended = true }

// remaining is the estimated time left, in ms; false when nothing can be
// said yet.
func (e *etaState) remaining() (float64, bool) {
	var took, measured, total float64
	for _, name := range e.order {
		g := e.groups[name]
		took += g.took
		measured += g.measured
		total += g.planned + g.reserve
	}
	prior := max(etaPrior*total, 1e-3)
	run := (took + prior) / (measured + prior)
	left := 0.0
	for _, name := range e.order {
		g := e.groups[name]
		if g.ended {
			continue
		}
		todo := max(g.planned+g.reserve-g.measured-g.skipped, 0)
		gp := max(etaGroupPrior*(g.planned+g.reserve), 1e-3)
		rate := (g.took + gp*run) / (g.measured + gp)
		left += todo * rate
	}
	if !finite(left) || left < 0 {
		return 0, false
	}
	return left, true
}

// clean maps what is not a finite, non-negative number to 0.
func clean(x float64) float64 {
	if !finite(x) || x < 0 {
		return 0
	}
	return x
}

// etaText is a time left rounded for display, so it does not flicker.
func etaText(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case d >= 10*time.Minute:
		return d.Round(time.Minute).String()
	case d >= time.Minute:
		return d.Round(10 * time.Second).String()
	}
	return max(d.Round(time.Second), time.Second).String()
}
