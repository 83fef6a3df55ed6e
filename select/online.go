package sel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/trace"
)

// First-use tuning (BATCHLAS_TUNE=online; docs/select.md, "First-use
// tuning"). A call whose shape has no row of the device's own identity near
// it measures the op's runnable candidates on synthetic inputs of its shape
// (the op's Measure, the same one tools/tune times), takes the fastest
// verified one, and records a row: in this process's copy of the tables,
// for shapes not decided yet, and in a per-user cache directory, for later
// processes (tunecache.go).

// Default budgets. A small call (a 64x64 gemm, a batch of 1000 8x8
// factorisations) measures its candidates in a few milliseconds; the call
// budget bounds what one shape can cost and the process budget what a
// program can pay in all, so 20 distinct small shapes cost well under a
// second.
const (
	defaultCallBudget    = 30 * time.Millisecond
	defaultProcessBudget = 2 * time.Second
	// tuneMaxBytes caps the synthetic operands of one measurement: tuning
	// must never be what runs a program out of memory.
	tuneMaxBytes = 256 << 20
	// nearDistance is how close an own-identity row must be for a call not
	// to tune: within one unit of the table's weighted log2 distance, with
	// every exact key equal.
	nearDistance = 1.0
	// tuneReps is how many timings of each candidate the median is taken
	// of.
	tuneReps = 3
)

// tuneSettings is the BATCHLAS_TUNE* part of a settings snapshot.
type tuneSettings struct {
	online   bool
	cacheDir string // "" when no directory could be found: rows stay in the process
	call     time.Duration
	process  time.Duration
}

// readTuneSettings reads BATCHLAS_TUNE, BATCHLAS_TUNE_CACHE and
// BATCHLAS_TUNE_BUDGET. A bad value warns once and leaves the default.
func readTuneSettings() tuneSettings {
	ts := tuneSettings{call: defaultCallBudget, process: defaultProcessBudget}
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv("BATCHLAS_TUNE"))); v {
	case "", "off":
	case "online":
		ts.online = !online.disabled.Load()
	default:
		warnOnce("tune-mode:"+v, fmt.Sprintf("batchlas: BATCHLAS_TUNE=%s: want off (the default) or online; first-use tuning stays off", quote.Q(v)))
	}
	if !ts.online {
		return ts
	}
	dir, err := TuneCacheDir()
	if err != nil {
		warnOnce("tune-cache-none", fmt.Sprintf("batchlas: BATCHLAS_TUNE=online: %v; tuned rows serve this process only", err))
	}
	ts.cacheDir = dir
	if v := strings.TrimSpace(os.Getenv("BATCHLAS_TUNE_BUDGET")); v != "" {
		call, process, err := parseTuneBudget(v)
		if err != nil {
			warnOnce("tune-budget:"+v, fmt.Sprintf("batchlas: BATCHLAS_TUNE_BUDGET=%s: %v; using call=%v,process=%v", quote.Q(v), err, defaultCallBudget, defaultProcessBudget))
		} else {
			ts.call, ts.process = call, process
		}
	}
	return ts
}

// TuneCacheDir is the directory of the tuning cache: BATCHLAS_TUNE_CACHE,
// or batchlas under the user's cache directory (os.UserCacheDir:
// $XDG_CACHE_HOME or ~/.cache on Linux).
func TuneCacheDir() (string, error) {
	if dir := strings.TrimSpace(os.Getenv("BATCHLAS_TUNE_CACHE")); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (%v); set BATCHLAS_TUNE_CACHE", err)
	}
	return filepath.Join(base, "batchlas"), nil
}

// parseTuneBudget parses "call=30ms,process=2s" (either part may be left
// out, in any order).
func parseTuneBudget(v string) (call, process time.Duration, err error) {
	call, process = defaultCallBudget, defaultProcessBudget
	for _, part := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		d, derr := time.ParseDuration(strings.TrimSpace(val))
		switch {
		case !ok || (name != "call" && name != "process"):
			return 0, 0, fmt.Errorf("want call=<duration>,process=<duration> (e.g. call=30ms,process=2s), got %s", quote.Q(part))
		case derr != nil || d <= 0 || d > time.Hour:
			return 0, 0, fmt.Errorf("%s=%s: want a positive duration of at most 1h, like 30ms or 2s", name, quote.Q(val))
		case name == "call":
			call = d
		default:
			process = d
		}
	}
	return call, process, nil
}

// online is the process's first-use tuning state, kept across settings
// snapshots: the budget spent is the process's.
var online struct {
	mu       sync.Mutex // one measurement at a time
	spent    time.Duration
	closed   atomic.Bool // the memo filled up: no more rows (decide)
	disabled atomic.Bool // DisableOnlineTuning
	measured atomic.Int64
}

// DisableOnlineTuning turns first-use tuning off for the rest of the
// process, whatever BATCHLAS_TUNE says. tools/tune calls it: the tuner
// measures under its own protocol and never tunes as a side effect.
func DisableOnlineTuning() {
	online.disabled.Store(true)
	Reload()
}

// Measurements reports how many calls of this process were tuned (for
// tests and tools: a second run of a program should report none).
func Measurements() int64 { return online.measured.Load() }

