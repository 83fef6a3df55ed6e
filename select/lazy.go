package sel

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/batchlas-go/batchlas/internal/safefile"
)

// The first call of an op loads its tables (load.go). A built-in table is
// not parsed whole there. Parsed whole, gemm's and trsm's (about 12,000
// and 13,000 rows with their x86-64-v3 tables) made the first call of each
// take about 70 and 80 ms on a 2-core virtual machine (AMD EPYC Zen 5,
// 2026-12-04): mostly the first touch of the megabytes their rows took
// (each page of fresh memory costs such a machine tens of microseconds:
// its free pages go back to the host), the rest parsing rows no call
// reads. So a built-in table is read as a stream through a small buffer,
// never copied whole, and each part of it as late as can be:
//
//   - when the op loads: the header (the lines before the first row),
//     which says whether the table is stale;
//   - when a decision first reaches the table in borrow order: the rest of
//     its lines, for the section lines, the row counts and the other
//     checks outside rows (the structure pass), noting where the rows of
//     the decision's dtype are;
//   - when a decision first reads a section: its rows, each checked in
//     full, in parts at once on a machine of several cores
//     (parallelSpan), kept as a compact index of their keys
//     (compactSection) with their lines' offsets;
//   - when a row decides: that row alone, parsed again into a Row.
//
// The first gemm and trsm calls take about 4 ms on the same machine
// (docs/select.md, "What a table costs"). Explain and Op.Tables parse
// sections into Rows, as ParseTable does. BATCHLAS_TUNED_DIR's tables are
// parsed whole when they load, so that whatever is wrong with one warns at
// once. docs/decisions.md says what a broken built-in table does now.

// textSource is where a parser reads a table's lines.
type textSource interface {
	// lines calls fn for each line that starts at or after byte offset
	// from and before to (-1: the end of the table), with the line (its
	// end kept or not: classify trims it) and the offset after it, until
	// fn returns an error, which it returns.
	lines(from, to int, fn func(line string, next int) error) error
	// text returns the bytes between offsets from and to as a string of
	// its own, every line end made \n.
	text(from, to int) (string, error)
	// volatile reports whether a line given to fn is overwritten once fn
	// returns (a stream's buffer): what is kept of it must be copied.
	volatile() bool
	// size is the table's size in bytes, 0 when unknown.
	size() int
}

// stringSource is a whole table in memory, line ends made \n (tableText).
type stringSource string

func (s stringSource) lines(from, to int, fn func(string, int) error) error {
	if to < 0 {
		to = len(s)
	}
	off := from
	for raw := range strings.Lines(string(s[from:to])) {
		off += len(raw)
		if err := fn(raw, off); err != nil {
			return err
		}
	}
	return nil
}

func (s stringSource) text(from, to int) (string, error) { return string(s[from:to]), nil }

func (stringSource) volatile() bool { return false }

func (s stringSource) size() int { return len(s) }

// fileSource is a built-in table read from its fs.FS through the guarded
// path (internal/safefile) each time it is read: a part at a time through
// a pooled buffer, so that reading a table allocates nothing of its size.
// Offsets are the file's own; a line ends at \n, \r\n or a lone \r (as
// tableText makes them \n), and a leading byte-order mark is skipped.
type fileSource struct {
	fsys fs.FS
	name string
}

func (fileSource) volatile() bool { return true }

func (f fileSource) size() int {
	if fi, err := fs.Stat(f.fsys, f.name); err == nil && fi.Size() <= maxTableBytes {
		return int(fi.Size())
	}
	return 0
}

// readError is the error of a built-in table that cannot be read, as the
// loader words it.
func (f fileSource) readError(err error) error {
	if why := safefile.Why(err); why != "" {
		return &TableError{File: f.name, Line: 1, Reason: "the built-in table " + why}
	}
	return &TableError{File: f.name, Line: 1, Reason: fmt.Sprintf("cannot read the built-in table: %v", err)}
}

