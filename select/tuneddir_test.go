package sel

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const synHead = "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\n"

func TestTunedDirReplacesAndTagsOverride(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	lines := tr.lines()
	assert.Contains(t, lines[0], " syn=float32/builtin,float64/override", "the init line says where the tables come from, per dtype when they differ")
	assert.Contains(t, lines[1], ` BATCHLAS_TUNED_DIR="`+os.Getenv("BATCHLAS_TUNED_DIR")+`" `, "the switches line names the directory")
	assert.Equal(t, []string{"syn float64 uplo=L n=64 batch=1024 -> blocked  1.00 ms  [override x86-64-v4]"}, tr.decisions())
	tabs, err := synOp.Tables(Float64, v4)
	require.NoError(t, err)
	origins := map[string]string{}
	for _, tb := range tabs {
		origins[tb.File] = tb.Origin
	}
	assert.Equal(t, map[string]string{"syn.x86-64-v4.txt": "override", "syn.x86-64-v2.txt": "builtin", "syn.arm64.txt": "builtin"}, origins)
	tabs, err = synOp.Tables(Float32, v4)
	require.NoError(t, err)
	require.Len(t, tabs, 1, "the override has no [float32]: the built-in section stays")
	assert.Equal(t, "builtin", tabs[0].Origin)
	assert.Equal(t, "x86-64-v4", tabs[0].Device)
	assert.NotContains(t, warn.String(), "borrowing", "an override is not a borrow")
}

// An override with only [float32] replaces the built-in float32 section;
// float64 decisions are the built-in ones, with the plain table tag.
func TestTunedDirMergesBySection(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	k64, k32 := synKey("L", 64, 1024), synKey("L", 8, 1024)
	c, err := run(bg, synOp, Float64, k64, v4)
	require.NoError(t, err)
	require.Equal(t, lp8, c)
	builtinLine := tr.decisions()[0]

	override(t, map[string]string{"syn.x86-64-v4.txt": "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float32]\n" +
		"uplo=L n=8 batch=1024 | blocked 0.05 | tiny 0.06\n"})
	forget()
	c, err = run(bg, synOp, Float64, k64, v4)
	require.NoError(t, err)
	assert.Equal(t, lp8, c, "float64 keeps the built-in section")
	c, err = run(bg, synOp, Float32, k32, v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "float32 comes from the override")
	assert.Len(t, grep(tr.lines(), " syn=float32/override,float64/builtin"), 1)
	lines := tr.decisions()
	require.Len(t, lines, 3)
	assert.Equal(t, builtinLine, lines[1], "same line as without the override: [x86-64-v4], not [override x86-64-v4]")
	assert.Equal(t, "syn float32 uplo=L n=8 batch=1024 -> blocked  0.05 ms, next tiny 0.06 ms  [override x86-64-v4]", lines[2])
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: syn.x86-64-v4.txt overrides [float32]; [float64] stays built-in"}, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"),
		"one notice, while tracing, in the trace")
	assert.Empty(t, warn.lines(), "a usable override is no warning")
	for dt, origin := range map[DType]string{Float64: "builtin", Float32: "override"} {
		tabs, err := synOp.Tables(dt, v4)
		require.NoError(t, err)
		assert.Equal(t, origin, tabs[0].Origin, dt)
	}

	// The override's section replaces the built-in one outright: when its
	// row has nothing runnable the walk goes on to other devices' tables
	// (none have float32 rows), never back to the built-in section.
	refuse(t, "blocked", "tiny")
	w, err := synOp.Explain(bg, Float32, k32, v4)
	require.NoError(t, err)
	require.Len(t, w.Steps, 1)
	assert.Equal(t, "override", w.Steps[0].Table.Origin)
	assert.Equal(t, "last resort", w.Source)
	assert.Equal(t, vendor, w.Choice)

	Reload()
	_, err = run(bg, synOp, Float32, k32, v4)
	require.NoError(t, err)
	assert.Len(t, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"), 1, "the notice is printed once per file")
}