// opCallKey marks a context as inside an op's call: a call an op makes
// inside itself (potrf's blocked kernel calling gemm), or a measurement,
// never tunes. Only set while first-use tuning is on (Run), since it costs
// an allocation per call.
type opCallKey struct{}

// The values of opCallKey.
const (
	nestedCall  = 1 // a call made inside another op's call
	measureCall = 2 // a call of first-use tuning's measurement
)

func insideOp(ctx context.Context) bool {
	return ctx != nil && ctx.Value(opCallKey{}) != nil
}

// measuring reports whether ctx is a measurement's: its calls are neither
// traced nor counted by coverage (they are not the program's calls).
func measuring(ctx context.Context) bool {
	v, _ := ctx.Value(opCallKey{}).(int)
	return v == measureCall
}

// mayTune reports whether a call under ctx on d may be measured: not
// inside another call, not capped below the device's cores, the
// process's budget not spent.
func mayTune(ctx context.Context, s *settings, d *Device) bool {
	if !s.tune.online || online.closed.Load() || insideOp(ctx) {
		return false
	}
	cores := d.Cores
	if cores <= 0 {
		cores = runtime.NumCPU()
	}
	if runtime.GOMAXPROCS(0) < cores {
		return false
	}
	if f := parallelismOf.Load(); f != nil {
		if n := (*f)(ctx); n > 0 && n < cores {
			return false
		}
	}
	return true
}

// nearOwn reports whether out was decided by a row of d's own identity
// near the call: within nearDistance, every exact key equal.
func (o *Op) nearOwn(out *outcome, k Key, d *Device) bool {
	if out.entry == nil || out.row == nil || out.entry.device != d.Key || out.entry.identity != d.Identity {
		return false
	}
	return o.near(out.row, out.dist, k)
}

// near reports whether row, at distance dist from k, is near it: within
// nearDistance, every exact key equal.
func (o *Op) near(row *Row, dist float64, k Key) bool {
	if dist > nearDistance+1e-9 {
		return false
	}
	for i, ks := range o.keys {
		if ks.Kind == Exact && row.Key.v[i].S != k.v[i].S {
			return false
		}
	}
	return true
}

// tuneResult is one measurement of a call shape.
type tuneResult struct {
	entries []Entry // fastest first; only verified candidates
	cost    time.Duration
	note    string // why nothing was measured, when entries is empty
}

// tuned replaces dec, a table or last-resort decision for a call with no
// own row near it, by a measured one when the budgets allow. It returns
// dec itself when nothing could be measured.
func (o *Op) tuned(ctx context.Context, s *settings, dt DType, k Key, d *Device, dec *decision) *decision {
	m := o.measure
	if m == nil {
		return dec
	}
	online.mu.Lock()
	defer online.mu.Unlock()
	// Another goroutine may have tuned this shape (or one near it) while
	// this one waited.
	if again := o.decideSlow(s, dt, k, d, pinIn{}, nil); !again.wantTune || again.err != nil {
		return again
	}
	left := s.tune.process - online.spent
	if left <= 0 || online.closed.Load() {
		return dec
	}
	res := o.measureShape(ctx, dt, k, d, min(s.tune.call, left), dec.choice)
	online.spent += res.cost
	keyText := k.Format(o.keys)
	if len(res.entries) == 0 {
		s.noticeOnce("tune-none:"+o.spec.Name+":"+string(dt)+":"+keyText, fmt.Sprintf("batchlas: %s %s %s: first-use tuning measured nothing (%s); deciding from the tables", o.spec.Name, dt, keyText, res.note))
		return dec
	}
	online.measured.Add(1)
	o.record(s, dt, k, d, res.entries)
	out := outcome{choice: res.entries[0].Choice, via: trace.ViaTuned}
	nd := &decision{choice: out.choice, via: out.via, tunedNow: true}
	if s.trace {
		td := trace.Decision{Op: o.spec.Name, DType: string(dt), Key: keyText, Choice: out.choice.String(), Via: trace.ViaTuned, Device: d.Label(),
			Timed: true, MS: res.entries[0].MS, Measured: len(res.entries), CostMS: float64(res.cost) / 1e6}
		if len(res.entries) > 1 {
			td.Next, td.NextMS = res.entries[1].Choice.String(), res.entries[1].MS
		}
		nd.line = td.String()
		td.Via, td.Table, td.Measured, td.CostMS = trace.ViaCache, d.Label(), 0, 0
		nd.lineAfter = td.String()
	}
	if s.rec != nil {
		nd.cov = s.rec.Counter(o.coverageRow(dt, k, keyText, d, &out, o.spec.Candidates[dt]))
	}
	return nd
}

