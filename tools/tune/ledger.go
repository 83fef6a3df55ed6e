package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
}

// openLedger reads the records of an earlier run that still apply: same
// op, device, revision and kernels hash. A torn last line (the process died
// while writing it) is ignored.
func openLedger(dir, op, device string, revision int, kernels string) (*ledger, error) {
	l := &ledger{path: filepath.Join(dir, op+"."+device+".ledger.jsonl"), done: map[string]cellResult{}}
	f, err := os.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var r cellResult
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		if r.Op != op || r.Device != device || r.Revision != revision || r.Kernels != kernels {
			l.stale++
			continue
		}
		l.done[string(r.DType)+" "+r.valsText()] = r
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ledger %s: %w", l.path, err)
	}
	return l, endLine(f)
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
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
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
	w, err := os.OpenFile(f.Name(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte{'\n'}); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
