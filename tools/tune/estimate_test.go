package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// A line wall = a + b*model is recovered, and the time of refinement cells
// and confirmations becomes the share of the grid's time it was.
func TestFitCostRecoversAKnownLine(t *testing.T) {
	var pts []costPoint
	grid := 0.0
	for i, m := range []float64{1, 2, 5, 10, 40, 100} {
		p := costPoint{model: m, ms: 3 + 2*m}
		if i == 5 {
			p.refined = true
		} else {
			grid += p.ms
		}
		if i == 1 {
			p.againMS = 7
		}
		pts = append(pts, p)
	}
	f, ok := fitCost(pts)
	require.True(t, ok)
	assert.InDelta(t, 3, f.a, 1e-9)
	assert.InDelta(t, 2, f.b, 1e-9)
	assert.Equal(t, 6, f.cells)
	assert.InDelta(t, (203+7)/grid, f.extra, 1e-12, "the refined cell and the confirmation, over the grid cells")
}

// The fit keeps a and b non-negative and the total of the cells it was
// fitted on; too few usable cells, or only broken ones, give no fit.
func TestFitCostClampsAndRefuses(t *testing.T) {
	sum := func(f costFit, pts []costPoint) (fit, wall float64) {
		for _, p := range pts {
			fit += f.cost(p.model)
			wall += p.ms
		}
		return fit, wall
	}
	// Wall falling with the model: every cell costs the mean.
	down := []costPoint{{model: 1, ms: 10}, {model: 2, ms: 9}, {model: 3, ms: 8}, {model: 4, ms: 7}, {model: 5, ms: 6}}
	f, ok := fitCost(down)
	require.True(t, ok)
	assert.Zero(t, f.b)
	assert.InDelta(t, 8, f.a, 1e-12)
	// A line through below zero: the ratio of the sums.
	steep := []costPoint{{model: 1, ms: 0}, {model: 2, ms: 1}, {model: 3, ms: 10}, {model: 4, ms: 20}, {model: 5, ms: 30}}
	f, ok = fitCost(steep)
	require.True(t, ok)
	assert.Zero(t, f.a)
	got, want := sum(f, steep)
	assert.InDelta(t, want, got, 1e-9)
	// Every cell alike: the ratio.
	same := []costPoint{{model: 2, ms: 6}, {model: 2, ms: 5}, {model: 2, ms: 7}, {model: 2, ms: 6}, {model: 2, ms: 6}}
	f, ok = fitCost(same)
	require.True(t, ok)
	assert.InDelta(t, 3, f.b, 1e-12)

	_, ok = fitCost(down[:minFitCells-1])
	assert.False(t, ok, "too few cells")
	broken := []costPoint{{model: math.NaN(), ms: 1}, {model: 1, ms: math.Inf(1)}, {model: 0, ms: 1}, {model: 1, ms: -1}, {model: -2, ms: 1}, {model: 3, ms: math.NaN()}}
	_, ok = fitCost(broken)
	assert.False(t, ok, "no usable cell")
	f, ok = fitCost(append(broken, down...))
	require.True(t, ok, "the usable cells are fitted, the broken ones left out")
	assert.Equal(t, len(down), f.cells)
	assert.InDelta(t, 8, f.a, 1e-12)
}

// planLedgerTest writes a potrf ledger whose cells took a + b*model ms on
// host, and returns the run's config, its plans and the ledger's dir.
func planLedgerTest(t *testing.T, host string, a, b float64, lines func(cfg *runConfig, plans []opPlan) []cellResult) (*runConfig, []opPlan, string) {
	t.Helper()
	led := t.TempDir()
	cfg, err := parseRunFlags([]string{"--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2:4:8:16:32:64,batch=1:16",
		"--out", t.TempDir(), "--ledger", led, "--plan"}, &bytes.Buffer{}, &bytes.Buffer{})
	require.NoError(t, err)
	plans, err := cfg.plans()
	require.NoError(t, err)
	require.Len(t, plans, 1)
	var recs []cellResult
	if lines != nil {
		recs = lines(cfg, plans)
	} else {
		recs = timedRecords(cfg, plans[0], host, a, b)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		require.NoError(t, err)
		buf.Write(append(line, '\n'))
	}
	path := ledgerPath(led, potrf.Op, batchlas.Host().Label())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return cfg, plans, led
}