// measureShape times every candidate that can run the call on synthetic
// inputs of its shape, within budget, the tables' choice first: each is
// bound under a strict pin, its result verified, then timed tuneReps times
// over enough calls to fill its share of what is left of the budget. A
// candidate whose three timings would overrun the budget keeps its single
// call's time; candidates not reached before the budget ends are not in
// the row.
func (o *Op) measureShape(ctx context.Context, dt DType, k Key, d *Device, budget time.Duration, first Choice) (res tuneResult) {
	start := time.Now()
	defer func() {
		res.cost = time.Since(start)
		if r := recover(); r != nil {
			// A kernel that panics on synthetic inputs must not take the
			// program down: the call decides from the tables instead.
			res.entries, res.note = nil, fmt.Sprintf("a candidate panicked: %v", r)
		}
	}()
	if bytes := o.measure.Elems(k) * dtypeBytes(dt); bytes > tuneMaxBytes {
		res.note = fmt.Sprintf("its operands need %.0f MiB, more than the %d MiB first-use tuning allocates", bytes/(1<<20), tuneMaxBytes>>20)
		return res
	}
	// The tables' choice first: if the budget runs out before every
	// candidate is timed, the row still holds the kernel the call would
	// have run, and whatever beat it.
	var cands []Choice
	if !first.IsZero() {
		cands = append(cands, first)
	}
	for _, c := range o.spec.Candidates[dt] {
		if c != first && o.CanRun(c, k, d) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		res.note = "no candidate can run it"
		return res
	}
	// The caller's cancellation stops the measurement; its pins and trace
	// nesting do not reach it.
	mctx, cancel := context.WithCancel(context.WithValue(context.Background(), opCallKey{}, measureCall))
	defer cancel()
	if ctx != nil {
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
	}
	trial, err := o.measure.New(dt, k, 1)
	if err != nil {
		res.note = "its inputs could not be made: " + err.Error()
		return res
	}
	old := debug.SetGCPercent(2000) // keep collections out of the timings (tools/tune does the same)
	defer debug.SetGCPercent(old)
	for i, c := range cands {
		// The first candidate (the tables' choice) is measured whatever
		// making the inputs cost, so that every tuned shape gets a row: on
		// a loaded machine that alone can take the whole budget, and a
		// shape without a row would be measured again by every process.
		if mctx.Err() != nil || (i > 0 && time.Since(start) >= budget) {
			break
		}
		// An equal share of what is left for this candidate and the ones
		// after it, so the measurement ends near its budget.
		share := (budget - time.Since(start)) / time.Duration(len(cands)-i)
		pctx := WithStrictPin(mctx, o.spec.Name, c.String())
		b, err := trial.Bind(pctx)
		if err != nil {
			continue
		}
		if err := b.Verify(pctx); err != nil {
			continue // a wrong result never counts, however fast
		}
		// The faster of two single calls sizes the timings: one call may
		// have waited for the CPU.
		one, err := b.Run(pctx, 1)
		if err == nil {
			var again time.Duration
			again, err = b.Run(pctx, 1)
			one = min(one, again)
		}
		if err != nil {
			continue
		}
		if i > 0 && time.Since(start)+time.Duration(tuneReps)*one > budget || i == 0 && time.Since(start) > budget {
			// Verified, but three timings would overrun the budget: its
			// single call is its time. A large shape still gets a row,
			// so a later process does not measure it again.
			res.entries = append(res.entries, Entry{Spelling: c.String(), Choice: c, MS: roundMS(float64(one) / 1e6), Timed: true})
			continue
		}
		per := share / time.Duration(tuneReps) // one timing's part of the share
		calls := max(1, int(per/max(one, time.Microsecond)))
		var times []time.Duration // per call
		for r := 0; r < tuneReps; r++ {
			t, err := b.Run(pctx, calls)
			if err != nil {
				times = nil
				break
			}
			times = append(times, t/time.Duration(calls))
			calls = shrunkCalls(calls, per, t)
		}
		if len(times) == 0 {
			continue
		}
		slices.Sort(times)
		ms := float64(times[len(times)/2]) / 1e6
		res.entries = append(res.entries, Entry{Spelling: c.String(), Choice: c, MS: roundMS(ms), Timed: true})
	}
	// Fastest first; equal times keep candidate order (the stable sort).
	slices.SortStableFunc(res.entries, func(a, b Entry) int {
		switch {
		case a.MS < b.MS:
			return -1
		case a.MS > b.MS:
			return 1
		}
		return 0
	})
	if len(res.entries) == 0 {
		res.note = "no candidate could be timed within the budget of " + budget.String()
	}
	return res
}

// roundMS keeps four significant digits, as the tuner writes its tables.
func roundMS(ms float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(ms, 'g', 4, 64), 64)
	return v
}

func dtypeBytes(dt DType) float64 {
	switch dt {
	case Float32:
		return 4
	case "complex128":
		return 16
	}
	return 8
}

// shrunkCalls is how many calls a candidate's next timing makes after a
// timing of calls calls lasted took, per being each timing's part of the
// candidate's share of the budget. The faster of two
// single calls sized the timings, and a machine that got busier since
// makes them longer: a timing that took over twice its part shrinks the
// next to fit it, so the candidate keeps near its share and the ones
// after it are reached within the budget (on a loaded test machine the
// first candidate's timings once took the whole budget).
func shrunkCalls(calls int, per, took time.Duration) int {
	if took <= 2*per || per <= 0 {
		return calls
	}
	return max(1, int(int64(calls)*int64(per)/int64(took)))
}
