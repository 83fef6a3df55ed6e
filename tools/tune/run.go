package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

// runConfig is the parsed command line of `tune run`.
type runConfig struct {
	tuners     []*opTuner
	dtypes     []sel.DType
	grid       gridFlag
	out        string
	budget     time.Duration
	ledgerDir  string
	plan       bool
	caps       cellCaps
	refine     bool
	refineMax  float64
	planGFlops float64
	measure    measureSettings
	// profile is "express" for the quick tune of a new machine (prior.go),
	// "" for a run of the flags as given.
	profile string
	// priors are the express profile's prior tables, by op name; nil
	// otherwise.
	priors map[string]*prior
	// est is the run's estimate, per op and dtype (estimate.go).
	est *runEstimate
}

// defaultPlanGFlops is the cost model's kernel speed where no ledger
// tells. On the 2-core Intel Xeon guest (2026-12-05) 6 priced the express
// run of all twenty-two ops at 6m42s (6m03s measured) and the shipping run
// of eleven ops at 1h02m (63 minutes measured); the 4 it was priced them
// at 9m24s and 1h28m, and the express run at 1.55x its time once a cell
// no longer paid for a forced collection.
const defaultPlanGFlops = 6

const runSynopsis = "run --op potrf[,gemm,...|all] [--profile express] --dtype float64[,float32] --grid quick|full|key=v1:v2:... --out DIR [--budget 10m] [--ledger DIR] [--plan]"

func parseRunFlags(args []string, stdout, stderr io.Writer) (*runConfig, error) {
	fs := newFlags("run", runSynopsis, stdout, stderr)
	ops := fs.String("op", "", "ops to tune: comma-separated names, or all")
	dtypes := fs.String("dtype", "float64,float32", "dtypes to tune, comma-separated")
	grid := fs.String("grid", "quick", "quick, full, or axes key=v1:v2:... (comma-separated; other axes keep their quick values)")
	out := fs.String("out", "out/tuned", "directory the tables <op>.<device>.txt are written to")
	budget := fs.Duration("budget", 0, "stop cleanly after this long and write what is complete (0: no limit)")
	ledgerDir := fs.String("ledger", "", "directory keeping every finished cell, so an interrupted run resumes")
	plan := fs.Bool("plan", false, "print the cells and an estimated time, and exit")
	maxFlops, maxBytes := capFlags(fs)
	refine := fs.Bool("refine", true, "measure cells between neighbouring cells whose winners disagree, along every size key")
	refineMax := fs.Float64("refine-max", 1, "at most this many refinement cells per grid cell of an op and dtype, where most is at stake first (negative: no limit)")
	settings := protocolFlags(fs, defaultProtocol().screen)
	gflops := fs.Float64("plan-gflops", defaultPlanGFlops, "assumed kernel speed for --plan and the progress estimate, GFLOP/s")
	profile := fs.String("profile", "", "express: tune a new machine in under ten minutes on two cores, timing only the candidates the tables it would borrow rank near the top (sets --reps, --target, --max-cell-flops and --refine-max unless given)")
	fs.durationIn("budget", budget, time.Nanosecond, maxBudget, "no limit")
	fs.check("refine-max", fmt.Sprintf("a number from 0 to %g, or a negative one for no limit (not NaN or infinite)", maxRefineMax), func() bool {
		return finite(*refineMax) && *refineMax <= maxRefineMax
	})
	fs.check("plan-gflops", fmt.Sprintf("a number above 0 up to %g", maxPlanGFlops), func() bool { return *gflops > 0 && *gflops <= maxPlanGFlops })
	fs.note(keysNote(tunedOps())) // --grid takes key names and values
	if err := fs.parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	switch *profile {
	case "":
	case profileExpress:
		expressDefaults(fs.Changed, maxFlops, refineMax)
	default:
		return nil, fs.usageError("--profile %s: want %s (or leave it out)", quote.Q(*profile), profileExpress)
	}
	cfg := &runConfig{profile: *profile, out: *out, budget: *budget, ledgerDir: *ledgerDir, plan: *plan,
		caps: cellCaps{maxFlops: *maxFlops, maxBytes: *maxBytes}, refine: *refine, refineMax: *refineMax,
		planGFlops: *gflops}
	var err error
	if *ops == "" {
		return nil, fs.usageError("--op is required (%s, or all)", strings.Join(tunerNames(), ", "))
	}
	if cfg.tuners, err = selectTuners(*ops); err != nil {
		return nil, err
	}
	if cfg.dtypes, err = selectDTypes(*dtypes); err != nil {
		return nil, err
	}
	if cfg.grid, err = parseGridFlag(*grid); err != nil {
		return nil, err
	}
	for k := range cfg.grid.custom {
		found := false
		for _, t := range cfg.tuners {
			found = found || keyIndex(t.op.Keys(), k) >= 0
		}
		if !found {
			return nil, fmt.Errorf("--grid: no selected op has a key %s", quote.Q(k))
		}
	}
	if !(*maxFlops > 0) || *maxBytes <= 0 || !(*gflops > 0) {
		return nil, fs.usageError("--max-cell-flops, --max-cell-bytes and --plan-gflops must be positive")
	}
	cfg.measure = settings()
	cfg.measure.maxBytes = *maxBytes
	if cfg.profile == profileExpress {
		expressProtocol(fs.Changed, &cfg.measure.proto)
		cfg.priors = map[string]*prior{}
		for _, t := range cfg.tuners {
			p := loadPrior(t.op, cfg.dtypes, batchlas.Host())
			cfg.priors[t.op.Name()] = &p
		}
	}
	return cfg, nil
}

