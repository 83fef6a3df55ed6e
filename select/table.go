package sel

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
	if op != nil {
		t.grid = gridValues(t, &op.spec)
	}
	if p.stale != nil {
		return t, p.stale
	}
	return t, nil
}

type tableParser struct {
	file string
	op   *Op
	t    *Table
	line int

	keysLine   int
	stale      *StaleError // the keys line differs from op's
	revLine    int
	sectLine   map[DType]int
	section    DType
	seenRow    bool
	tuples     map[Key]int
	exactPos   []int
	keyByName  map[string]int
	familyList []*Family
	// choices caches ParseChoice per spelling: a table spells the same
	// dozen candidates on every row.
	choices map[string]parsedSpelling
	// sectionRows is the number of row lines after each section line (by
	// its 1-based line number), to size the section's storage once.
	sectionRows map[int]int
	// rows counts the rows of the whole table, against MaxTableRows.
	rows int
	// maxEntries caps the entries of one row (Op.maxRowEntries).
	maxEntries int
	// rowIDs finds a spelling repeated in a row in O(1): the row's ids,
	// cleared for each row (at most maxEntries of them).
	rowIDs map[string]struct{}
	// exactSets are the values each exact key of the op's keys line may
	// take (exactSets), nil for a key without a known set.
	exactSets [MaxKeys]map[string]bool
}

func (p *tableParser) fail(format string, args ...any) error {
	return &TableError{File: p.file, Line: p.line, Reason: fmt.Sprintf(format, args...)}
}

