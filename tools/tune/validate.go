package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

const validateSynopsis = "validate --op potrf[,...|all] --dtype float64[,float32] [--shapes 30] [--seed 1] [--space whole|diagonal] [--dir DIR] [--against DIR|builtin]"

// cmdValidate measures how good automatic selection is away from the rows:
// at random call shapes that are not grid cells, every candidate is timed
// and the candidate automatic selection picks is compared with the fastest.
func cmdValidate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("validate", validateSynopsis, stdout, stderr)
	ops := fs.String("op", "", "ops to validate: comma-separated names, or all")
	dtypes := fs.String("dtype", "float64", "dtypes, comma-separated")
	shapes := fs.Int("shapes", 30, "random call shapes per op and dtype")
	grid := fs.String("grid", "quick", "the grid whose cells are excluded and whose ranges the shapes are drawn from")
	dir := fs.String("dir", "", "validate the tables of this directory (sets BATCHLAS_TUNED_DIR); default: the built-in tables")
	against := fs.String("against", "", "also score another set of tables on the same timings: a directory, or builtin for the built-in tables alone")
	maxGeo := fs.Float64("max-geomean", 0, "exit non-zero when the geometric-mean slowdown of an op and dtype exceeds this (0: report only)")
	space := fs.String("space", spaceWhole, "where shapes are drawn: whole (every key on its own) or diagonal (first exact values, equal sizes)")
	maxFlops, maxBytes := capFlags(fs)
	settings := protocolFlags(fs, 0)
	fs.intIn("shapes", shapes, 1, maxShapes)
	fs.check("max-geomean", fmt.Sprintf("0 (report only) or a number from 1 to %g", maxGeomean), func() bool {
		return *maxGeo == 0 || (*maxGeo >= 1 && *maxGeo <= maxGeomean)
	}) // the pick is compared with the fastest: every candidate in full
	fs.note(keysNote(tunedOps())) // --grid takes key names and values
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	if *space != spaceWhole && *space != spaceDiagonal {
		return fs.usageError("--space %s: want %s or %s", quote.Q(*space), spaceWhole, spaceDiagonal)
	}
	if *ops == "" {
		return fs.usageError("--op is required")
	}
	ts, err := selectTuners(*ops)
	if err != nil {
		return err
	}
	dts, err := selectDTypes(*dtypes)
	if err != nil {
		return err
	}
	g, err := parseGridFlag(*grid)
	if err != nil {
		return err
	}
	primary := tableSet{name: "--dir " + *dir, dir: *dir}
	if *dir == "" {
		primary.name = "the built-in tables"
	}
	var alt *tableSet
	if *against != "" {
		alt = &tableSet{name: "--against " + *against, dir: *against}
		if *against == "builtin" {
			alt.dir = ""
		}
	}
	for _, ts := range []*tableSet{&primary, alt} {
		if ts != nil && ts.dir != "" {
			if st, err := os.Stat(ts.dir); err != nil || !st.IsDir() {
				return fmt.Errorf("%s: not a directory", ts.name)
			}
		}
	}
	primary.use()
	defer func() { os.Unsetenv("BATCHLAS_TUNED_DIR"); sel.Reload() }()
	if !(*maxFlops > 0) || *maxBytes <= 0 {
		return fs.usageError("--max-cell-flops and --max-cell-bytes must be positive")
	}
	ms := settings()
	ms.maxBytes = *maxBytes
	caps := cellCaps{maxFlops: *maxFlops, maxBytes: *maxBytes}
	fmt.Fprintf(stdout, "shapes: %s space of the %s grid, off its cells, within the caps (--max-cell-flops %g per call, --max-cell-bytes %d MiB)\n",
		*space, g.text, caps.maxFlops, caps.maxBytes>>20)
	failed := false
	// The cores are looked at before the first op and after each op and
	// dtype (sharedCores), as tune run does.
	cores := watchCores()
	for _, t := range ts {
		for _, dt := range dts {
			if len(t.op.Candidates(dt)) == 0 {
				continue
			}
			cells, err := randomShapes(t, dt, g, caps, *shapes, ms.seed, *space)
			if err != nil {
				return err
			}
			rep, err := validateShapes(context.Background(), t, dt, cells, ms, measureCell, stdout, &primary, alt)
			if err != nil {
				return err
			}
			if why := cores.since(); why != "" {
				fmt.Fprintf(stdout, "  cores shared while timing %s %s (%s): its figures are a loaded machine's; validate it again on a quiet machine\n", t.op.Name(), dt, why)
			}
			if *maxGeo > 0 && !(rep.geomean <= *maxGeo) {
				fmt.Fprintf(stderr, "tune validate: %s %s: geomean slowdown %.3f exceeds --max-geomean %.3f\n", t.op.Name(), dt, rep.geomean, *maxGeo)
				failed = true
			}
			if rep.bad > 0 {
				failed = true
			}
		}
	}
	if failed {
		return exitError{1}
	}
	return nil
}

