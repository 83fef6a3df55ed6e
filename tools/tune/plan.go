package main

import (
	"fmt"
	"io"
	"time"
)

// printPlan lists the cells a run would measure, per op and dtype, with an
// estimated time: the cost model's, or fitted on this machine's ledger
// (estimate.go). Cells the ledger already has cost nothing (the run takes
// them from it); refinement and confirmation cells are not known in
// advance, and are priced as a share of the grid's time.
func printPlan(w io.Writer, cfg *runConfig, e *runEstimate) {
	cells, resumed := 0, 0
	for _, g := range e.groups {
		resumed += len(g.resumed)
		p := g.opPlan
		cands := fmt.Sprintf("%d candidates", len(p.t.op.Candidates(p.dt)))
		if pr := cfg.priors[p.t.op.Name()]; pr != nil {
			cands += fmt.Sprintf(" (the prior keeps %.1f per cell on average)", pr.meanKept(p.dt, p.cells, len(p.t.op.Candidates(p.dt))))
		}
		inLedger := ""
		if len(g.resumed) > 0 {
			inLedger = fmt.Sprintf(" (%d in the ledger already)", len(g.resumed))
		}
		how := "model"
		if g.fit != nil {
			how = "fitted on " + g.fitFrom
		}
		deferred := ""
		if len(p.deferred) > 0 {
			deferred = fmt.Sprintf(" and %d deferred (measured only where a cell around them disagrees with the prior)", len(p.deferred))
		}
		fmt.Fprintf(w, "%s %s: %d cells%s%s, %s, %d over the caps, about %s (grid %s, refinement, confirmation and deferred cells %s; %s)\n",
			p.t.op.Name(), p.dt, len(p.cells), inLedger, deferred, cands, len(p.capped), roundDuration(g.grid+g.extra), roundDuration(g.grid), roundDuration(g.extra), how)
		for _, c := range p.cells {
			if g.resumed[c.String()] {
				fmt.Fprintf(w, "  %-48s %8.3g flops  in the ledger\n", c, p.t.flops(c))
				continue
			}
			fmt.Fprintf(w, "  %-48s %8.3g flops  ~%s\n", c, p.t.flops(c), roundDuration(g.cost(c)))
		}
		for _, c := range p.deferred {
			fmt.Fprintf(w, "  %-48s %8.3g flops  deferred to the prior\n", c, p.t.flops(c))
		}
		for _, c := range p.capped {
			fmt.Fprintf(w, "  %-48s %8.3g flops  skipped: over the caps\n", c, p.t.flops(c))
		}
		cells += len(p.cells) + len(p.deferred)
	}
	inLedger := ""
	if resumed > 0 {
		inLedger = fmt.Sprintf(" (%d in the ledger already; about %s with a new ledger)", resumed, roundDuration(e.fresh()))
	}
	fmt.Fprintf(w, "total: %d cells%s, about %s: %s", cells, inLedger, roundDuration(e.total()), e.source)
	if cfg.budget > 0 {
		fmt.Fprintf(w, " (stops at --budget %s)", cfg.budget)
	}
	fmt.Fprintln(w)
}

func roundDuration(ms float64) time.Duration {
	if !finite(ms) || ms < 0 {
		return 0
	}
	d := time.Duration(min(ms, float64(maxBudget/time.Millisecond)) * float64(time.Millisecond))
	switch {
	case d > time.Minute:
		return d.Round(time.Second)
	case d > time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
