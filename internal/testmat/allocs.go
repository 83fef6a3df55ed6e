package testmat

import (
	"runtime"
	"testing"
)

// AllocsPerRun is testing.AllocsPerRun without its GOMAXPROCS(1): the
// average number of heap allocations per call of f, over runs calls after
// one warm-up, counted process-wide so that helper goroutines count too.
// testing.AllocsPerRun runs f with one worker, so it never reaches the
// batch-parallel path; tests of that path use this, on both.
func AllocsPerRun(runs int, f func()) float64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64((after.Mallocs - before.Mallocs) / uint64(runs))
}

// NoAllocs fails t when f allocates under testing.AllocsPerRun (one
// worker) or under AllocsPerRun (every worker the process has), naming
// what: the per-call figure an op with its workspace supplied must keep
// at 0. Under the race detector it checks nothing (see RaceEnabled).
func NoAllocs(t testing.TB, what string, f func()) {
	t.Helper()
	NoAllocsRuns(t, what, 20, f)
}

// NoAllocsRuns is NoAllocs over runs calls of each kind, for calls too
// slow for 20.
func NoAllocsRuns(t testing.TB, what string, runs int, f func()) {
	t.Helper()
	if RaceEnabled {
		return
	}
	if n := testing.AllocsPerRun(runs, f); n != 0 {
		t.Errorf("%s: %v allocations per call on one worker, want 0", what, n)
	}
	if n := AllocsPerRun(runs, f); n != 0 {
		t.Errorf("%s: %v allocations per call on %d workers, want 0", what, n, runtime.GOMAXPROCS(0))
	}
}
