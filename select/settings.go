package sel

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas/coverage"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/trace"
)

// settings is one snapshot of the environment. Decisions read it through an
// atomic pointer, so a reload never blocks a decision and a decision never
// sees half of an old snapshot and half of a new one.
type settings struct {
	gen      uint64
	trace    bool
	pins     map[string]string // op name -> trimmed, lower-cased BATCHLAS_<OP>_ROUTE
	pinVars  map[string]string // op name -> the variable, as spelt in the environment
	tunedDir string
	covPath  string
	rec      *coverage.Recorder
	// device and identity are BATCHLAS_DEVICE and BATCHLAS_IDENTITY as
	// set, for the startup report only: the host reads them once per
	// process (batchlas.Host), not per snapshot.
	device, identity string
	// tune is BATCHLAS_TUNE and its companions (online.go).
	tune tuneSettings

	// The tuned dir is scanned on first need, once per snapshot, so a
	// program that never decides never touches it.
	ovOnce sync.Once
	ov     map[string][]string

	// The environment pins are checked against the registry on the first
	// decision of a snapshot (ops register at initialisation, possibly
	// after the snapshot was read).
	pinCheck sync.Once
}

var (
	cur        atomic.Pointer[settings]
	settingsMu sync.Mutex // serialises snapshot creation
	lastGen    uint64     // guarded by settingsMu
)

// current returns the settings snapshot, reading the environment on first use.
func current() *settings {
	if !warningsStarted.Load() {
		startWarnings()
	}
	if s := cur.Load(); s != nil {
		return s
	}
	settingsMu.Lock()
	defer settingsMu.Unlock()
	if s := cur.Load(); s != nil {
		return s
	}
	return loadLocked()
}

// Reload re-reads the environment (pins, trace, coverage path, tuned dir)
// into a new settings snapshot, and drops the decision memo and the loaded
// tables. A program that changes BATCHLAS_* variables after its first call
// calls it; decisions running meanwhile finish on the old snapshot.
func Reload() {
	settingsMu.Lock()
	defer settingsMu.Unlock()
	loadLocked()
}

func traceOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "off", "no":
		return false
	}
	return true
}

func loadLocked() *settings {
	lastGen++
	s := &settings{
		gen:      lastGen,
		trace:    traceOn(os.Getenv("BATCHLAS_SELECT_TRACE")),
		tunedDir: strings.TrimSpace(os.Getenv("BATCHLAS_TUNED_DIR")),
		covPath:  strings.TrimSpace(os.Getenv("BATCHLAS_COVERAGE_OUT")),
		device:   strings.TrimSpace(os.Getenv("BATCHLAS_DEVICE")),
		identity: strings.TrimSpace(os.Getenv("BATCHLAS_IDENTITY")),
		tune:     readTuneSettings(),
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if name, ok := strings.CutPrefix(k, "BATCHLAS_"); ok {
			if name, ok = strings.CutSuffix(name, "_ROUTE"); ok && name != "" {
				if s.pins == nil {
					s.pins, s.pinVars = map[string]string{}, map[string]string{}
				}
				s.pins[strings.ToLower(name)] = strings.ToLower(strings.TrimSpace(v))
				s.pinVars[strings.ToLower(name)] = k
			}
		}
	}
	if s.covPath != "" {
		s.rec = recorderFor(s.covPath)
	}
	cur.Store(s)
	memoReset(s.gen)
	if s.rec != nil {
		// After the store: an op registering concurrently either is listed
		// here or sees s in Register; Link drops the duplicate.
		for _, o := range Ops() {
			s.rec.Link(o.Name(), o.linkedRows())
		}
	}
	return s
}

// checkPins warns once per variable about a set BATCHLAS_<OP>_ROUTE that
// names no registered op: it pins no call. It runs on the first decision made
// under s.
func (s *settings) checkPins() {
	s.pinCheck.Do(func() {
		for _, name := range slices.Sorted(maps.Keys(s.pins)) {
			if s.pins[name] != "" && Lookup(name) == nil {
				v := s.pinVars[name]
				warnOnce("pin-env:"+v, fmt.Sprintf("batchlas: %s: no op named %s is registered in this program (registered: %s); the variable pins no call",
					quote.Cut(v), quote.Cut(name), registeredNames()))
			}
		}
	})
}

// Coverage recorders, one per path, kept across reloads so that counts go
// on accumulating in the same shard.
var recorders struct {
	sync.Mutex
	byPath map[string]*coverage.Recorder
}

func recorderFor(path string) *coverage.Recorder {
	recorders.Lock()
	defer recorders.Unlock()
	if r, ok := recorders.byPath[path]; ok {
		return r
	}
	r, err := coverage.Open(path)
	if err != nil {
		warnOnce("coverage-open:"+path, "batchlas: BATCHLAS_COVERAGE_OUT: "+err.Error()+"; coverage is off")
	}
	if recorders.byPath == nil {
		recorders.byPath = map[string]*coverage.Recorder{}
	}
	recorders.byPath[path] = r // nil too: warn once, not on every reload
	return r
}

