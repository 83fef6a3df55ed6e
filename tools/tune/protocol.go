package main

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"time"
)

// timer runs one candidate on one cell: calls calls in a row and returns the
// time spent inside the op's entry point (restoring inputs between calls is
// not counted).
type timer func(ctx context.Context, calls int) (time.Duration, error)

// protocol is the tuner's measurement protocol: warm-up; repeated
// timings with the candidate order rotated each repetition; two passes, the
// second in reverse order; a candidate's time is the mean of the two
// medians; a candidate whose passes differ by more than noise is measured
// again once, and the faster of its two rounds is kept.
type protocol struct {
	// reps is the number of timings per candidate per pass.
	reps int
	// target is the least time one timing should last: the number of calls
	// per timing adapts to the candidate, so fast calls are not lost in
	// clock resolution and slow ones are not repeated needlessly.
	target time.Duration
	// maxCalls bounds the calls per timing.
	maxCalls int
	// noise is the relative difference between the two passes' medians
	// above which a candidate is measured again (0.10).
	noise float64
	// screen, when above 1, is the screening ratio: every candidate is
	// timed once first, and one more than screen times slower than the
	// fastest keeps that time instead of going through the passes. Such a
	// candidate ranks last whatever the passes would say, and on a cell of
	// large matrices the slow candidates' passes were most of the cell's
	// time. 0 times every candidate in full.
	screen float64
}

func defaultProtocol() protocol {
	return protocol{reps: 5, target: time.Millisecond, maxCalls: 1 << 20, noise: 0.10, screen: 2}
}

// measured is the outcome for one candidate.
type measured struct {
	MS     float64    // mean of the two pass medians, ms per call
	Passes [2]float64 // each pass's median
	Again  bool       // its passes disagreed and it was measured again
	Noisy  bool       // they still disagreed after measuring again
	// Screened: the screening timing put it more than screen times slower
	// than the fastest; MS is that one timing.
	Screened bool
}

// passOrders returns the candidate orders of the timings of one measurement
// round: reps rotations of 0..n-1, then reps rotations of the reversed order.
// The rotation spreads slow drifts (turbo, a neighbour's load) over every
// candidate instead of charging them to whoever runs at a fixed slot.
func passOrders(n, reps int) [2][][]int {
	var out [2][][]int
	base := make([]int, n)
	for i := range base {
		base[i] = i
	}
	for pass := 0; pass < 2; pass++ {
		order := slices.Clone(base)
		if pass == 1 {
			slices.Reverse(order)
		}
		for r := 0; r < reps; r++ {
			rot := make([]int, n)
			for i := range rot {
				rot[i] = order[(i+r)%n]
			}
			out[pass] = append(out[pass], rot)
		}
	}
	return out
}

// steadyMax and steadyFresh bound peers' sizing call, which is repeated
// while it touches steadyFresh bytes or more of memory the process had not
// touched before, steadyMax calls at most. A call that allocates its
// results (a composite: the one-call layer, as numpy's functions) runs at
// first on fresh pages, and on a virtual machine each costs 7-9 us
// (linalg.Inv float64 n = 128 batch = 256 on the Zen 5 guest: 110, 114 and
// 132 ms for its first three calls, 8,200-8,500 page faults each, the
// runtime's memory grown by 32 MiB each; then 42-46 ms with no growth); the
// heap reaches its size after a few calls, as in a program that makes the
// call in a loop.
const (
	steadyMax   = 8
	steadyFresh = 1 << 20
)

// steadyCall makes tm's sizing call (one call, after its warm-up): again
// while the call grew the memory the Go runtime holds (heldBytes) by
// steadyFresh or more, steadyMax calls at most, and returns the last one's
// time.
func steadyCall(ctx context.Context, tm timer, held func() int64) (time.Duration, error) {
	for i := 1; ; i++ {
		before := held()
		one, err := tm(ctx, 1)
		if err != nil || i == steadyMax || held()-before < steadyFresh {
			return one, err
		}
	}
}

// heldBytes is the memory the Go runtime has mapped from the operating
// system and not released to it: it grows by the pages a call touches for
// the first time (a heap growing onto fresh memory, or reusing memory the
// scavenger had returned).
func heldBytes() int64 {
	ms := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	return int64(ms[0].Value.Uint64()) - int64(ms[1].Value.Uint64())
}

// calibrate picks the calls per timing for a candidate from one timed call
// (after its warm-up).
func (p protocol) calibrate(one time.Duration) int {
	if one <= 0 {
		return p.maxCalls
	}
	n := int(math.Ceil(float64(p.target) / float64(one)))
	return max(1, min(n, p.maxCalls))
}

