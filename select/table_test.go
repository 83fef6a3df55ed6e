package sel

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readTestTable(t *testing.T, name string, o *Op) *Table {
	t.Helper()
	data, err := os.ReadFile("testdata/tuned/" + name)
	require.NoError(t, err)
	tb, err := ParseTable(name, data, o)
	require.NoError(t, err)
	return tb
}

func TestParseTable(t *testing.T) {
	tb := readTestTable(t, "syn.x86-64-v4.txt", synOp)
	assert.Equal(t, "syn.x86-64-v4.txt", tb.File)
	assert.Equal(t, "syn", tb.Op)
	assert.Equal(t, "x86-64-v4", tb.Device)
	assert.Equal(t, 1, tb.Revision)
	assert.Empty(t, tb.Origin, "the loader sets the origin, not the parser")
	assert.Equal(t, map[string]string{
		"op": "syn", "device": "x86-64-v4", "revision": "1", "kernels": "3f9a1c2e", "date": "2026-11-29",
		"host": "Test CPU 9000", "cores": "2", "go": "go1.26.8", "tool": "tools/tune", "grid": "quick",
	}, tb.Header)
	assert.Equal(t, []KeySpec{{"uplo", Exact, 1}, {"n", Log, 3}, {"batch", Log, 1}}, tb.Keys, "weights default to 1")
	require.Len(t, tb.Sections[Float64], 6)
	require.Len(t, tb.Sections[Float32], 1)

	r := tb.Sections[Float64][1]
	assert.Equal(t, 6, r.Line)
	assert.Equal(t, synKey("L", 64, 1024), r.Key)
	want := []Entry{
		{Spelling: "lpanel:panel=8", Choice: lp8, MS: 0.302, Timed: true},
		{Spelling: "vendor", Choice: vendor, MS: 0.490, Timed: true},
		{Spelling: "tiny", Choice: tiny, MS: 0.530, Timed: true},
	}
	if d := cmp.Diff(want, r.Entries, cmp.Comparer(func(a, b Choice) bool { return a == b })); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	untimed := tb.Sections[Float64][5]
	assert.Equal(t, []Entry{{Spelling: "tiny", Choice: tiny}, {Spelling: "blocked", Choice: blocked}}, untimed.Entries, "an untimed row")
}

func TestParseTableDefaultsAndLeniency(t *testing.T) {
	// No op= or device= word: both come from the file name. Keys in any
	// order, CRLF line ends, comments after the header, a spelling the op
	// does not know (kept with a zero Choice), a positional spelling.
	src := "# revision=3 free prose words\r\n# keys: uplo:exact n:log:3 batch:log\r\n\r\n[float64]\r\n" +
		"batch=8 n=4 uplo=U | lpanel:8 1 | warp9 2 # why\r\n# a comment between rows\r\n[float32]\r\n"
	tb, err := ParseTable("syn.sm_90.txt", []byte(src), synOp)
	require.NoError(t, err)
	assert.Equal(t, "sm_90", tb.Device)
	assert.Equal(t, "syn", tb.Op)
	assert.Equal(t, 3, tb.Revision)
	rows := tb.Sections[Float64]
	require.Len(t, rows, 1)
	assert.Equal(t, synKey("U", 4, 8), rows[0].Key)
	assert.Equal(t, lp8, rows[0].Entries[0].Choice)
	assert.True(t, rows[0].Entries[1].Choice.IsZero())
	assert.Equal(t, "warp9", rows[0].Entries[1].Spelling)
	assert.Contains(t, tb.Sections, Float32)
	assert.Empty(t, tb.Sections[Float32])

	// A nil op: keys from the file, no choices.
	tb, err = ParseTable("syn.sm_90.txt", []byte(src), nil)
	require.NoError(t, err)
	assert.True(t, tb.Sections[Float64][0].Entries[0].Choice.IsZero())
	assert.Equal(t, "uplo:exact n:log:3 batch:log", FormatKeys(tb.Keys))
}