// timedRecords are the plan's cells as ledger records of other kernels
// (so none resumes) that took a + b*model ms on host.
func timedRecords(cfg *runConfig, p opPlan, host string, a, b float64) []cellResult {
	var es []entry
	for _, c := range p.t.op.Candidates(p.dt) {
		es = append(es, entry{Spelling: c.String(), MS: 1})
	}
	var out []cellResult
	for _, c := range p.cells {
		model := cfg.cellCost(p.t, p.dt, c)
		out = append(out, cellResult{Op: "potrf", Device: batchlas.Host().Label(), Revision: potrf.Op.Spec().Revision, Kernels: "older",
			DType: p.dt, Vals: c.vals, Entries: es,
			Wall: &wallRecord{Host: host, MS: a + b*model, Reps: cfg.measure.proto.reps, TargetMS: durationMS(cfg.measure.proto.target)}})
	}
	return out
}

func planText(t *testing.T, cfg *runConfig, e *runEstimate) string {
	t.Helper()
	var out bytes.Buffer
	printPlan(&out, cfg, e)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[0] + "\n" + lines[len(lines)-1]
}

// --plan with a ledger of this machine prices each cell at what the
// ledger's cells took, fitted: a ledger whose cells took 5 + 3*model ms
// gives exactly that sum, and the plan says it was fitted.
func TestPlanIsFittedOnThisMachinesLedger(t *testing.T) {
	host := planHost()
	cfg, plans, led := planLedgerTest(t, host, 5, 3, nil)
	e := cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), host)
	want, model := 0.0, 0.0
	for _, c := range plans[0].cells {
		model += cfg.cellCost(plans[0].t, sel.Float64, c)
		want += 5 + 3*cfg.cellCost(plans[0].t, sel.Float64, c)
	}
	assert.InDelta(t, want, e.total(), 1e-6*want, "no refinement or confirmation in the ledger: the grid alone")
	txt := planText(t, cfg, e)
	assert.Contains(t, txt, "fitted on potrf float64)")
	assert.Contains(t, txt, "total: 12 cells, about "+roundDuration(want).String()+": fitted on 12 cells of the ledger "+led+" measured on this machine ("+host+")")

	// The same cells measured with --reps 4 instead of 2 are fitted on
	// the model of the protocol they were measured with.
	cfg2, plans2, _ := planLedgerTest(t, host, 0, 1, func(cfg *runConfig, plans []opPlan) []cellResult {
		recs := timedRecords(cfg, plans[0], host, 0, 1)
		for i := range recs {
			w := *recs[i].Wall
			w.Reps *= 2
			w.MS = modelCost(plans[0].t.flops(plans[0].cells[i]), len(recs[i].Entries), w.Reps, w.TargetMS, cfg.planGFlops, cfg.measure.proto.screen > 1)
			recs[i].Wall = &w
		}
		return recs
	})
	e2 := cfg2.estimate(plans2, cfg2.planLedgers(batchlas.Host()), host)
	assert.InDelta(t, model, e2.total(), 1e-6*model, "cells that took their model's time give the model")
}

// A ledger measured on another machine is never fitted, and the plan says
// so; mixed with this machine's cells, only those are.
func TestPlanIgnoresAnotherMachinesLedger(t *testing.T) {
	other := `host="Other CPU" cores=64`
	cfg, plans, led := planLedgerTest(t, other, 5, 3, nil)
	e := cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), planHost())
	model := 0.0
	for _, c := range plans[0].cells {
		model += cfg.cellCost(plans[0].t, sel.Float64, c)
	}
	assert.InDelta(t, model*(1+cfg.modelExtraShare()), e.total(), 1e-6*model)
	txt := planText(t, cfg, e)
	assert.Contains(t, txt, "; model)")
	assert.Contains(t, txt, "(model, the ledger "+led+" was measured on another machine (12 cells, "+other+"; this is "+planHost()+"): not used)")
	assert.NotContains(t, txt, "fitted")

	host := planHost()
	cfg, plans, _ = planLedgerTest(t, host, 0, 0, func(cfg *runConfig, plans []opPlan) []cellResult {
		return append(timedRecords(cfg, plans[0], other, 1000, 1000), timedRecords(cfg, plans[0], host, 0, 2)...)
	})
	e = cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), host)
	assert.InDelta(t, 2*model, e.total(), 1e-6*model, "the other machine's times are left out")
	assert.Contains(t, planText(t, cfg, e), "fitted on 12 cells of the ledger")
	assert.Contains(t, planText(t, cfg, e), "; 12 cells of another machine ("+other+") not used")
}

