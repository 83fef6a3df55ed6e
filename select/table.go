package sel

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/batchlas-go/batchlas/internal/cpuident"
	"github.com/batchlas-go/batchlas/internal/quote"
)

// Table is one parsed `<op>.<device>.txt` or `<op>.<device>.<identity>.txt`
// file.
type Table struct {
	File     string // base name, e.g. potrf.x86-64-v4.txt or potrf.x86-64-v4.zen5.txt
	Op       string
	Device   string
	Identity string // the microarchitecture of an identity's table, "" for a level's table
	Revision int
	Origin   string // "builtin" or "override"; set by the loader
	// Header keeps every k=v provenance word of the header lines (op,
	// device, revision, kernels, date, host, cores, go, tool, grid, ...),
	// quotes removed.
	Header   map[string]string
	Keys     []KeySpec
	Sections map[DType][]Row

	// grid holds, per log key, the log2 of the grid values the table was
	// measured on (see cell.go); nil when unknown.
	grid [MaxKeys][]float64

	// Identity of the device, from the file name, for the borrow order.
	family string
	arch   int
	class  Class
}

// Row is one measured (or hand-ranked) call shape of a table section.
type Row struct {
	Line    int // line number in the file
	Key     Key // in the op's key order
	Entries []Entry

	lg [MaxKeys]float64 // log2 of each log key, precomputed for Nearest
}

// Entry is one `spelling ms` of a row.
type Entry struct {
	Spelling string
	// Choice is the parsed spelling, zero when it does not parse for the op
	// (the walk skips it; tools/tune check reports it).
	Choice Choice
	MS     float64 // milliseconds per call for the whole batch
	Timed  bool    // false for a hand-ranked `-` entry
}

// TableError is a table that cannot be used: `<file>:<line>: <reason>`.
type TableError struct {
	File   string
	Line   int
	Reason string
}

func (e *TableError) Error() string {
	return quote.Message(fmt.Sprintf("%s:%d: %s", quote.Cut(e.File), e.Line, e.Reason))
}

// StaleError says that a well-formed table was written for other key names:
// its `# keys:` line differs from the op's. ParseTable returns it together
// with the parsed table (rows read under the table's own keys line). Like a
// table of another revision, such a table is stale: the selection core
// skips it with one warning and the calls never see this error; checkers
// (CheckBuiltin, tools/tune check) report it. ParseTable does not compare
// the revision (callers compare Table.Revision with the op's first, so a
// table of another revision is reported as such even when its keys differ
// too).
type StaleError struct {
	File   string
	Line   int    // the # keys: line
	Keys   string // the table's keys line, formatted
	OpKeys string // the op's key names, formatted
	Op     string
}

func (e *StaleError) Error() string {
	return quote.Message(fmt.Sprintf("%s:%d: keys %s differ from %s's key names %q; re-tune with tools/tune", quote.Cut(e.File), e.Line, quote.Q(e.Keys), e.Op, e.OpKeys))
}

// knownDTypes are the section names a table may use.
var knownDTypes = []DType{Float32, Float64, "complex64", "complex128"}

// SplitTableName splits a table file name into op, device key and
// identity, checking each spelling: `<op>.<device>.txt` is a level's table
// (identity ""), `<op>.<device>.<identity>.txt` one microarchitecture's.
func SplitTableName(file string) (op, device, identity string, err error) {
	base, ok := strings.CutSuffix(file, ".txt")
	var parts []string
	if ok {
		parts = strings.Split(base, ".")
		ok = (len(parts) == 2 || len(parts) == 3) && validName(parts[0])
	}
	if !ok {
		return "", "", "", fmt.Errorf("file name %s: want <op>.<device>.txt or <op>.<device>.<identity>.txt, e.g. potrf.x86-64-v4.txt or potrf.x86-64-v4.zen5.txt", quote.Q(file))
	}
	if _, _, _, err := ParseDeviceKey(parts[1]); err != nil {
		return "", "", "", fmt.Errorf("file name %s: %v", quote.Q(file), err)
	}
	if len(parts) == 3 {
		if !cpuident.Valid(parts[2]) {
			return "", "", "", fmt.Errorf("file name %s: identity %s: want lower-case letters, digits and single '-', starting with a letter, at most 40 bytes (zen5, sapphirerapids)", quote.Q(file), quote.Q(parts[2]))
		}
		identity = parts[2]
	}
	return parts[0], parts[1], identity, nil
}

// ParseTable parses one table. file is its base name (`<op>.<device>.txt`):
// op and device come from it. op, when not nil, supplies the key names the
// `# keys:` line is compared with and the families spellings are parsed
// against; with a nil op the keys line is taken as given and no Choice is
// filled. A table that does not parse gives a nil table and a *TableError
// naming the file and line. A table that parses but whose keys line differs
// from op's gives the table and a *StaleError (detect it with errors.As):
// a caller that only wants usable tables treats it as any error. A leading
// UTF-8 byte-order mark is ignored, and \r\n, \n and a lone \r each end a
// line.
func ParseTable(file string, data []byte, op *Op) (*Table, error) {
	p := tableParser{file: file, op: op}
	t, err := p.parse(data)
	if err != nil {
		return nil, err
	}
	if p.stale != nil {
		return t, p.stale
	}
	return t, nil
}

