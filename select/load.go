package sel

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/batchlas-go/batchlas/internal/cpuident"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
)

// Table origins.
const (
	OriginBuiltin  = "builtin"
	OriginOverride = "override"
)

// maxTableBytes caps the size of one table file, built-in or override. A
// larger file is refused without being read, like a table that does not
// parse. The shipped tables are tens of KB; a full-grid table of the
// largest op (gemm: four transpose pairs, 6^3 sizes and six batches per
// dtype, two dtypes, plus refinement) is a few MB. 16 MiB leaves room for
// several times that, and bounds what a stray file in BATCHLAS_TUNED_DIR
// costs the first call that loads it: a table of 16 MiB takes one to two
// seconds and a few hundred MB to parse.
const maxTableBytes = safefile.TableBytes

// rawTable is one table file before parsing.
type rawTable struct {
	name string
	data []byte
	err  error // could not be read, or not a file a table may be
}

// overrides scans BATCHLAS_TUNED_DIR once per snapshot and returns the
// names of its table files by op name; each op reads its own files when it
// loads (readOverride). A path that is not a readable directory warns once
// and is ignored. A file whose name is not <op>.<device>.txt, or whose
// device key does not parse, is skipped with one warning saying what is
// wrong (a subdirectory so named is skipped silently: tools/tune's ledger
// may sit there); one for an op this program does not register is not read, with one
// warning naming the registered ops (a tables directory shared by several
// programs may hold it on purpose).
func (s *settings) overrides() map[string][]string {
	s.ovOnce.Do(func() {
		if s.tunedDir == "" {
			return
		}
		dir := s.tunedDir
		ents, err := os.ReadDir(dir)
		if err != nil {
			warnOnce("tuned-dir:"+dir, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR=%s is not a readable directory (%v); using the built-in tables", quote.Q(dir), errors.Unwrap(err)))
			return
		}
		s.ov = map[string][]string{}
		for _, e := range ents {
			path := filepath.Join(dir, e.Name())
			op, _, _, err := SplitTableName(e.Name())
			if err != nil && e.IsDir() {
				// A folder beside the tables (the tuner's ledger,
				// an archive of old tables) is no misnamed table:
				// nothing to warn about. A folder named like a
				// table is read below, and refused as not a file.
				continue
			}
			if err != nil {
				warnOnce("tuned-file:"+path, "batchlas: BATCHLAS_TUNED_DIR: skipping "+quote.Cut(path)+": "+tableNameProblem(e.Name()))
				continue
			}
			switch {
			case Lookup(op) != nil:
			case libraryOp(op):
				// An op of the library this program does not link: a
				// tables directory serves many programs, so it is no
				// misconfiguration, only worth a notice.
				s.noticeOnce("tuned-op:"+path, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR: not reading %s: this program does not use the %s op", quote.Cut(path), op))
			default:
				warnOnce("tuned-op:"+path, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR: not reading %s: no op named %s is registered in this program (registered: %s)",
					quote.Cut(path), quote.Cut(op), registeredNames()))
			}
			// Kept by name all the same: only its op reads it, so it stays
			// unread unless an op of that name registers after this scan.
			s.ov[op] = append(s.ov[op], e.Name())
		}
	})
	return s.ov
}

// libraryOp reports whether op is an op of the library, linked or not:
// one the built-in tables have a table for.
func libraryOp(op string) bool {
	fsys := builtinFS()
	if fsys == nil {
		return false
	}
	ents, _ := fs.ReadDir(fsys, ".")
	for _, e := range ents {
		if name, _, _, err := SplitTableName(e.Name()); err == nil && name == op {
			return true
		}
	}
	return false
}

// tableNameProblem says what is wrong with a file name that SplitTableName
// refuses, for the warning.
func tableNameProblem(name string) string {
	base, ok := strings.CutSuffix(name, ".txt")
	parts := strings.Split(base, ".")
	if ok && (len(parts) == 2 || len(parts) == 3) && validName(parts[0]) {
		if _, _, _, err := ParseDeviceKey(parts[1]); err != nil {
			return err.Error() + "; a device key is lower-case letters, digits, '-' and '_', like x86-64-v4, arm64, sm_90 or gfx90a"
		}
		if len(parts) == 3 && !cpuident.Valid(parts[2]) {
			return fmt.Sprintf("identity %s: want lower-case letters, digits and single '-', starting with a letter, like zen5 or sapphirerapids", quote.Q(parts[2]))
		}
	}
	return "want <op>.<device>[.<identity>].txt files (e.g. potrf.x86-64-v4.txt, potrf.x86-64-v4.zen5.txt)"
}

// readOverride reads one table file of BATCHLAS_TUNED_DIR for op. A file
// that is not a regular one of at most maxTableBytes (a FIFO, a device, a
// directory, a socket, an oversize file) is not read: its entry carries a
// *TableError, which the calls that need the table return, and it warns
// once.
func readOverride(dir, name, op string) rawTable {
	path := filepath.Join(dir, name)
	data, why, err := readTableFile(path)
	r := rawTable{name: name, data: data}
	switch {
	case why != "":
		r.err = &TableError{File: name, Line: 1, Reason: path + " " + why}
		warnOnce("tuned-unusable:"+path, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR: cannot use %s: it %s; calls of %s that need this table fail until it is removed or replaced",
			path, why, op))
	case err != nil:
		r.err = &TableError{File: name, Line: 1, Reason: fmt.Sprintf("cannot read %s: %v", path, err)}
		warnOnce("tuned-unusable:"+path, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR: cannot use %s: cannot read it (%v); calls of %s that need this table fail until it is fixed or removed",
			path, err, op))
	}
	return r
}