// An empty, corrupt, old or unreadable ledger gives the model, and the
// plan says why.
func TestPlanFallsBackToTheModel(t *testing.T) {
	host := planHost()
	write := func(content string) (*runConfig, []opPlan, string) {
		cfg, plans, led := planLedgerTest(t, host, 0, 0, func(*runConfig, []opPlan) []cellResult { return nil })
		require.NoError(t, os.WriteFile(ledgerPath(led, potrf.Op, batchlas.Host().Label()), []byte(content), 0o644))
		return cfg, plans, led
	}
	check := func(cfg *runConfig, plans []opPlan, why string) {
		t.Helper()
		e := cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), host)
		model := 0.0
		for _, c := range plans[0].cells {
			model += cfg.cellCost(plans[0].t, sel.Float64, c)
		}
		assert.InDelta(t, model*(1+cfg.modelExtraShare()), e.total(), 1e-6*model)
		assert.Contains(t, planText(t, cfg, e), "(model, "+why+")")
	}
	cfg, plans, led := write("")
	check(cfg, plans, "no cells of these ops in the ledger "+led)
	cfg, plans, led = write("not json\n{\"op\":\n[1,2]\n")
	check(cfg, plans, "the ledger "+led+" has 3 lines that are not usable records and no cells with wall times")
	old := `{"op":"potrf","device":"` + batchlas.Host().Label() + `","revision":1,"kernels":"k","dtype":"float64","vals":["L","2","1"],"entries":[{"c":"tiny","ms":0.5}]}` + "\n"
	cfg, plans, led = write(old + old)
	check(cfg, plans, "the ledger "+led+" has 2 cells without wall times (written before they were recorded): not used")
	cfg, plans, led = write("")
	require.NoError(t, os.Remove(ledgerPath(led, potrf.Op, batchlas.Host().Label())))
	require.NoError(t, os.Mkdir(ledgerPath(led, potrf.Op, batchlas.Host().Label()), 0o755))
	e := cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), host)
	assert.Contains(t, planText(t, cfg, e), "(model, the ledger "+led+" could not be read: ")

	cfg, err := parseRunFlags([]string{"--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2,batch=1", "--out", t.TempDir(), "--plan"}, &bytes.Buffer{}, &bytes.Buffer{})
	require.NoError(t, err)
	plans, err = cfg.plans()
	require.NoError(t, err)
	check(cfg, plans, "no ledger: --ledger DIR fits the estimate on an earlier run's wall times")
}

// The plan counts the cells the ledger has for the current kernels as
// taken from it, at no cost, and fits on every cell of this machine.
func TestPlanCountsResumedCells(t *testing.T) {
	host := planHost()
	cfg, plans, led := planLedgerTest(t, host, 1, 1, nil)
	recs := timedRecords(cfg, plans[0], host, 1, 1)
	l, err := openLedger(led, potrf.Op, batchlas.Host().Label(), potrf.Op.Spec().Revision, "current")
	require.NoError(t, err)
	for _, r := range recs[:4] {
		r.Kernels = "current"
		require.NoError(t, l.record(r))
	}
	l, err = openLedger(led, potrf.Op, batchlas.Host().Label(), potrf.Op.Spec().Revision, "current")
	require.NoError(t, err)
	e := cfg.estimate(plans, map[string]ledgerView{"potrf": {l: l}}, host)
	g := e.groups[0]
	assert.Len(t, g.resumed, 4)
	want := 0.0
	for _, c := range plans[0].cells[4:] {
		want += 1 + cfg.cellCost(plans[0].t, sel.Float64, c)
	}
	assert.InDelta(t, want, e.total(), 1e-6*want, "the four resumed cells cost nothing")
	fresh := 0.0
	for _, c := range plans[0].cells {
		fresh += 1 + cfg.cellCost(plans[0].t, sel.Float64, c)
	}
	assert.InDelta(t, fresh, e.fresh(), 1e-6*fresh)
	assert.Contains(t, planText(t, cfg, e), "12 cells (4 in the ledger already)")
	assert.Contains(t, planText(t, cfg, e), "total: 12 cells (4 in the ledger already; about "+roundDuration(fresh).String()+" with a new ledger), about "+roundDuration(want).String())
	assert.Contains(t, planText(t, cfg, e), "fitted on 16 cells", "12 of older kernels and 4 of the current ones")
}

