package main

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPassOrdersRotateThenReverse(t *testing.T) {
	got := passOrders(3, 3)
	want := [2][][]int{
		{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}},
		{{2, 1, 0}, {1, 0, 2}, {0, 2, 1}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("passOrders(3, 3) (-want +got):\n%s", d)
	}
	// Every candidate runs at every slot once per pass when reps == n.
	for pass := range got {
		for slot := 0; slot < 3; slot++ {
			seen := map[int]bool{}
			for _, order := range got[pass] {
				seen[order[slot]] = true
			}
			assert.Len(t, seen, 3, "pass %d slot %d", pass, slot)
		}
	}
}

// scripted returns a timer that reports the given ms per call, one value per
// timing, and records the order the protocol called timers in.
func scripted(id int, log *[]int, ms ...float64) timer {
	i := 0
	return func(_ context.Context, calls int) (time.Duration, error) {
		*log = append(*log, id)
		v := ms[min(i, len(ms)-1)]
		i++
		return time.Duration(v * float64(calls) * float64(time.Millisecond)), nil
	}
}

func TestMeasureMeanOfTwoMedians(t *testing.T) {
	var log []int
	p := protocol{reps: 3, target: time.Millisecond, maxCalls: 1000, noise: 0.10}
	// Candidate 0: pass one 1.0, 5.0 (outlier), 1.0 -> median 1.0;
	// pass two 1.05, 1.05, 0.2 -> median 1.05. Mean 1.025.
	// Candidate 1 is steady at 2.
	timers := []timer{
		scripted(0, &log, 1.0, 5.0, 1.0, 1.05, 1.05, 0.2),
		scripted(1, &log, 2),
	}
	got, err := p.measure(context.Background(), timers, []int{4, 1})
	require.NoError(t, err)
	assert.InDelta(t, 1.025, got[0].MS, 1e-12)
	assert.Equal(t, [2]float64{1.0, 1.05}, got[0].Passes)
	assert.False(t, got[0].Again)
	assert.InDelta(t, 2.0, got[1].MS, 1e-12)
	// Pass one rotates 0,1 / 1,0 / 0,1; pass two starts reversed.
	assert.Equal(t, []int{0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0}, log)
}

func TestMeasureAgainOnceWhenPassesDisagree(t *testing.T) {
	var log []int
	p := protocol{reps: 1, target: time.Millisecond, maxCalls: 1000, noise: 0.10}
	// Candidate 0 disagrees (1 vs 2), then agrees (1.5, 1.5). Candidate 1
	// disagrees twice and stays noisy. Candidate 2 agrees at once.
	timers := []timer{
		scripted(0, &log, 1, 2, 1.5, 1.5),
		scripted(1, &log, 1, 3, 1, 3),
		scripted(2, &log, 4, 4.1),
		// Candidate 3 disagrees (1, 2), then is slower (3, 4): the faster
		// round is kept.
		scripted(3, &log, 1, 2, 3, 4),
	}
	got, err := p.measure(context.Background(), timers, []int{1, 1, 1, 1})
	require.NoError(t, err)
	assert.True(t, got[0].Again)
	assert.False(t, got[0].Noisy)
	assert.InDelta(t, 1.5, got[0].MS, 1e-12)
	assert.True(t, got[1].Again)
	assert.True(t, got[1].Noisy)
	assert.False(t, got[2].Again)
	assert.InDelta(t, 4.05, got[2].MS, 1e-6) // durations are whole nanoseconds
	assert.True(t, got[3].Again)
	assert.InDelta(t, 1.5, got[3].MS, 1e-12)
	assert.True(t, got[3].Noisy, "its second round still disagrees")
	// Round one: 4 candidates x 2 passes; round two: the three noisy ones.
	assert.Len(t, log, 8+6)
	for _, id := range log[8:] {
		assert.NotEqual(t, 2, id, "a steady candidate is not measured again")
	}
}

func TestMeasureScreensFarSlowerCandidates(t *testing.T) {
	var log []int
	p := protocol{reps: 1, target: time.Millisecond, maxCalls: 1000, noise: 0.10, screen: 2}
	// Screening timings: 1, 1.9 and 2.1, then 2.2 for candidate 2, timed
	// again because it is over twice the fastest. It stays over and keeps
	// the faster timing; the other two go through the passes (their later
	// timings say 1.2 and 1.8).
	timers := []timer{
		scripted(0, &log, 1, 1.2),
		scripted(1, &log, 1.9, 1.8),
		scripted(2, &log, 2.1, 2.2, 0.1), // 0.1 would be its pass time: never run
	}
	got, err := p.measure(context.Background(), timers, []int{1, 1, 1})
	require.NoError(t, err)
	assert.False(t, got[0].Screened)
	assert.InDelta(t, 1.2, got[0].MS, 1e-9)
	assert.False(t, got[1].Screened)
	assert.InDelta(t, 1.8, got[1].MS, 1e-9)
	assert.True(t, got[2].Screened)
	assert.InDelta(t, 2.1, got[2].MS, 1e-9)
	// Screening once each in candidate order, candidate 2 again, then two
	// passes of the two kept candidates.
	assert.Equal(t, []int{0, 1, 2, 2, 0, 1, 1, 0}, log)

	// A disturbed first timing does not screen a candidate out: timed
	// again at 1.5 it goes through the passes.
	log = nil
	timers[2] = scripted(2, &log, 3.5, 1.5, 1.4)
	got, err = p.measure(context.Background(), timers, []int{1, 1, 1})
	require.NoError(t, err)
	assert.False(t, got[2].Screened)
	assert.InDelta(t, 1.4, got[2].MS, 1e-9)

	// Without screening every candidate runs the passes.
	log = nil
	p.screen = 0
	timers[2] = scripted(2, &log, 2.1)
	_, err = p.measure(context.Background(), timers, []int{1, 1, 1})
	require.NoError(t, err)
	assert.Len(t, log, 6)
}

