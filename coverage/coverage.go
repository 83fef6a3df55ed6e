package coverage

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
)

// Columns are the fixed CSV columns, in order.
var Columns = []string{"kind", "op", "dtype", "device", "choice", "origin", "source", "table", "calls", "key", "native_existed", "native_supported", "vendor_lib"}

// Header is the first line of every shard.
var Header = strings.Join(Columns, ",")

// Row kinds.
const (
	Linked  = "linked"
	Reached = "reached"
	Miss    = "miss"
)

// Row is one CSV row. Every field but Calls is the row's identity.
type Row struct {
	Kind, Op, DType, Device, Choice, Origin, Source, Table string
	Calls                                                  int64
	Key                                                    string
	NativeExisted, NativeSupported                         int // 1, 0, or -1 unknown
	VendorLib                                              string
}

func (r Row) identity() Row {
	r.Calls = 0
	return r
}

func (r Row) record() []string {
	return []string{r.Kind, r.Op, r.DType, r.Device, r.Choice, r.Origin, r.Source, r.Table,
		strconv.FormatInt(r.Calls, 10), r.Key,
		strconv.Itoa(r.NativeExisted), strconv.Itoa(r.NativeSupported), r.VendorLib}
}

func encode(rows ...Row) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, r := range rows {
		_ = w.Write(r.record()) // writes to a bytes.Buffer cannot fail
	}
	w.Flush()
	return buf.Bytes()
}

// ShardName returns the file a process with that pid writes for path.
func ShardName(path string, pid int) string {
	return fmt.Sprintf("%s.%d.csv", path, pid)
}

// Recorder writes one process's shard. Its methods are safe for concurrent
// use.
type Recorder struct {
	mu       sync.Mutex
	f        *os.File
	name     string
	linked   map[string]bool
	counters map[Row]*Counter
	err      error // first write error, reported by Flush
}

// MaxShardBytes bounds a shard ReadFiles reads: 64 MiB. A shard holds one
// row per distinct identity plus one per count a flush moved; the suite's
// shards are tens of KB, so a larger file is not one.
const MaxShardBytes = 64 << 20

// MaxTotalBytes bounds the shards one ReadFiles call reads together, so
// that many shards of the bound cannot exhaust memory either.
const MaxTotalBytes = 512 << 20

var shardLimit = safefile.Limit{Max: MaxShardBytes, Noun: "a coverage shard", Text: "64 MiB"}

// Open opens the shard <path>.<pid>.csv for this process and writes the
// header. The shard is opened through internal/safefile's append path:
// without following a symbolic link at its name, without blocking on a
// FIFO, and checked regular; it is never truncated. A shard left by an
// earlier process with the same pid is appended to: the header written here
// starts this process's segment, and ReadFiles sums the segments of one
// file as it would separate shards, so neither process's counts are lost.
//
// A path that is itself an existing file other than a regular one
// (BATCHLAS_COVERAGE_OUT=/dev/full, a directory, a FIFO) is refused before
// anything is created next to it; so is a directory that cannot be written.
// The selection core then warns once and runs with coverage off: op
// results never depend on the instrument.
func Open(path string) (*Recorder, error) {
	if path == "" {
		return nil, errors.New("coverage: empty path; set BATCHLAS_COVERAGE_OUT to a file prefix such as /tmp/cov")
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("coverage: %s is %s, not a file prefix; BATCHLAS_COVERAGE_OUT names a prefix such as /tmp/cov, and each process writes <prefix>.<pid>.csv next to it",
			quote.Q(path), safefile.Kind(fi.Mode()))
	}
	name := ShardName(path, os.Getpid())
	f, err := safefile.OpenAppend(name)
	if err != nil {
		return nil, fmt.Errorf("coverage: %s (BATCHLAS_COVERAGE_OUT names a file prefix in a writable directory)", quote.Message(err.Error()))
	}
	r := &Recorder{f: f, name: name, linked: map[string]bool{}, counters: map[Row]*Counter{}}
	if _, err := f.Write([]byte(Header + "\n")); err != nil {
		f.Close()
		return nil, fmt.Errorf("coverage: %s: %s", quote.Q(name), quote.Message(err.Error()))
	}
	return r, nil
}