// tableLimit is the bound every table read is under (safefile.TableLimit:
// the loader and the tuner share it).
var tableLimit = safefile.TableLimit

// readTableFile reads a table file through the guarded path
// (internal/safefile): a regular file (a symbolic link is followed and its
// target checked) of at most maxTableBytes, opened without blocking (a FIFO
// would otherwise wait for a writer forever), checked again by fstat on
// the opened file, and read at most maxTableBytes+1 bytes, so a file that
// grows after the check is still refused. When the file is not usable, why
// says what it is ("is a named pipe (FIFO), not a regular file") and
// nothing is read; err is an error of the file system.
func readTableFile(path string) (data []byte, why string, err error) {
	return splitWhy(safefile.ReadFile(path, tableLimit))
}

// readTableFS is readTableFile for a table of an fs.FS (the built-in
// tables).
func readTableFS(fsys fs.FS, name string) (data []byte, why string, err error) {
	return splitWhy(safefile.ReadFS(fsys, name, tableLimit))
}

// splitWhy separates a file that is not usable (why) from an error of the
// file system (err), which the loader words differently.
func splitWhy(data []byte, err error) ([]byte, string, error) {
	if why := safefile.Why(err); why != "" {
		return nil, why, nil
	}
	return data, "", err
}

// registeredNames lists the registered ops by name, for warnings.
func registeredNames() string {
	registry.RLock()
	defer registry.RUnlock()
	return strings.Join(slices.Sorted(maps.Keys(registry.byName)), ", ")
}

// tableEntry is one table file of an op: parsed, or broken with its error.
// A built-in table is read as late as can be (lazy.go): its t is then the
// header alone, without Sections, and what the walk needs comes through
// the methods below.
type tableEntry struct {
	name     string
	device   string
	identity string // "" for a level's table
	family   string
	arch     int
	class    Class
	origin   string
	t        *Table // nil when broken; without Sections when lazy
	err      error
	lazy     *lazyTable
	// replaced lists the dtypes whose sections an override of the same
	// name replaces: this (built-in) table does not serve them.
	replaced map[DType]bool
	// For the tuning cache's entries (origin cache): the core count the
	// rows were measured with, and the rows as lines (tunecache.go).
	cores int
	cache *cacheGroup
}

