package sel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The lazy reading of built-in tables (lazy.go) must read exactly what
// ParseTable reads: the same rows, the same nearest row for any key, the
// same first error. These tests hold it to that on every shipped table
// (tuned/) and every test table, under every line end, and on broken
// tables; TestLazyDecisionsMatchEager in select/lazycheck does the same
// through the real ops' decisions.

// tableOp makes an op for a table file: its name, the keys of its keys
// line, families for its spellings (a field per name=value word of a
// spelling) and, for each log key, a grid of the values most of its rows
// have (a tuned table's grid; the tuner's refinement rows have the
// others), so that nearest searches grid cells as it does for a tuned op.
func tableOp(t testing.TB, name string, data []byte) *Op {
	t.Helper()
	opName, _, _, err := SplitTableName(name)
	require.NoError(t, err)
	text := tableText(data)
	var keys string
	fams := map[string]*Family{}
	vals := map[string]map[int64]int{}
	for line := range strings.Lines(text) {
		s := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(s, "# keys:"); ok && keys == "" {
			keys = strings.TrimSpace(rest)
			continue
		}
		if s == "" || s[0] == '#' || s[0] == '[' {
			continue
		}
		s, _, _ = strings.Cut(s, "#")
		parts := strings.Split(s, "|")
		for _, w := range strings.Fields(parts[0]) {
			k, v, _ := strings.Cut(w, "=")
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				if vals[k] == nil {
					vals[k] = map[int64]int{}
				}
				vals[k][n]++
			}
		}
		for _, e := range parts[1:] {
			f := strings.Fields(e)
			if len(f) == 0 {
				continue
			}
			sp := strings.Split(f[0], ":")
			if fams[sp[0]] != nil || !validName(sp[0]) {
				continue
			}
			fam := &Family{Name: sp[0], Vendor: sp[0] == "vendor"}
			for _, a := range sp[1:] {
				if k, _, ok := strings.Cut(a, "="); ok && len(fam.Fields) < MaxFields {
					fam.Fields = append(fam.Fields, k)
				}
			}
			fams[sp[0]] = fam
		}
	}
	ks, err := ParseKeys(keys)
	require.NoError(t, err, name)
	spec := OpSpec{Name: opName, Revision: 1, Keys: keys, CanRun: func(Choice, Key, *Device) bool { return true }}
	var cands []Choice
	for _, f := range fams {
		spec.Families = append(spec.Families, f)
		for v := range 8 { // enough candidates for the rows' entries (maxRowEntries)
			vals := make([]int, len(f.Fields))
			for i := range vals {
				vals[i] = v
			}
			cands = append(cands, f.With(vals...))
			if len(vals) == 0 {
				break
			}
		}
	}
	for len(cands) < 16 {
		f := &Family{Name: fmt.Sprintf("filler%d", len(cands))}
		spec.Families = append(spec.Families, f)
		cands = append(cands, f.With())
	}
	spec.Candidates = map[DType][]Choice{Float64: cands, Float32: cands}
	for _, k := range ks {
		if k.Kind != Log {
			continue
		}
		most := 0
		for _, c := range vals[k.Name] {
			most = max(most, c)
		}
		ns := slices.Sorted(func(yield func(int64) bool) {
			for n, c := range vals[k.Name] {
				if 4*c >= most && !yield(n) {
					return
				}
			}
		})
		ax := GridAxis{Key: k.Name}
		for _, n := range ns {
			ax.Quick = append(ax.Quick, strconv.FormatInt(n, 10))
		}
		spec.Grid = append(spec.Grid, ax)
	}
	return unregistered(spec)
}

// lazyParser reads the header of a table through the lazy path, from an
// fs.FS as the built-in tables are.
func lazyParser(name string, data []byte, op *Op) *tableParser {
	fsys := fstest.MapFS{name: {Data: data}}
	return &tableParser{file: name, op: op, src: fileSource{fsys: fsys, name: name}}
}