// A table is read in passes over its lines (the loader runs them as late
// as it can for a built-in table: lazy.go). The header pass reads the
// lines before the first row; the structure pass the rest, checking all
// that is not inside a row (the header is complete, the section lines, no
// `# keys:` line after the first row, the row cap) and noting where each
// section's lines are, its rows counted, not parsed; the rows of a section
// are then parsed from its span alone. A row is checked against the
// header and the earlier rows of its own section only, so the first error
// of the file is the scan's or that of the first section whose rows fail,
// whichever comes first: parse gives exactly the error of a one-pass
// parse.
type tableParser struct {
	file string
	op   *Op
	t    *Table
	line int
	src  textSource

	keysLine   int
	stale      *StaleError // the keys line differs from op's
	revLine    int
	sectLine   map[DType]int
	section    DType
	seenRow    bool
	familyList []*Family
	// choices caches ParseChoice per spelling for parse, which reads the
	// sections one after the other: a table spells the same dozen
	// candidates on every row. A section parsed alone has its own.
	choices map[string]parsedSpelling
	// spans are the sections the scan found, in file order.
	spans []sectionSpan
	// rows counts the row lines of the whole table, against MaxTableRows.
	rows int
	// maxEntries caps the entries of one row (Op.maxRowEntries).
	maxEntries int
	// exactSets are the values each exact key of the op's keys line may
	// take (exactSets), nil for a key without a known set.
	exactSets [MaxKeys]map[string]bool
	// The header pass stops at the first row line: its offset and the
	// number of the line before it, where the structure pass resumes.
	// scanned is set once the structure pass is done (or had nothing to
	// do: a table without rows).
	resumeAt, resumeLine int
	scanned              bool
}

// sectionSpan is one [dtype] section as the scan found it.
type sectionSpan struct {
	dt         DType
	line       int // the section line
	start, end int // the lines after it, up to the next section line (or the scan's error), as offsets in the source
	rows       int // row lines among them
}

func (p *tableParser) fail(format string, args ...any) error {
	return &TableError{File: p.file, Line: p.line, Reason: fmt.Sprintf(format, args...)}
}

// parse reads the whole table: the scan, then every section's rows.
func (p *tableParser) parse(data []byte) (*Table, error) {
	p.src = stringSource(tableText(data))
	if err := p.scanAll(); err != nil {
		return nil, err
	}
	for i, sp := range p.spans {
		rows, err := p.fullSpan(i)
		if err != nil {
			return nil, err
		}
		p.t.Sections[sp.dt] = rows
	}
	return p.t, nil
}

// scanAll is the header and structure passes, whose error, when the
// structure pass fails, is that of the first row before the failing line
// that does not parse, if any: the table's first error.
func (p *tableParser) scanAll() error {
	if err := p.header(); err != nil {
		return err
	}
	return p.structure(nil)
}

// errStop ends a walk of the lines early.
var errStop = errors.New("stop")

// header is the header pass: from the first line to the first row line,
// which it leaves to the structure pass, or to the end of a table
// without rows.
func (p *tableParser) header() error {
	p.line = 1
	opName, dev, ident, err := SplitTableName(p.file)
	if err != nil {
		return p.fail("%v", err)
	}
	if p.op != nil && opName != p.op.Name() {
		return p.fail("file is for op %s, not %s", opName, p.op.Name())
	}
	fam, arch, class, _ := ParseDeviceKey(dev)
	p.t = &Table{File: p.file, Op: opName, Device: dev, Identity: ident, Revision: -1, Header: map[string]string{},
		Sections: map[DType][]Row{}, family: fam, arch: arch, class: class}
	p.sectLine = map[DType]int{}
	if p.op != nil {
		p.familyList = p.op.spec.Families
	}
	p.maxEntries = maxRowEntriesNoOp
	if p.op != nil {
		p.maxEntries = p.op.maxRowEntries()
	}
	// The lines are walked in place, never split into a slice: a file of
	// millions of empty lines costs nothing but the walk.
	n, start := 0, 0
	err = p.src.lines(0, -1, func(raw string, next int) error {
		n++
		p.line = n
		s, kind := classify(raw)
		var err error
		switch kind {
		case lineComment:
			if p.src.volatile() {
				s = strings.Clone(s) // its words are kept
			}
			err = p.comment(s[1:])
		case lineSection:
			err = p.sectionLine(s, next)
		case lineRow:
			p.resumeAt, p.resumeLine = start, n-1
			return errStop
		}
		if err != nil {
			return err
		}
		if k := len(p.spans); k > 0 {
			p.spans[k-1].end = next
		}
		start = next
		return nil
	})
	switch {
	case err == errStop:
	case err != nil:
		return err
	default:
		// The header rules hold for a table without rows too; report them
		// at the last line, where the missing header should have ended.
		p.scanned = true
		p.line = max(1, n)
		if err := p.headerDone(); err != nil {
			return err
		}
	}
	if p.op != nil {
		p.t.grid = gridValues(p.t, &p.op.spec)
	}
	return nil
}