// broken returns the error of a table that does not parse (for a lazy
// one, as far as the structure pass tells: its header, section lines and
// row count), nil for one that does.
func (e *tableEntry) broken() error {
	return e.brokenFor("")
}

// brokenFor is broken for a walk of dt: a lazy table's structure pass
// notes where its dt rows are, for parsing them in parts at once.
func (e *tableEntry) brokenFor(dt DType) error {
	if e.err != nil || e.lazy == nil {
		return e.err
	}
	return e.lazy.scan(dt)
}

// hasRows reports whether the table has rows for dt, or might have: a
// broken table might.
func (e *tableEntry) hasRows(dt DType) bool {
	if e.brokenFor(dt) != nil {
		return true
	}
	if e.lazy != nil {
		sec := e.lazy.secs[dt]
		return sec != nil && e.lazy.p.spans[sec.i].rows > 0
	}
	return len(e.t.Sections[dt]) > 0
}

// nearest returns the table's row of section dt nearest to k and its
// distance (Table.Nearest), or the error of a table (or, for a built-in
// table, of a dt section) that does not parse.
func (e *tableEntry) nearest(dt DType, k Key) (*Row, float64, error) {
	if err := e.broken(); err != nil {
		return nil, 0, err
	}
	if e.lazy == nil {
		return e.t.nearest(e.t.Sections[dt], k)
	}
	sec := e.lazy.secs[dt]
	if sec == nil {
		return e.t.nearest(nil, k)
	}
	c, err := e.lazy.compact(sec)
	if err != nil {
		return nil, 0, err
	}
	ri, dist, err := c.nearest(e.t, k)
	if err != nil || ri < 0 {
		return nil, 0, err
	}
	row, err := c.row(e.lazy.p, sec.i, ri)
	if err != nil {
		return nil, 0, err
	}
	return row, dist, nil
}

// rows returns the table's rows for dt as Rows (Explain), or the error of
// nearest.
func (e *tableEntry) rows(dt DType) ([]Row, error) {
	if err := e.broken(); err != nil {
		return nil, err
	}
	if e.lazy == nil {
		return e.t.Sections[dt], nil
	}
	sec := e.lazy.secs[dt]
	if sec == nil {
		return nil, nil
	}
	return e.lazy.fullRows(sec)
}

// table returns the whole table, every section parsed, or the error of a
// table that does not parse: ParseTable's (a lazy table's first failing
// section is its first error).
func (e *tableEntry) table() (*Table, error) {
	if err := e.broken(); err != nil || e.lazy == nil {
		return e.t, err
	}
	lz := e.lazy
	lz.fullOnce.Do(func() {
		t := *e.t
		t.Sections = make(map[DType][]Row, len(lz.p.spans))
		for _, sp := range lz.p.spans { // in file order
			rows, err := lz.fullRows(lz.secs[sp.dt])
			if err != nil {
				lz.fullErr = err
				return
			}
			t.Sections[sp.dt] = rows
		}
		lz.full = &t
	})
	return lz.full, lz.fullErr
}

// sectionTable is the table a walk step shows (Explain): for a lazy
// table, its header with the section the walk read.
func (e *tableEntry) sectionTable(dt DType, rows []Row) *Table {
	if e.lazy == nil {
		return e.t
	}
	t := *e.t
	t.Sections = map[DType][]Row{dt: rows}
	return &t
}

// opTables is the set of usable (non-stale) tables of one op under one
// settings snapshot.
type opTables struct {
	gen     uint64
	entries []*tableEntry
}

// tables returns the op's tables for snapshot s, loading them on first need.
func (o *Op) tables(s *settings) *opTables {
	if ts := o.tabs.Load(); ts != nil && ts.gen == s.gen {
		return ts
	}
	o.loadMu.Lock()
	defer o.loadMu.Unlock()
	if ts := o.tabs.Load(); ts != nil && ts.gen == s.gen {
		return ts
	}
	ts := o.load(s)
	o.tabs.Store(ts)
	return ts
}