// opPlan is the work of one op and dtype: the grid cells that fit the caps
// and the ones left out.
type opPlan struct {
	t      *opTuner
	dt     sel.DType
	cells  []cell
	capped []cell
	// deferred are the express profile's grid cells left to the prior
	// unless a measured cell around them disagrees with it (settle.go);
	// cells holds the rest.
	deferred []cell
}

// cellCost is the cost model's estimate of a cell's wall time in ms (the
// plan fits it to this machine where a ledger tells: estimate.go).
func (cfg *runConfig) cellCost(t *opTuner, dt sel.DType, c cell) float64 {
	n := len(t.op.Candidates(dt))
	if p := cfg.priors[t.op.Name()]; p != nil {
		if keep, _ := p.keep(dt, c); keep != nil {
			n = len(keep)
		}
	}
	target := float64(cfg.measure.proto.target) / float64(time.Millisecond)
	return modelCost(t.flops(c), n, cfg.measure.proto.reps, target, cfg.planGFlops, cfg.measure.proto.screen > 1)
}

// modelCost is the cost model of one cell of flops with n candidates,
// each call running at gflops: per candidate, its calibration, warm-up
// and verified calls, the screening timing when the protocol screens (n >
// 1), and two passes of reps timings of at least targetMS. What it leaves
// out varies with the machine: the second round of a candidate whose
// passes disagree (noise), the checks against the reference, the inputs.
// The screening timing was left out until an express run of all
// twenty-two ops on the 2-core Zen 5 guest took 9m20s against a plan of
// 6m53s (2026-12-05); with it the plan says 7m53s.
func modelCost(flops float64, n, reps int, targetMS, gflops float64, screened bool) float64 {
	call := flops / (gflops * 1e9) * 1e3
	timings := 2 * float64(reps)
	if screened && n > 1 {
		timings++
	}
	per := 4*call + timings*max(targetMS, call)
	return float64(n) * per
}

// fits reports whether a cell is within the caps.
func (cfg *runConfig) fits(t *opTuner, dt sel.DType, c cell) bool { return cfg.caps.fits(t, dt, c) }