// Name is the shard's file name.
func (r *Recorder) Name() string { return r.name }

// write appends b in one write (callers hold r.mu).
func (r *Recorder) write(b []byte) {
	if r.f == nil || len(b) == 0 {
		return
	}
	if _, err := r.f.Write(b); err != nil && r.err == nil {
		r.err = fmt.Errorf("coverage: %s: %w", r.name, err)
	}
}

// Link writes the linked rows of one op, once per op name: the core calls it
// for every registered op when the shard opens and for ops registered later.
func (r *Recorder) Link(op string, rows []Row) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.linked[op] {
		return
	}
	r.linked[op] = true
	r.write(encode(rows...))
}

// Counter returns the call counter of the row's identity (its Calls is
// ignored), creating it on first use. Nothing is written until the first Add.
func (r *Recorder) Counter(row Row) *Counter {
	id := row.identity()
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.counters[id]
	if c == nil {
		c = &Counter{r: r, row: id}
		r.counters[id] = c
	}
	return c
}

// Counter counts the calls of one reached or miss row.
type Counter struct {
	n       atomic.Int64
	written int64 // count on disk; guarded by r.mu
	r       *Recorder
	row     Row
}

// Add counts one call. The first call writes the row at once, so a process
// that dies before Flush still leaves it on disk.
func (c *Counter) Add() {
	if c.n.Add(1) == 1 {
		c.r.mu.Lock()
		c.r.sync(c)
		c.r.mu.Unlock()
	}
}

// Calls returns the calls counted so far.
func (c *Counter) Calls() int64 { return c.n.Load() }

// sync appends c's row when its count moved past what is on disk. Counts on
// disk only grow, so the later row of an identity is always the larger one.
func (r *Recorder) sync(c *Counter) {
	n := c.n.Load()
	if n <= c.written {
		return
	}
	row := c.row
	row.Calls = n
	r.write(encode(row))
	c.written = n
}

// Flush appends a row for every count that changed since it was last
// written, and syncs the file. It returns the first write error seen.
func (r *Recorder) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var changed []Row
	cs := make([]*Counter, 0, len(r.counters))
	for _, c := range r.counters {
		cs = append(cs, c)
	}
	// A stable order keeps shards diffable.
	slices.SortFunc(cs, func(a, b *Counter) int { return compareRows(a.row, b.row) })
	for _, c := range cs {
		if n := c.n.Load(); n > c.written {
			row := c.row
			row.Calls = n
			changed = append(changed, row)
			c.written = n
		}
	}
	r.write(encode(changed...))
	if r.f != nil {
		if err := r.f.Sync(); err != nil && r.err == nil {
			r.err = fmt.Errorf("coverage: %s: %w", r.name, err)
		}
	}
	return r.err
}

// Close flushes and closes the shard.
func (r *Recorder) Close() error {
	err := r.Flush()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		if e := r.f.Close(); err == nil {
			err = e
		}
		r.f = nil
	}
	return err
}