// open opens the table and positions it at offset from; the reader stops
// at offset to (-1: at the table's size limit, and one byte past it, which
// read reports).
func (f fileSource) open(from, to int) (io.Reader, func() error, error) {
	file, err := safefile.OpenFS(f.fsys, f.name, tableLimit)
	if err != nil {
		return nil, nil, f.readError(err)
	}
	if from > 0 {
		if sk, ok := file.(io.Seeker); ok {
			_, err = sk.Seek(int64(from), io.SeekStart)
		} else {
			_, err = io.CopyN(io.Discard, file, int64(from))
		}
		if err != nil {
			file.Close()
			return nil, nil, f.readError(err)
		}
	}
	n := int64(maxTableBytes + 1 - from)
	if to >= 0 {
		n = int64(to - from)
	}
	return io.LimitReader(file, n), file.Close, nil
}

// bufPool holds the buffers tables are streamed through: one faulted in
// once serves every table of the process. A page each: a larger one
// saves read calls (a hundred nanoseconds each from an embed.FS) but costs
// the first call its pages, a longer line grows its buffer.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

var bom = []byte("\ufeff")

func (f fileSource) lines(from, to int, fn func(string, int) error) error {
	r, closeFile, err := f.open(from, to)
	if err != nil {
		return err
	}
	defer closeFile()
	bp := bufPool.Get().(*[]byte)
	buf := (*bp)[:0]
	defer func() {
		if cap(buf) == cap(*bp) {
			*bp = buf[:0]
			bufPool.Put(bp)
		}
	}()
	off, i, eof := from, 0, false // buf[0] is at offset off; buf[i:] is unread
	bomSeen := from > 0
	noCR := false // buf has no \r: lines end at \n only
	for {
		for {
			rest := buf[i:]
			nl := bytes.IndexByte(rest, '\n')
			cr := -1
			if !noCR {
				seg := rest
				if nl >= 0 {
					seg = rest[:nl]
				}
				cr = bytes.IndexByte(seg, '\r')
			}
			end, eol := -1, 0
			switch {
			case cr >= 0 && cr+1 < len(rest):
				end, eol = cr, 1
				if rest[cr+1] == '\n' {
					eol = 2
				}
			case cr >= 0 && eof:
				end, eol = cr, 1
			case cr >= 0:
				// A \r last in the buffer: a \n may follow it.
			case nl >= 0:
				end, eol = nl, 1
			case eof && len(rest) == 0:
				return nil
			case eof:
				end = len(rest) // the last line, without an end
			}
			if end < 0 {
				break
			}
			line := rest[:end]
			i += end + eol
			if err := fn(unsafe.String(unsafe.SliceData(line), len(line)), off+i); err != nil {
				return err
			}
			if eol == 0 {
				return nil
			}
		}
		// Keep the partial line, then read on.
		n := copy(buf, buf[i:])
		buf, off, i = buf[:n], off+i, 0
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:n] // a line longer than the buffer
		}
		for empty := 0; ; {
			m, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+m]
			switch {
			case err == io.EOF:
				eof = true
			case err != nil:
				return f.readError(err)
			case m == 0:
				if empty++; empty == 100 { // as bufio gives up on a reader
					return f.readError(io.ErrNoProgress)
				}
				continue
			}
			if to < 0 && off+len(buf) > maxTableBytes {
				return f.readError(safefile.TooLarge(f.name, tableLimit))
			}
			noCR = bytes.IndexByte(buf, '\r') < 0
			if bomSeen {
				break
			}
			if !eof && len(buf) < len(bom) {
				continue // not yet enough to tell a byte-order mark
			}
			bomSeen = true
			if bytes.HasPrefix(buf, bom) {
				i = len(bom)
			}
			break
		}
	}
}

func (f fileSource) text(from, to int) (string, error) {
	r, closeFile, err := f.open(from, to)
	if err != nil {
		return "", err
	}
	defer closeFile()
	b := make([]byte, to-from)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", f.readError(err)
	}
	if from == 0 {
		b = bytes.TrimPrefix(b, bom)
	}
	text := unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	return text, nil
}