// A run writes each cell's wall time, host and protocol into the ledger,
// and a later --plan fits on them; a record without them (an older ledger)
// still resumes.
func TestRunRecordsWallTimes(t *testing.T) {
	out, led := t.TempDir(), t.TempDir()
	args := []string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2:3:4:5:6,batch=2",
		"--out", out, "--ledger", led, "--reps", "1", "--target", "20us", "--refine=false"}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
	assert.Regexp(t, `5 cells measured, 0 from the ledger, .*; took [0-9.]+m?s \(plan: about [0-9.]+m?s\)`, stdout.String())
	data, err := os.ReadFile(ledgerPath(led, potrf.Op, batchlas.Host().Label()))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.GreaterOrEqual(t, len(lines), 5)
	for _, line := range lines {
		var r cellResult
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		require.NotNil(t, r.Wall, line)
		assert.Equal(t, planHost(), r.Wall.Host)
		assert.Positive(t, r.Wall.MS)
		assert.Equal(t, 1, r.Wall.Reps)
		assert.InDelta(t, 0.02, r.Wall.TargetMS, 1e-12)
	}
	stdout.Reset()
	require.Equal(t, 0, mainCode(append(args, "--plan"), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "fitted on 5 cells of the ledger "+led)

	// An old record: no "wall", still resumed.
	old := `{"op":"potrf","device":"x86-64-v4","revision":1,"kernels":"k","dtype":"float64","vals":["L","2","1"],"entries":[{"c":"tiny","ms":0.5}]}` + "\n"
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "potrf.x86-64-v4.ledger.jsonl"), []byte(old), 0o644))
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok := l.lookup(sel.Float64, potrfCell("L", "2", "1"))
	assert.True(t, ok)
	assert.Empty(t, l.timed)
	assert.Equal(t, 1, l.unwalled)
}

// A confirmation keeps the first measurement's wall time and adds its own
// to again_ms; the ledger's last record of the cell is the one fitted.
func TestLedgerKeepsTheLastTimedRecordOfACell(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	c := potrfCell("L", "8", "16")
	r := cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c.vals,
		Entries: []entry{{Spelling: "tiny", MS: 0.5}}, Wall: &wallRecord{Host: "h", MS: 10, Reps: 1, TargetMS: 1}}
	require.NoError(t, l.record(r))
	r.Again, r.Wall = 1, &wallRecord{Host: "h", MS: 10, AgainMS: 9, Reps: 1, TargetMS: 1}
	require.NoError(t, l.record(r))
	l2, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	require.Len(t, l2.timed, 1)
	assert.InDelta(t, 9, l2.timed[0].Wall.AgainMS, 0)
}

// The ETA prices what is left at the plan times the rate seen so far.
func TestETAUsesTheRateSoFar(t *testing.T) {
	e := newETA()
	e.add("gemm float64", 100, 0)
	e.add("potrf float64", 100, 0)
	left, ok := e.remaining()
	require.True(t, ok)
	assert.InDelta(t, 200, left, 1e-9, "nothing measured: the plan")

	e.done("gemm float64", 100, 300)
	e.end("gemm float64")
	left, ok = e.remaining()
	require.True(t, ok)
	run := (300 + etaPrior*200) / (100 + etaPrior*200)
	assert.InDelta(t, 100*run, left, 1e-9, "an op not started goes at the run's rate, blended with the plan")

	e.done("potrf float64", 50, 50)
	left, _ = e.remaining()
	run = (350 + etaPrior*200) / (150 + etaPrior*200)
	gp := etaGroupPrior * 100
	assert.InDelta(t, 50*(50+gp*run)/(50+gp), left, 1e-9, "a started op at its own rate, leaning on the run's while little is done")

	// Cells from the ledger take no time and do not count as measured.
	e2 := newETA()
	e2.add("potrf float64", 100, 0)
	e2.skip("potrf float64", 60)
	left, _ = e2.remaining()
	assert.InDelta(t, 40, left, 1e-9)

	// Refinement uses up the reserve the plan made for it.
	e3 := newETA()
	e3.add("potrf float64", 100, 20)
	e3.grow("potrf float64", 15)
	left, _ = e3.remaining()
	assert.InDelta(t, 120, left, 1e-9)
	e3.grow("potrf float64", 15)
	left, _ = e3.remaining()
	assert.InDelta(t, 130, left, 1e-9, "beyond the reserve, the cells found are added")
}