func (p *tableParser) parse(data []byte) (*Table, error) {
	p.line = 1
	opName, dev, ident, err := SplitTableName(p.file)
	if err != nil {
		return nil, p.fail("%v", err)
	}
	if p.op != nil && opName != p.op.Name() {
		return nil, p.fail("file is for op %s, not %s", opName, p.op.Name())
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
	text := tableText(data)
	// The lines are walked in place, never split into a slice: a file of
	// millions of empty lines costs nothing but the walk.
	p.sectionRows = rowsPerSection(text)
	n := 0
	for raw := range strings.Lines(text) {
		n++
		p.line = n
		s, kind := classify(raw)
		var err error
		switch kind {
		case lineComment:
			err = p.comment(s[1:])
		case lineSection:
			err = p.sectionLine(s)
		case lineRow:
			err = p.row(s)
		}
		if err != nil {
			return nil, err
		}
	}
	if !p.seenRow {
		// The header rules hold for a table without rows too; report them
		// at the last line, where the missing header should have ended.
		p.line = max(1, n)
		if err := p.headerDone(); err != nil {
			return nil, err
		}
	}
	return p.t, nil
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
		p.keyByName = map[string]int{}
		p.exactPos = p.exactPos[:0]
		for i, k := range ks {
			p.keyByName[k.Name] = i
			if k.Kind == Exact {
				p.exactPos = append(p.exactPos, i)
			}
		}
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

func (p *tableParser) sectionLine(s string) error {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if !strings.HasSuffix(s, "]") {
		return p.fail("section %s: want [dtype]", quote.Q(s))
	}
	dt := DType(strings.TrimSpace(s[1 : len(s)-1]))
	known := false
	for _, k := range knownDTypes {
		known = known || k == dt
	}
	if !known {
		return p.fail("unknown dtype section [%s]; want float32, float64, complex64 or complex128", quote.Cut(string(dt)))
	}
	if l, dup := p.sectLine[dt]; dup {
		return p.fail("section [%s] appears twice (first on line %d)", dt, l)
	}
	p.sectLine[dt] = p.line
	p.section = dt
	// A presize at most maxPresizedRows: the count is of lines, and a
	// broken file of millions of them must fail on its first bad row, not
	// allocate for all of them first.
	rows := min(p.sectionRows[p.line], maxPresizedRows)
	p.tuples = make(map[Key]int, rows)
	if _, ok := p.t.Sections[dt]; !ok {
		p.t.Sections[dt] = make([]Row, 0, rows)
	}
	return nil
}

func (p *tableParser) row(s string) error {
	if !p.seenRow {
		if err := p.headerDone(); err != nil {
			return err
		}
		p.seenRow = true
	}
	if p.section == "" {
		return p.fail("row before any [dtype] section")
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if p.rows++; p.rows > MaxTableRows {
		return p.fail("more than %d rows: a table may have at most %d, which bounds its memory (docs/select.md, \"What a table costs\")", MaxTableRows, MaxTableRows)
	}
	if n := strings.Count(s, "|"); n > p.maxEntries {
		return p.fail("row has %d entries; a row of %s may have at most %d (%d per candidate)", n, p.opName(), p.maxEntries, entriesPerCandidate)
	}
	parts := strings.Split(s, "|")
	if len(parts) < 2 {
		return p.fail("row has no entries; want `key=value ... | spelling ms | ...`")
	}
	r := Row{Line: p.line}
	keys := p.t.Keys
	var vals [MaxKeys]KeyVal
	var have [MaxKeys]bool
	for w := range strings.FieldsSeq(parts[0]) {
		name, val, ok := strings.Cut(w, "=")
		if !ok {
			return p.fail("key word %s: want name=value", quote.Q(w))
		}
		i, known := p.keyByName[name]
		if !known {
			return p.fail("unknown key %s; the keys are %s", quote.Q(name), FormatKeys(keys))
		}
		if have[i] {
			return p.fail("key %s given twice", name)
		}
		have[i] = true
		if val == "" {
			return p.fail("key %s has no value", name)
		}
		if keys[i].Kind == Exact {
			if set := p.exactSets[i]; set != nil && !set[val] {
				return p.fail("key %s=%s: want one of %s", name, quote.Q(val), setWords(set))
			}
			vals[i] = Str(val)
			continue
		}
		n, err := strconv.ParseInt(val, 10, 63)
		if err != nil || n < 1 {
			return p.fail("key %s=%s: want a positive integer", name, quote.Cut(val))
		}
		vals[i] = KeyVal{N: n}
		r.lg[i] = math.Log2(float64(n))
	}
	for i, k := range keys {
		if !have[i] {
			return p.fail("row lacks key %s", k.Name)
		}
	}
	r.Key = MakeKey(vals[:len(keys)]...)
	if l, dup := p.tuples[r.Key]; dup {
		return p.fail("key tuple %s already has a row on line %d", quote.Cut(r.Key.Format(keys)), l)
	}
	r.Entries = make([]Entry, 0, len(parts)-1)
	if p.rowIDs == nil {
		p.rowIDs = make(map[string]struct{}, p.maxEntries)
	}
	clear(p.rowIDs) // at most maxEntries ids: constant per row
	timed := 0
	for _, part := range parts[1:] {
		var f [2]string
		nf := 0
		for w := range strings.FieldsSeq(part) {
			if nf < len(f) {
				f[nf] = w
			}
			nf++
		}
		if nf != 2 {
			return p.fail("entry %s: want `spelling ms` (ms a number or -)", quote.Q(strings.TrimSpace(part)))
		}
		e := Entry{Spelling: f[0]}
		if f[1] != "-" {
			ms, err := strconv.ParseFloat(f[1], 64)
			if err != nil || !(ms >= 0) || math.IsInf(ms, 0) {
				return p.fail("entry %s: time %s is not a non-negative number of milliseconds", quote.Cut(f[0]), quote.Q(f[1]))
			}
			e.MS, e.Timed = ms, true
			timed++
		}
		id := e.Spelling
		if p.op != nil {
			ps := p.parseSpelling(e.Spelling)
			if ps.ok {
				e.Choice, id = ps.choice, ps.id
			}
		}
		if _, dup := p.rowIDs[id]; dup {
			return p.fail("spelling %s appears twice in the row", quote.Cut(id))
		}
		p.rowIDs[id] = struct{}{}
		r.Entries = append(r.Entries, e)
	}
	if timed != 0 && timed != len(r.Entries) {
		return p.fail("row mixes timed entries and untimed (-) ones; a row is all-timed or all-untimed")
	}
	p.tuples[r.Key] = p.line
	p.t.Sections[p.section] = append(p.t.Sections[p.section], r)
	return nil
}

// maxPresizedRows bounds the rows a section's storage is sized for before
// they are parsed (a few MB); a longer section grows as it is read.
const maxPresizedRows = 1 << 15

// rowsPerSection counts the row lines (classify) after each section line
// up to the next, keyed by the section line's 1-based number.
func rowsPerSection(text string) map[int]int {
	out := map[int]int{}
	at, n := 0, 0
	for raw := range strings.Lines(text) {
		n++
		switch _, kind := classify(raw); {
		case kind == lineSection:
			// A valid table has a section per dtype at most; past that
			// the parse fails anyway, and a file of millions of section
			// lines must not make a map of them first.
			if at = 0; len(out) < len(knownDTypes) {
				at = n
				out[at] = 0
			}
		case kind == lineRow && at > 0:
			out[at]++
		}
	}
	return out
}

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

// parseSpelling is ParseChoice through the parser's cache.
func (p *tableParser) parseSpelling(s string) parsedSpelling {
	if ps, ok := p.choices[s]; ok {
		return ps
	}
	ps := parsedSpelling{id: s}
	if c, err := ParseChoice(s, p.familyList); err == nil {
		ps = parsedSpelling{choice: c, id: c.String(), ok: true}
	}
	if p.choices == nil {
		p.choices = map[string]parsedSpelling{}
	}
	if len(p.choices) < maxCachedSpellings {
		p.choices[s] = ps
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
	rows := t.Sections[dt]
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
