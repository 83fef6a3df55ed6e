package sel

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas/coverage"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/trace"
)

// PinError is a bad pin: a spelling that does not parse, is not a
// compiled candidate for the call's dtype, or fails can_run; or a strict
// class pin (native, vendor) that nothing can honour.
type PinError struct {
	Op     string
	DType  DType
	Source string // "env" or "scoped"
	Var    string // BATCHLAS_<OP>_ROUTE for an environment pin
	Pin    string // trimmed, lower-cased
	Reason string
}

func (e *PinError) Error() string {
	if e.Source == "env" {
		return quote.Message(fmt.Sprintf("%s: %s=%s %s", e.Op, e.Var, quote.Q(e.Pin), e.Reason))
	}
	return quote.Message(fmt.Sprintf("%s: scoped pin %s %s", e.Op, quote.Q(e.Pin), e.Reason))
}

// NoRouteError says that no candidate can run a call: every table entry and
// every last-resort candidate was refused by can_run.
type NoRouteError struct {
	Op     string
	DType  DType
	Key    string // "uplo=L n=64 batch=1024"
	Device string
}

func (e *NoRouteError) Error() string {
	return quote.Message(fmt.Sprintf("%s: no %s kernel can run %s on %s: every candidate's can_run refuses it (check the arguments; a build or device with the op's vendor library may serve it)",
		e.Op, e.DType, e.Key, e.Device))
}

// Pin sources.
type pinSource uint8

const (
	pinNone pinSource = iota
	pinEnv
	pinScoped
)

type pinIn struct {
	val    string // trimmed, lower-cased
	src    pinSource
	strict bool
}

func (o *Op) pinFor(ctx context.Context, s *settings) pinIn {
	if sc := scopedPin(ctx, o.spec.Name); sc != nil {
		return pinIn{val: sc.pin, src: pinScoped, strict: sc.strict}
	}
	if len(s.pins) != 0 {
		if v, ok := s.pins[o.spec.Name]; ok && v != "" {
			return pinIn{val: v, src: pinEnv}
		}
	}
	return pinIn{}
}

func (o *Op) envVar() string { return "BATCHLAS_" + strings.ToUpper(o.spec.Name) + "_ROUTE" }

func (o *Op) pinError(p pinIn, dt DType, format string, args ...any) error {
	e := &PinError{Op: o.spec.Name, DType: dt, Source: "scoped", Pin: p.val, Reason: fmt.Sprintf(format, args...)}
	if p.src == pinEnv {
		e.Source, e.Var = "env", o.envVar()
	}
	return e
}

func (p pinIn) describe(o *Op) string {
	switch p.src {
	case pinEnv:
		return o.envVar()
	case pinScoped:
		if p.strict {
			return "strict scoped pin"
		}
		return "scoped pin"
	}
	return ""
}

// decision is what the memo keeps for one (op, dtype, key, device, pin).
type decision struct {
	choice Choice
	err    error
	line   string            // trace line, when tracing was on
	cov    *coverage.Counter // reached or miss counter, when coverage was on
	via    string
	// wantTune: an automatic decision with no own-identity row near the
	// call, which first-use tuning may replace by a measurement (online.go).
	wantTune bool
	// tunedNow: this decision was measured; its trace line says so on
	// the first traced call only (printed).
	tunedNow  bool
	printed   atomic.Bool
	lineAfter string // the trace line of the calls after the first
}

type memoKey struct {
	op     *Op
	dt     DType
	key    Key
	dev    *Device
	pin    string
	src    pinSource
	strict bool
}

// memoMax bounds the memo: a program sweeping many shapes drops it and
// starts over rather than growing without end.
const memoMax = 4096

// memo maps a call's facts to its decision. It is a plain map from a cheap
// hash to a short chain of entries, behind an RWMutex: a sync.Map would box
// the key and allocate on every lookup, and Go's own hashing of the whole
// memoKey (eight key values, most of them empty) costs more than the rest of
// a decision. The chain compares full keys, so the hash may be weak.
var memo struct {
	sync.RWMutex
	gen uint64 // settings generation the entries were decided under
	n   int
	m   map[uint64]*memoEntry
}