func (cfg *runConfig) plans() ([]opPlan, error) {
	var out []opPlan
	for _, t := range cfg.tuners {
		cells, err := expandGrid(t.op, cfg.grid)
		if err != nil {
			return nil, err
		}
		lattice := newGridLattice(t.op, cfg.grid)
		for _, dt := range cfg.dtypes {
			if len(t.op.Candidates(dt)) == 0 {
				continue
			}
			p := opPlan{t: t, dt: dt}
			for _, c := range cells {
				if cfg.fits(t, dt, c) {
					p.cells = append(p.cells, c)
				} else {
					p.capped = append(p.capped, c)
				}
			}
			p.cells, p.deferred = deferSettled(lattice, cfg.priors[t.op.Name()], dt, p.cells)
			out = append(out, p)
		}
	}
	return out, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	cfg, err := parseRunFlags(args, stdout, stderr)
	if err != nil {
		return err
	}
	plans, err := cfg.plans()
	if err != nil {
		return err
	}
	if cfg.plan {
		printPlan(stdout, cfg, cfg.estimate(plans, cfg.planLedgers(batchlas.Host()), planHost()))
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if cfg.budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.budget)
		defer cancel()
	}
	return runPlans(ctx, cfg, plans, stdout, stderr)
}

// opRun is the state of one op during a run.
type opRun struct {
	t       *opTuner
	prior   *prior // the express profile's prior, nil otherwise
	kernels string
	ledger  *ledger
	results map[sel.DType][]cellResult
	stats   map[sel.DType]*runStats
}

type runStats struct {
	measured, resumed, capped, refined, confirmed, settled int
	took                                                   time.Duration
}

func runPlans(ctx context.Context, cfg *runConfig, plans []opPlan, stdout, stderr io.Writer) error {
	// Nested decisions (potrf's and trsm's blocked kernels call trsm and
	// gemm through their entry points) read the tables of this run's
	// output directory, so an op is measured calling its callees as the
	// tables being made will run them (tuners are ordered callees first),
	// not as stale or borrowed built-in tables would.
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	restoreDir := useTunedDir(cfg.out)
	defer restoreDir()
	dev := batchlas.Host()
	root, rootErr := moduleRoot()
	// Every op's kernels hash and ledger first: the estimate the progress
	// starts from is fitted on the ledgers.
	runs := make([]*opRun, len(cfg.tuners))
	ledgers := map[string]ledgerView{}
	for i, t := range cfg.tuners {
		r := &opRun{t: t, prior: cfg.priors[t.op.Name()], results: map[sel.DType][]cellResult{}, stats: map[sel.DType]*runStats{}, kernels: "unknown"}
		runs[i] = r
		if h, err := currentKernelsHash(root, rootErr, t); err != nil {
			fmt.Fprintf(stderr, "tune run: %s: kernels hash: %v\n", t.op.Name(), err)
		} else {
			r.kernels = h
		}
		if cfg.ledgerDir != "" {
			// An express ledger is kept apart: its cells time only some
			// candidates, and a full run must not resume from them.
			l, err := openLedger(cfg.ledgerDir, t.op, dev.Label()+profileSuffix(cfg.profile), t.op.Spec().Revision, r.kernels)
			if err != nil {
				return err
			}
			for _, w := range l.invalid {
				fmt.Fprintf(stderr, "tune run: warning: %s\n", w)
			}
			if l.stale > 0 {
				fmt.Fprintf(stderr, "tune run: %s: the ledger has %d cell(s) from other kernel sources or another revision; measuring them again\n", t.op.Name(), l.stale)
			}
			r.ledger = l
			ledgers[t.op.Name()] = ledgerView{l: l}
		}
	}
	cfg.est = cfg.estimate(plans, ledgers, hostLine(dev))
	// The cores are looked at before the first op and after each: an op
	// with a look on either side that found them shared is named.
	cores := watchCores()
	if cores.last != "" {
		fmt.Fprintf(stderr, "tune run: warning: the cores are shared: %s; what runs on all workers now times as on a loaded machine\n", cores.last)
	}
	prog := newProgress(stderr, isTerminal(os.Stderr), cfg.est)
	defer prog.close()

	var bad []string
	var stopped error
	for i, t := range cfg.tuners {
		r := runs[i]
		for _, p := range plans {
			if p.t == t && stopped == nil {
				stopped = r.runPlan(ctx, cfg, p, dev, prog)
			}
		}
		if stopped != nil && !errors.Is(stopped, context.DeadlineExceeded) && !errors.Is(stopped, context.Canceled) {
			return stopped
		}
		// Each op's table is written as soon as the op is done, so a later
		// op's failure cannot lose it.
		prog.pause()
		if why := cores.since(); why != "" {
			fmt.Fprintf(stderr, "tune run: warning: %s was measured while the cores were shared (%s); its table ranks the candidates as a loaded machine runs them: measure it again on a quiet machine (--op %s)\n",
				t.op.Name(), why, t.op.Name())
		}
		path, n, err := r.writeTable(cfg, dev, stopped != nil)
		if err != nil {
			return err
		}
		sel.Reload() // later ops' nested calls read the table just written
		if n > 0 {
			fmt.Fprintf(stdout, "wrote %s (%d rows)\n", path, n)
		}
		for _, dt := range cfg.dtypes {
			if s := r.stats[dt]; s != nil {
				settled := ""
				if s.settled > 0 {
					settled = fmt.Sprintf(", %d settled by the prior (left unmeasured: the cells around them confirmed it)", s.settled)
				}
				fmt.Fprintf(stdout, "  %s %s: %d cells measured, %d from the ledger, %d refinement cells, %d confirmed, %d over the caps (--max-cell-flops/--max-cell-bytes)%s; took %s (plan: about %s)\n",
					t.op.Name(), dt, s.measured, s.resumed, s.refined, s.confirmed, s.capped, settled, s.took.Round(100*time.Millisecond), roundDuration(cfg.est.group(t, dt).total()))
			}
			for _, res := range r.results[dt] {
				for _, b := range res.Bad {
					bad = append(bad, fmt.Sprintf("%s %s %s: %s: %s", t.op.Name(), dt, newCell(t.op.Keys(), res.Vals), b.Spelling, b.Why))
				}
			}
		}
		if stopped != nil {
			break
		}
	}
	prog.close()
	if stopped != nil {
		fmt.Fprintf(stdout, "stopped early (%v): the tables hold the cells completed", stopReason(stopped))
		if cfg.ledgerDir != "" {
			fmt.Fprintf(stdout, "; run the same command again to resume from %s", cfg.ledgerDir)
		}
		fmt.Fprintln(stdout)
	}
	if len(bad) > 0 {
		fmt.Fprintf(stderr, "tune run: %d candidate result(s) failed verification (never ranked):\n", len(bad))
		for _, b := range bad {
			fmt.Fprintln(stderr, "  "+b)
		}
		return exitError{1}
	}
	return nil
}

func stopReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "--budget spent"
	}
	return "interrupted"
}

// settingsFor is the measurement settings of cell c: the run's, with the
// candidates the prior keeps under the express profile.
func (r *opRun) settingsFor(cfg *runConfig, dt sel.DType, c cell) measureSettings {
	ms := cfg.measure
	if r.prior != nil {
		ms.keep, _ = r.prior.keep(dt, c)
	}
	return ms
}

// runPlan measures one op and dtype: the grid, then the refinement along
// every size key, then the confirmation pass, keeping each finished cell in
// the ledger with its wall time.
func (r *opRun) runPlan(ctx context.Context, cfg *runConfig, p opPlan, dev *sel.Device, prog *progress) error {
	st := &runStats{capped: len(p.capped)}
	r.stats[p.dt] = st
	g := cfg.est.group(p.t, p.dt)
	began := time.Now()
	defer func() {
		st.took = time.Since(began)
		prog.end(g.name())
	}()
	tried := map[string]bool{}
	for _, c := range p.cells {
		tried[c.String()] = true
	}
	for _, c := range p.capped {
		tried[c.String()] = true
	}
	measure := func(refined bool) func(cells []cell) error {
		return func(cells []cell) error {
			for _, c := range cells {
				cost := g.cost(c)
				prog.start(fmt.Sprintf("%s %s %s", p.t.op.Name(), p.dt, c))
				if res, ok := r.ledger.lookup(p.dt, c); ok {
					// Ranked again by the tie rule: a table's order never
					// depends on the order a ledger line lists.
					res.Entries = rankEntries(withOrder(p.t.op, p.dt, res.Entries))
					r.results[p.dt] = append(r.results[p.dt], res)
					st.resumed++
					prog.resume(g.name(), cost)
					continue
				}
				t0 := time.Now()
				res, err := measureCell(ctx, p.t, p.dt, c, r.settingsFor(cfg, p.dt, c))
				if err != nil {
					return err
				}
				res.Device, res.Revision, res.Kernels = dev.Label()+profileSuffix(cfg.profile), p.t.op.Spec().Revision, r.kernels
				res.Wall = cfg.wallRecord(dev, time.Since(t0), refined)
				if err := r.ledger.record(res); err != nil {
					return err
				}
				r.results[p.dt] = append(r.results[p.dt], res)
				st.measured++
				prog.finish(g.name(), cost)
			}
			return nil
		}
	}
	if err := measure(false)(p.cells); err != nil {
		return err
	}
	if err := r.measureUnsettled(cfg, p, dev, prog, st, measure(false)); err != nil {
		return err
	}
	if err := r.refine(ctx, cfg, p, prog, st, tried, measure(true)); err != nil {
		return err
	}
	return r.confirm(ctx, cfg, p, dev, prog, st)
}