func TestTunedDirReplacesEverySectionItHas(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n" +
		"[float32]\nuplo=L n=8 batch=1024 | blocked 0.05\n"})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	c, err = run(bg, synOp, Float32, synKey("L", 8, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	assert.True(t, strings.HasSuffix(tr.lines()[0], " syn=override"), tr.lines()[0])
	assert.Equal(t, []string{
		"syn float64 uplo=L n=64 batch=1024 -> blocked  1.00 ms  [override x86-64-v4]",
		"syn float32 uplo=L n=8 batch=1024 -> blocked  0.05 ms  [override x86-64-v4]",
	}, tr.decisions())
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: syn.x86-64-v4.txt overrides [float32], [float64]; nothing stays built-in"}, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"))
	assert.Empty(t, warn.lines())
}

// An empty section in an override replaces the built-in one with nothing:
// the device has no float32 rows of its own any more.
func TestTunedDirEmptySectionReplaces(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n[float32]\n"})
	w, err := synOp.Explain(bg, Float32, synKey("L", 8, 1024), v4)
	require.NoError(t, err)
	assert.Empty(t, w.Steps)
	assert.Equal(t, "last resort", w.Source)
	assert.Empty(t, tr.lines(), "Explain prints nothing; the notice waits for the next traced call")
	_, err = run(bg, synOp, Float32, synKey("L", 8, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: syn.x86-64-v4.txt overrides [float32] (no rows), [float64]; nothing stays built-in"}, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"))
}

func TestTunedDirNoticeOnlyWhileTracing(t *testing.T) {
	warn, tr := fresh(t)
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"})
	_, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Empty(t, warn.lines())
	assert.Empty(t, tr.lines())
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: syn.x86-64-v4.txt overrides [float64]; [float32] stays built-in"}, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"))
	assert.Empty(t, warn.lines())
}

// A new device's override: nothing built-in to keep.
func TestTunedDirNoticeWithoutBuiltin(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v3.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: syn.x86-64-v3.txt overrides [float64]; there is no built-in table to keep"}, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"))
}

// A stale override (old keys line, same revision) is skipped with one
// warning, never an error for the calls: the built-in table serves whole.
func TestStaleKeysOverrideSkipped(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": "# revision=1\n# keys: uplo:exact n:log batch:log\n[float64]\n" +
		"uplo=L n=64 batch=1024 | blocked 1.00\n"})
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, lp8, c, "the built-in table serves")
		Reload()
	}
	assert.Equal(t, "syn float64 uplo=L n=64 batch=1024 -> lpanel:panel=8  0.302 ms, next vendor 0.49 ms  [x86-64-v4]", tr.decisions()[0])
	assert.Equal(t, []string{`batchlas: skipping override syn table syn.x86-64-v4.txt: its keys "uplo:exact n:log batch:log" differ from syn's key names "uplo:exact n:log:3 batch:log" (run tools/tune to re-tune this device)`},
		grep(warn.lines(), "syn"), "one warning, and no override notice")
	assert.Empty(t, grep(tr.lines(), "BATCHLAS_TUNED_DIR: syn"), "no override notice")
	tabs, err := synOp.Tables(Float64, v4)
	require.NoError(t, err)
	assert.Equal(t, "builtin", tabs[0].Origin)
}

// The revision is compared before the keys line.
func TestStaleRevisionReportedBeforeKeys(t *testing.T) {
	warn, _ := fresh(t)
	override(t, map[string]string{"syn.x86-64-v4.txt": "# revision=7\n# keys: uplo:exact n:log batch:log\n[float64]\n" +
		"uplo=L n=64 batch=1024 | blocked 1.00\n"})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, lp8, c)
	assert.Equal(t, []string{"batchlas: skipping override syn table syn.x86-64-v4.txt: written for syn revision 7, the op is at revision 1 (run tools/tune to re-tune this device)"},
		grep(warn.lines(), "syn"))
}