type memoEntry struct {
	key  memoKey
	dec  *decision
	next *memoEntry
}

func init() { memo.m = map[uint64]*memoEntry{} }

func memoReset(gen uint64) {
	memo.Lock()
	memo.m = make(map[uint64]*memoEntry)
	memo.n = 0
	memo.gen = gen
	memo.Unlock()
}

// hash mixes what varies most between calls of one op: the key values. The
// dtype, device and pin add a byte or two each; entries that still collide
// share a chain.
func (mk *memoKey) hash() uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037) ^ uint64(mk.op.idx)
	h = (h ^ uint64(len(mk.dt))) * prime
	if len(mk.dt) > 0 {
		h = (h ^ uint64(mk.dt[len(mk.dt)-1])) * prime
	}
	for i := 0; i < int(mk.key.n); i++ {
		v := &mk.key.v[i]
		for j := 0; j < len(v.S); j++ {
			h = (h ^ uint64(v.S[j])) * prime
		}
		h = (h ^ uint64(v.N)) * prime
	}
	if mk.dev != nil && len(mk.dev.Key) > 0 {
		h = (h ^ uint64(len(mk.dev.Key)) ^ uint64(mk.dev.Key[len(mk.dev.Key)-1])<<8) * prime
	}
	if len(mk.pin) > 0 {
		h = (h ^ uint64(len(mk.pin)) ^ uint64(mk.pin[0])<<8) * prime
	}
	return h ^ uint64(mk.src)<<1 ^ uint64(b2i(mk.strict))
}

// decide returns the memoised decision, making it on a miss.
func (o *Op) decide(ctx context.Context, s *settings, dt DType, k Key, d *Device) *decision {
	p := o.pinFor(ctx, s)
	mk := memoKey{op: o, dt: dt, key: k, dev: d, pin: p.val, src: p.src, strict: p.strict}
	h := mk.hash()
	var dec *decision
	memo.RLock()
	if memo.gen == s.gen {
		for e := memo.m[h]; e != nil; e = e.next {
			if e.key == mk {
				dec = e.dec
				break
			}
		}
	}
	memo.RUnlock()
	if dec != nil {
		return dec
	}
	dec = o.decideSlow(s, dt, k, d, p, nil)
	if dec.wantTune && mayTune(ctx, s, d) {
		dec = o.tuned(ctx, s, dt, k, d, dec)
	}
	memo.Lock()
	if memo.gen == s.gen { // not reloaded meanwhile
		if memo.n >= memoMax && s.tune.online {
			// Dropping decisions while rows are being added could decide
			// a shape twice, differently (BufferSize and its call): the
			// memo is kept and tuning stops; later shapes decide from
			// tables that no longer change.
			online.closed.Store(true)
			memo.Unlock()
			return dec
		}
		if memo.n >= memoMax {
			clear(memo.m)
			memo.n = 0
		}
		// Another goroutine may have decided the same call meanwhile; a
		// duplicate entry is harmless (same decision) but not added.
		dup := false
		for e := memo.m[h]; e != nil && !dup; e = e.next {
			dup = e.key == mk
		}
		if !dup {
			memo.m[h] = &memoEntry{key: mk, dec: dec, next: memo.m[h]}
			memo.n++
		}
	}
	memo.Unlock()
	return dec
}

// outcome is the result of one walk.
type outcome struct {
	choice    Choice
	via       string
	entry     *tableEntry // the table that served, nil for last resort
	row       *Row
	dist      float64 // row's weighted log2 distance from the call's key
	win, next int     // entry indexes in row; next -1 when no runner-up
	from      []string
	err       error
	borrowed  bool // served by another device's table while d has none
}