// compactSection is a section's rows as the walk searches them: each
// row's key, as indexes into the distinct values of each key, and where
// its line is. The row that decides a call is parsed again, alone (row).
// A row of gemm costs 20 bytes here, where a Row and its entries are
// about 700.
type compactSection struct {
	nk   int
	n    int
	idx  []uint16 // n*nk: row r's key i is value idx[r*nk+i] of key i
	strs [MaxKeys][]string
	nums [MaxKeys][]int64
	lgs  [MaxKeys][]float64 // log2 of nums
	off  []uint32           // n+1: each row's line, then the section's end
	line []int32
}

// compactSink builds a compactSection from the rows a sectionParser
// reads.
type compactSink struct {
	c     *compactSection
	kinds [MaxKeys]KeyKind
	part  bool // a part of a section: no offsets or lines
	vol   bool
	cur   [MaxKeys]uint16 // the key dup was asked about, as indexes
	// numSlot finds most log key values at one look (num).
	numSlot [MaxKeys][numSlots]numSlot
	// sorted: every row's key so far is above the one before it (keys
	// compared value by value, in key order), so none repeats an earlier
	// one. Tables are written so (tools/tune), and their rows need no
	// index to find a repeated key; the first row out of order builds it.
	sorted bool
	slot   int     // the free slot dup's probe ended at, for add
	slots  []int32 // open addressing by key: row+1, 0 for none
	seed   [2]uint64
	// Beyond a few distinct values, a key's are found through a map.
	strIdx [MaxKeys]map[string]uint16
	numIdx [MaxKeys]map[int64]uint16
}

// linearValues is how many distinct values of a key are searched one by
// one before a map finds them: more than a tuned table's keys have (its
// grid and refinement values), so that its first read makes no map (each
// costs fresh memory: see the top of this file).
const linearValues = 48

// newCompactSink makes a sink for a section of about rows rows (its
// storage grows past them). idx, when not nil, is where the keys go (a
// part of a section's, parsed at once with the others: parallelSpan),
// and then the rows' offsets and lines are not kept (the caller has
// them).
func newCompactSink(p *tableParser, rows int, idx []uint16) *compactSink {
	nk := len(p.t.Keys)
	n := min(rows, maxPresizedRows)
	c := &compactSection{nk: nk, idx: idx}
	if idx == nil {
		c.idx, c.off, c.line = make([]uint16, 0, n*nk), make([]uint32, 0, n+1), make([]int32, 0, n)
	}
	s := &compactSink{
		c:      c,
		part:   idx != nil,
		vol:    p.src.volatile(),
		sorted: true,
	}
	for i, k := range p.t.Keys {
		s.kinds[i] = k.Kind
	}
	return s
}

// str is the index of exact value v of key i, added when new. A table has
// at most MaxTableRows rows, so a key at most that many values: an index
// fits 16 bits.
func (s *compactSink) str(i int, v string) uint16 {
	vals := s.c.strs[i]
	if j := s.cur[i]; int(j) < len(vals) && vals[j] == v {
		return j // the previous row's
	}
	if m := s.strIdx[i]; m != nil {
		if j, ok := m[v]; ok {
			return j
		}
	} else {
		for j, x := range vals {
			if x == v {
				return uint16(j)
			}
		}
	}
	if s.vol {
		v = strings.Clone(v)
	}
	j := uint16(len(vals))
	s.c.strs[i] = append(vals, v)
	switch m := s.strIdx[i]; {
	case m != nil:
		m[v] = j
	case len(s.c.strs[i]) > linearValues:
		m = make(map[string]uint16, 2*len(s.c.strs[i]))
		for k, x := range s.c.strs[i] {
			m[x] = uint16(k)
		}
		s.strIdx[i] = m
	}
	return j
}