// A built-in table with other key names is skipped like a stale revision:
// with tracing off silently (a built-in table is not the user's to fix),
// with a notice while tracing.
func TestStaleKeysBuiltinSkipped(t *testing.T) {
	warn, tr := fresh(t)
	builtinTables(t, fstest.MapFS{
		"ord.x86-64-v4.txt": {Data: []byte("# revision=1\n# keys: m:log\n[float64]\nm=64 | b 1\n")},
		"ord.x86-64-v2.txt": {Data: []byte("# revision=1\n# keys: n:log\n[float64]\nn=64 | a 1\n")},
	})
	c, err := run(bg, ordOp, Float64, MakeKey(Int(64)), v4)
	require.NoError(t, err)
	assert.Equal(t, famA.With(), c, "borrowed from v2")
	assert.Empty(t, warn.lines())
	assert.Empty(t, tr.lines())
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	_, err = run(bg, ordOp, Float64, MakeKey(Int(64)), v4)
	require.NoError(t, err)
	assert.Equal(t, []string{
		`batchlas: skipping builtin ord table ord.x86-64-v4.txt: its keys "m:log" differ from ord's key names "n:log" (run tools/tune to re-tune this device)`,
		"batchlas: ord has no float64 table for x86-64-v4; borrowing x86-64-v2 (run tools/tune to tune this device)",
	}, grep(tr.lines(), " ord "))
	assert.Empty(t, warn.lines())
}

// grep returns the lines that contain s.
func grep(lines []string, s string) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

func TestTunedDirNotADirectory(t *testing.T) {
	warn, _ := fresh(t)
	file := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	setenv(t, "BATCHLAS_TUNED_DIR", file)
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, lp8, c, "the built-in tables serve")
		Reload()
	}
	require.Len(t, warn.lines(), 1, "warns once")
	assert.Equal(t, `batchlas: BATCHLAS_TUNED_DIR="`+file+`" is not a readable directory (not a directory); using the built-in tables`, warn.lines()[0])
}

func TestTunedDirSkipsWrongNames(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, map[string]string{
		"notes.md":             "hello",
		"syn.txt":              "x",
		"syn.x86-64-v4.txt":    synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
		"syn.x86.64.v4.txt":    "x",
		"Syn.x86-64-v4.txt":    "x",
		"other.x86-64-v4.txt":  "not read: no op named other is registered",
		"syn.x86-64-v4.txt.gz": "x",
	})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	Reload()
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, blocked, c)
	}
	var want []string
	for _, n := range []string{"Syn.x86-64-v4.txt", "notes.md", "other.x86-64-v4.txt", "syn.txt", "syn.x86-64-v4.txt.gz", "syn.x86.64.v4.txt"} {
		if n == "other.x86-64-v4.txt" {
			want = append(want, "batchlas: BATCHLAS_TUNED_DIR: not reading "+filepath.Join(dir, n)+": no op named other is registered in this program (registered: "+registeredList()+")")
			continue
		}
		want = append(want, "batchlas: BATCHLAS_TUNED_DIR: skipping "+filepath.Join(dir, n)+": want <op>.<device>[.<identity>].txt files (e.g. potrf.x86-64-v4.txt, potrf.x86-64-v4.zen5.txt)")
	}
	assert.Equal(t, want, warn.lines())
}