// decideSlow makes one decision (docs/select.md, "One decision, step by
// step"). w, when not nil, records the
// walk for Explain.
func (o *Op) decideSlow(s *settings, dt DType, k Key, d *Device, p pinIn, w *Walk) *decision {
	name := o.spec.Name
	s.checkPins()
	if d == nil {
		return &decision{err: fmt.Errorf("%s: no device given; pass the device the call runs on (the one batchlas.WithDevice set on its context, else batchlas.Host())", name)}
	}
	if k.Len() != len(o.keys) {
		return &decision{err: fmt.Errorf("%s: the key has %d value(s) but the op declares %d (%s); build it with every key, in that order", name, k.Len(), len(o.keys), FormatKeys(o.keys))}
	}
	for i, ks := range o.keys {
		if ks.Kind == Exact && k.v[i].S == "" {
			return &decision{err: fmt.Errorf("%s: key %s has no value; the op must supply every key", name, ks.Name)}
		}
	}
	if w != nil {
		w.Pin, w.PinSource = p.val, p.describe(o)
	}
	keyText := k.Format(o.keys)
	cands := o.spec.Candidates[dt]
	var out outcome
	switch p.val {
	case "", "auto":
		out = o.walk(s, dt, k, d, false, w)
	case "native":
		out = o.walk(s, dt, k, d, true, w)
		if out.err == nil && out.choice.IsZero() {
			if p.strict {
				out.err = o.pinError(p, dt, "cannot be honoured: no native %s candidate can run %s on %s", dt, keyText, d.Key)
			} else {
				warnOnce("pin-native:"+name+":"+string(dt), fmt.Sprintf("batchlas: %s %s: pin %q from %s: no native candidate can run %s on %s; using the automatic choice",
					name, dt, p.val, p.describe(o), keyText, d.Key))
				if w != nil {
					w.Steps = nil
				}
				out = o.walk(s, dt, k, d, false, w)
			}
		} else if out.err == nil {
			out.via = trace.ViaNative
		}
	case "vendor":
		for _, c := range cands {
			if c.Vendor() && o.CanRun(c, k, d) {
				out = outcome{choice: c, via: trace.ViaVendor}
				break
			}
		}
		if out.choice.IsZero() {
			why := "the device lacks vendor:" + o.spec.VendorLib + " or can_run refuses it"
			if !hasVendor(cands) {
				why = "this build compiles no vendor " + string(dt) + " candidate"
			}
			if p.strict {
				out.err = o.pinError(p, dt, "cannot be honoured: no vendor candidate can run %s %s on %s (%s)", dt, keyText, d.Key, why)
			} else {
				warnOnce("pin-vendor:"+name+":"+string(dt), fmt.Sprintf("batchlas: %s %s: pin %q from %s: no vendor candidate can run %s on %s (%s); using the automatic choice",
					name, dt, p.val, p.describe(o), keyText, d.Key, why))
				out = o.walk(s, dt, k, d, false, w)
			}
		}
	default:
		c, err := o.ParseChoice(p.val)
		switch {
		case err != nil:
			reason := err.Error()
			if se, ok := err.(*SpellingError); ok {
				reason = se.Reason
			}
			out.err = o.pinError(p, dt, "does not parse: %s; pin auto, native, vendor or one of: %s", reason, spellings(cands))
		case !o.IsCandidate(dt, c):
			out.err = o.pinError(p, dt, "is not a compiled %s candidate; pin one of: %s", dt, spellings(cands))
		case !o.CanRun(c, k, d):
			out.err = o.pinError(p, dt, "cannot run %s %s on %s (its can_run refuses the call); pin another candidate, or auto", dt, keyText, d.Key)
		default:
			out = outcome{choice: c, via: trace.ViaPinned}
		}
	}
	if out.err == nil && out.choice.IsZero() {
		out.err = &NoRouteError{Op: name, DType: dt, Key: keyText, Device: d.Key}
	}
	if out.borrowed && out.err == nil {
		// A notice, not a warning: borrowing is the designed behaviour on
		// any device without tables of its own, not something to fix.
		s.noticeOnce("borrow:"+name+":"+string(dt)+":"+d.Label(), fmt.Sprintf("batchlas: %s has no %s table for %s; borrowing %s (run tools/tune to tune this device)",
			name, dt, d.Label(), out.entry.label()))
	}

	dec := &decision{choice: out.choice, err: out.err, via: out.via}
	dec.wantTune = s.tune.online && w == nil && out.err == nil && (p.val == "" || p.val == "auto") && o.measure != nil && !o.nearOwn(&out, k, d)
	if s.trace || w != nil {
		if out.err == nil {
			dec.line = o.traceDecision(dt, k, keyText, d, &out).String()
		}
	}
	if s.rec != nil && w == nil {
		_, nore := out.err.(*NoRouteError)
		if out.err == nil || nore {
			dec.cov = s.rec.Counter(o.coverageRow(dt, k, keyText, d, &out, cands))
		}
	}
	if w != nil {
		w.Choice, w.Err, w.Source, w.TraceLine = dec.choice, dec.err, out.via, dec.line
	}
	return dec
}