// num is str for the log key values.
func (s *compactSink) num(i int, v int64) uint16 {
	vals := s.c.nums[i]
	if j := s.cur[i]; int(j) < len(vals) && vals[j] == v {
		return j // the previous row's
	}
	slot := &s.numSlot[i][uint64(v)*0x9e3779b97f4a7c15>>60]
	if int(slot.j) < len(vals) && vals[slot.j] == v {
		return slot.j
	}
	j := s.numSlow(i, v)
	*slot = numSlot{j}
	return j
}

// numSlots is how many of a log key's values num finds at one look (by
// a hash of the value: its top four bits).
const numSlots = 16

// numSlot is one of them: the index of the value it last held.
type numSlot struct{ j uint16 }

// numSlow finds or adds value v of log key i, one by one or by a map.
func (s *compactSink) numSlow(i int, v int64) uint16 {
	vals := s.c.nums[i]
	if m := s.numIdx[i]; m != nil {
		if j, ok := m[v]; ok {
			return j
		}
	} else {
		for j, x := range vals {
			if x == v {
				return uint16(j)
			}
		}
	}
	j := uint16(len(vals))
	s.c.nums[i] = append(vals, v)
	s.c.lgs[i] = append(s.c.lgs[i], math.Log2(float64(v)))
	switch m := s.numIdx[i]; {
	case m != nil:
		m[v] = j
	case len(s.c.nums[i]) > linearValues:
		m = make(map[int64]uint16, 2*len(s.c.nums[i]))
		for k, x := range s.c.nums[i] {
			m[x] = uint16(k)
		}
		s.numIdx[i] = m
	}
	return j
}

func (s *compactSink) dup(k *Key) (int, bool) {
	c := s.c
	for i := range c.nk {
		if s.kinds[i] == Exact {
			s.cur[i] = s.str(i, k.v[i].S)
		} else {
			s.cur[i] = s.num(i, k.v[i].N)
		}
	}
	if s.sorted {
		if c.n == 0 || s.above(c.n-1) {
			return 0, false
		}
		s.sorted = false
		s.grow()
	}
	if 2*(c.n+1) > len(s.slots) {
		s.grow()
	}
	cur := s.cur[:c.nk]
	mask := len(s.slots) - 1
	for j := int(s.hash(cur)) & mask; ; j = (j + 1) & mask {
		r := int(s.slots[j]) - 1
		if r < 0 {
			s.slot = j
			return 0, false
		}
		if slices.Equal(c.idx[r*c.nk:(r+1)*c.nk], cur) {
			return int(c.line[r]), true
		}
	}
}

// above reports whether the key dup was asked about is above row r's.
func (s *compactSink) above(r int) bool {
	c := s.c
	prev := c.idx[r*c.nk : (r+1)*c.nk]
	for i := range c.nk {
		a, b := s.cur[i], prev[i]
		if a == b {
			continue
		}
		if s.kinds[i] == Exact {
			return c.strs[i][a] > c.strs[i][b]
		}
		return c.nums[i][a] > c.nums[i][b]
	}
	return false // the same key
}

// grow makes the slots twice as many (at least 1024, and twice the rows),
// every row in them.
func (s *compactSink) grow() {
	c := s.c
	size := max(1024, 2*len(s.slots))
	for size < 4*(c.n+1) {
		size *= 2
	}
	if s.slots == nil {
		s.seed = [2]uint64{maphash.Comparable(maphash.MakeSeed(), 0), maphash.Comparable(maphash.MakeSeed(), 1)}
	}
	s.slots = make([]int32, size)
	mask := size - 1
	for r := range c.n {
		j := int(s.hash(c.idx[r*c.nk:(r+1)*c.nk])) & mask
		for s.slots[j] != 0 {
			j = (j + 1) & mask
		}
		s.slots[j] = int32(r + 1)
	}
}

