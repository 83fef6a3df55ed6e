package main

import (
	"sync"
	"time"

	sel "github.com/batchlas-go/batchlas/select"
)

// peakIters is one timing's iterations of the FMA loop per worker: 24
// fused multiply-adds each, some 10 to 20 ms on a core of a few GHz.
const peakIters = 2 << 20

// fmaPeak measures the arithmetic peak the peers table rates GFLOP/s
// against: workers goroutines at once, each running independent fused
// multiply-add chains on the widest vectors this process's kernels use
// (512-bit when the AVX-512 paths are on, 256-bit otherwise), best of
// reps timings, in GFLOP/s of dt. ok is false where no such loop is built
// (another architecture, purego).
func fmaPeak(dt sel.DType, workers, reps int) (gflops float64, width int, ok bool) {
	loop, width, flopsPerIter, ok := fmaLoop(dt)
	if !ok {
		return 0, 0, false
	}
	best := time.Duration(1<<63 - 1)
	for range max(1, reps) {
		var wg sync.WaitGroup
		start := time.Now()
		for range max(1, workers) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				loop(peakIters)
			}()
		}
		wg.Wait()
		best = min(best, time.Since(start))
	}
	flops := float64(max(1, workers)) * peakIters * flopsPerIter
	return flops / best.Seconds() / 1e9, width, true
}