// structure is the structure pass, from the first row line to the end
// (nothing for a table without rows). When it fails, the first row
// before the failing line that does not parse, if any, gives the error
// instead: the table's first.
//
// want, when not nil, collects where the rows of one section (want.dt)
// are, for parsing them in parts at once (parallelSpan).
func (p *tableParser) structure(want *wantSection) error {
	if p.scanned {
		return nil
	}
	p.scanned = true
	n, start, failed := p.resumeLine, p.resumeAt, false
	err := p.src.lines(p.resumeAt, -1, func(raw string, next int) error {
		n++
		p.line = n
		s, kind := classify(raw)
		var err error
		switch kind {
		case lineComment:
			err = p.comment(s[1:]) // after the first row: nothing is kept
		case lineSection:
			err = p.sectionLine(s, next)
		case lineRow:
			if err = p.scanRow(); err == nil && want != nil && p.section == want.dt {
				want.off = append(want.off, uint32(start))
				want.line = append(want.line, int32(n))
			}
		}
		if err != nil {
			failed = true
			return err
		}
		if k := len(p.spans); k > 0 {
			p.spans[k-1].end = next
		}
		start = next
		return nil
	})
	if failed {
		// The scan's own error, at p.line: a row before it may fail first.
		for i := range p.spans {
			if rerr := p.checkSpan(i); rerr != nil {
				return rerr
			}
		}
	}
	return err
}

// wantSection is the section whose rows a structure pass notes: its
// dtype, and each row's offset and line number.
type wantSection struct {
	dt   DType
	off  []uint32
	line []int32
}

// tableText is a table file's text with the leading UTF-8 byte-order mark
// some editors write removed, and every line end (\r\n, \n or a lone \r)
// made a \n.
func tableText(data []byte) string {
	text := strings.TrimPrefix(string(data), "\ufeff")
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	return text
}

// comment handles a `#` line: provenance and the keys line before the first
// row, a plain comment after.
func (p *tableParser) comment(s string) error {
	body := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(body, "keys:"); ok {
		if p.seenRow {
			return p.fail("# keys: line after the first row; it belongs in the header")
		}
		if p.keysLine != 0 {
			return p.fail("second # keys: line (the first is on line %d)", p.keysLine)
		}
		p.keysLine = p.line
		ks, err := ParseKeys(rest)
		if err != nil {
			return p.fail("%v", err)
		}
		if p.op != nil && FormatKeys(ks) != FormatKeys(p.op.keys) {
			// Stale, not malformed: the rows are read under the table's
			// own keys, and the table is returned with a *StaleError.
			p.stale = &StaleError{File: p.file, Line: p.line, Keys: FormatKeys(ks), OpKeys: FormatKeys(p.op.keys), Op: p.op.Name()}
		}
		if p.op != nil && p.stale == nil {
			// The op's own keys: their values are checked against the
			// sets its grid declares. A stale table's rows are not.
			p.exactSets = exactSets(p.op)
		}
		p.t.Keys = ks
		return nil
	}
	if p.seenRow {
		return nil
	}
	words, err := headerWords(body)
	if err != nil {
		return p.fail("%v", err)
	}
	for _, w := range words {
		p.t.Header[w[0]] = w[1]
		switch w[0] {
		case "op":
			if w[1] != p.t.Op {
				return p.fail("header says op=%s but the file name says %s", quote.Cut(w[1]), p.t.Op)
			}
		case "device":
			if w[1] != p.t.Device {
				return p.fail("header says device=%s but the file name says %s", quote.Cut(w[1]), p.t.Device)
			}
		case "identity":
			if w[1] != p.t.Identity {
				if p.t.Identity == "" {
					return p.fail("header says identity=%s but the file name has no identity (name it %s.%s.%s.txt, or remove the word)", quote.Cut(w[1]), p.t.Op, p.t.Device, quote.Cut(w[1]))
				}
				return p.fail("header says identity=%s but the file name says %s", quote.Cut(w[1]), p.t.Identity)
			}
		case "revision":
			n, err := strconv.Atoi(w[1])
			if err != nil || n < 0 {
				return p.fail("revision=%s: want a non-negative integer", quote.Cut(w[1]))
			}
			p.t.Revision = n
			p.revLine = p.line
		}
	}
	return nil
}

// headerWords returns the k=v words of a header line; values may be
// double-quoted (host="AMD EPYC 9R14"). Words without '=' are prose and
// ignored.
func headerWords(s string) ([][2]string, error) {
	var out [][2]string
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '=' {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			i = j // prose word
			continue
		}
		k := s[i:j]
		j++
		var v string
		if j < len(s) && s[j] == '"' {
			end := strings.IndexByte(s[j+1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("header word %s: unterminated quote", quote.Cut(k))
			}
			v = s[j+1 : j+1+end]
			j += end + 2
		} else {
			e := j
			for e < len(s) && s[e] != ' ' && s[e] != '\t' {
				e++
			}
			v = s[j:e]
			j = e
		}
		if k != "" {
			out = append(out, [2]string{k, v})
		}
		i = j
	}
	return out, nil
}

func (p *tableParser) headerDone() error {
	if p.t.Revision < 0 {
		return p.fail("no revision=N in the header; tables written by tools/tune carry it")
	}
	if p.keysLine == 0 {
		return p.fail("no # keys: line in the header; it must list the op's key names")
	}
	return nil
}