// lazyError is the first error of a table read through the lazy path:
// the header's, the structure pass's, or the first failing section's.
func lazyError(name string, data []byte, op *Op) error {
	p := lazyParser(name, data, op)
	if err := p.header(); err != nil {
		return err
	}
	if err := p.structure(nil); err != nil {
		return err
	}
	for i := range p.spans {
		if _, err := p.compactSpan(i); err != nil {
			return err
		}
	}
	return nil
}

// testKeys returns keys to look up in a section: every own-th row's own,
// and around every step-th row keys off its grid point (every log key moved
// at random; each log key up by a half, down by a third, up by one) and
// with each exact key another value of the section or none of them.
func testKeys(t *Table, rows []Row, own, step int) []Key {
	rnd := rand.New(rand.NewPCG(1, uint64(len(rows))))
	// Each key is looked up by a scan of every row, twice: cap the keys of
	// a long section so that a table's cost grows with its rows, not with
	// their square (trsm's 9000-row sections took seconds each).
	own, step = max(own, len(rows)/256), max(step, len(rows)/24)
	var out []Key
	exact := map[int][]string{}
	for _, r := range rows {
		for i, ks := range t.Keys {
			if ks.Kind == Exact && !slices.Contains(exact[i], r.Key.v[i].S) {
				exact[i] = append(exact[i], r.Key.v[i].S)
			}
		}
	}
	for ri, r := range rows {
		if ri%own == 0 {
			out = append(out, r.Key)
		}
		if ri%step != 0 {
			continue
		}
		for range 4 { // every log key moved at once, by up to 4x either way
			k := r.Key
			for i, ks := range t.Keys {
				if ks.Kind == Log {
					k.v[i].N = max(1, int64(float64(k.v[i].N)*math.Exp2(rnd.Float64()*4-2)))
				}
			}
			out = append(out, k)
		}
		for i, ks := range t.Keys {
			if ks.Kind == Log {
				n := r.Key.v[i].N
				for _, m := range []int64{n + n/2, max(1, n*2/3), n + 1} {
					k := r.Key
					k.v[i].N = m
					out = append(out, k)
				}
				continue
			}
			for _, v := range append(slices.Clone(exact[i]), "absent") {
				k := r.Key
				k.v[i].S = v
				out = append(out, k)
			}
		}
	}
	return out
}

// checkLazySections reads a table both ways and compares every section:
// its rows (parsed alone, and as Rows), and its nearest row for testKeys.
func checkLazySections(t *testing.T, name string, data []byte, op *Op, own, step int) {
	t.Helper()
	full, err := ParseTable(name, data, op)
	var se *StaleError
	if err != nil && !errors.As(err, &se) {
		require.Equal(t, err, lazyError(name, data, op), "%s: the same error", name)
		return
	}
	p := lazyParser(name, data, op)
	require.NoError(t, p.header(), name)
	lz := &lazyTable{p: p}
	want := Float64
	if len(full.Sections[Float64]) == 0 {
		want = Float32
	}
	require.NoError(t, lz.scan(want), name)
	require.Len(t, p.spans, len(full.Sections), name)
	for i, sp := range p.spans {
		rows := full.Sections[sp.dt]
		require.Equal(t, len(rows), sp.rows, "%s [%s]: rows counted", name, sp.dt)
		c, err := p.compactSpan(i)
		require.NoError(t, err)
		require.Equal(t, len(rows), c.n, "%s [%s]", name, sp.dt)
		// The section parsed in the structure pass is the one parsed alone.
		merged, err := lz.compact(lz.secs[sp.dt])
		require.NoError(t, err)
		require.Equal(t, c, merged, "%s [%s]: parsed in the structure pass", name, sp.dt)
		fr, err := p.fullSpan(i)
		require.NoError(t, err)
		require.Equal(t, rows, fr, "%s [%s]: Rows", name, sp.dt)
		for ri := range rows {
			r, err := c.row(p, i, ri)
			require.NoError(t, err)
			require.Equal(t, rows[ri], *r, "%s [%s] row %d", name, sp.dt, ri)
		}
		for _, k := range testKeys(full, rows, own, step) {
			wantRow, wantD, wantErr := full.Nearest(sp.dt, k)
			ri, d, err := c.nearest(full, k)
			require.Equal(t, wantErr, err)
			if wantRow == nil {
				require.Equal(t, -1, ri, "%s [%s] %s: no row", name, sp.dt, k.Format(full.Keys))
				continue
			}
			require.Equal(t, wantRow.Line, int(c.line[ri]), "%s [%s] %s: the same nearest row", name, sp.dt, k.Format(full.Keys))
			require.Equal(t, wantD, d, "%s [%s] %s: at the same distance", name, sp.dt, k.Format(full.Keys))
		}
	}
}

