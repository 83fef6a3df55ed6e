package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const checkSynopsis = "check [--dir tuned] [--regret]"

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", checkSynopsis, stdout, stderr)
	dir := fs.String("dir", "tuned", "directory of <op>.<device>.txt tables")
	regret := fs.Bool("regret", false, "print each table's leave-one-out regret and the best single fixed candidate")
	worst := fs.Int("worst", 3, "with --regret, list this many rows with the largest regret per section")
	fs.intIn("worst", worst, 0, maxListed)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	tables, failures, err := checkDir(*dir, stdout, stderr)
	if err != nil {
		return err
	}
	if *regret {
		for _, t := range tables {
			printRegret(stdout, t, *worst)
		}
	}
	if failures > 0 {
		fmt.Fprintf(stderr, "tune check: %d problem(s) in %s\n", failures, *dir)
		return exitError{1}
	}
	return nil
}

// checkedTable is a table that parsed, with its op.
type checkedTable struct {
	t  *sel.Table
	op *sel.Op
}

// checkDir checks every table file of dir and returns the ones that parsed.
// Failures are printed on stderr as `<file>:<line>: <reason>`; warnings
// (stale kernels) too, without failing.
func checkDir(dir string, stdout, stderr io.Writer) ([]checkedTable, int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	root, rootErr := moduleRoot()
	var out []checkedTable
	failures, files := 0, 0
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".txt") {
			continue // README.md and the like
		}
		files++
		path := filepath.Join(dir, name)
		data, err := safefile.ReadFile(path, safefile.TableLimit)
		if err != nil {
			fmt.Fprintf(stderr, "%s:1: %v\n", path, err)
			failures++
			continue
		}
		t, op, problems := checkTable(name, data)
		for _, p := range problems {
			fmt.Fprintf(stderr, "%s\n", filepath.Join(dir, p))
		}
		failures += len(problems)
		if t == nil {
			continue
		}
		if w := staleWarning(t, root, rootErr); w != "" {
			fmt.Fprintf(stderr, "%s: warning: %s\n", path, w)
		}
		if len(problems) == 0 {
			rows := 0
			var dts []string
			for _, dt := range sortedDTypes(t) {
				rows += len(t.Sections[dt])
				dts = append(dts, fmt.Sprintf("%s %d", dt, len(t.Sections[dt])))
			}
			fmt.Fprintf(stdout, "ok   %s: %d rows (%s), revision %d, kernels %s\n", path, rows, strings.Join(dts, ", "), t.Revision, t.Header["kernels"])
		}
		out = append(out, checkedTable{t: t, op: op})
	}
	if files == 0 {
		fmt.Fprintf(stdout, "no tables in %s\n", dir)
	}
	return out, failures, nil
}

// checkTable runs every check of `tune check` (docs/tuning.md) on one table and returns its
// problems as `<file>:<line>: <reason>`. The table is nil when it does not
// parse (or names no linked op).
func checkTable(name string, data []byte) (*sel.Table, *sel.Op, []string) {
	opName, _, _, err := sel.SplitTableName(name)
	if err != nil {
		return nil, nil, []string{fmt.Sprintf("%s:1: %v", name, err)}
	}
	op := sel.Lookup(opName)
	if op == nil {
		return nil, nil, []string{fmt.Sprintf("%s:1: no op %s is linked into tools/tune", name, quote.Q(opName))}
	}
	t, err := sel.ParseTable(name, data, op)
	if err != nil {
		return nil, op, []string{err.Error()}
	}
	var problems []string
	fail := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
	}
	if t.Revision != op.Spec().Revision {
		fail(lineOf(data, "revision="), "revision %d, but %s is at revision %d: the table is stale, re-tune it", t.Revision, op.Name(), op.Spec().Revision)
	}
	if got, want := sel.FormatKeys(t.Keys), sel.FormatKeys(op.Keys()); got != want {
		fail(lineOf(data, "# keys:"), "keys %s differ from %s's key names %s", quote.Q(got), op.Name(), quote.Q(want))
	}
	for _, dt := range sortedDTypes(t) {
		cands := op.Candidates(dt)
		for ri := range t.Sections[dt] {
			r := &t.Sections[dt][ri]
			for _, e := range r.Entries {
				if !isCandidateOrAbsentVendor(op, dt, e.Choice) {
					fail(r.Line, "%s is not a %s candidate of %s (candidates: %s)", quote.Q(e.Spelling), dt, op.Name(), spellingList(cands))
				}
			}
			if want := tieOrder(r, cands); want != nil {
				fail(r.Line, "entries are not in tie-rule order (within 3%% of the fastest: candidate order, equal times in any order; then fastest first): want %s", strings.Join(want, " | "))
			}
		}
	}
	return t, op, problems
}