// measureUnsettled measures the deferred cells of p that a measured cell
// around them disagrees on with the prior, until none is left that does,
// then those the table's own lookup would answer otherwise (holes); the
// rest are settled (settle.go).
func (r *opRun) measureUnsettled(cfg *runConfig, p opPlan, dev *sel.Device, prog *progress, st *runStats, measureAll func([]cell) error) error {
	still := p.deferred
	lattice := newGridLattice(p.t.op, cfg.grid)
	g := cfg.est.group(p.t, p.dt)
	for len(still) > 0 {
		measured := map[string]cellResult{}
		var cells []cell
		for _, res := range r.results[p.dt] {
			c := newCell(p.t.op.Keys(), res.Vals)
			measured[c.String()] = res
			cells = append(cells, c)
		}
		var now []cell
		now, still = unsettled(lattice, r.prior, p.dt, still, measured, cellIndex(cells))
		if len(now) == 0 {
			break
		}
		prog.grow(g.name(), len(now), g.costs(now))
		if err := measureAll(now); err != nil {
			return err
		}
	}
	for len(still) > 0 {
		t, err := r.sectionTable(p.dt, dev)
		if err != nil {
			return fmt.Errorf("settling %s %s: %w", p.t.op.Name(), p.dt, err)
		}
		var now []cell
		now, still = r.holes(t, p.dt, still)
		if len(now) == 0 {
			break
		}
		prog.grow(g.name(), len(now), g.costs(now))
		if err := measureAll(now); err != nil {
			return err
		}
	}
	st.settled = len(still)
	return nil
}

// holes splits settled cells into those where the table t, as it would be
// written now, answers with another winner than the prior's (a settled
// cell has no row: the lookup there takes the nearest measured row, which
// may be a cell beyond the ones that confirmed the prior, one that ranks
// the prior's winner more than settleTolerance slower) and the rest.
func (r *opRun) holes(t *sel.Table, dt sel.DType, settled []cell) (now, still []cell) {
	for _, c := range settled {
		w := r.prior.winner(dt, c)
		row, _, err := t.Nearest(dt, c.key())
		hole := err != nil || row == nil
		if !hole {
			i := r.resultIndex(dt, rowCell(t, row, r.t.op))
			hole = i < 0 || !(slowdownAt(r.results[dt][i], w) <= settleTolerance)
		}
		if hole {
			now = append(now, c)
		} else {
			still = append(still, c)
		}
	}
	return now, still
}

// wallRecord is what a cell measured on dev in d, with the run's
// protocol, cost.
func (cfg *runConfig) wallRecord(dev *sel.Device, d time.Duration, refined bool) *wallRecord {
	return &wallRecord{Host: hostLine(dev), MS: durationMS(d), Refined: refined,
		Reps: cfg.measure.proto.reps, TargetMS: durationMS(cfg.measure.proto.target)}
}