func TestMeasureStopsWhenCancelled(t *testing.T) {
	var log []int
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := defaultProtocol().measure(ctx, []timer{scripted(0, &log, 1)}, []int{1})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, log)
}

func TestCalibrateReachesTarget(t *testing.T) {
	p := protocol{target: 2 * time.Millisecond, maxCalls: 1000}
	assert.Equal(t, 1, p.calibrate(5*time.Millisecond), "a slow call is timed once")
	assert.Equal(t, 2, p.calibrate(time.Millisecond))
	assert.Equal(t, 3, p.calibrate(700*time.Microsecond))
	assert.Equal(t, 1000, p.calibrate(10*time.Nanosecond), "capped")
	assert.Equal(t, 1000, p.calibrate(0))
}

func TestRankEntriesTieRule(t *testing.T) {
	es := []entry{
		{Spelling: "tiny", Order: 0, MS: 1.02},    // within 3% of 1.00: tie, first by order
		{Spelling: "lpanel", Order: 1, MS: 1.00},  // fastest
		{Spelling: "blocked", Order: 2, MS: 1.50}, // not tied
		{Spelling: "vendor", Order: 3, MS: 1.03},  // exactly 3%: tie
		{Spelling: "unblk", Order: 4, MS: 1.20},
	}
	var got []string
	for _, e := range rankEntries(es) {
		got = append(got, e.Spelling)
	}
	assert.Equal(t, []string{"tiny", "lpanel", "vendor", "unblk", "blocked"}, got)
	assert.Equal(t, "tiny", es[0].Spelling, "the argument is not modified")

	// Outside the tie, equal times go by candidate order.
	got = nil
	for _, e := range rankEntries([]entry{{"b", 2, 2}, {"a", 1, 2}, {"z", 0, 1}}) {
		got = append(got, e.Spelling)
	}
	assert.Equal(t, []string{"z", "a", "b"}, got)
}

func TestRoundAndFormatMS(t *testing.T) {
	assert.Equal(t, "0.0005032", formatMS(0.000503249))
	assert.Equal(t, "1235", formatMS(1234.56))
	assert.Equal(t, "0.302", formatMS(0.302))
	assert.Equal(t, 1.235, roundMS(1.23456))
}

// steadyCall repeats the sizing call while it grows the memory held by
// steadyFresh or more, steadyMax calls at most, and passes a failing call's
// error on.
func TestSteadyCallWaitsForTheHeapToGrow(t *testing.T) {
	type step struct {
		ms    int   // the call's time; negative: it fails
		grows int64 // what it adds to the memory held
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  time.Duration
		calls int
		err   string
	}{
		{"steady at once", []step{{10, 0}, {10, 0}}, 10 * time.Millisecond, 1, ""},
		{"a little growth", []step{{10, steadyFresh - 1}, {5, 0}}, 10 * time.Millisecond, 1, ""},
		{"memory released", []step{{10, -steadyFresh}, {5, 0}}, 10 * time.Millisecond, 1, ""},
		{"fresh pages for three calls, slower on the third", []step{{110, 32 << 20}, {114, 32 << 20}, {132, 32 << 20}, {42, 0}, {40, 0}}, 42 * time.Millisecond, 4, ""},
		{"fresh pages every call", []step{{30, steadyFresh}}, 30 * time.Millisecond, steadyMax, ""},
		{"a failing call", []step{{100, 1 << 30}, {-1, 0}, {5, 0}}, 0, 2, "boom"},
	} {
		var held int64
		made := 0
		tm := func(_ context.Context, calls int) (time.Duration, error) {
			require.Equal(t, 1, calls, "the sizing call is one call")
			s := tc.steps[min(made, len(tc.steps)-1)]
			made++
			held += s.grows
			if s.ms < 0 {
				return 0, errors.New("boom")
			}
			return time.Duration(s.ms) * time.Millisecond, nil
		}
		got, err := steadyCall(context.Background(), tm, func() int64 { return held })
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.name)
		} else {
			require.NoError(t, err, tc.name)
			assert.Equal(t, tc.want, got, tc.name)
		}
		assert.Equal(t, tc.calls, made, tc.name)
	}
}

// heldBytes grows when the process touches fresh memory.
func TestHeldBytesSeesFreshPages(t *testing.T) {
	before := heldBytes()
	fresh := make([]byte, 8*steadyFresh)
	for i := range fresh {
		fresh[i] = 1
	}
	assert.GreaterOrEqual(t, heldBytes()-before, int64(steadyFresh))
	runtime.KeepAlive(fresh)
}