// Flush completes the coverage shards of this process (call counts). Tools
// defer it; test packages call it from TestMain after m.Run. Rows seen for the
// first time are already on disk; Flush only completes their counts.
func Flush() error {
	recorders.Lock()
	defer recorders.Unlock()
	var first error
	for _, r := range recorders.byPath {
		if r == nil {
			continue
		}
		if err := r.Flush(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Warnings: one line each, once per identity per process, to stderr or the
// writer SetWarnOutput gives.
//
// Only what the user can and should fix is a warning (a broken override
// table, a class pin that falls back, a malformed BATCHLAS_DEVICE, an
// unusable BATCHLAS_COVERAGE_OUT, a pin or table for an op the program does
// not have): a healthy program prints nothing. What merely describes the
// selection (a borrowed table, what an override replaces, a stale built-in
// table) is a notice, given only while tracing (noticeOnce).
var warnings = struct {
	sync.Mutex
	w    io.Writer
	seen map[string]bool
	// started is set at the first decision (current); WarnOnce holds
	// what it is given before that in held.
	started bool
	held    []string
}{w: trace.Stderr{}, seen: map[string]bool{}}

// warningsStarted mirrors warnings.started for current's fast path.
var warningsStarted atomic.Bool

// SetWarnOutput sends the library's warnings to w instead of stderr and
// returns the previous writer; a nil w discards them. Warnings are the
// misconfigurations a user should fix: a BATCHLAS_TUNED_DIR table that
// cannot be used, a native or vendor pin that falls back to the automatic
// choice, a malformed BATCHLAS_DEVICE, an unusable BATCHLAS_COVERAGE_OUT, a
// pin or table for an op this program does not register. Each is written
// once per process, as one line. Trace lines and notices go to the trace's
// writer instead (trace.SetOutput).
func SetWarnOutput(w io.Writer) io.Writer {
	if w == nil {
		w = io.Discard
	}
	warnings.Lock()
	defer warnings.Unlock()
	old := warnings.w
	warnings.w = w
	return old
}

// WarnOnce writes msg, one line, to the warning writer (SetWarnOutput) the
// first time id is seen in this process. It is for batchlas's own packages
// (the root package reports a malformed BATCHLAS_DEVICE with it), so that
// every warning of the library goes to one writer, once.
//
// A warning given before the library's first decision (the root package
// can meet a malformed BATCHLAS_DEVICE while packages initialise, when a
// vector kernel asks for the host's level) is held and written at that
// first decision, so it goes to the writer the program set with
// SetWarnOutput in main, not to stderr before main ran.
func WarnOnce(id, msg string) {
	warnings.Lock()
	if !warnings.started {
		if !warnings.seen["ext:"+id] {
			warnings.seen["ext:"+id] = true
			warnings.held = append(warnings.held, quote.Message(msg))
		}
		warnings.Unlock()
		return
	}
	warnings.Unlock()
	warnOnce("ext:"+id, msg)
}

// startWarnings writes the warnings WarnOnce held back, once, at the first
// decision (current: Run, Pick or Explain; not the Reload that registering
// the built-in tables makes while packages initialise); from then on
// WarnOnce writes at once.
func startWarnings() {
	warnings.Lock()
	defer warnings.Unlock()
	if warnings.started {
		return
	}
	warnings.started = true
	warningsStarted.Store(true)
	for _, msg := range warnings.held {
		_, _ = io.WriteString(warnings.w, msg+"\n")
	}
	warnings.held = nil
}

// warnOnce writes msg the first time id is seen in this process.
func warnOnce(id, msg string) {
	warnings.Lock()
	defer warnings.Unlock()
	if warnings.seen[id] {
		return
	}
	warnings.seen[id] = true
	// The last guard of the bound on messages: a warning is one line of at
	// most quote.MaxMessage bytes, whatever values it names.
	_, _ = io.WriteString(warnings.w, quote.Message(msg)+"\n")
}

// notices holds the notices given while tracing that are not printed yet:
// they are printed on the trace's writer after the startup report, just
// before the next traced decision line (Run), so the report comes first
// even though loading the tables for it is what gives most notices.
var notices struct {
	sync.Mutex
	pending []string
	n       atomic.Int32 // len(pending), read without the lock on the traced path
}

// noticeOnce is warnOnce for what only describes the selection (a borrowed
// table, what an override replaces, a stale built-in table): with tracing
// off in s it prints nothing and remembers nothing, so a later snapshot
// with tracing on still says it; with tracing on it is queued for the
// trace (flushNotices), once per identity per process.
func (s *settings) noticeOnce(id, msg string) {
	if !s.trace {
		return
	}
	warnings.Lock()
	seen := warnings.seen["notice:"+id]
	warnings.seen["notice:"+id] = true
	warnings.Unlock()
	if seen {
		return
	}
	notices.Lock()
	notices.pending = append(notices.pending, msg)
	notices.n.Store(int32(len(notices.pending)))
	notices.Unlock()
}

// flushNotices prints the queued notices on the trace's writer.
func flushNotices() {
	if notices.n.Load() == 0 {
		return
	}
	notices.Lock()
	p := notices.pending
	notices.pending = nil
	notices.n.Store(0)
	notices.Unlock()
	for _, msg := range p {
		trace.Print(nil, msg)
	}
}