// sectionLine checks a section line and starts its span at next, the
// offset of the line after it.
func (p *tableParser) sectionLine(s string, next int) error {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if !strings.HasSuffix(s, "]") {
		return p.fail("section %s: want [dtype]", quote.Q(s))
	}
	dt := DType(strings.TrimSpace(s[1 : len(s)-1]))
	known := false
	for _, k := range knownDTypes {
		if k == dt {
			dt, known = k, true // not the line's memory, which a stream reuses
		}
	}
	if !known {
		return p.fail("unknown dtype section [%s]; want float32, float64, complex64 or complex128", quote.Cut(string(dt)))
	}
	if l, dup := p.sectLine[dt]; dup {
		return p.fail("section [%s] appears twice (first on line %d)", dt, l)
	}
	p.sectLine[dt] = p.line
	p.section = dt
	p.spans = append(p.spans, sectionSpan{dt: dt, line: p.line, start: next, end: next})
	return nil
}

// scanRow checks what the scan checks of a row line: the header is
// complete before the first, it is in a section, and the table's row cap.
func (p *tableParser) scanRow() error {
	if !p.seenRow {
		if err := p.headerDone(); err != nil {
			return err
		}
		p.seenRow = true
	}
	if p.section == "" {
		return p.fail("row before any [dtype] section")
	}
	if p.rows++; p.rows > MaxTableRows {
		return p.fail("more than %d rows: a table may have at most %d, which bounds its memory (docs/select.md, \"What a table costs\")", MaxTableRows, MaxTableRows)
	}
	p.spans[len(p.spans)-1].rows++
	return nil
}

// fullSpan parses the rows of span i into Rows (ParseTable's).
func (p *tableParser) fullSpan(i int) ([]Row, error) {
	sp := p.spans[i]
	text, err := p.src.text(sp.start, sp.end)
	if err != nil {
		return nil, err
	}
	// A presize at most maxPresizedRows: the rows are counted, but a
	// broken file of millions of them must fail on its first bad row,
	// not allocate for all of them first.
	n := min(sp.rows, maxPresizedRows)
	sink := &fullSink{rows: make([]Row, 0, n)}
	if err := p.parseLines(sp.line, stringSource(text), 0, len(text), sink, &p.choices); err != nil {
		return nil, err
	}
	return sink.rows, nil
}

// checkSpan parses the rows of span i only for their first error.
func (p *tableParser) checkSpan(i int) error {
	sp := p.spans[i]
	var choices map[string]parsedSpelling
	return p.parseLines(sp.line, p.src, sp.start, sp.end, newCompactSink(p, sp.rows, nil), &choices)
}

// parseLines parses the rows read from src between offsets from and to,
// the line before from being line number line, into sink, through the
// spelling cache choices.
func (p *tableParser) parseLines(line int, src textSource, from, to int, sink rowSink, choices *map[string]parsedSpelling) error {
	_, full := sink.(*fullSink)
	s := sectionParser{h: p, line: line, sink: sink, choices: choices, volatile: src.volatile(), entries: full}
	start := from
	return src.lines(from, to, func(raw string, next int) error {
		s.line++
		if t, kind := classify(raw); kind == lineRow {
			// Comments and blank lines are the scan's: header lines
			// before the first row, plain comments after.
			if err := s.row(t, start); err != nil {
				return err
			}
		}
		start = next
		return nil
	})
}

// rowSink keeps the rows a section parser reads.
type rowSink interface {
	// dup returns the line of an earlier row of the section with key k,
	// if there is one. It is asked before the row's entries are read.
	dup(k *Key) (line int, ok bool)
	// add keeps row r (its Entries unset), whose entries are ents (valid
	// until the next row) and whose line starts at offset off.
	add(r *Row, ents []Entry, off int)
}

// fullSink keeps the rows as Rows, their entries in slabs.
type fullSink struct {
	rows []Row
	slab []Entry // the entries of the rows: one allocation per many rows
	// unsorted: a row's key was not above the one before it (keys
	// compared value by value: keyAbove). Until then no key can repeat
	// (tools/tune writes its rows in order); from then on, tuples finds a
	// repeated key in O(1): the first row of each key's hash (seeded:
	// a table cannot choose its collisions), and more the rows whose hash
	// an earlier row of another key has.
	unsorted bool
	seed     maphash.Seed
	tuples   map[uint64]int32
	more     map[Key]int32
	// The last log2 taken of each key: rows repeat their neighbours'
	// values.
	lastN  [MaxKeys]int64
	lastLg [MaxKeys]float64
}

// entrySlab is how many entries one allocation of a section holds.
const entrySlab = 2048

// keyAbove reports whether key a is above key b, the values compared in
// key order: an exact key's as strings, a log key's as numbers (an exact
// key has no number, a log key no string).
func keyAbove(a, b *Key) bool {
	for i := range int(a.n) {
		x, y := &a.v[i], &b.v[i]
		if x.S != y.S {
			return x.S > y.S
		}
		if x.N != y.N {
			return x.N > y.N
		}
	}
	return false
}

func (f *fullSink) dup(k *Key) (int, bool) {
	n := len(f.rows)
	if !f.unsorted {
		if n == 0 || keyAbove(k, &f.rows[n-1].Key) {
			return 0, false
		}
		f.unsorted = true
		f.seed = maphash.MakeSeed()
		f.tuples = make(map[uint64]int32, n)
		for j := range f.rows {
			f.index(int32(j))
		}
	}
	if j, ok := f.tuples[maphash.Comparable(f.seed, *k)]; ok {
		if f.rows[j].Key == *k {
			return f.rows[j].Line, true
		}
		if j, ok := f.more[*k]; ok {
			return f.rows[j].Line, true
		}
	}
	return 0, false
}

