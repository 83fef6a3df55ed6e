package main

import (
	"cmp"
	"fmt"
	"runtime"
	"strings"

	sel "github.com/batchlas-go/batchlas/select"
)

// Shared cores. The development VMs have phases in which the process's
// workers share one core's arithmetic: on a 2-core Zen 5 guest on
// 2026-12-07 the float64 FMA peak was 113 GFLOP/s on one worker and 113
// on two for some minutes, and 212 on two later the same hour (stop 72).
// A kernel split over the workers then runs at half its speed and one
// that is not keeps its own, so a table measured in such a phase ranks
// the candidates as a loaded machine does. The tuner and the peer
// benchmark measure the peak on one worker and on all of them before they
// start and after each op, and say so when the workers do not add up.

// coresScaleMin is the least share of workers times the one-worker peak
// that all workers together must reach for the cores to count as free:
// 0.94 in the quiet phase above, 0.50 in the shared one.
const coresScaleMin = 0.75

// coresReps is the timings of each peak measurement, the best kept: some
// 60 ms in all on two cores.
const coresReps = 2

// corePeaks measures the float64 FMA peak on one worker and on every
// worker; ok is false where no FMA loop is built. It is a variable so
// that the tests of the commands that call it need not spend the time.
var corePeaks = func() (one, all float64, workers int, ok bool) {
	workers = runtime.GOMAXPROCS(0)
	if one, _, ok = fmaPeak(sel.Float64, 1, coresReps); !ok {
		return 0, 0, workers, false
	}
	all, _, _ = fmaPeak(sel.Float64, workers, coresReps)
	return one, all, workers, true
}

// sharedCores returns why the cores look shared now ("" when they do not,
// or when the peak cannot be measured or there is one worker).
func sharedCores() string {
	one, all, workers, ok := corePeaks()
	if !ok {
		return ""
	}
	return sharedCoresWhy(one, all, workers)
}

// coreWatch looks at the cores between pieces of work: a piece with a
// look on either side that found them shared was timed while they were.
type coreWatch struct{ last string }

// watchCores takes the first look.
func watchCores() *coreWatch { return &coreWatch{last: sharedCores()} }

// since looks again and returns why the cores were shared at the previous
// look or at this one ("" when at neither).
func (w *coreWatch) since() string {
	before := w.last
	w.last = sharedCores()
	return cmp.Or(w.last, before)
}

// sharedCoresWhy is sharedCores' verdict on measured peaks.
func sharedCoresWhy(one, all float64, workers int) string {
	if workers < 2 || !(one > 0) || all >= coresScaleMin*float64(workers)*one {
		return ""
	}
	return fmt.Sprintf("the FMA peak on %d workers was %.0f GFLOP/s float64, %.1fx one worker's %.0f: a busy host or another process shares the cores",
		workers, all, all/one, one)
}

// sharedCoresLine is the peer benchmark's line under the machine line
// when some shapes were timed while the cores were shared ("" when
// none): how many, why, and which.
func sharedCoresLine(shapes []string, rows int, why string) string {
	if len(shapes) == 0 {
		return ""
	}
	return fmt.Sprintf("cores shared while timing %d of %d shapes (%s): their times on all workers are a loaded machine's; time them again on a quiet machine: %s",
		len(shapes), rows, why, strings.Join(shapes, "; "))
}
