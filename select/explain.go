package sel

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/trace"
)

// Roles of a table in a walk.
const (
	RoleOwn         = "own"         // the device's own table
	RoleBorrowed    = "borrowed"    // first table, another device's: the device has none
	RoleFallthrough = "fallthrough" // a later table: the ones before had nothing runnable
)

// Walk is the whole decision for one call, step by step (tools/tune
// explain prints it).
type Walk struct {
	Pin       string // the pin in force, "" for none
	PinSource string // BATCHLAS_<OP>_ROUTE, "scoped pin", "strict scoped pin" or ""
	Steps     []WalkStep
	Choice    Choice
	Source    string // how it was reached: the trace/coverage words (table, borrowed, pinned, last resort, ...)
	TraceLine string // the trace line of the decision, without indentation
	Err       error
}

// WalkStep is one table visited by the walk.
type WalkStep struct {
	Table    *Table
	Role     string // own, borrowed, fallthrough
	Row      *Row   // nearest row, nil when the section has none
	Distance float64
	Verdicts []Verdict // one per entry of Row, in row order
}

// Verdict is what the walk thought of one entry of a row.
type Verdict struct {
	Entry     Entry
	Candidate bool // a compiled candidate for the dtype (and allowed by the pin)
	CanRun    bool // and can_run accepts the call
}

// Explain makes the decision a call would get, without the memo, and
// returns every step of it. The error is the decision's error, also in
// Walk.Err.
func (o *Op) Explain(ctx context.Context, dt DType, k Key, d *Device) (*Walk, error) {
	s := current()
	w := &Walk{}
	dec := o.decideSlow(s, dt, k, d, o.pinFor(ctx, s), w)
	// decideSlow fills w as it goes; an error in the call's arguments ends
	// it before the walk, and must still be the walk's error.
	w.Choice, w.Err = dec.choice, dec.err
	return w, w.Err
}

// initShown makes the startup report appear once per process, before the
// first traced decision; reportMu holds other traced calls back until it is
// out, so no decision line comes before it.
var (
	initShown atomic.Bool
	reportMu  sync.Mutex
)

// traceHeader prints, before a traced decision line of a call on d, the
// startup report (once per process: the init line and the switches line)
// and then the notices queued since the last traced line.
func traceHeader(s *settings, d *Device) {
	if !initShown.Load() {
		reportMu.Lock()
		if !initShown.Load() {
			// initLine loads every op's tables, which may queue notices:
			// they are flushed after the report, below.
			trace.Print(nil, initLine(s, d))
			trace.Print(nil, switchesLine(s))
			initShown.Store(true)
		}
		reportMu.Unlock()
	}
	flushNotices()
}

// switchesLine is the second line of the startup report: the variables of
// the snapshot that change what is selected, quoted ("" when unset), and
// the environment pins in force:
//
//	batchlas: switches: BATCHLAS_DEVICE="x86-64-v3" BATCHLAS_TUNED_DIR="" BATCHLAS_COVERAGE_OUT="" pins: BATCHLAS_POTRF_ROUTE="lpanel:16"
//
// With first-use tuning on, the cache directory and budgets follow
// BATCHLAS_COVERAGE_OUT: BATCHLAS_TUNE=online cache="/home/u/.cache/batchlas"
// budget=call=30ms,process=2s.
func switchesLine(s *settings) string {
	var b strings.Builder
	b.WriteString("batchlas: switches: BATCHLAS_DEVICE=")
	b.WriteString(quote.Q(s.device))
	b.WriteString(" BATCHLAS_IDENTITY=")
	b.WriteString(quote.Q(s.identity))
	b.WriteString(" BATCHLAS_TUNED_DIR=")
	b.WriteString(quote.Q(s.tunedDir))
	b.WriteString(" BATCHLAS_COVERAGE_OUT=")
	b.WriteString(quote.Q(s.covPath))
	if s.tune.online {
		// Only when on: off is the default and says nothing.
		b.WriteString(" BATCHLAS_TUNE=online cache=")
		b.WriteString(quote.Q(s.tune.cacheDir))
		b.WriteString(" budget=call=" + s.tune.call.String() + ",process=" + s.tune.process.String())
	}
	b.WriteString(" pins:")
	n := 0
	for _, name := range slices.Sorted(maps.Keys(s.pins)) {
		if v := s.pins[name]; v != "" {
			b.WriteString(" " + quote.Cut(s.pinVars[name]) + "=" + quote.Q(v))
			n++
		}
	}
	if n == 0 {
		b.WriteString(" none")
	}
	return b.String()
}

// initLine reports what the core selected at initialisation for device d.
func initLine(s *settings, d *Device) string {
	in := trace.Init{Device: d.Key, Identity: d.Identity, Name: d.Name, Cores: d.Cores}
	for _, f := range d.Flags {
		if lib, ok := strings.CutPrefix(f, "vendor:"); ok {
			in.Vendor = append(in.Vendor, lib)
		} else {
			in.Flags = append(in.Flags, f)
		}
	}
	ops := Ops()
	slices.SortFunc(ops, func(a, b *Op) int { return strings.Compare(a.Name(), b.Name()) })
	for _, o := range ops {
		in.Tables = append(in.Tables, trace.OpTables{Op: o.Name(), From: o.tableSource(s, d)})
	}
	return in.String()
}

// tableSource says where the op's tables come from on d, per dtype: its own
// table (builtin or override, "error" when it does not parse), a borrowed
// one, or none; "+cache" when first-use tuning's cache has rows for it. One word when every dtype agrees, else dtype/word pairs.
func (o *Op) tableSource(s *settings, d *Device) string {
	ts := o.tables(s)
	var words []string
	same := true
	for _, dt := range o.DTypes() {
		w := "none"
		own, list := ts.order(dt, d)
		cached := len(list) > 0 && list[0].origin == OriginCache
		if cached {
			list = list[1:] // the cache serves near its rows only: the table after it is the source
		}
		if len(list) > 0 {
			switch e := list[0]; {
			case !own:
				w = "borrowed:" + e.label()
			case e.broken() != nil:
				w = "error"
			case e.identity != d.Identity:
				w = e.origin + ":" + e.label() // the level's table, for an identity without its own
			default:
				w = e.origin
			}
		}
		if cached {
			w += "+cache"
		}
		same = same && (len(words) == 0 || words[0] == w)
		words = append(words, w)
	}
	if len(words) == 0 {
		return "none"
	}
	if same {
		return words[0]
	}
	for i, dt := range o.DTypes() {
		words[i] = string(dt) + "/" + words[i]
	}
	return strings.Join(words, ",")
}