// index adds row j to tuples (or more, when its hash is another key's).
func (f *fullSink) index(j int32) {
	k := &f.rows[j].Key
	h := maphash.Comparable(f.seed, *k)
	first, ok := f.tuples[h]
	switch {
	case !ok:
		f.tuples[h] = j
	case f.rows[first].Key != *k:
		if f.more == nil {
			f.more = map[Key]int32{}
		}
		f.more[*k] = j
	}
}

func (f *fullSink) add(r *Row, ents []Entry, _ int) {
	for i := range int(r.Key.n) {
		if r.Key.v[i].S == "" { // a log key
			if n := r.Key.v[i].N; n != f.lastN[i] {
				f.lastN[i], f.lastLg[i] = n, math.Log2(float64(n))
			}
			r.lg[i] = f.lastLg[i]
		}
	}
	if len(f.slab)+len(ents) > cap(f.slab) {
		f.slab = make([]Entry, 0, max(len(ents), entrySlab))
	}
	start := len(f.slab)
	f.slab = append(f.slab, ents...)
	f.rows = append(f.rows, *r)
	f.rows[len(f.rows)-1].Entries = f.slab[start:len(f.slab):len(f.slab)]
	if f.unsorted {
		f.index(int32(len(f.rows) - 1))
	}
}

// sectionParser parses the rows of one section, under the header of a
// scanned table (read only: sections may be parsed concurrently, each by
// its own sectionParser).
type sectionParser struct {
	h       *tableParser
	line    int
	sink    rowSink
	choices *map[string]parsedSpelling
	// volatile: the lines are a stream's, whose memory is reused; what is
	// kept past a row is copied.
	volatile bool
	r        Row // the row being parsed
	// ents are the current row's entries when the sink keeps them
	// (entries), ids their ids (a repeated spelling), rowIDs the same as a
	// set once a row has more than linearIDs of them.
	entries bool
	ents    []Entry
	ids     []rowID
	rowIDs  map[string]struct{}
	// recent are the spellings parsed last, looked up before choices: a
	// table's few spellings are found by a comparison or two.
	recent  [8]recentSpelling
	nrecent int
	next    int
	idBits  []rowID // the ids numbered for the rows' repeated-spelling check
	// The last value of each exact key that was checked: rows repeat
	// their neighbours' values.
	lastExact [MaxKeys]string
}

// linearIDs is how many entry ids a row's repeated-spelling check
// compares one by one before it uses a set.
const linearIDs = 16

func (s *sectionParser) fail(format string, args ...any) error {
	return &TableError{File: s.h.file, Line: s.line, Reason: fmt.Sprintf(format, args...)}
}

// row parses one row line (trimmed), which starts at offset off, into
// the sink.
func (s *sectionParser) row(line string, off int) error {
	p := s.h
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	nbar := strings.Count(line, "|")
	if nbar > p.maxEntries {
		return s.fail("row has %d entries; a row of %s may have at most %d (%d per candidate)", nbar, p.opName(), p.maxEntries, entriesPerCandidate)
	}
	if nbar == 0 {
		return s.fail("row has no entries; want `key=value ... | spelling ms | ...`")
	}
	bar := strings.IndexByte(line, '|')
	keys := p.t.Keys
	// The row is built in the parser, not on the stack: the sink is an
	// interface, so a local would be allocated for each row.
	s.r.Line = s.line
	r := &s.r
	var have [MaxKeys]bool
	for at, nw := 0, 0; ; nw++ {
		w, next := nextField(line[:bar], at)
		if w == "" {
			break
		}
		at = next
		eq := strings.IndexByte(w, '=')
		if eq < 0 {
			return s.fail("key word %s: want name=value", quote.Q(w))
		}
		name, val := w[:eq], w[eq+1:]
		i := p.keyIndex(name, nw)
		if i < 0 {
			return s.fail("unknown key %s; the keys are %s", quote.Q(name), FormatKeys(keys))
		}
		if have[i] {
			return s.fail("key %s given twice", name)
		}
		have[i] = true
		if val == "" {
			return s.fail("key %s has no value", name)
		}
		if keys[i].Kind == Exact {
			if val != s.lastExact[i] {
				if set := p.exactSets[i]; set != nil && !set[val] {
					return s.fail("key %s=%s: want one of %s", name, quote.Q(val), setWords(set))
				}
				s.lastExact[i] = val
				if s.volatile {
					s.lastExact[i] = strings.Clone(val) // compared with the next rows'
				}
			}
			r.Key.v[i] = Str(val)
			continue
		}
		n, ok := parseCount(val)
		if !ok {
			return s.fail("key %s=%s: want a positive integer", name, quote.Cut(val))
		}
		r.Key.v[i] = KeyVal{N: n}
	}
	for i, ks := range keys {
		if !have[i] {
			return s.fail("row lacks key %s", ks.Name)
		}
	}
	r.Key.n = uint8(len(keys))
	if l, dup := s.sink.dup(&r.Key); dup {
		return s.fail("key tuple %s already has a row on line %d", quote.Cut(r.Key.Format(keys)), l)
	}
	s.ents, s.ids = s.ents[:0], s.ids[:0]
	if s.rowIDs != nil {
		clear(s.rowIDs)
	}
	timed, n, mask := 0, 0, uint64(0)
	for rest, more := line[bar+1:], true; more; n++ {
		part := rest
		if i := strings.IndexByte(rest, '|'); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		f0, f1, ok := twoFields(part)
		if !ok {
			return s.fail("entry %s: want `spelling ms` (ms a number or -)", quote.Q(strings.TrimSpace(part)))
		}
		e := Entry{Spelling: f0}
		if f1 != "-" {
			ok := true
			if s.entries {
				e.MS, ok = parseMS(f1)
			} else {
				ok = validMS(f1) // the value is not kept: checked only
			}
			if !ok {
				return s.fail("entry %s: time %s is not a non-negative number of milliseconds", quote.Cut(f0), quote.Q(f1))
			}
			e.Timed = true
			timed++
		}
		id, bit := rowID{id: e.Spelling}, -1
		if p.op != nil {
			var ps parsedSpelling
			ps, bit = s.parseSpelling(e.Spelling)
			if ps.ok {
				e.Choice, id = ps.choice, rowID{choice: ps.choice, id: ps.id}
			}
		}
		if bit >= 0 {
			// The id's bit: one test finds it repeated (idBit).
			if mask&(1<<bit) != 0 {
				return s.fail("spelling %s appears twice in the row", quote.Cut(id.id))
			}
			mask |= 1 << bit
		} else if s.repeated(id) {
			return s.fail("spelling %s appears twice in the row", quote.Cut(id.id))
		}
		if s.entries {
			s.ents = append(s.ents, e)
		}
	}
	if timed != 0 && timed != n {
		return s.fail("row mixes timed entries and untimed (-) ones; a row is all-timed or all-untimed")
	}
	s.sink.add(r, s.ents, off)
	return nil
}