// Every shipped table and every test table reads the same lazily.
func TestLazySectionsMatchParseTable(t *testing.T) {
	files, err := filepath.Glob("../tuned/*.txt")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/tuned/*.txt")
	require.NoError(t, err)
	own, step := 4, 50
	if testing.Short() {
		own, step = 20, 200
	}
	for _, path := range append(files, more...) {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			op := tableOp(t, name, data)
			_, err := ParseTable(name, data, op)
			if se := (*StaleError)(nil); !errors.As(err, &se) {
				require.NoError(t, err, "every test table parses")
			}
			checkLazySections(t, name, data, op, own, step)
			checkLazySections(t, name, data, nil, 10*own, 10*step)
		})
	}
}

// lineEnds rewrites a table with other line ends, a byte-order mark,
// blank lines, comments and spaces: the lazy reader must split and number
// its lines as ParseTable does.
func lineEnds(data []byte) map[string][]byte {
	lf := strings.ReplaceAll(tableText(data), "\r", "")
	out := map[string][]byte{
		"LF":   []byte(lf),
		"CRLF": []byte(strings.ReplaceAll(lf, "\n", "\r\n")),
		"CR":   []byte(strings.ReplaceAll(lf, "\n", "\r")),
		"BOM":  []byte("\ufeff" + lf),
	}
	var mixed, spaced strings.Builder
	mixed.WriteString("\ufeff")
	i := 0
	for line := range strings.Lines(lf) {
		body := strings.TrimSuffix(line, "\n")
		mixed.WriteString(body + []string{"\r\n", "\n", "\r"}[i%3])
		spaced.WriteString("  " + body + " \t\n")
		if i%5 == 4 {
			spaced.WriteString("\n   # a comment | with | bars\n")
		}
		i++
	}
	out["mixed"] = []byte(mixed.String())
	out["spaced"] = []byte(spaced.String())
	out["no final line end"] = []byte(strings.TrimSuffix(lf, "\n"))
	return out
}

func TestLazyLineEnds(t *testing.T) {
	for _, path := range []string{"testdata/tuned/syn.x86-64-v4.txt", "../tuned/getrf.x86-64-v4.zen5.txt"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		name := filepath.Base(path)
		for how, d := range lineEnds(data) {
			t.Run(name+"/"+how, func(t *testing.T) {
				checkLazySections(t, name, d, tableOp(t, name, d), 1, 1)
			})
		}
	}
}

// A line longer than the reader's buffer, and a \r\n split across two
// reads, read as ParseTable reads them.
func TestLazyLongLinesAndSplitLineEnds(t *testing.T) {
	var b strings.Builder
	b.WriteString(synHead)
	long := "uplo=L n=3 batch=1 | tiny 1 # " + strings.Repeat("x", 100<<10) + "\r\n"
	b.WriteString(long)
	for n := 4; b.Len() < 180<<10; n++ {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1 | tiny 1 | blocked 2\r\n", n)
	}
	data := []byte(b.String())
	for cut := 32<<10 - 3; cut <= 32<<10+3; cut++ {
		// Rows whose \r\n lands on each side of the first read's end.
		pad := strings.Repeat(" ", cut%7)
		d := []byte(strings.Replace(string(data), "uplo=L n=5 ", pad+"uplo=L n=5 ", 1))
		checkLazySections(t, "syn.x86-64-v4.txt", d, synOp, 1, 1000)
	}
}

// Broken tables give the lazy path the error ParseTable gives: the first
// error of the file, whether a row's or the scan's.
func TestLazyErrorsMatchParseTable(t *testing.T) {
	rows := "uplo=L n=8 batch=1024 | tiny 1\nuplo=L n=64 batch=1024 | blocked 2\n"
	for _, src := range []string{
		"",
		"# revision=1\n",
		"[float64]\nuplo=L n=8 batch=1 | tiny 1\n",
		synHead + rows + "uplo=L n=8 batch=1024 | vendor 3\n",                              // repeated key
		synHead + rows + "uplo=L n=9 batch=1024 | tiny 1 | tiny 2\n",                       // repeated spelling
		synHead + rows + "uplo=L n=9 batch=1024 | lpanel:8 1 | lpanel:panel=8 2\n",         // the same choice twice
		synHead + rows + "uplo=L n=9 batch=1024 | tiny x\n",                                // bad time
		synHead + rows + "[float32]\nuplo=L n=9 batch=1024 | tiny -1\n[float64]\n",         // bad time before a repeated section
		synHead + rows + "[float32]\nuplo=L n=9 batch=1024 | tiny 1\n[float64]\n",          // repeated section
		synHead + rows + "# keys: uplo:exact n:log:3 batch:log\n",                          // keys after the first row
		synHead + "uplo=L n=9 batch=1024 | tiny x\n# keys: uplo:exact n:log:3 batch:log\n", // a bad row before it
		synHead + rows + "[complex256]\n",
		synHead + rows + "uplo=L n=0 batch=1 | tiny 1\n",
		synHead + rows + "uplo=L n=9 batch=1 | tiny 1 | blocked -\n",
		synHead + rows + "uplo=L n=9 | tiny 1\n",
		synHead + rows + "uplo=L n=9 batch=1 bogus=2 | tiny 1\n",
		synHead + rows + "uplo=L n=9 batch=1 n=3 | tiny 1\n",
		synHead + rows + "uplo=L n=9 batch=1\n",
		synHead + rows + "uplo=L n=9 batch=1 | tiny 1 |\n",
		synHead + rows + "uplo=L n=9 batch=1 | tiny 1 2\n",
		synHead + rows + "uplo=L n=9\u00a0batch=1 | tiny\u20031\n", // Unicode spaces split words
		synHead + rows + "uplo=L n=9 batch=1 | t\u00e9 1\n",
		synHead + rows + "uplo=L n=9 batch=1 | tiny 1" + strings.Repeat("0", 400) + "\n",   // no float64
		synHead + rows + "uplo=L n=9 batch=1 | tiny 0." + strings.Repeat("0", 400) + "1\n", // rounds to 0
		synHead + rows + "uplo=L n=9 batch=1 | tiny 1e3 | blocked .5 | vendor 5.\n",        // strconv's forms
		synHead + rows + "uplo=L n=9 batch=1 | tiny 12345678901234567890123 | blocked 1\n", // beyond 2^53
		"# revision=1\n[float64]\n# keys: uplo:exact n:log:3 batch:log\n" + rows,           // the header after a section line
		"# revision=1\n# keys: uplo:exact n:log:3 batch:log\n" + rows,                      // a row before any section
	} {
		for how, d := range lineEnds([]byte(src)) {
			want, wantErr := ParseTable("syn.x86-64-v4.txt", d, synOp)
			err := lazyError("syn.x86-64-v4.txt", d, synOp)
			if wantErr == nil {
				assert.NoError(t, err, "%q (%s)", src, how)
				checkLazySections(t, "syn.x86-64-v4.txt", d, synOp, 1, 1)
				continue
			}
			assert.Nil(t, want)
			assert.Equal(t, wantErr, err, "%q (%s)", src, how)
		}
	}
}

// More rows than a table may have fail on the same line both ways.
func TestLazyRowCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(synHead)
	for i := range MaxTableRows + 1 {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1|blocked 1\n", i+1)
	}
	data := []byte(b.String())
	_, want := ParseTable("syn.x86-64-v4.txt", data, synOp)
	require.Error(t, want)
	assert.Equal(t, want, lazyError("syn.x86-64-v4.txt", data, synOp))
}

// Rows out of key order (tools/tune writes them in order; a hand-made
// table need not) still find a repeated key, on the line ParseTable names.
func TestLazyUnsortedRows(t *testing.T) {
	var b strings.Builder
	b.WriteString(synHead)
	for i := 300; i > 0; i-- {
		fmt.Fprintf(&b, "uplo=%s n=%d batch=%d | blocked 1\n", []string{"L", "U"}[i%2], i%37+1, i)
	}
	ok := b.String()
	checkLazySections(t, "syn.x86-64-v4.txt", []byte(ok), synOp, 1, 1)
	bad := []byte(ok + "uplo=U n=5 batch=41 | tiny 1\n")
	_, want := ParseTable("syn.x86-64-v4.txt", bad, synOp)
	require.ErrorContains(t, want, "already has a row")
	assert.Equal(t, want, lazyError("syn.x86-64-v4.txt", bad, synOp))
}

// A built-in table's rows are checked a section at a time, when a call
// first reads the section: a bad row of [float32] fails the float32
// calls that reach the table, and only them (docs/decisions.md, "The
// first call reads built-in tables lazily"). Op.Tables, which parses every
// section, reports it for any dtype, as before.
func TestBuiltinBrokenSectionFailsItsCalls(t *testing.T) {
	fresh(t)
	builtinTables(t, fstest.MapFS{
		"syn.x86-64-v4.txt": {Data: []byte(synHead + "uplo=L n=64 batch=1024 | blocked 1\n[float32]\nuplo=L n=64 batch=1024 | tiny x\n")},
	})
	c, err := synOp.Pick(bg, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	_, err = synOp.Pick(bg, Float32, synKey("L", 64, 1024), v4)
	assert.EqualError(t, err, `syn.x86-64-v4.txt:6: entry tiny: time "x" is not a non-negative number of milliseconds`)
	_, err = synOp.Tables(Float64, v4)
	assert.EqualError(t, err, `syn.x86-64-v4.txt:6: entry tiny: time "x" is not a non-negative number of milliseconds`)
	w, err := synOp.Explain(bg, Float32, synKey("L", 64, 1024), v4)
	assert.Error(t, err)
	assert.Equal(t, err, w.Err)
}

// A built-in table whose section lines are broken fails every call that
// reaches it, as it did when tables were parsed whole, with the first
// error of the file.
func TestBuiltinBrokenStructureFailsEveryCall(t *testing.T) {
	fresh(t)
	builtinTables(t, fstest.MapFS{
		"syn.x86-64-v4.txt": {Data: []byte(synHead + "uplo=L n=64 batch=1024 | blocked 1\n[float32]\nuplo=L n=64 batch=1024 | tiny 1\n[float64]\n")},
	})
	for _, dt := range []DType{Float64, Float32} {
		_, err := synOp.Pick(bg, dt, synKey("L", 64, 1024), v4)
		assert.EqualError(t, err, "syn.x86-64-v4.txt:7: section [float64] appears twice (first on line 3)")
	}
}

// Built-in tables read lazily decide as the same tables parsed whole: the
// tables given as BATCHLAS_TUNED_DIR overrides of the same names (parsed in
// full when they load) replace every section of the built-in ones.
func TestLazyBuiltinDecidesAsOverride(t *testing.T) {
	files := map[string]string{}
	paths, err := filepath.Glob("testdata/tuned/*.txt")
	require.NoError(t, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		files[filepath.Base(p)] = string(data)
	}
	type call struct {
		o  *Op
		dt DType
		k  Key
		d  *Device
	}
	var calls []call
	devices := []*Device{v4, v3, v4nov, v1, arm, sm90, riscv}
	for _, id := range []string{"zen5", "zen4", "sapphirerapids", "zen3"} {
		devices = append(devices, withIdentity(t, v4, id), withIdentity(t, v3, id))
	}
	for _, d := range devices {
		for _, dt := range []DType{Float64, Float32} {
			for _, n := range []int{1, 7, 8, 20, 64, 100, 128, 512, 600} {
				for _, batch := range []int{1, 16, 300, 1024, 8192} {
					calls = append(calls, call{synOp, dt, synKey("L", n, batch), d}, call{synOp, dt, synKey("U", n, batch), d})
				}
				for _, o := range []*Op{idnOp, ordOp, stlOp, gpoOp} {
					calls = append(calls, call{o, dt, MakeKey(Int(n)), d})
				}
			}
		}
	}
	decide := func() []string {
		var out []string
		for _, c := range calls {
			ch, err := c.o.Pick(context.Background(), c.dt, c.k, c.d)
			out = append(out, fmt.Sprint(ch, err))
		}
		return out
	}
	fresh(t)
	lazy := decide()
	fresh(t)
	override(t, files)
	Reload()
	assert.Equal(t, decide(), lazy)
}

// Goroutines making the first calls of an op at once, each on its own
// dtype and device, read each table and section once and agree with a
// process that made the calls one by one. Run it under -race.
func TestConcurrentFirstCallsOfBuiltinTables(t *testing.T) {
	fresh(t)
	builtinTables(t, fstest.MapFS{"big.x86-64-v4.txt": {Data: []byte(bigTable())}, "big.x86-64-v2.txt": {Data: []byte(bigTable())}})
	keys := []Key{synKey("U", 90, 300), synKey("L", 3, 1), synKey("L", 512, 512), synKey("U", 64, 2)}
	devices := []*Device{v4, v3, v4nov, v1}
	want := map[string]Choice{}
	for _, k := range keys {
		for _, d := range devices {
			c, err := bigOp.Pick(bg, Float64, k, d)
			require.NoError(t, err)
			want[fmt.Sprint(d.Key, d.Flags, k)] = c
		}
	}
	for range 20 {
		Reload()
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k, d := keys[g%len(keys)], devices[g/2%len(devices)]
				c, err := bigOp.Pick(bg, Float64, k, d)
				assert.NoError(t, err)
				assert.Equal(t, want[fmt.Sprint(d.Key, d.Flags, k)], c)
				if g%4 == 3 {
					_, err := bigOp.Tables(Float64, d)
					assert.NoError(t, err)
					_, err = bigOp.Explain(bg, Float64, k, d)
					assert.NoError(t, err)
				}
			}()
		}
		wg.Wait()
	}
}

// FuzzLazyMatchesParseTable reads any table both ways: the same first
// error, or the same rows and the same nearest rows.
func FuzzLazyMatchesParseTable(f *testing.F) {
	files, _ := filepath.Glob("testdata/tuned/syn.*.txt")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"\ufeff",
		"\r",
		synHead + "uplo=L n=1 batch=1 | tiny 1\r\nuplo=L n=1 batch=1 | tiny 1\r",
		synHead + "uplo=U n=2 batch=1 | tiny 1\nuplo=L n=1 batch=1 | tiny 1\n[float32]\nuplo=L n=1 batch=1 | lpanel:8 1 | lpanel:panel=8 2\n",
		synHead + "uplo=L n=1 batch=1 | tiny 1 # | x\n# keys: uplo:exact\n",
		"# revision=1\n[float64]\n# keys: uplo:exact n:log:3 batch:log\n\n  uplo=L\u00a0n=3 batch=1 |\ttiny 1.5e-3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, op := range []*Op{synOp, nil} {
			checkLazySections(t, "syn.x86-64-v4.txt", data, op, 1, 1)
		}
	})
}

// Every place a read of the lazy reader's buffer can end at, in a line,
// between the \r and \n of a line end, or after a lone \r: the table
// reads as ParseTable reads it.
func TestLazyReadBoundaries(t *testing.T) {
	var b strings.Builder
	for n := 1; b.Len() < 3*4096; n++ {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1 | tiny 1 | blocked 2\n", n)
	}
	rows := b.String()
	for _, eol := range []string{"\r\n", "\r", "\n"} {
		for pad := range 48 {
			src := synHead + "# " + strings.Repeat("p", pad) + "\n" + rows
			d := []byte(strings.ReplaceAll(src, "\n", eol))
			checkLazySections(t, "syn.x86-64-v4.txt", d, synOp, 1, 1<<20)
		}
	}
}