// durationMS is d in ms, rounded to the microsecond.
func durationMS(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

// refine bisects along every log key where neighbouring cells disagree on
// the winner, until they are closer than refineRatio, the caps refuse the
// midpoint, or the budget is spent. Each round proposes the midpoints of
// every axis from the cells measured so far, and lines the cells added
// along one axis up with their neighbours along the others where their
// winner disagrees with those neighbours' (extendPoints), so a cell
// measured at one batch does not decide the calls at others unchecked.
func (r *opRun) refine(ctx context.Context, cfg *runConfig, p opPlan, prog *progress, st *runStats, tried map[string]bool, measureAll func([]cell) error) error {
	if !cfg.refine {
		return nil
	}
	g := cfg.est.group(p.t, p.dt)
	for {
		var cells []cell
		byText := map[string]cellResult{}
		for _, res := range r.results[p.dt] {
			c := newCell(p.t.op.Keys(), res.Vals)
			cells = append(cells, c)
			byText[c.String()] = res
		}
		stake := func(lo, hi string) float64 { return winnerStake(byText[lo], byText[hi]) }
		fits := func(c cell) bool { return cfg.fits(p.t, p.dt, c) }
		var proposed []refinePoint
		for _, axis := range logAxes(p.t.op) {
			for _, c := range refinePoints(cells, stake, axis, refineRatio, tried) {
				if fits(c.cell) {
					proposed = append(proposed, c)
				}
			}
			proposed = append(proposed, extendPoints(cells, byText, axis, tried, fits)...)
		}
		left := -1 // no limit
		if cfg.refineMax >= 0 {
			left = max(int(cfg.refineMax*float64(len(p.cells)))-st.refined, 0)
		}
		// Whatever the budget, the table written must stay loadable: each
		// dtype's rows within its share of the library's cap on rows.
		room := max(sel.MaxTableRows/len(p.t.op.DTypes())-len(r.results[p.dt]), 0)
		if left < 0 || left > room {
			left = room
		}
		next := pickRefinement(proposed, left)
		if len(next) == 0 {
			return nil
		}
		sortCells(next)
		prog.grow(g.name(), len(next), g.costs(next))
		st.refined += len(next)
		if err := measureAll(next); err != nil {
			return err
		}
	}
}

// writeTable writes the op's table from every complete cell, atomically.
// It writes nothing when no cell is complete (an existing table stays).
func (r *opRun) writeTable(cfg *runConfig, dev *sel.Device, partial bool) (string, int, error) {
	doc := &tableDoc{keys: r.t.op.Keys()}
	path := filepath.Join(cfg.out, tableFileName(r.t.op.Name(), dev.Label()))
	kept := keptSections(path, r.t.op, cfg.dtypes)
	rows := 0
	var keptNames []string
	for _, dt := range r.t.op.DTypes() {
		res := r.results[dt]
		if len(res) == 0 && !containsDType(cfg.dtypes, dt) && len(kept[dt]) > 0 {
			// A dtype this run did not measure keeps its rows from the
			// table already there.
			doc.sections = append(doc.sections, tableSection{dtype: dt, rows: kept[dt]})
			keptNames = append(keptNames, string(dt))
			continue
		}
		if len(res) == 0 {
			continue
		}
		if sec := r.section(dt); len(sec.rows) > 0 {
			doc.sections = append(doc.sections, sec)
			rows += len(sec.rows)
		}
	}
	if rows == 0 {
		return "", 0, nil
	}
	for _, sec := range doc.sections {
		if containsDType(keptDTypes(keptNames), sec.dtype) {
			rows += len(sec.rows)
		}
	}
	prov := provenance{op: r.t.op.Name(), device: dev.Key, identity: dev.Identity, revision: r.t.op.Spec().Revision,
		kernels: r.kernels, date: time.Now(), grid: cfg.grid.text}
	prov.deviceFacts(dev)
	prov.extra = []headerWord{
		{"reps", strconv.Itoa(cfg.measure.proto.reps)},
		{"target", cfg.measure.proto.target.String()},
		{"screen", strconv.FormatFloat(cfg.measure.proto.screen, 'g', -1, 64)},
		{"max_cell_flops", strconv.FormatFloat(cfg.caps.maxFlops, 'g', -1, 64)},
		{"refine_max", refineMaxWord(cfg)},
	}
	if cfg.profile != "" {
		prov.extra = append(prov.extra, headerWord{"profile", cfg.profile})
		if from := r.priorFiles(); from != "" {
			prov.extra = append(prov.extra, headerWord{"prior", from})
		}
	}
	if partial {
		prov.extra = append(prov.extra, headerWord{"partial", "yes"})
	}
	if len(keptNames) > 0 {
		prov.extra = append(prov.extra, headerWord{"kept", strings.Join(keptNames, ",")})
	}
	doc.header = prov.header()
	return path, rows, safefile.WriteAtomic(path, doc.bytes())
}

// useTunedDir points the selection core at dir (BATCHLAS_TUNED_DIR) until
// the returned function restores the environment.
func useTunedDir(dir string) (restore func()) {
	old, had := os.LookupEnv("BATCHLAS_TUNED_DIR")
	os.Setenv("BATCHLAS_TUNED_DIR", dir)
	sel.Reload()
	return func() {
		if had {
			os.Setenv("BATCHLAS_TUNED_DIR", old)
		} else {
			os.Unsetenv("BATCHLAS_TUNED_DIR")
		}
		sel.Reload()
	}
}

// refineMaxWord is the header's record of the refinement budget: the
// --refine-max value, "0" when refinement was off, "none" for no limit.
func refineMaxWord(cfg *runConfig) string {
	switch {
	case !cfg.refine:
		return "0"
	case cfg.refineMax < 0:
		return "none"
	}
	return strconv.FormatFloat(cfg.refineMax, 'g', -1, 64)
}

// section is the table section of dt from the cells measured so far.
func (r *opRun) section(dt sel.DType) tableSection {
	sec := tableSection{dtype: dt}
	for _, cr := range r.results[dt] {
		if len(cr.Entries) == 0 {
			continue
		}
		row := tableRow{cell: newCell(r.t.op.Keys(), cr.Vals), entries: slices.Clone(cr.Entries)}
		if len(cr.Noisy) > 0 {
			row.comment = "noisy: " + strings.Join(cr.Noisy, ",")
		}
		sec.rows = append(sec.rows, row)
	}
	sortRows(sec.rows)
	orderTwinTies(r.t.op, dt, sec.rows)
	return sec
}

func sortRows(rows []tableRow) {
	cells := make([]cell, len(rows))
	for i := range rows {
		cells[i] = rows[i].cell
	}
	byText := map[string]tableRow{}
	for _, r := range rows {
		byText[r.cell.String()] = r
	}
	sortCells(cells)
	for i, c := range cells {
		rows[i] = byText[c.String()]
	}
}

func keptDTypes(names []string) []sel.DType {
	out := make([]sel.DType, len(names))
	for i, n := range names {
		out[i] = sel.DType(n)
	}
	return out
}

// keptSections reads the table already at path and returns the rows of its
// timed sections for dtypes not in measured, so that tuning one dtype does
// not drop another's rows. A table that does not parse, or was written for
// another revision of the op, keeps nothing.
func keptSections(path string, op *sel.Op, measured []sel.DType) map[sel.DType][]tableRow {
	data, err := safefile.ReadFile(path, safefile.TableLimit)
	if err != nil {
		return nil // missing, or not a table: the write refuses what is not a file
	}
	t, err := sel.ParseTable(filepath.Base(path), data, op)
	if err != nil || t.Revision != op.Spec().Revision {
		return nil
	}
	out := map[sel.DType][]tableRow{}
	for dt, rows := range t.Sections {
		if containsDType(measured, dt) {
			continue
		}
		for i := range rows {
			if !timedRow(&rows[i]) {
				delete(out, dt)
				break
			}
			var es []entry
			for _, e := range rows[i].Entries {
				es = append(es, entry{Spelling: e.Spelling, MS: e.MS})
			}
			out[dt] = append(out[dt], tableRow{cell: rowCell(t, &rows[i], op), entries: es})
		}
	}
	return out
}

// rowCell is the cell a parsed row of t was measured at.
func rowCell(t *sel.Table, row *sel.Row, op *sel.Op) cell {
	vals := make([]string, len(t.Keys))
	for j, k := range t.Keys {
		if k.Kind == sel.Exact {
			vals[j] = row.Key.Str(j)
		} else {
			vals[j] = strconv.Itoa(row.Key.Int(j))
		}
	}
	return newCell(op.Keys(), vals)
}