// hash mixes a key's indexes (at most eight: two words) with the seed, so
// that a table cannot choose which keys collide: a multiply-xor of
// 128-bit products, as wyhash mixes.
func (s *compactSink) hash(key []uint16) uint64 {
	var w [2]uint64
	for i, v := range key {
		w[i/4] |= uint64(v) << (16 * (i % 4))
	}
	hi, lo := bits.Mul64(w[0]^s.seed[0], w[1]^s.seed[1]^0x9e3779b97f4a7c15)
	hi, lo = bits.Mul64(hi^lo^s.seed[1], 0xbf58476d1ce4e5b9)
	return hi ^ lo
}

func (s *compactSink) add(r *Row, _ []Entry, off int) {
	c := s.c
	c.idx = append(c.idx, s.cur[:c.nk]...)
	if !s.part {
		c.off = append(c.off, uint32(off))
		c.line = append(c.line, int32(r.Line))
	}
	c.n++
	if !s.sorted {
		s.slots[s.slot] = int32(c.n)
	}
}

// compactSpan parses the rows of span i into a compactSection.
func (p *tableParser) compactSpan(i int) (*compactSection, error) {
	sp := p.spans[i]
	sink := newCompactSink(p, sp.rows, nil)
	var choices map[string]parsedSpelling
	if err := p.parseLines(sp.line, p.src, sp.start, sp.end, sink, &choices); err != nil {
		return nil, err
	}
	return sink.done(sp.end), nil
}

// partRows is the fewest rows a part of a section parsed at once with
// others has: below it, starting a goroutine costs more than it saves.
const partRows = 1024

