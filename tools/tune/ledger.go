package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

// cellResult is everything the tuner learned on one cell for one dtype. It
// is what the ledger keeps, one JSON line per finished cell.
type cellResult struct {
	Op       string    `json:"op"`
	Device   string    `json:"device"`
	Revision int       `json:"revision"`
	Kernels  string    `json:"kernels"`
	DType    sel.DType `json:"dtype"`
	Vals     []string  `json:"vals"` // key values in key order
	// Entries are the timed candidates, ranked by the tie rule, times
	// rounded as written.
	Entries []entry `json:"entries"`
	// Skipped are candidates whose pin was refused (can_run false).
	Skipped []note `json:"skipped,omitempty"`
	// Bad are candidates whose result failed verification: never ranked.
	Bad []note `json:"bad,omitempty"`
	// Noisy lists candidates whose two passes still disagreed after being
	// measured again.
	Noisy []string `json:"noisy,omitempty"`
	// Screened lists candidates the screening timing put far behind the
	// fastest: their time is that one timing (protocol.screen).
	Screened []string `json:"screened,omitempty"`
	// Again counts the times the confirmation pass measured the cell
	// again; its entries are each candidate's fastest time (confirm.go).
	Again int `json:"again,omitempty"`
	// Wall is what the cell cost in wall time on which host, for --plan's
	// fit (estimate.go). Records written before it was kept have none and
	// still resume.
	Wall *wallRecord `json:"wall,omitempty"`
}

// wallRecord is the wall time a cell took and what it depended on: the
// host that measured it, the settings it was measured with, and whether it
// was a refinement cell. The cost model (runConfig.cellCost) is computed
// again from these when the ledger is fitted, so a ledger measured with
// other --reps or --target still fits.
type wallRecord struct {
	// Host is hostLine of the machine that measured the cell: a ledger
	// copied from another machine is not fitted.
	Host string `json:"host"`
	// MS is the wall time of the cell's first measurement (inputs,
	// verification, warm-up, screening and timings), in ms.
	MS float64 `json:"ms"`
	// AgainMS is the wall time of its confirmation measurements.
	AgainMS float64 `json:"again_ms,omitempty"`
	// Refined marks a cell refinement added between grid cells.
	Refined bool `json:"refined,omitempty"`
	// Reps and TargetMS are the protocol it was measured with.
	Reps     int     `json:"reps"`
	TargetMS float64 `json:"target_ms"`
}

type note struct {
	Spelling string `json:"c"`
	Why      string `json:"why"`
}

// ledger is the on-disk record of finished cells of one op on one device:
// <dir>/<op>.<device>.ledger.jsonl. Each finished cell is appended and
// synced before the next one starts, so an interrupted run loses at most
// the cell it was in.
type ledger struct {
	path string
	done map[string]cellResult
	// stale counts records skipped because they came from another
	// revision or other kernel sources.
	stale int
	// invalid says, as `<ledger file>:<line>: <reason>`, why each record
	// of this op, device, revision and kernels that is not used was
	// refused (openLedger): its cell is measured again.
	invalid []string
	// timed holds the last record of each cell (per kernels hash) of this
	// op and device, of any revision, that says what it cost (Wall),
	// whichever host measured it: --plan fits its estimate on those of
	// this host (estimate.go). unwalled counts the records that do not
	// (written before wall times were kept).
	timed    []cellResult
	timedAt  map[string]int
	unwalled int
}

// ledgerLimit bounds a ledger file. A record is one measured cell (its
// entries and timings, a few hundred bytes); a full run of every op and
// dtype with refinement writes a few MB. The ledger is read line by line,
// so the bound is on time, not on memory beyond one line.
var ledgerLimit = safefile.Limit{Max: 256 << 20, Noun: "a ledger", Text: "256 MiB"}