// rowID tells the entries of a row apart: a spelling is repeated when its
// choice's canonical spelling (Choice.String) is another entry's, or, for
// a spelling that is no choice, when it is another's. Choices are
// compared as values (repeated): two are equal exactly when their
// canonical spellings are (ParseChoice reads a canonical spelling back to
// its choice), and a spelling that is no choice is never a canonical one.
type rowID struct {
	choice Choice // zero for a spelling that is no choice
	id     string // the canonical spelling, or the spelling
}

// twoFields returns the two fields of an entry, as strings.Fields would
// split it; ok is false when it has another number of fields.
func twoFields(part string) (f0, f1 string, ok bool) {
	// ASCII first: spaces, a field, spaces, a field, spaces.
	i, n := 0, len(part)
	for i < n && byteClass[part[i]] == 1 {
		i++
	}
	a := i
	for i < n && byteClass[part[i]] == 0 {
		i++
	}
	b := i
	for i < n && byteClass[part[i]] == 1 {
		i++
	}
	c := i
	for i < n && byteClass[part[i]] == 0 {
		i++
	}
	d := i
	for i < n && byteClass[part[i]] == 1 {
		i++
	}
	if i == n {
		return part[a:b], part[c:d], a < b && c < d
	}
	if byteClass[part[i]] == 0 {
		return "", "", false // a third field
	}
	// A multi-byte rune, which may be a space (U+00A0, U+2003, ...).
	f0, at := nextField(part, 0)
	f1, at = nextField(part, at)
	f2, _ := nextField(part, at)
	return f0, f1, f1 != "" && f2 == ""
}

// repeated reports whether id is already an entry's of the row, and adds
// it: one by one for the first linearIDs ids, then through a set of the
// id strings, so a row's check is O(1) per entry.
func (s *sectionParser) repeated(id rowID) bool {
	if len(s.ids) < linearIDs {
		for i := range s.ids {
			x := &s.ids[i]
			switch {
			case x.choice.fam != id.choice.fam:
				// Other families, or a choice and a spelling that is none.
			case id.choice.fam != nil:
				if x.choice.vals == id.choice.vals {
					return true
				}
			case x.id == id.id:
				return true
			}
		}
		s.ids = append(s.ids, id)
		return false
	}
	if s.rowIDs == nil {
		s.rowIDs = make(map[string]struct{}, s.h.maxEntries)
	}
	if len(s.rowIDs) == 0 {
		for _, x := range s.ids {
			s.rowIDs[x.id] = struct{}{}
		}
	}
	if _, dup := s.rowIDs[id.id]; dup {
		return true
	}
	s.rowIDs[id.id] = struct{}{}
	return false
}

// keyIndex is the position of the key named name in the keys line (whose
// names are unique: ParseKeys), -1 when there is none; guess is where a
// row that lists the keys in order has it.
func (p *tableParser) keyIndex(name string, guess int) int {
	if guess < len(p.t.Keys) && p.t.Keys[guess].Name == name {
		return guess
	}
	for i := range p.t.Keys {
		if p.t.Keys[i].Name == name {
			return i
		}
	}
	return -1
}

// byteClass sorts the bytes for nextField: 1 for the ASCII bytes
// strings.Fields splits at, 2 for the bytes of a multi-byte rune.
var byteClass = func() (c [256]uint8) {
	for _, b := range "\t\n\v\f\r " {
		c[b] = 1
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		c[b] = 2
	}
	return c
}()