// load reads the op's built-in tables and BATCHLAS_TUNED_DIR's.
//
// An override merges with the built-in table of the same name section by
// section: its [dtype] sections replace the built-in ones, and the built-in
// table keeps serving the dtypes the override lacks. Both stay separate
// entries for the same device, the override's first, and the built-in entry
// records the dtypes it no longer serves (replaced). For any one dtype the
// borrow order then holds at most one of the two, so each section keeps its
// origin (the trace's override tag) and its own file's provenance (Explain)
// without a merged table whose header would be half true.
//
// A broken override is kept alone: which sections it had is unknown, so any
// call of the op that reaches this device's table needs it and gets its
// error. A stale one (another revision, other key names) is skipped with
// one warning, and the built-in table serves whole.
func (o *Op) load(s *settings) *opTables {
	builtin := map[string]bool{}
	fsys := builtinFS()
	if fsys != nil {
		ents, _ := fs.ReadDir(fsys, ".") // an unreadable FS is an FS without tables
		for _, e := range ents {
			op, _, _, err := SplitTableName(e.Name())
			if err != nil || op != o.Name() || e.IsDir() {
				continue
			}
			builtin[e.Name()] = true
		}
	}
	over := map[string]rawTable{}
	for _, name := range s.overrides()[o.Name()] {
		over[name] = readOverride(s.tunedDir, name, o.Name())
	}
	names := slices.Sorted(maps.Keys(builtin))
	for name := range over {
		if _, ok := builtin[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	ts := &opTables{gen: s.gen}
	if s.tune.online {
		ts.entries = o.loadCache(s)
	}
	for _, name := range names {
		var b, v *tableEntry
		if builtin[name] {
			b = o.builtinEntry(s, fsys, name)
		}
		if r, ok := over[name]; ok {
			v = o.entry(s, r, OriginOverride)
		}
		switch {
		case v == nil:
			// No override, or a stale one: the built-in table as it is.
		case v.err != nil:
			b = nil // never reached behind the broken override
		default:
			if b != nil {
				b.replaced = map[DType]bool{}
				for dt := range v.t.Sections {
					b.replaced[dt] = true
				}
			}
			s.noticeOnce("override:"+filepath.Join(s.tunedDir, name), overrideNotice(v, b))
		}
		for _, e := range []*tableEntry{v, b} {
			if e != nil {
				ts.entries = append(ts.entries, e)
			}
		}
	}
	return ts
}

// builtinEntry reads the header of one built-in table; the rest is read
// on first need (lazy.go). It returns nil for a stale table, after one
// notice while tracing (the library's table, nothing for a user to fix),
// and an entry with its error for one that cannot be read or whose header
// does not parse. A stale table is checked in full first: one that does
// not parse is broken, not stale, as when tables were parsed whole.
func (o *Op) builtinEntry(s *settings, fsys fs.FS, name string) *tableEntry {
	_, dev, ident, _ := SplitTableName(name)
	fam, arch, class, _ := ParseDeviceKey(dev)
	e := &tableEntry{name: name, device: dev, identity: ident, family: fam, arch: arch, class: class, origin: OriginBuiltin}
	p := &tableParser{file: name, op: o, src: fileSource{fsys: fsys, name: name}}
	if err := p.header(); err != nil {
		e.err = err
		return e
	}
	var stale error
	if p.stale != nil {
		stale = p.stale
	}
	if why := o.staleReason(p.t, stale); why != "" {
		if err := p.check(); err != nil {
			e.err = err
			return e
		}
		s.noticeOnce("stale:"+OriginBuiltin+":"+name, fmt.Sprintf("batchlas: skipping %s %s table %s: %s (run tools/tune to re-tune this device)", OriginBuiltin, o.Name(), name, why))
		return nil
	}
	p.t.Origin = OriginBuiltin
	p.t.Sections = nil
	e.t, e.lazy = p.t, &lazyTable{p: p}
	return e
}

// entry parses one table file. It returns nil for a stale table, after one
// warning for an override (the operator's file to fix) or one notice while
// tracing for a built-in table (the library's, nothing for a user to do); a
// table that cannot be read or parsed is an entry with its error, and an
// override that does not parse warns once too, since the error only reaches
// the calls that need the table.
func (o *Op) entry(s *settings, r rawTable, origin string) *tableEntry {
	_, dev, ident, _ := SplitTableName(r.name)
	fam, arch, class, _ := ParseDeviceKey(dev)
	e := &tableEntry{name: r.name, device: dev, identity: ident, family: fam, arch: arch, class: class, origin: origin}
	if r.err != nil {
		e.err = r.err
		return e
	}
	t, err := ParseTable(r.name, r.data, o)
	if t == nil {
		e.err = err
		if origin == OriginOverride {
			path := filepath.Join(s.tunedDir, r.name)
			warnOnce("tuned-broken:"+path, fmt.Sprintf("batchlas: BATCHLAS_TUNED_DIR: cannot use %s: %v; calls of %s that need this table fail until it is fixed or removed",
				quote.Cut(path), err, o.Name()))
		}
		return e
	}
	if why := o.staleReason(t, err); why != "" {
		msg := fmt.Sprintf("batchlas: skipping %s %s table %s: %s (run tools/tune to re-tune this device)", origin, o.Name(), r.name, why)
		if origin == OriginOverride {
			warnOnce("stale:"+origin+":"+r.name, msg)
		} else {
			s.noticeOnce("stale:"+origin+":"+r.name, msg)
		}
		return nil
	}
	t.Origin = origin
	e.t = t
	return e
}

// staleReason says why a table that parsed (err is ParseTable's error: nil
// or a *StaleError) is stale for o, "" when it is not. The revision is
// compared first: a table of another revision is reported as such even when
// its keys line differs too.
func (o *Op) staleReason(t *Table, err error) string {
	if t.Revision != o.spec.Revision {
		return fmt.Sprintf("written for %s revision %d, the op is at revision %d", o.Name(), t.Revision, o.spec.Revision)
	}
	if se := (*StaleError)(nil); errors.As(err, &se) {
		return fmt.Sprintf("its keys %q differ from %s's key names %q", se.Keys, o.Name(), se.OpKeys)
	}
	return ""
}

// overrideNotice says what a usable override replaces, for the notice
// printed once per file while tracing:
//
//	batchlas: BATCHLAS_TUNED_DIR: potrf.x86-64-v4.txt overrides [float32]; [float64] stays built-in
func overrideNotice(v, b *tableEntry) string {
	var over, kept []string
	var bErr error
	if b != nil {
		_, bErr = b.table() // whether it parses: every section of it
	}
	for _, dt := range knownDTypes {
		if rows, ok := v.t.Sections[dt]; ok {
			w := "[" + string(dt) + "]"
			if len(rows) == 0 {
				w += " (no rows)"
			}
			over = append(over, w)
		} else if b != nil && bErr == nil && b.hasRows(dt) {
			kept = append(kept, "["+string(dt)+"]")
		}
	}
	msg := "batchlas: BATCHLAS_TUNED_DIR: " + v.name + " overrides "
	if len(over) == 0 {
		msg += "no section"
	}
	msg += strings.Join(over, ", ")
	switch {
	case b == nil:
		return msg + "; there is no built-in table to keep"
	case bErr != nil:
		return msg + "; the built-in table, which would serve the other sections, does not parse"
	case len(kept) == 1:
		return msg + "; " + kept[0] + " stays built-in"
	case len(kept) > 1:
		return msg + "; " + strings.Join(kept, ", ") + " stay built-in"
	}
	return msg + "; nothing stays built-in"
}

// deviceIdentity returns the family, architecture and class that order the
// tables for d, deriving them from the key when the device leaves them out.
func deviceIdentity(d *Device) (string, int, Class) {
	fam, arch, class := d.Family, d.Arch, d.Class
	if fam == "" {
		f, a, c, err := ParseDeviceKey(d.Key)
		if err == nil {
			fam, arch = f, a
			if class == "" {
				class = c
			}
		}
	}
	if class == "" {
		class = CPU
	}
	return fam, arch, class
}

// order returns the op's tables for dt in borrow order for d
// (docs/select.md, "Borrow order"). Devices first: the device's own key;
// the same family at or below its architecture, nearest first, then above,
// nearest first; then the other families of the same class in the fixed
// family order, higher architecture first. Within one device key: the
// device's own identity's table and the level's table, BATCHLAS_TUNED_DIR's
// before the built-in ones (an operator's level table outranks the
// library's identity table), then the other identities' tables of the
// same vendor, then the rest, by name. A table without rows
// for dt is not in the order, nor a built-in table whose dt section an
// override replaces. A broken table is, since it might have had them: a
// call that reaches it returns its error. own reports whether the first
// entry is the device's own: its identity's table or its level's.
//
// Whether a built-in table has rows for dt is known once it is scanned:
// order scans every table it returns. The walk, which mostly reads the
// first, takes candidates and checks each as it reaches it.
func (ts *opTables) order(dt DType, d *Device) (own bool, list []*tableEntry) {
	cands, isOwn := ts.candidates(dt, d)
	for _, e := range cands {
		if e.hasRows(dt) {
			list = append(list, e)
		}
	}
	// The cache serves only near its rows (walk): whether the device has
	// a table of its own is decided by the first other table.
	for _, e := range list {
		if e.origin != OriginCache {
			return isOwn(e), list
		}
	}
	return false, list
}

// candidates returns the tables order would, in the same order, but
// without checking that they have rows for dt (hasRows), and the test of
// whether the first table that has rows, after the cache, is the device's
// own.
func (ts *opTables) candidates(dt DType, d *Device) (list []*tableEntry, isOwn func(*tableEntry) bool) {
	fam, arch, class := deviceIdentity(d)
	for _, e := range ts.entries {
		if e.class != class {
			continue // a cpu never reads a gpu table, nor the reverse
		}
		if e.origin == OriginCache && (e.device != d.Key || e.identity != d.Identity || e.cores != deviceCores(d)) {
			continue // rows measured on another CPU or core count
		}
		if e.replaced[dt] {
			continue // an override's section of the same device serves instead
		}
		list = append(list, e)
	}
	famRank := func(f string) int {
		if i := slices.Index(familyOrder[class], f); i >= 0 {
			return i
		}
		return len(familyOrder[class])
	}
	rank := func(e *tableEntry) (group, dist int) {
		switch {
		case e.device == d.Key:
			return 0, 0
		case e.family == fam && e.arch <= arch:
			return 1, arch - e.arch
		case e.family == fam:
			return 2, e.arch - arch
		}
		return 3 + famRank(e.family), -e.arch
	}
	vendor := cpuident.Vendor(d.Identity)
	identRank := func(e *tableEntry) int {
		r := 0 // the device's own identity
		switch {
		case e.origin == OriginCache:
			return 2 // after BATCHLAS_TUNED_DIR's tables, before the built-in ones
		case e.identity != "" && e.identity == d.Identity:
		case e.identity == "":
			r = 1 // the level's table
		case vendor != "" && cpuident.Vendor(e.identity) == vendor:
			return 5
		default:
			return 6
		}
		if e.origin != OriginOverride {
			r += 3 // BATCHLAS_TUNED_DIR's own and level tables come before the built-in ones
		}
		return r
	}
	slices.SortStableFunc(list, func(a, b *tableEntry) int {
		ga, da := rank(a)
		gb, db := rank(b)
		return cmp.Or(cmp.Compare(ga, gb), strings.Compare(familyKey(a, ga, class), familyKey(b, gb, class)), cmp.Compare(da, db),
			strings.Compare(a.device, b.device), cmp.Compare(identRank(a), identRank(b)), strings.Compare(a.identity, b.identity))
	})
	return list, func(e *tableEntry) bool { return e.device == d.Key && identRank(e) <= 4 }
}

// label names the table's device as a trace does: its key, then its
// identity for an identity's table (x86-64-v4.zen5).
func (e *tableEntry) label() string {
	if e.identity == "" {
		return e.device
	}
	return e.device + "." + e.identity
}

// familyKey groups families outside the fixed order alphabetically.
func familyKey(e *tableEntry, group int, class Class) string {
	if group >= 3+len(familyOrder[class]) {
		return e.family
	}
	return ""
}

// Tables returns the op's tables for dt in borrow order for d: the built-in
// tables, whose dt section BATCHLAS_TUNED_DIR's table of the same name
// replaces when it has one (each table's Origin says which served), stale
// ones left out. A table in that order that does not parse is reported in the
// error (the others are still returned).
func (o *Op) Tables(dt DType, d *Device) ([]*Table, error) {
	if d == nil {
		return nil, errors.New("sel: Tables: nil device")
	}
	_, list := o.tables(current()).order(dt, d)
	var out []*Table
	var errs []error
	for _, e := range list {
		t, err := e.table()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, t)
	}
	return out, errors.Join(errs...)
}

// CheckBuiltin checks every built-in table of every registered op: it
// parses, is written for the op's current revision and key names, and
// names only candidates. A vendor spelling is accepted when the vendor
// family is not compiled (a novendor build still reads tables that rank
// vendor). Op test suites call it so a bad shipped table fails them.
func CheckBuiltin() error {
	fsys := builtinFS()
	if fsys == nil {
		return nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fmt.Errorf("sel: reading the built-in tables: %w", err)
	}
	var errs []error
	for _, e := range ents {
		opName, _, _, err := SplitTableName(e.Name())
		if err != nil {
			continue
		}
		o := Lookup(opName)
		if o == nil {
			continue // an op not linked into this binary
		}
		data, why, err := readTableFS(fsys, e.Name())
		if why != "" {
			errs = append(errs, &TableError{File: e.Name(), Line: 1, Reason: "the built-in table " + why})
			continue
		}
		if err != nil {
			errs = append(errs, &TableError{File: e.Name(), Line: 1, Reason: err.Error()})
			continue
		}
		t, err := ParseTable(e.Name(), data, o)
		if t == nil {
			errs = append(errs, err)
			continue
		}
		// Stale: another revision first; else other key names (the
		// *StaleError, which the calls never see but a shipped table must
		// not have).
		if t.Revision != o.spec.Revision {
			errs = append(errs, &TableError{File: e.Name(), Line: 1, Reason: fmt.Sprintf("written for revision %d, %s is at revision %d: stale, re-tune it", t.Revision, o.Name(), o.spec.Revision)})
		} else if err != nil {
			errs = append(errs, err)
		}
		for _, dt := range slices.Sorted(maps.Keys(t.Sections)) {
			for _, r := range t.Sections[dt] {
				for _, en := range r.Entries {
					ok := !en.Choice.IsZero() && (o.IsCandidate(dt, en.Choice) ||
						en.Choice.Vendor() && !slices.ContainsFunc(o.Candidates(dt), func(c Choice) bool { return c.fam == en.Choice.fam }))
					if !ok {
						errs = append(errs, &TableError{File: e.Name(), Line: r.Line, Reason: fmt.Sprintf("%s is not a %s candidate of %s", en.Spelling, dt, o.Name())})
					}
				}
			}
		}
	}
	return errors.Join(errs...)
}
