package main

import (
	"slices"
	"strings"
	"time"

	sel "github.com/batchlas-go/batchlas/select"
)

// profileExpress is `tune run --profile express`: complete tables for a new
// machine in under ten minutes on two cores (6m03s for twenty-two ops on
// the 2-core Intel Xeon guest as a CPU without tables, 2026-12-05). It measures the same grid as a full run, but
// at each cell times only the candidates the prior (prior.go: the tables
// the machine would otherwise borrow) ranks near the top, with fewer and
// shorter timings, a lower cap on the work of one cell and less
// refinement, and leaves the cells where the prior is uniform to the cells
// around them when those confirm it (settle.go). Its tables are complete (a row at every cell within
// the caps), say profile=express and prior=<file> in their header, and
// replace the borrowed rankings wherever this machine disagrees.
const profileExpress = "express"

// The express profile's settings, each applied unless its flag is given.
const (
	expressReps         = 2
	expressTarget       = 500 * time.Microsecond
	expressMaxCellFlops = 5e7
	expressRefineMax    = 0.1
)

// profileSuffix keeps an express run's ledger apart from a full run's.
func profileSuffix(profile string) string {
	if profile == "" {
		return ""
	}
	return "." + profile
}

// expressDefaults sets the run's caps to the express profile's where the
// command line did not give them.
func expressDefaults(changed func(string) bool, maxFlops, refineMax *float64) {
	if !changed("max-cell-flops") {
		*maxFlops = expressMaxCellFlops
	}
	if !changed("refine-max") {
		*refineMax = expressRefineMax
	}
}

// expressProtocol sets the timing protocol to the express profile's where
// the command line did not give it.
func expressProtocol(changed func(string) bool, p *protocol) {
	if !changed("reps") {
		p.reps = expressReps
	}
	if !changed("target") {
		p.target = expressTarget
	}
}

// priorFiles names the tables the prior came from, comma-separated, for
// the header; "" when the op had none (every candidate was timed).
func (r *opRun) priorFiles() string {
	if r.prior == nil {
		return ""
	}
	var names []string
	for _, t := range r.prior.tables {
		if !slices.Contains(names, t.File) {
			names = append(names, t.File)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// identityWord is the device's identity for the lines that show it,
// "none" when it has none.
func identityWord(d *sel.Device) string {
	if d.Identity == "" {
		return "none"
	}
	return d.Identity
}
