package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows cells done, the current cell and an ETA on stderr while a
// run measures. The bar advances by each cell's estimated cost, not by one
// per cell: cells differ in cost by orders of magnitude, and an ETA from a
// cell count would be off by as much. It is silent when stderr is not a
// terminal (a log file or CI), where a redrawn bar is only noise.
type progress struct {
	bar   *progressbar.ProgressBar
	cells int
	done  int
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer, show bool, cells int, cost float64) *progress {
	p := &progress{cells: cells}
	if !show {
		return p
	}
	p.bar = progressbar.NewOptions64(costUnits(cost),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionShowDescriptionAtLineEnd(),
	)
	return p
}

// costUnits turns an estimated cost in milliseconds into bar units.
func costUnits(ms float64) int64 { return max(1, int64(ms)) }

// start shows the cell about to be measured.
func (p *progress) start(what string) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("cells %d/%d  %s", p.done, p.cells, what))
	}
}

// finish counts a cell done (measured, from the ledger, or abandoned).
func (p *progress) finish(cost float64) {
	p.done++
	if p.bar != nil {
		_ = p.bar.Add64(costUnits(cost))
	}
}

// grow adds cells found along the way (refinement midpoints).
func (p *progress) grow(cells int, cost float64) {
	p.cells += cells
	if p.bar != nil {
		p.bar.AddMax64(costUnits(cost))
	}
}

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