// A run whose every op takes 3x its plan: the predicted total (elapsed
// plus left) never falls and ends at the actual total. A run whose first op
// takes half its plan and the next six times, as on the 2-core machine:
// no cell moves the prediction by more than a fifth, and it is never NaN.
func TestETAIsSteady(t *testing.T) {
	type cellPlan struct {
		group string
		plan  float64
	}
	var cells []cellPlan
	for i := range 200 {
		cells = append(cells, cellPlan{"gemm float64", float64(1 + i%17)})
	}
	for i := range 200 {
		cells = append(cells, cellPlan{"getrs float64", float64(1 + i%13)})
	}
	sim := func(rate map[string]float64) (preds []float64, actual float64) {
		e := newETA()
		for _, c := range cells {
			e.add(c.group, c.plan, 0)
		}
		elapsed := 0.0
		for i, c := range cells {
			took := c.plan * rate[c.group]
			e.done(c.group, c.plan, took)
			elapsed += took
			if i+1 < len(cells) && cells[i+1].group != c.group {
				e.end(c.group)
			}
			left, ok := e.remaining()
			require.True(t, ok)
			require.False(t, math.IsNaN(left) || math.IsInf(left, 0) || left < 0)
			preds = append(preds, elapsed+left)
		}
		return preds, elapsed
	}
	preds, actual := sim(map[string]float64{"gemm float64": 3, "getrs float64": 3})
	for i := 1; i < len(preds); i++ {
		assert.GreaterOrEqual(t, preds[i], preds[i-1]-1e-9, "cell %d", i)
	}
	assert.InDelta(t, actual, preds[len(preds)-1], 1e-9)

	preds, actual = sim(map[string]float64{"gemm float64": 0.5, "getrs float64": 6})
	for i := 1; i < len(preds); i++ {
		assert.Less(t, math.Abs(preds[i]/preds[i-1]-1), 0.2, "cell %d: %.1f after %.1f", i, preds[i], preds[i-1])
	}
	assert.InDelta(t, actual, preds[len(preds)-1], 1e-9)
}

// Nothing the ETA is given makes it NaN, infinite or negative.
func TestETAIsRobust(t *testing.T) {
	e := newETA()
	left, ok := e.remaining()
	assert.True(t, ok)
	assert.Zero(t, left, "nothing planned")
	e.add("a", math.NaN(), math.Inf(1))
	e.add("b", -5, 0)
	e.done("a", math.Inf(1), math.NaN())
	e.done("b", 0, 10)
	e.grow("b", math.NaN())
	e.skip("a", -1)
	left, ok = e.remaining()
	require.True(t, ok)
	assert.False(t, math.IsNaN(left) || math.IsInf(left, 0) || left < 0)
	e.add("c", 10, 0)
	e.done("c", 0, 1e300)
	left, ok = e.remaining()
	assert.True(t, !ok || (left >= 0 && !math.IsInf(left, 0)))
	assert.Equal(t, "1s", etaText(0))
	assert.Equal(t, "45s", etaText(44.6e3))
	assert.Equal(t, "3m10s", etaText(188e3))
	assert.Equal(t, "1h3m0s", etaText(3.77e6))
}

// The progress times each cell with its clock and tells the ETA.
func TestProgressTimesCells(t *testing.T) {
	cfg, plans, _ := planLedgerTest(t, planHost(), 0, 0, func(*runConfig, []opPlan) []cellResult { return nil })
	e := cfg.estimate(plans, nil, planHost())
	p := newProgress(&bytes.Buffer{}, false, e)
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	g := e.groups[0]
	p.start("first")
	clock = clock.Add(250 * time.Millisecond)
	p.finish(g.name(), 100)
	eg := p.eta.groups[g.name()]
	assert.InDelta(t, 250, eg.took, 1e-9)
	assert.InDelta(t, 100, eg.measured, 1e-9)
	assert.Equal(t, 1, p.done)
	assert.Contains(t, p.describe("next"), "cells 1/12  about ")
}

// The model prices a candidate's calibration, warm-up and verified calls,
// its two passes of timings and, when several candidates are screened,
// the screening timing each of them gets; a lone candidate is not
// screened.
func TestModelCostCountsTheScreeningTiming(t *testing.T) {
	// 6e6 flops at 6 GFLOP/s: a call of 1 ms, over the 0.5 ms target.
	assert.InDelta(t, 3*(4*1+5*1.0), modelCost(6e6, 3, 2, 0.5, 6, true), 1e-12)
	assert.InDelta(t, 3*(4*1+4*1.0), modelCost(6e6, 3, 2, 0.5, 6, false), 1e-12)
	assert.InDelta(t, 1*(4*1+4*1.0), modelCost(6e6, 1, 2, 0.5, 6, true), 1e-12)
	// A tiny call: every timing lasts the target.
	assert.InDelta(t, 2*(4*1e-6+5*0.5), modelCost(6, 2, 2, 0.5, 6, true), 1e-9)
}
