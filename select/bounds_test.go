package sel

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// unregistered is an op for ParseTable and Run that is not in the
// registry, so that the tests listing every registered op do not see it.
func unregistered(spec OpSpec) *Op {
	keys, err := ParseKeys(spec.Keys)
	if err != nil {
		panic(err)
	}
	return &Op{spec: spec, keys: keys, idx: 1000}
}

// grdOp is syn's shape with a grid, so that its exact key has a set of
// values (its grid axis) a table row must keep to.
var grdOp = unregistered(OpSpec{
	Name:       "grd",
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:3 batch:log",
	Families:   synFamilies,
	Candidates: map[DType][]Choice{Float64: {tiny, lp8, blocked, vendor}},
	CanRun:     synCanRun,
	Grid: []GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n", Quick: []string{"1", "64"}, Full: []string{"1", "64"}},
		{Key: "batch", Quick: []string{"1"}, Full: []string{"1"}},
	},
})

// tableErr parses text as file for op and returns its *TableError.
func tableErr(t *testing.T, file, text string, op *Op) *TableError {
	t.Helper()
	tb, err := ParseTable(file, []byte(text), op)
	var te *TableError
	require.True(t, errors.As(err, &te), "want a *TableError, got %v", err)
	require.Nil(t, tb)
	return te
}

// TestExactKeyOutsideItsSet: uplo=Q in a table of an op whose uplo takes L
// and U is refused at its line, naming the key, the value quoted and the
// set; a long value is cut in the message.
func TestExactKeyOutsideItsSet(t *testing.T) {
	const file = "grd.x86-64-v4.txt"
	_, err := ParseTable(file, []byte(synHead+"uplo=L n=1 batch=1 | tiny 1\nuplo=U n=1 batch=1 | tiny 1\n"), grdOp)
	require.NoError(t, err)

	te := tableErr(t, file, synHead+"uplo=L n=1 batch=1 | tiny 1\nuplo=Q n=1 batch=1 | tiny 1\n", grdOp)
	require.Equal(t, `grd.x86-64-v4.txt:5: key uplo="Q": want one of L, U`, te.Error())

	long := strings.Repeat("Q", 100000)
	te = tableErr(t, file, synHead+"uplo="+long+" n=1 batch=1 | tiny 1\n", grdOp)
	require.Contains(t, te.Error(), `key uplo="`+strings.Repeat("Q", 80)+`..." (100000 bytes): want one of L, U`)
	require.Less(t, len(te.Error()), 1024)

	// An op without a grid axis for the key has no set to check (syn), and
	// a stale table (other key names) is not held to the op's sets.
	_, err = ParseTable("syn.x86-64-v4.txt", []byte(synHead+"uplo=Q n=1 batch=1 | tiny 1\n"), synOp)
	require.NoError(t, err)
	_, err = ParseTable(file, []byte("# revision=1\n# keys: uplo:exact n:log batch:log\n[float64]\nuplo=Q n=1 batch=1 | tiny 1\n"), grdOp)
	var se *StaleError
	require.True(t, errors.As(err, &se), "want a *StaleError, got %v", err)
}

// distinctEntries is n entries " | s1 1 | s2 1 ...", each spelling its own.
func distinctEntries(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " | s%d 1", i)
	}
	return b.String()
}

// TestRowEntriesCapped: a row may have entriesPerCandidate entries per
// candidate of its op (plus one for a vendor family); one more is refused
// at its line with the cap, before its entries are read.
func TestRowEntriesCapped(t *testing.T) {
	const file = "syn.x86-64-v4.txt"
	limit := synOp.maxRowEntries()
	require.Equal(t, entriesPerCandidate*(6+1), limit, "syn has 6 float64 candidates, and one more for vendor")
	_, err := ParseTable(file, []byte(synHead+"uplo=L n=1 batch=1"+distinctEntries(limit)+"\n"), synOp)
	require.NoError(t, err)
	te := tableErr(t, file, synHead+"uplo=L n=1 batch=1"+distinctEntries(limit+1)+"\n", synOp)
	require.Equal(t, fmt.Sprintf("syn.x86-64-v4.txt:4: row has %d entries; a row of syn may have at most %d (2 per candidate)", limit+1, limit), te.Error())

	// The row of 1.3 million entries, inside the 16 MiB cap: the
	// cap refuses it (it took tens of minutes to read when each entry was
	// compared with every one before it).
	huge := synHead + "uplo=L n=1 batch=1" + strings.Repeat(" | a 1", 1300000) + "\n"
	require.Less(t, len(huge), maxTableBytes)
	te = tableErr(t, file, huge, synOp)
	require.Contains(t, te.Error(), "row has 1300000 entries")
	te = tableErr(t, file, huge, nil)
	require.Contains(t, te.Error(), fmt.Sprintf("may have at most %d", maxRowEntriesNoOp))
}