// nextField returns the first field of s at or after offset at, as
// strings.Fields splits (around runs of unicode.IsSpace), and the offset
// after it; "" when there is none.
func nextField(s string, at int) (string, int) {
	i := at
	for i < len(s) && byteClass[s[i]] == 1 {
		i++
	}
	if i == len(s) {
		return "", i
	}
	if byteClass[s[i]] == 2 {
		return nextFieldRunes(s, i)
	}
	j := i + 1
	for j < len(s) && byteClass[s[j]] == 0 {
		j++
	}
	if j < len(s) && byteClass[s[j]] == 2 {
		return nextFieldRunes(s, i)
	}
	return s[i:j], j
}

// nextFieldRunes is nextField for a line with multi-byte runes, some of
// which (U+00A0, U+2003, ...) are spaces.
func nextFieldRunes(s string, at int) (string, int) {
	start := -1
	for i := at; i < len(s); {
		size, space := 1, byteClass[s[i]] == 1
		if s[i] >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		switch {
		case space && start >= 0:
			return s[start:i], i
		case !space && start < 0:
			start = i
		}
		i += size
	}
	if start < 0 {
		return "", len(s)
	}
	return s[start:], len(s)
}

// parseCount is strconv.ParseInt(s, 10, 63) for a positive count: plain
// digits are read directly, anything else (a sign, an overflow) by
// strconv.
func parseCount(s string) (int64, bool) {
	if len(s) <= 18 {
		var n int64
		for i := 0; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				goto slow
			}
			n = n*10 + int64(c)
		}
		return n, n >= 1
	}
slow:
	n, err := strconv.ParseInt(s, 10, 63)
	return n, err == nil && n >= 1
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseMS reads an entry's time: a finite number at least 0, as
// strconv.ParseFloat reads it. A plain decimal (digits, or digits, a
// point and digits) whose digits make an integer below 2^53, with at most
// 22 after the point, is that integer divided by a power of ten, both
// exact in a float64: the quotient is the correctly rounded value, which
// strconv gives too. Anything else goes through strconv.
func parseMS(s string) (float64, bool) {
	var mant uint64
	i := 0
	for ; i < len(s) && s[i]-'0' <= 9; i++ {
		mant = mant*10 + uint64(s[i]-'0')
	}
	digits, frac := i, 0
	if i > 0 && i < len(s)-1 && s[i] == '.' {
		i++
		start := i
		for ; i < len(s) && s[i]-'0' <= 9; i++ {
			mant = mant*10 + uint64(s[i]-'0')
		}
		frac = i - start
		digits += frac
	}
	if i == len(s) && digits > 0 && digits <= 19 && mant < 1<<53 && frac < len(pow10) && (frac > 0 || s[len(s)-1] != '.') {
		return float64(mant) / pow10[frac], true
	}
	ms, err := strconv.ParseFloat(s, 64)
	return ms, err == nil && ms >= 0 && !math.IsInf(ms, 0)
}

// validMS reports whether parseMS reads s, without its value: a plain
// decimal of at most 19 digits is a finite number at least 0.
func validMS(s string) bool {
	i := 0
	for i < len(s) && s[i]-'0' <= 9 {
		i++
	}
	if i > 0 && i < len(s)-1 && s[i] == '.' {
		i++
		for i < len(s) && s[i]-'0' <= 9 {
			i++
		}
	}
	if i == len(s) && i > 0 && i <= 20 && s[i-1] != '.' {
		return true
	}
	_, ok := parseMS(s)
	return ok
}

// maxPresizedRows bounds the rows a section's storage is sized for before
// they are parsed (a few MB); a longer section grows as it is read.
const maxPresizedRows = 1 << 15

// lineKind is what a table line is, by its first character once trimmed.
type lineKind int

const (
	lineBlank lineKind = iota
	lineComment
	lineSection
	lineRow
)

// classify trims a table line and says what it is.
func classify(raw string) (string, lineKind) {
	s := strings.TrimSpace(raw)
	switch {
	case s == "":
		return s, lineBlank
	case s[0] == '#':
		return s, lineComment
	case s[0] == '[':
		return s, lineSection
	}
	return s, lineRow
}

// parsedSpelling is ParseChoice's result for one spelling, and the id
// that detects a spelling repeated in a row: the choice's canonical
// spelling (lpanel:8 and lpanel:panel=8 are one), or the spelling itself
// when it is no candidate of the op.
type parsedSpelling struct {
	choice Choice
	id     string
	ok     bool
}

type recentSpelling struct {
	s   string
	ps  parsedSpelling
	bit int
}

// parseSpelling is ParseChoice through the section's caches, with the
// bit of the spelling's id (idBit).
func (s *sectionParser) parseSpelling(sp string) (parsedSpelling, int) {
	for i := range s.nrecent {
		if r := &s.recent[i]; r.s == sp {
			return r.ps, r.bit
		}
	}
	ps := s.parseSpellingSlow(sp)
	if s.volatile {
		sp = strings.Clone(sp) // kept past this row
	}
	id := rowID{id: sp}
	if ps.ok {
		id = rowID{choice: ps.choice, id: ps.id}
	}
	bit := s.idBit(id)
	s.recent[s.next] = recentSpelling{sp, ps, bit}
	s.next = (s.next + 1) % len(s.recent)
	s.nrecent = min(s.nrecent+1, len(s.recent))
	return ps, bit
}