// isCandidateOrAbsentVendor accepts a compiled candidate, and a vendor
// spelling in a build without the vendor family (a novendor build still
// reads tables that rank vendor).
func isCandidateOrAbsentVendor(op *sel.Op, dt sel.DType, c sel.Choice) bool {
	if c.IsZero() {
		return false
	}
	if op.IsCandidate(dt, c) {
		return true
	}
	if !c.Vendor() {
		return false
	}
	for _, x := range op.Candidates(dt) {
		if x.Vendor() {
			return false // vendor is compiled: this spelling is just wrong
		}
	}
	return true
}

// tieOrder returns the order the tie rule wants for a timed row, or nil when
// the row already follows it (or is untimed).
func tieOrder(r *sel.Row, cands []sel.Choice) []string {
	if !timedRow(r) {
		return nil
	}
	es := make([]entry, len(r.Entries))
	for i, e := range r.Entries {
		es[i] = entry{Spelling: e.Spelling, MS: e.MS, Order: len(cands) + i}
		for j, c := range cands {
			if c.String() == e.Spelling {
				es[i].Order = j
			}
		}
	}
	ranked := rankEntries(es)
	out := make([]string, len(ranked))
	for i, e := range ranked {
		out[i] = e.Spelling + " " + formatMS(e.MS)
	}
	// Entries of equal time may come in any order among themselves: the
	// tuner orders twins by the nearest row that times them apart
	// (orderTwinTies).
	for lo := 0; lo < len(ranked); {
		hi := lo + 1
		for hi < len(ranked) && ranked[hi].MS == ranked[lo].MS {
			hi++
		}
		for i := lo; i < hi; i++ {
			if r.Entries[i].MS != ranked[lo].MS || !slices.ContainsFunc(ranked[lo:hi], func(e entry) bool { return e.Spelling == r.Entries[i].Spelling }) {
				return out
			}
		}
		lo = hi
	}
	return nil
}

// staleWarning compares the table's kernels hash with the sources (with
// the hash the op recorded when the tool runs outside the checkout).
func staleWarning(t *sel.Table, root string, rootErr error) string {
	tu := tuners[t.Op]
	if tu == nil {
		return ""
	}
	h, err := currentKernelsHash(root, rootErr, tu)
	if err != nil {
		return "cannot check the kernels hash: " + err.Error()
	}
	if got := t.Header["kernels"]; got != h {
		return fmt.Sprintf("kernels=%s but %s's kernel sources now hash to %s: the table is stale, re-tune (see docs/tuning.md)", got, t.Op, h)
	}
	return ""
}

func lineOf(data []byte, substr string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(substr)) {
			return i + 1
		}
	}
	return 1
}

func sortedDTypes(t *sel.Table) []sel.DType {
	var out []sel.DType
	for dt := range t.Sections {
		out = append(out, dt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func spellingList(cs []sel.Choice) string { return strings.Join(spellings(cs), ", ") }

// printRegret prints the leave-one-out regret of every section of a table.
func printRegret(w io.Writer, ct checkedTable, worst int) {
	dev, err := batchlas.Host().WithKey(ct.t.Device)
	if err != nil {
		dev = batchlas.Host()
	}
	for _, dt := range sortedDTypes(ct.t) {
		rep := leaveOneOut(ct.t, dt, ct.op, dev)
		if rep.scored == 0 {
			fmt.Fprintf(w, "%s %s: no regret (untimed, or fewer than two rows)\n", ct.t.File, dt)
			continue
		}
		fmt.Fprintf(w, "%s %s: leave-one-out regret over %d rows: geomean %.3f, worst %.3f at %s (%s chosen, %s fastest)\n",
			ct.t.File, dt, rep.scored, rep.geomean, rep.worst.slowdown, rep.worst.row.Key.Format(ct.t.Keys), rep.worst.chosen, rep.worst.fastest)
		if rep.fixed != "" {
			fmt.Fprintf(w, "  auto vs the best single fixed candidate (%s, geomean slowdown %.3f): speedup %.3fx at the rows, %.3fx leave-one-out (geomean)\n",
				rep.fixed, rep.fixedGeomean, rep.inSampleSpeedup, rep.fixedSpeedup)
		}
		if unscored := len(rep.rows) - rep.scored; unscored > 0 {
			fmt.Fprintf(w, "  %d row(s) not scored: the choice of the other rows is not timed there\n", unscored)
		}
		for _, rr := range worstRows(rep.rows, worst) {
			if !(rr.slowdown > 1) {
				break
			}
			fmt.Fprintf(w, "  %.3f  line %d  %s: %s chosen, %s fastest\n", rr.slowdown, rr.row.Line, rr.row.Key.Format(ct.t.Keys), rr.chosen, rr.fastest)
		}
	}
}

func worstRows(rows []rowRegret, n int) []rowRegret {
	var scored []rowRegret
	for _, r := range rows {
		if !math.IsNaN(r.slowdown) {
			scored = append(scored, r)
		}
	}
	sort.SliceStable(scored, func(i, j int) bool { return scored[i].slowdown > scored[j].slowdown })
	if len(scored) > n {
		scored = scored[:n]
	}
	return scored
}