// TestDuplicateSpellingInARow: a spelling repeated anywhere in a row, in
// either of its forms (lpanel:8 is lpanel:panel=8), is found, and a
// spelling of an earlier row is not a repeat.
func TestDuplicateSpellingInARow(t *testing.T) {
	const file = "syn.x86-64-v4.txt"
	te := tableErr(t, file, synHead+"uplo=L n=1 batch=1"+distinctEntries(12)+" | s7 2\n", synOp)
	require.Equal(t, "syn.x86-64-v4.txt:4: spelling s7 appears twice in the row", te.Error())
	te = tableErr(t, file, synHead+"uplo=L n=1 batch=1 | lpanel:8 1 | tiny 1 | lpanel:panel=8 2\n", synOp)
	require.Equal(t, "syn.x86-64-v4.txt:4: spelling lpanel:panel=8 appears twice in the row", te.Error())
	_, err := ParseTable(file, []byte(synHead+"uplo=L n=1 batch=1 | tiny 1 | s1 1\nuplo=L n=2 batch=1 | tiny 1 | s1 1\n"), synOp)
	require.NoError(t, err)
}

// TestTableRowsCapped: a table of more than MaxTableRows rows, all
// sections together, is refused at the first row past the cap.
func TestTableRowsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(synHead)
	for i := range MaxTableRows / 2 {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1 | a 1\n", i+1)
	}
	b.WriteString("[float32]\n")
	for i := range MaxTableRows - MaxTableRows/2 {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1 | a 1\n", i+1)
	}
	tb, err := ParseTable("syn.x86-64-v4.txt", []byte(b.String()), synOp)
	require.NoError(t, err)
	require.Len(t, tb.Sections[Float64], MaxTableRows/2)
	b.WriteString("uplo=U n=1 batch=1 | a 1\n")
	te := tableErr(t, "syn.x86-64-v4.txt", b.String(), synOp)
	require.Equal(t, MaxTableRows+5, te.Line) // 3 header lines, 1 section line
	require.Contains(t, te.Error(), fmt.Sprintf("more than %d rows: a table may have at most %d", MaxTableRows, MaxTableRows))
}

// TestManyLinesCostLittle: a 16 MiB file of empty lines or of section
// lines is walked without a slice or map entry per line: it is refused (or
// read) allocating a small part of what one per line would take.
func TestManyLinesCostLittle(t *testing.T) {
	for name, text := range map[string]string{
		"empty lines":   synHead + strings.Repeat("\n", maxTableBytes-len(synHead)),
		"section lines": "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n" + strings.Repeat("[float64]\n", maxTableBytes/10-10),
	} {
		data := []byte(text)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _ = ParseTable("syn.x86-64-v4.txt", data, synOp)
		runtime.ReadMemStats(&after)
		// The text's one copy (16 MiB) and little else; a string header
		// per line would be 16 bytes a line, a map entry more.
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(2*maxTableBytes), name)
	}
}

// BenchmarkParseWidestRows is the parse of a 16 MiB table whose rows are
// all at the entry cap: its time is linear in the file's size (each entry
// is read once and its duplicate check is O(1)).
func BenchmarkParseWidestRows(b *testing.B) {
	data := []byte(largestTable("entries"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTable("wid.x86-64-v4.txt", data, widOp); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpellingCacheBounded: a table naming many distinct words grows the
// parser's cache of parsed spellings only to maxCachedSpellings, and every
// spelling still parses as it would uncached.
func TestSpellingCacheBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(synHead)
	for i := range 3 * maxCachedSpellings {
		fmt.Fprintf(&b, "uplo=L n=%d batch=1 | w%d 1 | lpanel:8 2\n", i+1, i)
	}
	p := tableParser{file: "syn.x86-64-v4.txt", op: synOp}
	tb, err := p.parse([]byte(b.String()))
	require.NoError(t, err)
	require.LessOrEqual(t, len(p.choices), maxCachedSpellings)
	rows := tb.Sections[Float64]
	require.Len(t, rows, 3*maxCachedSpellings)
	last := rows[len(rows)-1]
	require.True(t, last.Entries[0].Choice.IsZero(), "w... is no candidate")
	require.Equal(t, lp8, last.Entries[1].Choice, "parsed after the cache is full")
}