func hasVendor(cands []Choice) bool {
	for _, c := range cands {
		if c.Vendor() {
			return true
		}
	}
	return false
}

func spellings(cands []Choice) string {
	s := make([]string, len(cands))
	for i, c := range cands {
		s[i] = c.String()
	}
	if len(s) == 0 {
		return "(none compiled)"
	}
	return strings.Join(s, ", ")
}

// walk runs steps 2 to 5: the tables in borrow order, then the last resort.
// native excludes vendor choices everywhere.
func (o *Op) walk(s *settings, dt DType, k Key, d *Device, native bool, w *Walk) outcome {
	// The tables in borrow order, each checked for rows for dt only as
	// the walk reaches it (a built-in table is scanned then: lazy.go);
	// whether the first is the device's own is known from the first one
	// with rows.
	list, isOwn := o.tables(s).candidates(dt, d)
	own := false
	for _, e := range list {
		if e.origin != OriginCache && e.hasRows(dt) {
			own = isOwn(e)
			break
		}
	}
	var from []string
	pos := 0 // position among the tables that are not the tuning cache
	for _, e := range list {
		if !e.hasRows(dt) {
			continue
		}
		cached := e.origin == OriginCache
		role := RoleFallthrough
		switch {
		case cached:
			role = RoleOwn
		case pos == 0 && own:
			role = RoleOwn
		case pos == 0:
			role = RoleBorrowed
		}
		if !cached {
			pos++
		}
		if err := e.broken(); err != nil {
			// A table this call needs is broken: say so rather than
			// silently deciding without it.
			return outcome{err: err}
		}
		var row *Row
		var dist float64
		var rows []Row
		var err error
		if w == nil {
			row, dist, err = e.nearest(dt, k)
		} else if rows, err = e.rows(dt); err == nil {
			// Explain shows the section as Rows: the same search over
			// them finds the same row.
			row, dist, err = e.t.nearest(rows, k)
		}
		var te *TableError
		if errors.As(err, &te) {
			return outcome{err: err} // a section this call needs does not parse
		}
		if err != nil {
			return outcome{err: fmt.Errorf("%s: %w", o.spec.Name, err)}
		}
		if cached && row != nil && !o.near(row, dist, k) {
			// The cache serves only the shapes near what was measured;
			// the tables after it decide the others, as without it.
			row = nil
		}
		var step *WalkStep
		if w != nil {
			w.Steps = append(w.Steps, WalkStep{Table: e.sectionTable(dt, rows), Role: role, Row: row, Distance: dist})
			step = &w.Steps[len(w.Steps)-1]
		}
		if row != nil {
			win, next := -1, -1
			for j := range row.Entries {
				en := &row.Entries[j]
				cand := !en.Choice.IsZero() && o.IsCandidate(dt, en.Choice) && !(native && en.Choice.Vendor())
				ok := cand && o.CanRun(en.Choice, k, d)
				if step != nil {
					step.Verdicts = append(step.Verdicts, Verdict{Entry: *en, Candidate: cand, CanRun: ok})
				}
				if ok {
					if win < 0 {
						win = j
					} else if next < 0 {
						next = j
						if step == nil {
							break
						}
					}
				}
			}
			if win >= 0 {
				via := trace.ViaFallthrough
				switch {
				case cached:
					via = trace.ViaCache
				case role == RoleOwn && e.origin == OriginOverride:
					via = trace.ViaOverride
				case role == RoleOwn:
					via = trace.ViaTable
				case role == RoleBorrowed:
					via = trace.ViaBorrowed
				}
				return outcome{choice: row.Entries[win].Choice, via: via, entry: e, row: row, dist: dist, win: win, next: next, from: from, borrowed: !own && !cached}
			}
		}
		if cached {
			continue
		}
		from = append(from, e.label())
	}
	cands := o.spec.Candidates[dt]
	allowed := func(c Choice) bool { return !(native && c.Vendor()) && o.CanRun(c, k, d) }
	for _, fam := range o.spec.LastResort {
		for _, c := range cands {
			if c.fam.Name == fam && allowed(c) {
				return outcome{choice: c, via: trace.ViaLastResort}
			}
		}
	}
	for _, c := range cands {
		if allowed(c) {
			return outcome{choice: c, via: trace.ViaLastResort}
		}
	}
	return outcome{}
}