// idBit numbers the first 64 ids the section's rows have (rowID): a
// row's ids are then told apart by a bit each. An id past them has none
// (-1): it is told apart from the others of its row one by one
// (repeated), and from the numbered ones it is not, being none of them.
func (s *sectionParser) idBit(id rowID) int {
	for i := range s.idBits {
		x := &s.idBits[i]
		if x.choice.fam == id.choice.fam && (id.choice.fam != nil && x.choice.vals == id.choice.vals || id.choice.fam == nil && x.id == id.id) {
			return i
		}
	}
	if len(s.idBits) == 64 {
		return -1
	}
	s.idBits = append(s.idBits, id)
	return len(s.idBits) - 1
}

// parseSpellingSlow is ParseChoice through the cache choices.
func (s *sectionParser) parseSpellingSlow(sp string) parsedSpelling {
	cache := *s.choices
	if ps, ok := cache[sp]; ok {
		return ps
	}
	if s.volatile {
		sp = strings.Clone(sp) // the cache's key, and the id of a spelling that is no choice
	}
	ps := parsedSpelling{id: sp}
	if c, err := ParseChoice(sp, s.h.familyList); err == nil {
		ps = parsedSpelling{choice: c, id: c.String(), ok: true}
	}
	if cache == nil {
		cache = map[string]parsedSpelling{}
		*s.choices = cache
	}
	if len(cache) < maxCachedSpellings {
		cache[sp] = ps
	}
	return ps
}

// Nearest returns the row of section dt nearest to k, and its distance
// (docs/select.md, "Nearest row"). Rows must match the exact keys; when
// none does, exact keys are dropped from the right one at a time. Among the
// matching rows, those in k's grid cell (cell.go: on every log key between
// the two grid values that bracket k's) are searched first, and the whole
// section only when the cell holds none (a cell the tuner's work caps left
// unmeasured, a table that does not record its grid). The smallest
// weighted log2 distance wins; ties (within 1e-9) go to the row whose log2
// key vector is lexicographically smaller. A section without rows gives
// (nil, 0, nil).
func (t *Table) Nearest(dt DType, k Key) (*Row, float64, error) {
	return t.nearest(t.Sections[dt], k)
}

// KeyDistance is Nearest's distance between two keys of a table with keys
// ks, for tools that weigh rows against each other as the lookup does: the
// sum over log keys of weight x |log2 a - log2 b|, sizes below 1 counting
// as 1. ok is false when an exact key differs (Nearest takes such a row
// only after dropping exact keys) or a key's length is not len(ks).
func KeyDistance(ks []KeySpec, a, b Key) (d float64, ok bool) {
	if a.Len() != len(ks) || b.Len() != len(ks) {
		return 0, false
	}
	for i, spec := range ks {
		if spec.Kind == Exact {
			if a.v[i].S != b.v[i].S {
				return 0, false
			}
			continue
		}
		d += spec.Weight * math.Abs(math.Log2(float64(max(1, a.v[i].N)))-math.Log2(float64(max(1, b.v[i].N))))
	}
	return d, true
}

// nearest is Nearest among rows, a section of t. compactSection.nearest
// is the same search over a section's compact index: a change here is
// made there too.
func (t *Table) nearest(rows []Row, k Key) (*Row, float64, error) {
	if k.Len() != len(t.Keys) {
		return nil, 0, fmt.Errorf("%s: the key has %d value(s) but the table's keys are %q; the op must supply every key", t.File, k.Len(), FormatKeys(t.Keys))
	}
	var klg, lo, hi [MaxKeys]float64
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
				return nil, 0, fmt.Errorf("%s: exact key %s has no value; the op must supply it", t.File, ks.Name)
			}
			continue
		}
		klg[i] = math.Log2(float64(max(1, k.v[i].N)))
		lo[i], hi[i] = math.Inf(-1), math.Inf(1)
		if g := t.grid[i]; g != nil {
			lo[i], hi[i] = bracket(g, klg[i])
		}
	}
	for keep := nExact; keep >= 0; keep-- {
		for _, inCell := range passes {
			best, bestD := -1, 0.0
		rowLoop:
			for ri := range rows {
				r := &rows[ri]
				d, seen := 0.0, 0
				for i, ks := range t.Keys {
					if ks.Kind == Exact {
						if seen < keep && r.Key.v[i].S != k.v[i].S {
							continue rowLoop
						}
						seen++
						continue
					}
					if inCell && (r.lg[i] < lo[i]-cellSlack || r.lg[i] > hi[i]+cellSlack) {
						continue rowLoop
					}
					d += ks.Weight * math.Abs(r.lg[i]-klg[i])
				}
				if best < 0 || d < bestD-1e-9 || (d <= bestD+1e-9 && t.lexLess(r, &rows[best])) {
					best, bestD = ri, d
				}
			}
			if best >= 0 {
				return &rows[best], bestD, nil
			}
		}
	}
	return nil, 0, nil
}

func (t *Table) lexLess(a, b *Row) bool {
	for i, ks := range t.Keys {
		if ks.Kind == Log && a.lg[i] != b.lg[i] {
			return a.lg[i] < b.lg[i]
		}
	}
	return false
}