// Sampling spaces of validate.
const (
	// spaceWhole draws every key independently: each exact key over all
	// its values, each log key log-uniform over its grid axis's range.
	spaceWhole = "whole"
	// spaceDiagonal is the slice the first tables were measured on: exact
	// keys at their first value, every size key but batch equal (square
	// matrices, as many right-hand sides as rows), batch independent.
	spaceDiagonal = "diagonal"
)

// maxDraws bounds the draws of randomShapes whatever --shapes asks: a space
// with few off-grid shapes otherwise spins through 10,000 draws per shape
// asked for.
const maxDraws = 200000

// randomShapes draws n call shapes that are not cells of the coarse grid,
// within the caps. In the whole space every key is drawn on its own: exact
// keys uniformly over the values their grid axis lists, log keys
// log-uniform between the smallest and largest value of their axis (batch
// from 1). The diagonal space ties the size keys together (see
// spaceDiagonal).
func randomShapes(t *opTuner, dt sel.DType, g gridFlag, caps cellCaps, n int, seed uint64, space string) ([]cell, error) {
	grid, err := expandGrid(t.op, g)
	if err != nil {
		return nil, err
	}
	onGrid := map[string]bool{}
	for _, c := range grid {
		onGrid[c.String()] = true
	}
	keys := t.op.Keys()
	values := make([][]string, len(keys))
	lo, hi := make([]float64, len(keys)), make([]float64, len(keys))
	for i := range keys {
		seen := map[string]bool{}
		lo[i], hi[i] = math.Inf(1), 0
		for _, c := range grid {
			if !seen[c.vals[i]] {
				seen[c.vals[i]] = true
				values[i] = append(values[i], c.vals[i])
			}
			if x, err := strconv.ParseFloat(c.vals[i], 64); err == nil {
				lo[i], hi[i] = min(lo[i], x), max(hi[i], x)
			}
		}
		if keys[i].Name == batchKey {
			lo[i] = 1
		}
	}
	logUniform := func(r *rand.Rand, lo, hi float64) string {
		x := math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
		return strconv.Itoa(max(1, int(math.Round(x))))
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []cell
	seen := map[string]bool{}
	draws := min(10000*n, maxDraws)
	for tries := 0; len(out) < n && tries < draws; tries++ {
		vals := make([]string, len(keys))
		shared := ""
		for i, k := range keys {
			switch {
			case k.Kind == sel.Exact && space == spaceDiagonal:
				vals[i] = values[i][0]
			case k.Kind == sel.Exact:
				vals[i] = values[i][r.IntN(len(values[i]))]
			case space == spaceDiagonal && k.Name != batchKey:
				if shared == "" {
					shared = logUniform(r, lo[i], hi[i])
				}
				vals[i] = shared
			default:
				vals[i] = logUniform(r, lo[i], hi[i])
			}
		}
		c := newCell(keys, vals)
		if onGrid[c.String()] || seen[c.String()] || !caps.fits(t, dt, c) {
			continue
		}
		seen[c.String()] = true
		out = append(out, c)
	}
	if len(out) < n {
		return nil, fmt.Errorf("%s %s: found only %d of --shapes %d off-grid shapes within the caps in %d draws", t.op.Name(), dt, len(out), n, draws)
	}
	return out, nil
}

// validateReport summarises a validation.
type validateReport struct {
	shapes       int
	geomean      float64
	worst        float64
	worstShape   string
	bad          int
	fixed        string
	fixedGeomean float64
	autoSpeedup  float64
	// altGeomean and altWorst score --against's picks on the same
	// timings (0 without --against).
	altGeomean, altWorst float64
}

// cellMeasurer measures one cell: measureCell, or a stand-in in tests.
type cellMeasurer func(ctx context.Context, t *opTuner, dt sel.DType, c cell, ms measureSettings) (cellResult, error)

// tableSet is a set of tables whose picks validate scores: the built-in
// tables (dir "") or a directory's over them (BATCHLAS_TUNED_DIR).
type tableSet struct {
	name string
	dir  string
}

// use makes the selection core read the set's tables.
func (ts *tableSet) use() {
	if ts.dir == "" {
		os.Unsetenv("BATCHLAS_TUNED_DIR")
	} else {
		os.Setenv("BATCHLAS_TUNED_DIR", ts.dir)
	}
	sel.Reload()
}

// slowdowns accumulates one table set's scores over the shapes.
type slowdowns struct {
	logSum     float64
	n          int
	worst      float64
	worstShape string
}

func (s *slowdowns) add(shape string, slow float64) {
	s.logSum += math.Log(slow)
	s.n++
	if slow > s.worst {
		s.worst, s.worstShape = slow, shape
	}
}

func (s *slowdowns) geomean() float64 {
	if s.n == 0 {
		return math.NaN()
	}
	return math.Exp(s.logSum / float64(s.n))
}

// validateShapes times every candidate at each shape with measure, asks
// automatic selection what it would run there under the table set primary
// (and alt, when not nil, on the same timings), and compares: a shape's
// slowdown is the time of the pick over the time of the fastest. A nil
// primary is the tables in force (the built-in ones after an alt's turn).
func validateShapes(ctx context.Context, t *opTuner, dt sel.DType, cells []cell, ms measureSettings, measure cellMeasurer, w io.Writer, primary, alt *tableSet) (validateReport, error) {
	dev := batchlas.Host()
	var rep validateReport
	type shapeResult struct {
		res  cellResult
		pick string
		slow float64
	}
	var results []shapeResult
	var score, altScore slowdowns
	fmt.Fprintf(w, "%s %s: %d random off-grid shapes\n", t.op.Name(), dt, len(cells))
	if alt != nil {
		fmt.Fprintf(w, "  %-44s %-22s %-22s %8s %-22s %8s\n", "shape", "auto", "fastest", "slowdown", "auto, "+quote.Cut(alt.name), "slowdown")
	} else {
		fmt.Fprintf(w, "  %-44s %-22s %-22s %8s\n", "shape", "auto", "fastest", "slowdown")
	}
	for _, c := range cells {
		res, err := measure(ctx, t, dt, c, ms)
		if err != nil {
			return rep, err
		}
		for _, b := range res.Bad {
			fmt.Fprintf(w, "  %-44s BAD RESULT from %s: %s\n", c, b.Spelling, b.Why)
			rep.bad++
		}
		pick, err := t.op.Pick(ctx, dt, c.key(), dev)
		if err != nil {
			return rep, fmt.Errorf("%s %s %s: the automatic decision fails: %w", t.op.Name(), dt, c, err)
		}
		var altPick sel.Choice
		if alt != nil {
			alt.use()
			altPick, err = t.op.Pick(ctx, dt, c.key(), dev)
			if primary != nil {
				primary.use()
			} else {
				os.Unsetenv("BATCHLAS_TUNED_DIR")
				sel.Reload()
			}
			if err != nil {
				return rep, fmt.Errorf("%s %s %s: the automatic decision under %s fails: %w", t.op.Name(), dt, c, alt.name, err)
			}
		}
		entries := res.Entries
		slowOf := func(spelling string) (float64, bool) {
			fastest := fastestOf(entries)
			i := slices.IndexFunc(entries, func(e entry) bool { return e.Spelling == spelling })
			if i < 0 || fastest.MS <= 0 {
				return 0, false
			}
			return entries[i].MS / fastest.MS, true
		}
		slow, ok := slowOf(pick.String())
		if !ok {
			fmt.Fprintf(w, "  %-44s %-22s not timed here (skipped or bad)\n", c, pick)
			continue
		}
		altSlow, altOK := 0.0, false
		if alt != nil {
			altSlow, altOK = slowOf(altPick.String())
		}
		// A large slowdown is timed again, the picks and the fastest head
		// to head: on a sub-microsecond shape one pass of timings can rank
		// two candidates 1.5x apart that a second pass finds equal, and a
		// worst case should be a finding, not a sample of that noise.
		// Both table sets are scored on the new timings.
		retimed := ""
		if slow > retimeAbove || (altOK && altSlow > retimeAbove) {
			keep := map[string]bool{pick.String(): true, fastestOf(entries).Spelling: true}
			if alt != nil {
				keep[altPick.String()] = true
			}
			ms2 := ms
			ms2.keep = keep
			if res2, err := measure(ctx, t, dt, c, ms2); err == nil && len(res2.Bad) == 0 && everyTimed(res2.Entries, keep) {
				entries, retimed = res2.Entries, " (re-timed)"
				slow, _ = slowOf(pick.String())
				if alt != nil {
					altSlow, altOK = slowOf(altPick.String())
				}
			}
		}
		line := fmt.Sprintf("  %-44s %-22s %-22s %8.3f", c, pick, fastestOf(entries).Spelling, slow)
		if alt != nil {
			if altOK {
				altScore.add(c.String(), altSlow)
				line += fmt.Sprintf(" %-22s %8.3f", altPick, altSlow)
			} else {
				line += fmt.Sprintf(" %-22s %8s", altPick, "-")
			}
		}
		line += retimed
		fmt.Fprintln(w, line)
		results = append(results, shapeResult{res: res, pick: pick.String(), slow: slow})
		score.add(c.String(), slow)
	}
	rep.shapes = len(results)
	if rep.shapes == 0 {
		return rep, nil
	}
	rep.geomean, rep.worst, rep.worstShape = score.geomean(), score.worst, score.worstShape
	// The best single fixed candidate over these shapes.
	rep.fixedGeomean = math.Inf(1)
	for _, ch := range t.op.Candidates(dt) {
		sum, ok := 0.0, true
		for _, r := range results {
			i := slices.IndexFunc(r.res.Entries, func(e entry) bool { return e.Spelling == ch.String() })
			if i < 0 {
				ok = false
				break
			}
			sum += math.Log(r.res.Entries[i].MS / fastestOf(r.res.Entries).MS)
		}
		if g := math.Exp(sum / float64(len(results))); ok && g < rep.fixedGeomean {
			rep.fixed, rep.fixedGeomean = ch.String(), g
		}
	}
	fmt.Fprintf(w, "  auto vs fastest: geomean slowdown %.3f, worst %.3f at %s (%d shapes)\n", rep.geomean, rep.worst, rep.worstShape, rep.shapes)
	if alt != nil && altScore.n > 0 {
		rep.altGeomean, rep.altWorst = altScore.geomean(), altScore.worst
		fmt.Fprintf(w, "  %s on the same timings: geomean slowdown %.3f, worst %.3f at %s (%d shapes); ratio of geomeans %.3f\n",
			quote.Cut(alt.name), rep.altGeomean, rep.altWorst, altScore.worstShape, altScore.n, rep.geomean/rep.altGeomean)
	}
	if rep.fixed != "" {
		rep.autoSpeedup = rep.fixedGeomean / rep.geomean
		fmt.Fprintf(w, "  auto vs the best single fixed candidate (%s, geomean slowdown %.3f): speedup %.3fx (geomean)\n", rep.fixed, rep.fixedGeomean, rep.autoSpeedup)
	}
	return rep, nil
}

// retimeAbove is the slowdown above which validate times a shape's picks
// and its fastest candidate again, head to head.
const retimeAbove = 1.25

// everyTimed reports whether es has an entry for every spelling of keep.
func everyTimed(es []entry, keep map[string]bool) bool {
	for sp := range keep {
		if !slices.ContainsFunc(es, func(e entry) bool { return e.Spelling == sp }) {
			return false
		}
	}
	return true
}

func fastestOf(es []entry) entry {
	var best entry
	for i, e := range es {
		if i == 0 || e.MS < best.MS {
			best = e
		}
	}
	return best
}
