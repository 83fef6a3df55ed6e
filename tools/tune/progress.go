package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows cells done, the current cell and the time left on stderr
// while a run measures. The bar advances by each cell's estimated cost (the
// plan's: estimate.go), not by one per cell: cells differ in cost by orders
// of magnitude. The time left is etaState's, from the rate of this run's
// cells so far per op and dtype, not the bar's own extrapolation. It is
// silent when stderr is not a terminal (a log file or CI), where a redrawn
// bar is only noise; the estimate is kept either way.
type progress struct {
	bar   *progressbar.ProgressBar
	eta   *etaState
	cells int
	done  int
	// now is the clock (a test sets it); began is when the current cell
	// started.
	now   func() time.Time
	began time.Time
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newProgress starts the progress of a run priced by e.
func newProgress(w io.Writer, show bool, e *runEstimate) *progress {
	p := &progress{eta: newETA(), now: time.Now}
	cost := 0.0
	for _, g := range e.groups {
		known := 0.0
		for _, c := range g.cells {
			known += g.cost(c)
		}
		p.eta.add(g.name(), known, g.extra)
		p.cells += len(g.cells)
		cost += known
	}
	if !show {
		return p
	}
	p.bar = progressbar.NewOptions64(costUnits(cost),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionShowDescriptionAtLineEnd(),
	)
	return p
}

// costUnits turns an estimated cost in milliseconds into bar units.
func costUnits(ms float64) int64 { return max(1, int64(clean(ms))) }

// start shows the cell about to be measured.
func (p *progress) start(what string) {
	p.began = p.now()
	if p.bar != nil {
		p.bar.Describe(p.describe(what))
	}
}

// describe is the bar's text: cells done, the time left, the cell.
func (p *progress) describe(what string) string {
	left := ""
	if ms, ok := p.eta.remaining(); ok {
		left = "  about " + etaText(ms) + " left"
	}
	return fmt.Sprintf("cells %d/%d%s  %s", p.done, p.cells, left, what)
}

// finish counts a cell of group g measured since start; cost is its
// estimate.
func (p *progress) finish(g string, cost float64) {
	took := float64(p.now().Sub(p.began)) / float64(time.Millisecond)
	p.eta.done(g, cost, took)
	p.advance(cost)
}

// resume counts a cell of group g taken from the ledger: done, in no time.
func (p *progress) resume(g string, cost float64) {
	p.eta.skip(g, cost)
	p.advance(cost)
}

func (p *progress) advance(cost float64) {
	p.done++
	if p.bar != nil {
		_ = p.bar.Add64(costUnits(cost))
	}
}

// grow adds cells of group g found along the way (refinement midpoints,
// confirmations), cost their estimate.
func (p *progress) grow(g string, cells int, cost float64) {
	p.cells += cells
	p.eta.grow(g, cost)
	if p.bar != nil {
		p.bar.AddMax64(costUnits(cost))
	}
}

// end says group g is done: nothing more of it will come.
func (p *progress) end(g string) { p.eta.end(g) }

// pause clears the bar so a report line can be printed; the next update
// draws it again.
func (p *progress) pause() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

func (p *progress) close() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		p.bar = nil
	}
}