// measure runs the protocol over the timers of one cell. calls[i] is the
// calls per timing of candidate i (from calibrate). It returns one result
// per timer, in the order given.
func (p protocol) measure(ctx context.Context, timers []timer, calls []int) ([]measured, error) {
	if p.screen > 1 && len(timers) > 1 {
		return p.screened(ctx, timers, calls)
	}
	return p.full(ctx, timers, calls)
}

// screened times every candidate once, in candidate order, and runs the
// full protocol on those within screen times the fastest; the others keep
// their one timing.
func (p protocol) screened(ctx context.Context, timers []timer, calls []int) ([]measured, error) {
	first := make([]float64, len(timers))
	best := math.Inf(1)
	for i := range timers {
		ms, err := timeOnce(ctx, timers[i], calls[i])
		if err != nil {
			return nil, err
		}
		first[i] = ms
		best = min(best, ms)
	}
	out := make([]measured, len(timers))
	var keep []int
	for i, ms := range first {
		if ms > best*p.screen {
			// One disturbed timing must not screen a candidate out: it
			// is timed again and keeps the faster of the two.
			again, err := timeOnce(ctx, timers[i], calls[i])
			if err != nil {
				return nil, err
			}
			ms = min(ms, again)
		}
		if ms <= best*p.screen {
			keep = append(keep, i)
			continue
		}
		out[i] = measured{MS: ms, Passes: [2]float64{ms, ms}, Screened: true}
	}
	sub, subCalls := subset(timers, calls, keep)
	res, err := p.full(ctx, sub, subCalls)
	if err != nil {
		return nil, err
	}
	for j, i := range keep {
		out[i] = res[j]
	}
	return out, nil
}

// timeOnce makes one timing of calls calls and returns milliseconds per
// call.
func timeOnce(ctx context.Context, tm timer, calls int) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	d, err := tm(ctx, calls)
	if err != nil {
		return 0, fmt.Errorf("timing: %w", err)
	}
	return float64(d) / float64(time.Millisecond) / float64(calls), nil
}

// subset picks the timers (and their calls per timing) at positions idx.
func subset(timers []timer, calls []int, idx []int) ([]timer, []int) {
	sub := make([]timer, len(idx))
	subCalls := make([]int, len(idx))
	for j, i := range idx {
		sub[j], subCalls[j] = timers[i], calls[i]
	}
	return sub, subCalls
}

// full is the two-pass protocol on every timer, with a second round for
// the candidates whose passes disagree.
func (p protocol) full(ctx context.Context, timers []timer, calls []int) ([]measured, error) {
	res, err := p.round(ctx, timers, calls)
	if err != nil {
		return nil, err
	}
	var again []int
	for i, m := range res {
		if disagree(m.Passes, p.noise) {
			again = append(again, i)
		}
	}
	if len(again) == 0 {
		return res, nil
	}
	sub, subCalls := subset(timers, calls, again)
	res2, err := p.round(ctx, sub, subCalls)
	if err != nil {
		return nil, err
	}
	for j, i := range again {
		// Keep the faster of the two rounds: load from elsewhere on the
		// machine only ever adds time, so the faster round is the one
		// less disturbed.
		m := res2[j]
		if res[i].MS < m.MS {
			m = res[i]
		}
		m.Again = true
		m.Noisy = disagree(res2[j].Passes, p.noise)
		res[i] = m
	}
	return res, nil
}

func disagree(p [2]float64, noise float64) bool {
	lo, hi := min(p[0], p[1]), max(p[0], p[1])
	return !(hi <= lo*(1+noise))
}

// round is one two-pass measurement of every timer.
func (p protocol) round(ctx context.Context, timers []timer, calls []int) ([]measured, error) {
	n := len(timers)
	samples := [2][][]float64{make([][]float64, n), make([][]float64, n)}
	for pass, orders := range passOrders(n, p.reps) {
		for _, order := range orders {
			for _, i := range order {
				ms, err := timeOnce(ctx, timers[i], calls[i])
				if err != nil {
					return nil, err
				}
				samples[pass][i] = append(samples[pass][i], ms)
			}
		}
	}
	out := make([]measured, n)
	for i := range out {
		a, b := median(samples[0][i]), median(samples[1][i])
		out[i] = measured{MS: (a + b) / 2, Passes: [2]float64{a, b}}
	}
	return out, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