// openLedger reads the records of an earlier run that still apply: same
// op, device, revision and kernels hash. Lines may be of any length. A
// torn last line (the process died while writing it) is ignored. A record
// that applies but does not hold up (validRecord: a spelling that is not a
// candidate, a time that is negative or not finite, keys that are not the
// op's) is not used, so it can never reach a table: its cell is measured
// again, and the reason is kept in invalid with the ledger's own file and
// line.
func openLedger(dir string, op *sel.Op, device string, revision int, kernels string) (*ledger, error) {
	l, f, err := readLedger(dir, op, device, revision, kernels)
	if errors.Is(err, fs.ErrNotExist) {
		return l, os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return l, endLine(f)
}

// ledgerPath is the ledger file of op on device (the device label, with
// the profile's suffix) in dir.
func ledgerPath(dir string, op *sel.Op, device string) string {
	return filepath.Join(dir, op.Name()+"."+device+".ledger.jsonl")
}

// readLedger reads a ledger as openLedger does, without writing anything:
// --plan reads it too. It returns the open file, to be closed by the
// caller; on an error wrapping fs.ErrNotExist, an empty ledger and no file.
func readLedger(dir string, op *sel.Op, device string, revision int, kernels string) (*ledger, *os.File, error) {
	l := &ledger{path: ledgerPath(dir, op, device), done: map[string]cellResult{}}
	f, err := safefile.OpenRead(l.path, ledgerLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	rd := bufio.NewReader(f)
	for line := 1; ; line++ {
		// ReadBytes, not a Scanner: a Scanner stops at its largest token
		// (a 16 MB record stopped every resume with "token too long").
		data, err := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(data)) > 0 {
			l.read(data, line, op, device, revision, kernels, err != nil)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("ledger %s:%d: %w", l.path, line, err)
		}
	}
	return l, f, nil
}

// read takes one line of the ledger; last is set for a line the file
// ends in without a newline (torn when it does not parse).
func (l *ledger) read(data []byte, line int, op *sel.Op, device string, revision int, kernels string, last bool) {
	var r cellResult
	if err := json.Unmarshal(data, &r); err != nil {
		if !last {
			l.invalid = append(l.invalid, fmt.Sprintf("%s:%d: not a valid record (%v); ignored", l.path, line, err))
		}
		return
	}
	if r.Op == op.Name() && r.Device == device {
		l.keepTimed(r)
	}
	if r.Op != op.Name() || r.Device != device || r.Revision != revision || r.Kernels != kernels {
		l.stale++
		return
	}
	key := string(r.DType) + " " + r.valsText()
	if err := validRecord(op, r); err != nil {
		cellText := r.valsText()
		if len(r.Vals) == len(op.Keys()) {
			cellText = newCell(op.Keys(), r.Vals).String()
		}
		l.invalid = append(l.invalid, fmt.Sprintf("%s:%d: %s %s %s: %v; measuring the cell again", l.path, line, op.Name(), r.DType, cellText, err))
		// It supersedes an earlier record of the cell (a confirmation
		// appends the merged cell), so that one is not used either.
		delete(l.done, key)
		return
	}
	l.done[key] = r
}

// keepTimed keeps r as the record of its cell's cost, replacing an earlier
// one of the same cell, kernels and host (a confirmation appends the merged
// cell, whose Wall adds the time measured again).
func (l *ledger) keepTimed(r cellResult) {
	if r.Wall == nil {
		l.unwalled++
		return
	}
	key := r.Wall.Host + " " + r.Kernels + " " + string(r.DType) + " " + r.valsText()
	if l.timedAt == nil {
		l.timedAt = map[string]int{}
	}
	if i, ok := l.timedAt[key]; ok {
		l.timed[i] = r
		return
	}
	l.timedAt[key] = len(l.timed)
	l.timed = append(l.timed, r)
}

// validRecord checks a ledger record against the op: a dtype it has
// candidates for, one valid value per key, and entries that are distinct
// candidates of that dtype with finite, non-negative times. The other
// spellings it lists (skipped, bad, noisy, screened) must be candidates
// too: bad ones are reported, noisy ones reach the table's comments.
func validRecord(op *sel.Op, r cellResult) error {
	cands := op.Candidates(r.DType)
	if len(cands) == 0 {
		return fmt.Errorf("%s has no %s candidates", op.Name(), quote.Q(string(r.DType)))
	}
	keys := op.Keys()
	if len(r.Vals) != len(keys) {
		return fmt.Errorf("%d key values, want %d (%s)", len(r.Vals), len(keys), sel.FormatKeys(keys))
	}
	for i, k := range keys {
		if err := checkValue(k, r.Vals[i]); err != nil {
			return err
		}
	}
	isCand := func(s string) bool {
		return slices.ContainsFunc(cands, func(c sel.Choice) bool { return c.String() == s })
	}
	notCand := func(what, s string) error {
		return fmt.Errorf("%s %s is not a %s candidate of %s (candidates: %s)", what, quote.Q(s), r.DType, op.Name(), spellingList(cands))
	}
	seen := map[string]bool{}
	for _, e := range r.Entries {
		if !isCand(e.Spelling) {
			return notCand("entry", e.Spelling)
		}
		if seen[e.Spelling] {
			return fmt.Errorf("entry %s is listed twice", quote.Q(e.Spelling))
		}
		seen[e.Spelling] = true
		if math.IsNaN(e.MS) || math.IsInf(e.MS, 0) || e.MS < 0 {
			return fmt.Errorf("entry %s: time %.4g ms is not a finite, non-negative number", quote.Q(e.Spelling), e.MS)
		}
	}
	for _, n := range slices.Concat(r.Skipped, r.Bad) {
		if !isCand(n.Spelling) {
			return notCand("skipped or bad", n.Spelling)
		}
	}
	for _, s := range slices.Concat(r.Noisy, r.Screened) {
		if !isCand(s) {
			return notCand("noisy or screened", s)
		}
	}
	return nil
}

// valsText is the record's key values joined the way lookups spell them
// (through the cell, which needs key names, so keep the raw form here).
func (r cellResult) valsText() string {
	b, _ := json.Marshal(r.Vals)
	return string(b)
}

func (l *ledger) lookup(dt sel.DType, c cell) (cellResult, bool) {
	if l == nil {
		return cellResult{}, false
	}
	b, _ := json.Marshal(c.vals)
	r, ok := l.done[string(dt)+" "+string(b)]
	return r, ok
}

// record appends a finished cell and syncs it to disk.
func (l *ledger) record(r cellResult) error {
	if l == nil {
		return nil
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := safefile.OpenAppend(l.path)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	l.done[string(r.DType)+" "+r.valsText()] = r
	l.keepTimed(r)
	return f.Close()
}

// endLine terminates a torn last line, so the next record starts on a line
// of its own instead of gluing itself to the torn one.
func endLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	w, err := safefile.OpenAppend(f.Name())
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte{'\n'}); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
