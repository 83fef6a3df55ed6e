package sel

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
)

// The tuning cache (BATCHLAS_TUNE_CACHE). Every process writes the rows it
// measured to files of its own, <op>.<device>[.<identity>].<process>.cache,
// each replaced whole through a temporary file and a rename
// (safefile.WriteAtomic) every time a row is added: no file is ever half
// written, no process waits for another, and a process that dies loses at
// most the row it was measuring. Readers merge every file of an op whose
// key matches theirs. A file is a table (the same format as tuned/) whose
// header records the key: the CPU identity and level (the file name and
// header), the op's revision and kernels hash, and the build tags, Go
// version and core count of the program that measured it. A row whose key
// differs is skipped, never deleted: another program or machine sharing
// the directory may still use it. `tune cache` lists, checks, merges and
// clears the files.

// OriginCache is the origin of a table merged from the tuning cache.
const OriginCache = "cache"

// CacheSuffix ends every file of the tuning cache.
const CacheSuffix = ".cache"

// processTag names this process's cache files: its pid and start time, so
// that a pid the system reuses later never writes over an older file.
var processTag = strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)

// BuildFacts are the facts of the running program a cached row is keyed by
// besides the CPU and the op: what decides which code a kernel is.
type BuildFacts struct {
	Tags string // the build tags, comma-separated; "none" without any
	Go   string // runtime.Version()
}

// Build returns the running program's BuildFacts.
func Build() BuildFacts {
	tags := "none"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, st := range bi.Settings {
			if st.Key == "-tags" && st.Value != "" {
				tags = st.Value
			}
		}
	}
	return BuildFacts{Tags: tags, Go: runtime.Version()}
}

// CacheFileName splits a cache file's name: the table name its rows are
// read under (<op>.<device>[.<identity>].txt) and the process tag. ok is
// false for a file that is not a cache file.
func CacheFileName(name string) (table, process string, ok bool) {
	base, found := strings.CutSuffix(name, CacheSuffix)
	if !found {
		return "", "", false
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return "", "", false
	}
	table, process = base[:i]+".txt", base[i+1:]
	if _, _, _, err := SplitTableName(table); err != nil || process == "" {
		return "", "", false
	}
	return table, process, true
}

// CacheKeyProblem says why a parsed cache table t cannot serve op o in
// this program ("" when it can): another revision or keys, another kernels
// hash, other build tags or Go version, or not a cache file at all. The
// CPU identity and cores are matched per call (a device is per call).
func CacheKeyProblem(o *Op, t *Table, staleErr error) string {
	if why := o.staleReason(t, staleErr); why != "" {
		return why
	}
	b := Build()
	h := t.Header
	switch {
	case h["source"] != "online":
		return "its header has no source=online: not written by first-use tuning"
	case o.kernelsHash == "":
		return "this build of " + o.Name() + " records no kernels hash to match rows by"
	case h["kernels"] != o.kernelsHash:
		return fmt.Sprintf("measured on other kernel code (kernels=%s, this program's is %s)", quote.Cut(h["kernels"]), o.kernelsHash)
	case h["tags"] != b.Tags:
		return fmt.Sprintf("measured by a program built with tags %s, this one has %s", quote.Q(h["tags"]), quote.Q(b.Tags))
	case h["go"] != b.Go:
		return fmt.Sprintf("measured by a program built with %s, this one with %s", quote.Cut(h["go"]), b.Go)
	}
	if n, err := strconv.Atoi(h["cores"]); err != nil || n <= 0 {
		return "its header has no valid cores= word"
	}
	return ""
}

// cacheGroup is the rows of one (device, identity, cores) merged from the
// cache files, as row lines by dtype, for rebuilding the table when this
// process adds a row.
type cacheGroup struct {
	device, identity string
	cores            int
	lines            map[DType][]string
	has              map[string]bool // dtype + " " + key text
}

func (g *cacheGroup) add(dt DType, keyText, line string) {
	id := string(dt) + " " + keyText
	if g.has[id] {
		return // the newest file's row of the same shape wins
	}
	g.has[id] = true
	g.lines[dt] = append(g.lines[dt], line)
}

// tableName is the name the group's rows are parsed under.
func (g *cacheGroup) tableName(op string) string {
	if g.identity == "" {
		return op + "." + g.device + ".txt"
	}
	return op + "." + g.device + "." + g.identity + ".txt"
}