func TestMalformedOverrideIsAnErrorFromTheCall(t *testing.T) {
	warn, _ := fresh(t)
	override(t, map[string]string{
		"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked one\n",
		"syn.sm_90.txt":     "garbage\n",
	})
	var err error
	require.NotPanics(t, func() { _, err = run(bg, synOp, Float64, synKey("L", 64, 1024), v4) })
	require.Error(t, err)
	var te *TableError
	require.True(t, errors.As(err, &te))
	assert.EqualError(t, err, `syn.x86-64-v4.txt:4: entry blocked: time "one" is not a non-negative number of milliseconds`)
	_, err = synOp.Tables(Float64, v4)
	assert.True(t, errors.As(err, &te), "Tables reports it too")
	_, err = run(bg, synOp, Float32, synKey("L", 8, 1024), v4)
	assert.EqualError(t, err, `syn.x86-64-v4.txt:4: entry blocked: time "one" is not a non-negative number of milliseconds`,
		"which sections a broken override had is unknown: every dtype of the op on the device needs it")

	// A cpu call never needs the broken gpu table...
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "v3 is served by v2 before it would reach v4")
	// ...a gpu call does.
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), sm90)
	assert.EqualError(t, err, "syn.sm_90.txt:1: no revision=N in the header; tables written by tools/tune carry it")
	// Each broken file warns once, whether or not a call needs it: the
	// operator's directory holds a table that cannot be used.
	assert.Equal(t, []string{
		"batchlas: BATCHLAS_TUNED_DIR: cannot use " + filepath.Join(os.Getenv("BATCHLAS_TUNED_DIR"), "syn.sm_90.txt") +
			": syn.sm_90.txt:1: no revision=N in the header; tables written by tools/tune carry it; calls of syn that need this table fail until it is fixed or removed",
		"batchlas: BATCHLAS_TUNED_DIR: cannot use " + filepath.Join(os.Getenv("BATCHLAS_TUNED_DIR"), "syn.x86-64-v4.txt") +
			`: syn.x86-64-v4.txt:4: entry blocked: time "one" is not a non-negative number of milliseconds; calls of syn that need this table fail until it is fixed or removed`,
	}, warn.lines())
}

// registeredList is the list the unknown-op warnings give.
func registeredList() string {
	var names []string
	for _, o := range Ops() {
		names = append(names, o.Name())
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func TestTunedDirUnknownOpAndBadDeviceKey(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, map[string]string{
		"protf.x86-64-v4.txt": "a table for an op this program does not have",
		"syn.x86_64_v4.txt":   synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
		"syn.sm90.txt":        synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
		"syn.x86-64-v4.txt":   synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
	})
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, blocked, c)
		Reload()
	}
	assert.Equal(t, []string{
		"batchlas: BATCHLAS_TUNED_DIR: not reading " + filepath.Join(dir, "protf.x86-64-v4.txt") +
			": no op named protf is registered in this program (registered: " + registeredList() + ")",
		"batchlas: BATCHLAS_TUNED_DIR: skipping " + filepath.Join(dir, "syn.sm90.txt") +
			`: device key "sm90": want sm_<arch> (e.g. sm_90); a device key is lower-case letters, digits, '-' and '_', like x86-64-v4, arm64, sm_90 or gfx90a`,
		"batchlas: BATCHLAS_TUNED_DIR: skipping " + filepath.Join(dir, "syn.x86_64_v4.txt") +
			`: device key "x86_64_v4": want x86-64 or x86-64-v<level> (e.g. x86-64-v4); a device key is lower-case letters, digits, '-' and '_', like x86-64-v4, arm64, sm_90 or gfx90a`,
	}, warn.lines())
}

// A table in BATCHLAS_TUNED_DIR for an op of the library that this program
// does not link is a notice while tracing, not a warning: one tables
// directory serves many programs. A name no op of the library has still
// warns.
func TestTunedDirTableOfAnUnlinkedLibraryOpIsANotice(t *testing.T) {
	warn, tr := fresh(t)
	builtinTables(t, fstest.MapFS{"lib.x86-64-v4.zen5.txt": {Data: []byte("# revision=1\n")}})
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	dir := override(t, map[string]string{
		"syn.x86-64-v4.txt":   synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
		"lib.x86-64-v4.txt":   "not read: lib is not linked",
		"other.x86-64-v4.txt": "not read: no op named other",
	})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	assert.Equal(t, []string{"batchlas: BATCHLAS_TUNED_DIR: not reading " + quote.Cut(filepath.Join(dir, "other.x86-64-v4.txt")) + ": no op named other is registered in this program (registered: " + registeredList() + ")"}, warn.lines())
	assert.Contains(t, tr.String(), "batchlas: BATCHLAS_TUNED_DIR: not reading "+quote.Cut(filepath.Join(dir, "lib.x86-64-v4.txt"))+": this program does not use the lib op\n")
}
