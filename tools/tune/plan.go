package main

import (
	"fmt"
	"io"
	"time"
)

// printPlan lists the cells a run would measure, per op and dtype, with an
// estimated time. The estimate assumes every kernel runs at --plan-gflops;
// refinement and confirmation cells are not known in advance and come on
// top (bounded by --budget).
func printPlan(w io.Writer, cfg *runConfig, plans []opPlan) {
	total, cells := 0.0, 0
	for _, p := range plans {
		sub := cfg.cellsCost(p.t, p.dt, p.cells)
		cands := fmt.Sprintf("%d candidates", len(p.t.op.Candidates(p.dt)))
		if pr := cfg.priors[p.t.op.Name()]; pr != nil {
			cands += fmt.Sprintf(" (the prior keeps %.1f per cell on average)", pr.meanKept(p.dt, p.cells, len(p.t.op.Candidates(p.dt))))
		}
		fmt.Fprintf(w, "%s %s: %d cells, %s, %d over the caps, about %s\n",
			p.t.op.Name(), p.dt, len(p.cells), cands, len(p.capped), roundDuration(sub))
		for _, c := range p.cells {
			fmt.Fprintf(w, "  %-48s %8.3g flops  ~%s\n", c, p.t.flops(c), roundDuration(cfg.cellCost(p.t, p.dt, c)))
		}
		for _, c := range p.capped {
			fmt.Fprintf(w, "  %-48s %8.3g flops  skipped: over the caps\n", c, p.t.flops(c))
		}
		total += sub
		cells += len(p.cells)
	}
	fmt.Fprintf(w, "total: %d cells, about %s at %g GFLOP/s, plus refinement and confirmation cells", cells, roundDuration(total), cfg.planGFlops)
	if cfg.budget > 0 {
		fmt.Fprintf(w, " (stops at --budget %s)", cfg.budget)
	}
	fmt.Fprintln(w)
}

func roundDuration(ms float64) time.Duration {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case d > time.Minute:
		return d.Round(time.Second)
	case d > time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