// parallelSpan is compactSpan for span i, whose rows want noted in the
// structure pass: its rows are parsed in parts, at once, one goroutine per
// core (at most four), each part's keys written to its own stretch of the
// section's index, its values numbered on their own, then renumbered as
// one. When every part parses, every part's rows are in key order and
// each part's first row is above the part before's last (a tuned table's
// rows are), the section is compactSpan's, value for value. Otherwise
// (a row that does not parse, rows out of order, a repeated key may be
// there) the section is parsed again in one pass, whose error is the
// first of the section, as compactSpan says.
func (p *tableParser) parallelSpan(i int, want *wantSection) (*compactSection, error) {
	sp := p.spans[i]
	n := len(want.off)
	parts := min(runtime.GOMAXPROCS(0), 4, n/partRows)
	if parts < 2 || n != sp.rows {
		return p.compactSpan(i)
	}
	nk := len(p.t.Keys)
	idx := make([]uint16, n*nk)
	sinks := make([]*compactSink, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for j := range parts {
		a, b := j*n/parts, (j+1)*n/parts
		to := sp.end
		if b < n {
			to = int(want.off[b])
		}
		sinks[j] = newCompactSink(p, b-a, idx[a*nk:a*nk:b*nk])
		wg.Add(1)
		go func() {
			defer wg.Done()
			var choices map[string]parsedSpelling
			errs[j] = p.parseLines(int(want.line[a])-1, p.src, int(want.off[a]), to, sinks[j], &choices)
		}()
	}
	wg.Wait()
	for j, s := range sinks {
		if errs[j] != nil || !s.sorted || s.c.n != (j+1)*n/parts-j*n/parts || (j > 0 && !above(sinks[j-1], s)) {
			return p.compactSpan(i)
		}
	}
	c := sinks[0].c
	c.idx, c.n = idx, n
	c.off, c.line = append(want.off, uint32(sp.end)), want.line
	for j, s := range sinks[1:] {
		// Renumber the part's values as the section's: the ones new to it
		// come after, in the order the part met them, as one pass would
		// have numbered them.
		var to [MaxKeys][]uint16
		for k := range nk {
			if sinks[0].kinds[k] == Exact {
				for _, v := range s.c.strs[k] {
					to[k] = append(to[k], sinks[0].str(k, v))
				}
			} else {
				for _, v := range s.c.nums[k] {
					to[k] = append(to[k], sinks[0].num(k, v))
				}
			}
		}
		a := (j + 1) * n / parts
		for r := a; r < a+s.c.n; r++ {
			for k := range nk {
				idx[r*nk+k] = to[k][idx[r*nk+k]]
			}
		}
	}
	return c, nil
}

// above reports whether the first row of part b is above the last of
// part a, the part before it: their keys compared value by value.
func above(a, b *compactSink) bool {
	ca, cb := a.c, b.c
	la, fb := ca.idx[(ca.n-1)*ca.nk:ca.n*ca.nk], cb.idx[:cb.nk]
	for k := range ca.nk {
		if a.kinds[k] == Exact {
			if x, y := ca.strs[k][la[k]], cb.strs[k][fb[k]]; x != y {
				return y > x
			}
		} else if x, y := ca.nums[k][la[k]], cb.nums[k][fb[k]]; x != y {
			return y > x
		}
	}
	return false
}

// done returns the section, whose span ends at offset end.
func (s *compactSink) done(end int) *compactSection {
	s.c.off = append(s.c.off, uint32(end))
	return s.c
}

// nearest is Table.nearest over the compact index of a section of t: the
// same search, the same arithmetic in the same order, so the same row (by
// its index) at the same distance; -1 when the section has no row.
func (c *compactSection) nearest(t *Table, k Key) (int, float64, error) {
	if k.Len() != len(t.Keys) {
		return -1, 0, fmt.Errorf("%s: the key has %d value(s) but the table's keys are %q; the op must supply every key", t.File, k.Len(), FormatKeys(t.Keys))
	}
	var klg, lo, hi [MaxKeys]float64
	var kidx [MaxKeys]int // the call's exact values among the section's, -1 when absent
	var nExact int
	passes := []bool{false} // the whole section
	for _, g := range t.grid {
		if g != nil {
			passes = []bool{true, false} // the call's cell, then the whole section
			break
		}
	}
	for i, ks := range t.Keys {
		if ks.Kind == Exact {
			nExact++
			if k.v[i].S == "" {
				return -1, 0, fmt.Errorf("%s: exact key %s has no value; the op must supply it", t.File, ks.Name)
			}
			kidx[i] = -1
			for j, v := range c.strs[i] {
				if v == k.v[i].S {
					kidx[i] = j
				}
			}
			continue
		}
		klg[i] = math.Log2(float64(max(1, k.v[i].N)))
		lo[i], hi[i] = math.Inf(-1), math.Inf(1)
		if g := t.grid[i]; g != nil {
			lo[i], hi[i] = bracket(g, klg[i])
		}
	}
	nk := c.nk
	for keep := nExact; keep >= 0; keep-- {
		for _, inCell := range passes {
			best, bestD := -1, 0.0
		rowLoop:
			for ri := range c.n {
				key := c.idx[ri*nk : (ri+1)*nk]
				d, seen := 0.0, 0
				for i, ks := range t.Keys {
					if ks.Kind == Exact {
						if seen < keep && int(key[i]) != kidx[i] {
							continue rowLoop
						}
						seen++
						continue
					}
					lg := c.lgs[i][key[i]]
					if inCell && (lg < lo[i]-cellSlack || lg > hi[i]+cellSlack) {
						continue rowLoop
					}
					d += ks.Weight * math.Abs(lg-klg[i])
				}
				if best < 0 || d < bestD-1e-9 || (d <= bestD+1e-9 && c.lexLess(t, ri, best)) {
					best, bestD = ri, d
				}
			}
			if best >= 0 {
				return best, bestD, nil
			}
		}
	}
	return -1, 0, nil
}

// lexLess is Table.lexLess for rows a and b of the section.
func (c *compactSection) lexLess(t *Table, a, b int) bool {
	for i, ks := range t.Keys {
		if ks.Kind == Log {
			la, lb := c.lgs[i][c.idx[a*c.nk+i]], c.lgs[i][c.idx[b*c.nk+i]]
			if la != lb {
				return la < lb
			}
		}
	}
	return false
}

// row parses row ri of the section, of span i of p's table, into a Row
// equal to the one ParseTable gives.
func (c *compactSection) row(p *tableParser, i, ri int) (*Row, error) {
	text, err := p.src.text(int(c.off[ri]), int(c.off[ri+1]))
	if err != nil {
		return nil, err
	}
	line, _, _ := strings.Cut(text, "\n")
	t, _ := classify(line)
	sink := &fullSink{rows: make([]Row, 0, 1), slab: make([]Entry, 0, p.maxEntries)}
	var choices map[string]parsedSpelling
	s := sectionParser{h: p, line: int(c.line[ri]), sink: sink, choices: &choices, entries: true}
	if err := s.row(t, int(c.off[ri])); err != nil {
		return nil, err // the row parsed when the section did: the table changed since
	}
	if len(sink.rows) != 1 {
		return nil, &TableError{File: p.file, Line: int(c.line[ri]), Reason: "the built-in table changed while it was read"}
	}
	return &sink.rows[0], nil
}

// lazyTable is a built-in table read as late as can be (above). Several
// goroutines may make an op's first calls at once: each step is done
// once, and what it made is only read after.
type lazyTable struct {
	p *tableParser // after the header pass; the structure pass completes it
	// The structure pass, and then the sections it found.
	scanOnce sync.Once
	scanErr  error
	secs     map[DType]*lazySection
	// The table with every section parsed into Rows (Op.Tables).
	fullOnce sync.Once
	full     *Table
	fullErr  error
}

// lazySection is one section of a lazyTable: the scan's span i, its
// compact index (the walk) and its Rows (Explain, Op.Tables), each made
// on first need, with the error of its first row that does not parse.
type lazySection struct {
	i        int
	want     *wantSection // where its rows are, when the structure pass noted it
	once     sync.Once
	c        *compactSection
	err      error
	rowsOnce sync.Once
	rows     []Row
	rowsErr  error
}

// scan runs the structure pass once and returns its error. The pass
// notes where the rows of the first caller's dt section are (when dt is
// not ""), for parsing them in parts at once (compact).
func (lz *lazyTable) scan(dt DType) error {
	lz.scanOnce.Do(func() {
		p := lz.p
		var want *wantSection
		if dt != "" {
			n := min(p.src.size()/avgRowBytes, MaxTableRows)
			want = &wantSection{dt: dt, off: make([]uint32, 0, n), line: make([]int32, 0, n)}
		}
		if lz.scanErr = p.structure(want); lz.scanErr != nil {
			return
		}
		lz.secs = make(map[DType]*lazySection, len(p.spans))
		for i, sp := range p.spans {
			sec := &lazySection{i: i}
			if want != nil && sp.dt == dt {
				sec.want = want
			}
			lz.secs[sp.dt] = sec
		}
	})
	return lz.scanErr
}

// avgRowBytes is about the length of a row of a tuned table, for sizing a
// section's storage before its rows are counted: storage that is not
// written costs no memory, only address space.
const avgRowBytes = 128

// compact returns the compact index of sec, parsing it on first need.
func (lz *lazyTable) compact(sec *lazySection) (*compactSection, error) {
	sec.once.Do(func() {
		if sec.want != nil {
			sec.c, sec.err = lz.p.parallelSpan(sec.i, sec.want)
			sec.want = nil
		} else {
			sec.c, sec.err = lz.p.compactSpan(sec.i)
		}
	})
	return sec.c, sec.err
}

// fullRows returns the Rows of sec, parsing them on first need.
func (lz *lazyTable) fullRows(sec *lazySection) ([]Row, error) {
	sec.rowsOnce.Do(func() { sec.rows, sec.rowsErr = lz.p.fullSpan(sec.i) })
	return sec.rows, sec.rowsErr
}

// check runs the structure pass and parses every section for its first
// error: whether the table parses, as ParseTable says.
func (p *tableParser) check() error {
	if err := p.structure(nil); err != nil {
		return err
	}
	for i := range p.spans {
		if err := p.checkSpan(i); err != nil {
			return err
		}
	}
	return nil
}