func (o *Op) traceDecision(dt DType, k Key, keyText string, d *Device, out *outcome) trace.Decision {
	td := trace.Decision{Op: o.spec.Name, DType: string(dt), Key: keyText, Choice: out.choice.String(), Via: out.via, Device: d.Label()}
	if out.row != nil {
		en := out.row.Entries[out.win]
		td.Timed, td.MS = en.Timed, en.MS
		if out.next >= 0 {
			nx := out.row.Entries[out.next]
			td.Next, td.NextMS = nx.Choice.String(), nx.MS
		}
		td.Table, td.Override = out.entry.label(), out.entry.origin == OriginOverride
		td.From = strings.Join(out.from, ",")
		if out.row.Key != k {
			td.Row, td.Distance = o.rowText(out.row.Key, k), out.dist
		}
	}
	return td
}

// rowText names the row that decided a call it does not match exactly:
// every log key of the row (its coordinates, over which the distance is
// measured) and the exact keys whose value differs from the call's (the
// nearest-row search dropped them because no row matched). With the call's
// key it identifies the row: "side=R m=32 n=32 batch=64". Built only for a
// trace line, once per decision.
func (o *Op) rowText(row, call Key) string {
	var b strings.Builder
	for i, ks := range o.keys {
		if ks.Kind == Exact && row.v[i].S == call.v[i].S {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ks.Name)
		b.WriteByte('=')
		if ks.Kind == Exact {
			b.WriteString(row.v[i].S)
		} else {
			b.WriteString(strconv.FormatInt(row.v[i].N, 10))
		}
	}
	return b.String()
}

func origin(c Choice) string {
	if c.Vendor() {
		return "vendor"
	}
	return "native"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (o *Op) coverageRow(dt DType, k Key, keyText string, d *Device, out *outcome, cands []Choice) coverage.Row {
	existed, supported := false, false
	for _, c := range cands {
		if !c.Vendor() {
			existed = true
			supported = supported || o.CanRun(c, k, d)
		}
	}
	r := coverage.Row{Op: o.spec.Name, DType: string(dt), Device: d.Key, Key: keyText, VendorLib: o.spec.VendorLib,
		NativeExisted: b2i(existed), NativeSupported: b2i(supported)}
	if out.err != nil {
		r.Kind = coverage.Miss
	} else {
		r.Kind, r.Choice, r.Origin, r.Source = coverage.Reached, out.choice.String(), origin(out.choice), out.via
		if out.entry != nil {
			r.Table = out.entry.name
		}
	}
	return r
}
