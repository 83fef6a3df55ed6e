package testmat

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// AllocsPerRun is testing.AllocsPerRun without its GOMAXPROCS(1): the
// average number of heap allocations per call of f, over runs calls after
// warm-up calls, counted process-wide so that helper goroutines count too.
// The warm-up is three calls: the first parallel calls start and park the
// helper goroutines and fill the free lists of every P they run on.
// testing.AllocsPerRun runs f with one worker, so it never reaches the
// batch-parallel path; tests of that path use this, on both.
func AllocsPerRun(runs int, f func()) float64 {
	defer collectionOff()()
	for range 3 {
		f()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64((after.Mallocs - before.Mallocs) / uint64(runs))
}

// AllocRuns is how many calls NoAllocs counts on each kind of run. An
// allocation the code makes on every call shows whatever the count; a
// few calls keep the suites' allocation tests, which run every candidate
// on many shapes, a small part of the test command's time.
const AllocRuns = 4

// NoAllocs fails t when f allocates under testing.AllocsPerRun (one
// worker) or under AllocsPerRun (every worker the process has), naming
// what: the per-call figure an op with its workspace supplied must keep
// at 0. Under the race detector it checks nothing (see RaceEnabled).
func NoAllocs(t testing.TB, what string, f func()) {
	t.Helper()
	NoAllocsRuns(t, what, AllocRuns, f)
}

// NoAllocsRuns is NoAllocs over runs calls of each kind, for calls too
// slow for 20.
func NoAllocsRuns(t testing.TB, what string, runs int, f func()) {
	t.Helper()
	if RaceEnabled {
		return
	}
	one, all := Allocs(runs, f)
	if one != 0 && !testing.Short() { // under -short, one is all
		t.Errorf("%s: %v allocations per call on one worker, want 0", what, one)
	}
	if all != 0 {
		t.Errorf("%s: %v allocations per call on %d workers, want 0", what, all, runtime.GOMAXPROCS(0))
	}
}

// Allocs is the heap allocations per call of f over runs calls on one
// worker (testing.AllocsPerRun) and on every worker (AllocsPerRun). Each
// figure is the lowest of up to three measurements while they are not 0
// (lowest): an allocation the code makes shows in every call, while one
// the runtime makes now and then (a waiter's record for a parked
// goroutine, a sync.Pool growing the free list of a P that had none, on
// a loaded machine) seldom shows twice and has not shown three times.
//
// Under -short one is all, measured once: the test command's portable
// pass (make novendor) runs the suites with -short, and what it adds to
// the plain pass is the kernels' Go twins, which both kinds of run reach;
// the one-worker run tells apart the drivers' sequential and parallel
// paths, which no build tag changes. (Fewer calls per measurement were
// tried there too: one call after the warm-up measured a stray runtime
// allocation twice in a row on a loaded machine, where four calls, whose
// count is divided by four, do not.)
func Allocs(runs int, f func()) (one, all float64) {
	all = lowest(func() float64 { return AllocsPerRun(runs, f) })
	if testing.Short() {
		return all, all
	}
	one = lowest(func() float64 { return oneWorker(runs, f) })
	return one, all
}

// collectionOff keeps garbage collection off from before a measurement's
// warm-up to its end and returns what turns it back on, so that no
// collection falls inside it: a collection empties the sync.Pools the
// kernels take their jobs from (internal/parallel), and the calls after
// it allocate new ones. getrf's test once measured 1 allocation per call
// on two workers, twice in a row, in the novendor pass of a CI run on a
// loaded guest, and 0 in every run of the test alone; a call that
// allocates every time still shows. (Forcing a collection before each
// measurement did the same at the price of a full mark of the test's
// heap, twice per call measured: much of the suites' allocation tests'
// time.) debug.SetGCPercent(-1) waits for a collection in progress to
// finish.
func collectionOff() (restore func()) {
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// oneWorker is testing.AllocsPerRun (which runs f on one worker, its
// warm-up a single call) with collection off, as collectionOff.
func oneWorker(runs int, f func()) float64 {
	defer collectionOff()()
	return testing.AllocsPerRun(runs, f)
}

// lowest is measure()'s figure, or while it is not 0 the lowest of it
// and up to two more. An allocation the code makes shows in all three;
// the runtime's stray one showed twice in a row once more (getrf's
// recursive kernel, float32 n = 70, 1 per call on two workers in the
// unit pass of a CI run on the loaded Zen 3 guest, 0 in every run alone
// or beside another package's tests), so one more measurement is taken
// before a figure counts.
func lowest(measure func() float64) float64 {
	got := measure()
	for range 2 {
		if got == 0 {
			return 0
		}
		got = min(got, measure())
	}
	return got
}

// FewestAllocs is AllocsPerRun measured again while the figure is not 0,
// the lowest of up to three (lowest): for the bounds of vendor kernels,
// which run across the workers like the native ones and see the same
// occasional runtime allocation (a gemm vendor call on 300 matrices once
// measured 1 per call against its bound of 0).
func FewestAllocs(runs int, f func()) float64 {
	return lowest(func() float64 { return AllocsPerRun(runs, f) })
}
