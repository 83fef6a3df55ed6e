package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/coverage"
	sel "github.com/batchlas-go/batchlas/select"
)

const coverageSynopsis = "coverage [--require-reached] [--suggest N] FILES..."

func cmdCoverage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("coverage", coverageSynopsis, stdout, stderr)
	require := fs.Bool("require-reached", false, "fail, listing every linked candidate that no reached row names")
	suggest := fs.Int("suggest", 0, "list the N most-called keys farthest from any row of the table they used: what to tune next")
	fs.intIn("suggest", suggest, 0, maxListed)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fs.usageError("name the coverage shards (BATCHLAS_COVERAGE_OUT=<path> writes <path>.<pid>.csv)")
	}
	raw, err := coverage.ReadFiles(fs.Args()...)
	if err != nil {
		return err
	}
	rows := coverage.Merge(raw)
	printCoverageSummary(stdout, rows, len(fs.Args()))
	if *suggest > 0 {
		printSuggestions(stdout, suggestTuning(rows, *suggest), servedByTable(rows))
	}
	if *require {
		missing := unreached(rows)
		if len(missing) > 0 {
			fmt.Fprintf(stderr, "tune coverage: %d candidate(s) compiled into the tests never ran there (every candidate must run in the tests):\n", len(missing))
			for _, m := range missing {
				fmt.Fprintf(stderr, "  %s %s %s (%s)\n", m.Op, m.DType, m.Choice, m.Origin)
			}
			return exitError{1}
		}
		fmt.Fprintln(stdout, "every linked candidate was reached")
	}
	return nil
}

// printCoverageSummary prints, per op and dtype, the calls of each choice.
func printCoverageSummary(w io.Writer, rows []coverage.Row, shards int) {
	type agg struct {
		calls int64
		keys  int
	}
	by := map[[3]string]*agg{}
	var order [][3]string
	linked, misses := 0, int64(0)
	for _, r := range rows {
		switch r.Kind {
		case coverage.Linked:
			linked++
		case coverage.Miss:
			misses += r.Calls
		case coverage.Reached:
			k := [3]string{r.Op, r.DType, r.Choice}
			if by[k] == nil {
				by[k] = &agg{}
				order = append(order, k)
			}
			by[k].calls += r.Calls
			by[k].keys++
		}
	}
	fmt.Fprintf(w, "%d process file(s): %d candidates compiled in, %d (op, dtype, kernel) combinations ran, %d call(s) found no kernel\n", shards, linked, len(order), misses)
	sort.SliceStable(order, func(i, j int) bool {
		return strings.Join(order[i][:], " ") < strings.Join(order[j][:], " ")
	})
	for _, k := range order {
		fmt.Fprintf(w, "  %-6s %-8s %-24s %10d calls over %d key(s)\n", k[0], k[1], k[2], by[k].calls, by[k].keys)
	}
}

// unreached returns the linked rows that no reached row names (same op,
// dtype and choice, any device, key or source).
func unreached(rows []coverage.Row) []coverage.Row {
	reached := map[[3]string]bool{}
	for _, r := range rows {
		if r.Kind == coverage.Reached {
			reached[[3]string{r.Op, r.DType, r.Choice}] = true
		}
	}
	var out []coverage.Row
	seen := map[[3]string]bool{}
	for _, r := range rows {
		k := [3]string{r.Op, r.DType, r.Choice}
		if r.Kind == coverage.Linked && !reached[k] && !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// suggestion is one reached key far from the rows of its table.
type suggestion struct {
	row      coverage.Row
	distance float64
	nearest  string
}

// suggestTuning ranks reached keys served by a table by calls times their
// distance to the nearest row of that table (keys on a row score zero and
// are left out), and returns the top n.
func suggestTuning(rows []coverage.Row, n int) []suggestion {
	var out []suggestion
	for _, r := range rows {
		if r.Kind != coverage.Reached || r.Table == "" {
			continue
		}
		op := sel.Lookup(r.Op)
		if op == nil {
			continue
		}
		c, err := parseCellArgs(op, strings.Fields(r.Key))
		if err != nil {
			continue
		}
		t := findTable(op, sel.DType(r.DType), r.Device, r.Table)
		if t == nil {
			continue
		}
		near, d, err := t.Nearest(sel.DType(r.DType), c.key())
		if err != nil || near == nil || !(d > 1e-9) {
			continue
		}
		out = append(out, suggestion{row: r, distance: d, nearest: near.Key.Format(t.Keys)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		si, sj := score(out[i]), score(out[j])
		if si != sj {
			return si > sj
		}
		return out[i].row.Key < out[j].row.Key
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func score(s suggestion) float64 { return float64(s.row.Calls) * s.distance }

// findTable finds the table a coverage row names (its file name) among the
// op's tables for the row's device.
func findTable(op *sel.Op, dt sel.DType, device, file string) *sel.Table {
	dev, err := batchlas.Host().WithKey(device)
	if err != nil {
		return nil
	}
	ts, _ := op.Tables(dt, dev)
	for _, t := range ts {
		if t.File == file {
			return t
		}
	}
	return nil
}

// servedByTable counts the reached keys a table served (not a pin, not the
// last resort): the only ones --suggest can judge.
func servedByTable(rows []coverage.Row) int {
	n := 0
	for _, r := range rows {
		if r.Kind == coverage.Reached && r.Table != "" {
			n++
		}
	}
	return n
}

func printSuggestions(w io.Writer, ss []suggestion, served int) {
	switch {
	case served == 0:
		fmt.Fprintln(w, "suggest: no reached key was served by a table (every call was pinned or took the last resort); nothing to judge")
		return
	case len(ss) == 0:
		fmt.Fprintf(w, "suggest: each of the %d reached keys served by a table sits on one of its rows\n", served)
		return
	}
	fmt.Fprintln(w, "suggest: tune these next (calls x distance to the nearest row of the table used):")
	for _, s := range ss {
		fmt.Fprintf(w, "  %8d calls  distance %5.2f  %s %s %s  (nearest row %s in %s)\n",
			s.row.Calls, s.distance, s.row.Op, s.row.DType, s.row.Key, s.nearest, s.row.Table)
	}
}