// ReadFiles parses shards. Within one shard a later row with the same
// identity supersedes an earlier one (counts are appended on flush); rows of
// different shards are returned side by side, for Merge to sum. A final line
// without its newline (a process killed mid-write) is ignored.
func ReadFiles(paths ...string) ([]Row, error) {
	// The sizes first, so that too many shards are refused before any is
	// read; the count read is checked too (a shard may grow meanwhile).
	var total int64
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	if total > MaxTotalBytes {
		return nil, fmt.Errorf("coverage: the %d shards given have %d bytes, over the %d (512 MiB) read together: merge fewer at a time", len(paths), total, MaxTotalBytes)
	}
	var out []Row
	total = 0
	for _, p := range paths {
		data, err := safefile.ReadFile(p, shardLimit)
		if err != nil {
			return nil, fmt.Errorf("coverage: %w", err)
		}
		if total += int64(len(data)); total > MaxTotalBytes {
			return nil, fmt.Errorf("coverage: the %d shards given pass %d bytes (512 MiB) at %s: merge fewer at a time", len(paths), MaxTotalBytes, quote.Cut(p))
		}
		rows, err := parse(p, data)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

func parse(name string, data []byte) ([]Row, error) {
	if i := bytes.LastIndexByte(data, '\n'); i+1 != len(data) {
		data = data[:i+1] // drop a torn last line
	}
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = -1
	rd.ReuseRecord = true
	bad := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", quote.Cut(name), line, fmt.Sprintf(format, args...))
	}
	var rows []Row
	index := map[Row]int{}
	for first := true; ; first = false {
		rec, err := rd.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if first {
					return nil, bad(1, "empty file; want the header %q", Header)
				}
				return rows, nil
			}
			return nil, fmt.Errorf("%s: %w", quote.Cut(name), err)
		}
		line, _ := rd.FieldPos(0) // valid only after a successful Read
		if first {
			if strings.Join(rec, ",") != Header {
				return nil, bad(line, "header is %s, want %q (not a coverage shard?)", quote.Q(strings.Join(rec, ",")), Header)
			}
			continue
		}
		if len(rec) == len(Columns) && rec[0] == Columns[0] && strings.Join(rec, ",") == Header {
			// A later process with the same pid appended its own segment
			// (Open): its rows are summed with the earlier ones, as rows
			// of another shard are, not superseding them.
			index = map[Row]int{}
			continue
		}
		if len(rec) != len(Columns) {
			return nil, bad(line, "%d columns, want %d", len(rec), len(Columns))
		}
		r := Row{Kind: rec[0], Op: rec[1], DType: rec[2], Device: rec[3], Choice: rec[4], Origin: rec[5],
			Source: rec[6], Table: rec[7], Key: rec[9], VendorLib: rec[12]}
		switch r.Kind {
		case Linked, Reached, Miss:
		default:
			return nil, bad(line, "kind %s, want linked, reached or miss", quote.Q(r.Kind))
		}
		if r.Calls, err = strconv.ParseInt(rec[8], 10, 64); err != nil || r.Calls < 0 {
			return nil, bad(line, "calls %s is not a non-negative integer", quote.Q(rec[8]))
		}
		for i, dst := range []*int{&r.NativeExisted, &r.NativeSupported} {
			v, err := strconv.Atoi(rec[10+i])
			if err != nil || v < -1 || v > 1 {
				return nil, bad(line, "%s %s, want 1, 0 or -1", Columns[10+i], quote.Q(rec[10+i]))
			}
			*dst = v
		}
		id := r.identity()
		if i, ok := index[id]; ok {
			rows[i] = r
			continue
		}
		index[id] = len(rows)
		rows = append(rows, r)
	}
}

// Merge sums the calls of rows with the same identity (rows of different
// shards, as ReadFiles returns them) and returns them sorted: linked, then
// reached, then miss, each by op, dtype, device, choice, source, table, key.
func Merge(rows []Row) []Row {
	index := map[Row]int{}
	var out []Row
	for _, r := range rows {
		id := r.identity()
		if i, ok := index[id]; ok {
			out[i].Calls += r.Calls
			continue
		}
		index[id] = len(out)
		out = append(out, r)
	}
	slices.SortStableFunc(out, compareRows)
	return out
}

var kindOrder = map[string]int{Linked: 0, Reached: 1, Miss: 2}

func compareRows(a, b Row) int {
	ka, okA := kindOrder[a.Kind]
	kb, okB := kindOrder[b.Kind]
	if !okA {
		ka = 3
	}
	if !okB {
		kb = 3
	}
	return cmp.Or(cmp.Compare(ka, kb), cmp.Compare(a.Op, b.Op), cmp.Compare(a.DType, b.DType),
		cmp.Compare(a.Device, b.Device), cmp.Compare(a.Choice, b.Choice), cmp.Compare(a.Source, b.Source),
		cmp.Compare(a.Table, b.Table), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Origin, b.Origin),
		cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.NativeExisted, b.NativeExisted),
		cmp.Compare(a.NativeSupported, b.NativeSupported), cmp.Compare(a.VendorLib, b.VendorLib))
}