func TestParseTableErrors(t *testing.T) {
	const head = "# op=syn revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\n"
	for _, tc := range []struct {
		name, file, src, msg string
	}{
		{"file name", "syn.txt", head, `syn.txt:1: file name "syn.txt": want <op>.<device>.txt or <op>.<device>.<identity>.txt, e.g. potrf.x86-64-v4.txt or potrf.x86-64-v4.zen5.txt`},
		{"file of another op", "gemm.x86-64-v4.txt", head, `gemm.x86-64-v4.txt:1: file is for op gemm, not syn`},
		{"op disagrees", "syn.x86-64-v4.txt", "# op=gemm\n", `syn.x86-64-v4.txt:1: header says op=gemm but the file name says syn`},
		{"device disagrees", "syn.x86-64-v4.txt", "# revision=1 device=x86-64-v3\n", `syn.x86-64-v4.txt:1: header says device=x86-64-v3 but the file name says x86-64-v4`},
		{"bad revision", "syn.x86-64-v4.txt", "# revision=one\n", `syn.x86-64-v4.txt:1: revision=one: want a non-negative integer`},
		{"no revision", "syn.x86-64-v4.txt", "# keys: uplo:exact n:log:3 batch:log\n[float64]\nuplo=L n=1 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:3: no revision=N in the header; tables written by tools/tune carry it`},
		{"no revision, no rows", "syn.x86-64-v4.txt", "# keys: uplo:exact n:log:3 batch:log\n", `syn.x86-64-v4.txt:1: no revision=N in the header; tables written by tools/tune carry it`},
		{"no keys", "syn.x86-64-v4.txt", "# revision=1\n[float64]\nuplo=L n=1 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:3: no # keys: line in the header; it must list the op's key names`},
		{"keys twice", "syn.x86-64-v4.txt", head + "# keys: uplo:exact n:log:3 batch:log\n", `syn.x86-64-v4.txt:4: second # keys: line (the first is on line 2)`},
		{"keys after a row", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny 1\n# keys: n:log\n", `syn.x86-64-v4.txt:5: # keys: line after the first row; it belongs in the header`},
		{"bad keys line", "syn.x86-64-v4.txt", "# revision=1\n# keys: n:cubic\n", `syn.x86-64-v4.txt:2: keys: "n:cubic": want name:exact, name:log or name:log:weight`},
		{"unterminated quote", "syn.x86-64-v4.txt", "# revision=1 host=\"AMD\n", `syn.x86-64-v4.txt:1: header word host: unterminated quote`},
		{"row before a section", "syn.x86-64-v4.txt", "# revision=1\n# keys: uplo:exact n:log:3 batch:log\nuplo=L n=1 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:3: row before any [dtype] section`},
		{"unknown dtype", "syn.x86-64-v4.txt", head + "[float16]\n", `syn.x86-64-v4.txt:4: unknown dtype section [float16]; want float32, float64, complex64 or complex128`},
		{"section twice", "syn.x86-64-v4.txt", head + "[float32]\n[float64]\n", `syn.x86-64-v4.txt:5: section [float64] appears twice (first on line 3)`},
		{"bad section", "syn.x86-64-v4.txt", head + "[float32\n", `syn.x86-64-v4.txt:4: section "[float32": want [dtype]`},
		{"no entries", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1\n", "syn.x86-64-v4.txt:4: row has no entries; want `key=value ... | spelling ms | ...`"},
		{"key word", "syn.x86-64-v4.txt", head + "uplo=L n batch=1 | tiny 1\n", `syn.x86-64-v4.txt:4: key word "n": want name=value`},
		{"unknown key", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 m=3 | tiny 1\n", `syn.x86-64-v4.txt:4: unknown key "m"; the keys are uplo:exact n:log:3 batch:log`},
		{"key twice", "syn.x86-64-v4.txt", head + "uplo=L n=1 n=2 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:4: key n given twice`},
		{"missing key", "syn.x86-64-v4.txt", head + "uplo=L n=1 | tiny 1\n", `syn.x86-64-v4.txt:4: row lacks key batch`},
		{"empty value", "syn.x86-64-v4.txt", head + "uplo= n=1 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:4: key uplo has no value`},
		{"log key zero", "syn.x86-64-v4.txt", head + "uplo=L n=0 batch=1 | tiny 1\n", `syn.x86-64-v4.txt:4: key n=0: want a positive integer`},
		{"log key junk", "syn.x86-64-v4.txt", head + "uplo=L n=x batch=1 | tiny 1\n", `syn.x86-64-v4.txt:4: key n=x: want a positive integer`},
		{"entry shape", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny\n", "syn.x86-64-v4.txt:4: entry \"tiny\": want `spelling ms` (ms a number or -)"},
		{"empty entry", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny 1 |\n", "syn.x86-64-v4.txt:4: entry \"\": want `spelling ms` (ms a number or -)"},
		{"negative time", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny -1\n", `syn.x86-64-v4.txt:4: entry tiny: time "-1" is not a non-negative number of milliseconds`},
		{"NaN time", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny NaN\n", `syn.x86-64-v4.txt:4: entry tiny: time "NaN" is not a non-negative number of milliseconds`},
		{"Inf time", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny +Inf\n", `syn.x86-64-v4.txt:4: entry tiny: time "+Inf" is not a non-negative number of milliseconds`},
		{"mixed timing", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny 1 | blocked -\n", `syn.x86-64-v4.txt:4: row mixes timed entries and untimed (-) ones; a row is all-timed or all-untimed`},
		{"duplicate spelling", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny 1 | tiny 2\n", `syn.x86-64-v4.txt:4: spelling tiny appears twice in the row`},
		{"duplicate spelling, two forms", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | lpanel:8 1 | lpanel:panel=8 2\n", `syn.x86-64-v4.txt:4: spelling lpanel:panel=8 appears twice in the row`},
		{"duplicate key tuple", "syn.x86-64-v4.txt", head + "uplo=L n=1 batch=1 | tiny 1\n\nbatch=1 uplo=L n=1 | blocked 1\n", `syn.x86-64-v4.txt:6: key tuple uplo=L n=1 batch=1 already has a row on line 4`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTable(tc.file, []byte(tc.src), synOp)
			require.Error(t, err)
			assert.EqualError(t, err, tc.msg)
			var te *TableError
			require.True(t, errors.As(err, &te), "a *TableError")
			assert.Equal(t, tc.file, te.File)
			assert.True(t, strings.HasPrefix(err.Error(), te.File+":"), "names the file and line")
		})
	}
}

// A keys line that differs from the op's is staleness, not a parse error:
// the table comes back, read under its own keys, with a *StaleError.
func TestParseTableStaleKeys(t *testing.T) {
	src := "# revision=1\n# keys: uplo:exact n:log batch:log\n[float64]\nuplo=L n=64 batch=8 | lpanel:8 1\n"
	tb, err := ParseTable("syn.x86-64-v4.txt", []byte(src), synOp)
	require.Error(t, err)
	assert.EqualError(t, err, `syn.x86-64-v4.txt:2: keys "uplo:exact n:log batch:log" differ from syn's key names "uplo:exact n:log:3 batch:log"; re-tune with tools/tune`)
	var se *StaleError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, StaleError{File: "syn.x86-64-v4.txt", Line: 2, Keys: "uplo:exact n:log batch:log", OpKeys: "uplo:exact n:log:3 batch:log", Op: "syn"}, *se)
	var te *TableError
	assert.False(t, errors.As(err, &te), "not a broken table")
	require.NotNil(t, tb)
	assert.Equal(t, 1, tb.Revision)
	assert.Equal(t, "uplo:exact n:log batch:log", FormatKeys(tb.Keys))
	require.Len(t, tb.Sections[Float64], 1)
	assert.Equal(t, lp8, tb.Sections[Float64][0].Entries[0].Choice)

	// A stale table that is also malformed is a broken one.
	_, err = ParseTable("syn.x86-64-v4.txt", []byte(src+"uplo=L n=x batch=1 | tiny 1\n"), synOp)
	assert.True(t, errors.As(err, &te))
	assert.False(t, errors.As(err, &se))
	// The keys line may come before the revision; without an op nothing is stale.
	tb, err = ParseTable("syn.x86-64-v4.txt", []byte("# keys: n:log\n# revision=4\n"), synOp)
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 4, tb.Revision)
	_, err = ParseTable("syn.x86-64-v4.txt", []byte(src), nil)
	assert.NoError(t, err)
}

func TestDuplicateTuplesAcrossSectionsAllowed(t *testing.T) {
	src := "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\nuplo=L n=1 batch=1 | tiny 1\n[float32]\nuplo=L n=1 batch=1 | tiny 1\n"
	tb, err := ParseTable("syn.x86-64-v4.txt", []byte(src), synOp)
	require.NoError(t, err)
	assert.Len(t, tb.Sections[Float32], 1)
}

func TestSplitTableName(t *testing.T) {
	op, d, id, err := SplitTableName("potrf.x86-64-v4.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"potrf", "x86-64-v4", ""}, []string{op, d, id})
	op, d, id, err = SplitTableName("gemm.x86-64-v4.zen5.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"gemm", "x86-64-v4", "zen5"}, []string{op, d, id})
	for _, bad := range []string{"potrf.txt", "potrf.x86.64.txt", "Potrf.x86-64-v4.txt", "potrf.x86-64-v4.csv", "potrf..txt", "potrf.X86.txt",
		"potrf.x86-64-v4..txt", "potrf.x86-64-v4.Zen5.txt", "potrf.x86-64-v4.5zen.txt", "potrf.x86-64-v4.zen5.extra.txt", "potrf.x86-64-v4.zen_5.txt"} {
		_, _, _, err := SplitTableName(bad)
		assert.Error(t, err, bad)
	}
}

// An identity's table says which identity it is for in its file name; a
// header identity= word must agree with it, and a level's table has none.
func TestTableIdentityWord(t *testing.T) {
	src := "# op=syn device=x86-64-v4 identity=%s revision=1\n# keys: n:log batch:log\n[float32]\nn=1 batch=1 | a 1\n"
	tb, err := ParseTable("syn.x86-64-v4.zen5.txt", fmt.Appendf(nil, src, "zen5"), nil)
	require.NoError(t, err)
	assert.Equal(t, "zen5", tb.Identity)
	_, err = ParseTable("syn.x86-64-v4.zen5.txt", fmt.Appendf(nil, src, "zen4"), nil)
	require.ErrorContains(t, err, "header says identity=zen4 but the file name says zen5")
	_, err = ParseTable("syn.x86-64-v4.txt", fmt.Appendf(nil, src, "zen5"), nil)
	require.ErrorContains(t, err, "the file name has no identity")
	// Without the word, the file name decides (as for op and device).
	tb, err = ParseTable("syn.x86-64-v4.sapphirerapids.txt", []byte("# revision=1\n# keys: n:log batch:log\n[float32]\nn=1 batch=1 | a 1\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, "sapphirerapids", tb.Identity)
}

// The shipped testdata tables are all valid but one is stale on purpose:
// CheckBuiltin must say so (R9), and nothing else.
func TestCheckBuiltin(t *testing.T) {
	fresh(t)
	err := CheckBuiltin()
	require.Error(t, err)
	assert.Equal(t, "stl.x86-64-v4.txt:1: written for revision 1, stl is at revision 2: stale, re-tune it", err.Error())
}

// A shipped table with other key names fails CheckBuiltin, though calls
// skip it; one of another revision is reported as stale by revision only.
func TestCheckBuiltinStaleKeys(t *testing.T) {
	fresh(t)
	builtinTables(t, fstest.MapFS{
		"syn.x86-64-v4.txt": {Data: []byte("# revision=1\n# keys: uplo:exact n:log batch:log\n[float64]\nuplo=L n=64 batch=8 | lpanel:8 1\n")},
		"stl.x86-64-v4.txt": {Data: []byte("# revision=1\n# keys: m:log\n[float64]\nm=64 | a 1\n")},
		"ord.x86-64-v4.txt": {Data: []byte("# revision=1\n# keys: n:log\n[float64]\nn=64 | a 1\n")},
	})
	err := CheckBuiltin()
	require.Error(t, err)
	assert.Equal(t, "stl.x86-64-v4.txt:1: written for revision 1, stl is at revision 2: stale, re-tune it\n"+
		`syn.x86-64-v4.txt:2: keys "uplo:exact n:log batch:log" differ from syn's key names "uplo:exact n:log:3 batch:log"; re-tune with tools/tune`, err.Error())
	var se *StaleError
	assert.True(t, errors.As(err, &se))
}

func TestParseTableByteOrderMark(t *testing.T) {
	src := "\ufeff" + synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"
	tb, err := ParseTable("syn.x86-64-v4.txt", []byte(src), synOp)
	require.NoError(t, err)
	assert.Equal(t, 1, tb.Revision)
	require.Len(t, tb.Sections[Float64], 1)
	assert.Equal(t, 4, tb.Sections[Float64][0].Line)
}

func TestParseTableLineEnds(t *testing.T) {
	lines := []string{"# revision=1", "# keys: uplo:exact n:log:3 batch:log", "[float64]",
		"uplo=L n=64 batch=1024 | blocked 1.00", "", "uplo=L n=8 batch=1024 | tiny 0.5", "[float32]", "uplo=L n=8 batch=1 | tiny 0.5"}
	for name, eol := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		for _, final := range []string{"", eol} {
			src := strings.Join(lines, eol) + final
			tb, err := ParseTable("syn.x86-64-v4.txt", []byte(src), synOp)
			require.NoError(t, err, name)
			require.Len(t, tb.Sections[Float64], 2, name)
			assert.Equal(t, 6, tb.Sections[Float64][1].Line, name)
			assert.Equal(t, synKey("L", 8, 1024), tb.Sections[Float64][1].Key, name)
			require.Len(t, tb.Sections[Float32], 1, name)
			// Errors name the right line whatever the line ends.
			bad := strings.Join(append(slices.Clone(lines[:5]), "uplo=L n=8 batch=1024 | tiny x"), eol) + final
			_, err = ParseTable("syn.x86-64-v4.txt", []byte(bad), synOp)
			assert.EqualError(t, err, `syn.x86-64-v4.txt:6: entry tiny: time "x" is not a non-negative number of milliseconds`, name)
		}
	}
	// Mixed line ends: each of \r\n, \n and a lone \r ends one line.
	src := "\ufeff# revision=1\r# keys: uplo:exact n:log:3 batch:log\r\n[float64]\n\r\nuplo=L n=8 batch=1024 | tiny 0.5\r"
	tb, err := ParseTable("syn.x86-64-v4.txt", []byte(src), synOp)
	require.NoError(t, err)
	require.Len(t, tb.Sections[Float64], 1)
	assert.Equal(t, 5, tb.Sections[Float64][0].Line)
	// The header rules of a table without rows name its last line.
	_, err = ParseTable("syn.x86-64-v4.txt", []byte("# revision=1\r[float64]\r"), synOp)
	assert.EqualError(t, err, "syn.x86-64-v4.txt:2: no # keys: line in the header; it must list the op's key names")
}