// text renders a cache table: a header that records the key, the op's
// keys line, then each dtype's rows.
func cacheText(o *Op, device, identity string, cores int, lines map[DType][]string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# op=%s device=%s", o.Name(), device)
	if identity != "" {
		fmt.Fprintf(&b, " identity=%s", identity)
	}
	bf := Build()
	fmt.Fprintf(&b, " revision=%d kernels=%s date=%s\n", o.spec.Revision, cmp.Or(o.kernelsHash, "none"), time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "# source=online tags=%s go=%s cores=%d\n", strconv.Quote(bf.Tags), bf.Go, cores)
	fmt.Fprintf(&b, "# keys: %s\n", FormatKeys(o.keys))
	for _, dt := range knownDTypes {
		if len(lines[dt]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "[%s]\n", dt)
		for _, l := range lines[dt] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// rowLine renders one row as a table line: "n=64 batch=16 | tiny 0.0003 | ...".
func rowLine(keys []KeySpec, k Key, es []Entry) string {
	var b strings.Builder
	b.WriteString(k.Format(keys))
	for _, e := range es {
		b.WriteString(" | ")
		b.WriteString(e.Spelling)
		b.WriteByte(' ')
		if e.Timed {
			b.WriteString(strconv.FormatFloat(e.MS, 'g', 4, 64))
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// CacheFile is one file of the tuning cache, as read by ReadCacheDir.
type CacheFile struct {
	Path    string
	Op      *Op    // nil when no op of that name is registered in this program
	Table   *Table // nil when the file cannot be read or parsed
	Err     error  // why Table is nil
	Problem string // why this program does not use its rows ("" when it does)
	Foreign bool   // a table first-use tuning did not write (no source=online)
	Cores   int
	mod     time.Time
}

// ReadCacheDir reads every cache file of dir (those of op only, when op is
// not nil), newest first: a shape measured twice keeps the later
// measurement. A directory that does not exist holds no files.
func ReadCacheDir(dir string, op *Op) ([]CacheFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []CacheFile
	for _, e := range ents {
		table, _, ok := CacheFileName(e.Name())
		if !ok {
			continue
		}
		name, _, _, _ := SplitTableName(table)
		if op != nil && name != op.Name() {
			continue
		}
		cf := CacheFile{Path: filepath.Join(dir, e.Name()), Op: Lookup(name)}
		if fi, err := e.Info(); err == nil {
			cf.mod = fi.ModTime()
		}
		data, why, err := readTableFile(cf.Path)
		switch {
		case why != "":
			cf.Err = fmt.Errorf("it %s", why)
		case err != nil:
			cf.Err = err
		case cf.Op == nil:
			cf.Problem = "no op named " + name + " is registered in this program"
		default:
			t, perr := ParseTable(table, data, cf.Op)
			if t == nil {
				cf.Err = perr
				break
			}
			cf.Table = t
			cf.Problem = CacheKeyProblem(cf.Op, t, perr)
			cf.Foreign = t.Header["source"] != "online"
			cf.Cores, _ = strconv.Atoi(t.Header["cores"])
		}
		out = append(out, cf)
	}
	slices.SortFunc(out, func(a, b CacheFile) int { return cmp.Or(b.mod.Compare(a.mod), strings.Compare(a.Path, b.Path)) })
	return out, nil
}

// MergeCache renders the usable rows of files for op o measured on
// (device, identity, cores) as one table, the newest row of each shape
// kept; rows is how many it holds.
func MergeCache(o *Op, device, identity string, cores int, files []CacheFile) (text []byte, rows int) {
	g := mergeGroup(o, device, identity, cores, files)
	for _, ls := range g.lines {
		rows += len(ls)
	}
	return cacheText(o, device, identity, cores, g.lines), rows
}

func mergeGroup(o *Op, device, identity string, cores int, files []CacheFile) *cacheGroup {
	g := &cacheGroup{device: device, identity: identity, cores: cores, lines: map[DType][]string{}, has: map[string]bool{}}
	for _, f := range files {
		t := f.Table
		if t == nil || f.Problem != "" || f.Op != o || t.Device != device || t.Identity != identity || f.Cores != cores {
			continue
		}
		for _, dt := range knownDTypes {
			for _, r := range t.Sections[dt] {
				g.add(dt, r.Key.Format(t.Keys), rowLine(t.Keys, r.Key, r.Entries))
			}
		}
	}
	return g
}

// loadCache merges the op's cache files into one entry per (device,
// identity, cores). A file that cannot be read or parsed is skipped with
// one warning; one whose key differs, with one notice while tracing.
func (o *Op) loadCache(s *settings) []*tableEntry {
	dir := s.tune.cacheDir
	if dir == "" {
		return nil
	}
	files, err := ReadCacheDir(dir, o)
	if err != nil {
		// One warning says it all: rows will not be recorded there either.
		ownCache.Lock()
		ownCache.off = true
		ownCache.Unlock()
		warnOnce("tune-cache-dir:"+dir, fmt.Sprintf("batchlas: BATCHLAS_TUNE_CACHE=%s is not a readable directory (%v); no cached rows are read or recorded", quote.Q(dir), err))
		return nil
	}
	type group struct {
		device, identity string
		cores            int
	}
	var groups []group
	for _, f := range files {
		switch {
		case f.Err != nil:
			warnOnce("tune-cache-file:"+f.Path, fmt.Sprintf("batchlas: tuning cache: skipping %s: %v (remove it, or run `go run ./tools/tune cache clear`)", quote.Cut(f.Path), f.Err))
		case f.Foreign:
			warnOnce("tune-cache-file:"+f.Path, fmt.Sprintf("batchlas: tuning cache: skipping %s: %s (only first-use tuning writes *%s files; move it away)", quote.Cut(f.Path), f.Problem, CacheSuffix))
		case f.Problem != "":
			s.noticeOnce("tune-cache-key:"+f.Path, fmt.Sprintf("batchlas: tuning cache: not using %s: %s", quote.Cut(f.Path), f.Problem))
		default:
			if g := (group{f.Table.Device, f.Table.Identity, f.Cores}); !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
	}
	var out []*tableEntry
	for _, g := range groups {
		if e := o.cacheEntry(mergeGroup(o, g.device, g.identity, g.cores, files)); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// cacheEntry parses a group's rows as one table entry (nil if, against
// every check above, they do not parse).
func (o *Op) cacheEntry(g *cacheGroup) *tableEntry {
	name := g.tableName(o.Name())
	t, err := ParseTable(name, cacheText(o, g.device, g.identity, g.cores, g.lines), o)
	if t == nil || err != nil {
		return nil
	}
	t.Origin = OriginCache
	fam, arch, class, _ := ParseDeviceKey(g.device)
	return &tableEntry{name: name, device: g.device, identity: g.identity, family: fam, arch: arch, class: class,
		origin: OriginCache, t: t, cores: g.cores, cache: g}
}

// ownCache holds the rows this process measured, by cache file path, so
// that each write replaces the process's file with all of them.
var ownCache struct {
	sync.Mutex
	rows map[string]map[DType][]string
	off  bool // recording failed once: rows stay in the process
}

// writeCacheFile is safefile.WriteAtomic; tests replace it to act out a
// full disk.
var writeCacheFile = safefile.WriteAtomic

// deviceCores is the core count a row is keyed by.
func deviceCores(d *Device) int {
	if d.Cores > 0 {
		return d.Cores
	}
	return runtime.NumCPU()
}

// record adds a measured row for (dt, k) on d: to the op's tables of this
// snapshot, for shapes not decided yet, and to this process's cache file.
func (o *Op) record(s *settings, dt DType, k Key, d *Device, es []Entry) {
	line := rowLine(o.keys, k, es)
	keyText := k.Format(o.keys)
	cores := deviceCores(d)

	o.loadMu.Lock()
	if ts := o.tabs.Load(); ts != nil && ts.gen == s.gen {
		var g *cacheGroup
		idx := -1
		for i, e := range ts.entries {
			if e.origin == OriginCache && e.device == d.Key && e.identity == d.Identity && e.cores == cores {
				g, idx = e.cache, i
				break
			}
		}
		ng := &cacheGroup{device: d.Key, identity: d.Identity, cores: cores, lines: map[DType][]string{}, has: map[string]bool{}}
		ng.add(dt, keyText, line) // the new row first: it wins over an older one of the same shape
		if g != nil {
			for _, t := range knownDTypes {
				for _, l := range g.lines[t] {
					kt, _, _ := strings.Cut(l, " | ")
					ng.add(t, kt, l)
				}
			}
		}
		if e := o.cacheEntry(ng); e != nil {
			nts := &opTables{gen: ts.gen, entries: slices.Clone(ts.entries)}
			if idx >= 0 {
				nts.entries[idx] = e
			} else {
				nts.entries = append([]*tableEntry{e}, nts.entries...)
			}
			o.tabs.Store(nts)
		}
	}
	o.loadMu.Unlock()

	if s.tune.cacheDir == "" {
		return
	}
	label := d.Key
	if d.Identity != "" {
		label += "." + d.Identity
	}
	path := filepath.Join(s.tune.cacheDir, o.Name()+"."+label+"."+processTag+CacheSuffix)
	ownCache.Lock()
	defer ownCache.Unlock()
	if ownCache.off {
		return
	}
	if ownCache.rows == nil {
		ownCache.rows = map[string]map[DType][]string{}
	}
	mine := ownCache.rows[path]
	if mine == nil {
		mine = map[DType][]string{}
		ownCache.rows[path] = mine
	}
	mine[dt] = append(mine[dt], line)
	if err := writeCacheFile(path, cacheText(o, d.Key, d.Identity, cores, mine)); err != nil {
		ownCache.off = true
		warnOnce("tune-cache-write", fmt.Sprintf("batchlas: BATCHLAS_TUNE_CACHE: cannot record tuned rows in %s (%v); this process keeps its tuned rows to itself (point BATCHLAS_TUNE_CACHE at a writable directory with free space)",
			quote.Q(s.tune.cacheDir), err))
	}
}
