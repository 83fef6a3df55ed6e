package sel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table parses rows under the given keys line, without an op.
func table(t *testing.T, keys string, rows ...string) *Table {
	t.Helper()
	src := "# revision=1\n# keys: " + keys + "\n[float64]\n" + strings.Join(rows, "\n") + "\n"
	tb, err := ParseTable("t.x86-64-v4.txt", []byte(src), nil)
	require.NoError(t, err)
	return tb
}

func nearest(t *testing.T, tb *Table, vals ...KeyVal) (*Row, float64) {
	t.Helper()
	r, d, err := tb.Nearest(Float64, MakeKey(vals...))
	require.NoError(t, err)
	require.NotNil(t, r)
	return r, d
}

func TestNearestOnGridAndMidpoint(t *testing.T) {
	tb := table(t, "n:log batch:log", "n=64 batch=1024 | a 1", "n=128 batch=1024 | b 1")
	r, d := nearest(t, tb, Int(64), Int(1024))
	assert.Equal(t, 4, r.Line)
	assert.Zero(t, d)
	r, d = nearest(t, tb, Int(128), Int(1024))
	assert.Equal(t, 5, r.Line)
	assert.Zero(t, d)
	// The geometric midpoint of 64 and 128 is 90.5.
	r, _ = nearest(t, tb, Int(90), Int(1024))
	assert.Equal(t, "a", r.Entries[0].Spelling, "n=90 goes to 64")
	r, _ = nearest(t, tb, Int(91), Int(1024))
	assert.Equal(t, "b", r.Entries[0].Spelling, "n=91 goes to 128")
	// Sizes below 1 count as 1.
	r, d = nearest(t, tb, Int(0), Int(1024))
	assert.Equal(t, "a", r.Entries[0].Spelling)
	assert.InDelta(t, 6.0, d, 1e-12)
}

func TestNearestExactKeys(t *testing.T) {
	tb := table(t, "uplo:exact side:exact n:log",
		"uplo=L side=R n=64 | far 1",
		"uplo=U side=L n=8 | near 1",
		"uplo=U side=R n=512 | ur 1")
	r, _ := nearest(t, tb, Str("U"), Str("R"), Int(8))
	assert.Equal(t, "ur", r.Entries[0].Spelling, "exact keys filter before distance")
	// No row has (L, L): side is dropped first, uplo=L still matches.
	r, _ = nearest(t, tb, Str("L"), Str("L"), Int(8))
	assert.Equal(t, "far", r.Entries[0].Spelling, "the rightmost exact key is dropped first")
	// No row has uplo=X at all: both dropped, the nearest n wins.
	r, _ = nearest(t, tb, Str("X"), Str("L"), Int(8))
	assert.Equal(t, "near", r.Entries[0].Spelling)
}

func TestNearestDistanceSumsAndWeights(t *testing.T) {
	tb := table(t, "n:log batch:log", "n=64 batch=1 | a 1", "n=8 batch=1024 | b 1")
	r, d := nearest(t, tb, Int(16), Int(1024))
	assert.Equal(t, "b", r.Entries[0].Spelling)
	assert.InDelta(t, 1.0, d, 1e-12, "|3-4| + |10-10|")

	rows := []string{"n=32 batch=1 | a 1", "n=8 batch=32 | b 1"}
	r, d = nearest(t, table(t, "n:log batch:log", rows...), Int(32), Int(32))
	assert.Equal(t, "b", r.Entries[0].Spelling)
	assert.InDelta(t, 2.0, d, 1e-12)
	r, d = nearest(t, table(t, "n:log:3 batch:log", rows...), Int(32), Int(32))
	assert.Equal(t, "a", r.Entries[0].Spelling, "a weight of 3 makes n count three times")
	assert.InDelta(t, 5.0, d, 1e-12)
}

func TestNearestTies(t *testing.T) {
	// Both rows are at distance 2; file order puts the larger n first.
	tb := table(t, "n:log batch:log", "n=128 batch=16 | big 1", "n=32 batch=64 | small 1")
	r, d := nearest(t, tb, Int(64), Int(32))
	assert.Equal(t, "small", r.Entries[0].Spelling, "ties go to the smaller n")
	assert.InDelta(t, 2.0, d, 1e-12)
	tb = table(t, "n:log batch:log", "n=64 batch=64 | more 1", "n=64 batch=16 | fewer 1")
	r, _ = nearest(t, tb, Int(64), Int(32))
	assert.Equal(t, "fewer", r.Entries[0].Spelling, "then to the smaller batch")
}

func TestNearestKeyErrors(t *testing.T) {
	tb := table(t, "uplo:exact n:log", "uplo=L n=64 | a 1")
	_, _, err := tb.Nearest(Float64, MakeKey(Int(64)))
	assert.EqualError(t, err, `t.x86-64-v4.txt: the key has 1 value(s) but the table's keys are "uplo:exact n:log"; the op must supply every key`)
	_, _, err = tb.Nearest(Float64, MakeKey(Str(""), Int(64)))
	assert.EqualError(t, err, "t.x86-64-v4.txt: exact key uplo has no value; the op must supply it")
	r, d, err := tb.Nearest(Float32, MakeKey(Str("L"), Int(64)))
	assert.NoError(t, err)
	assert.Nil(t, r, "no section, no row")
	assert.Zero(t, d)
}

// celOp has a tuner grid, so its tables' rows are searched by grid cell.
// It is not registered: the other tests list every registered op.
var celOp = func() *Op {
	spec := OpSpec{Name: "cel", Revision: 1, Keys: "n:log:16 batch:log", Families: abFamilies, Candidates: abCands, CanRun: canAll,
		Grid: []GridAxis{
			{Key: "n", Quick: []string{"4", "16"}, Full: []string{"4", "8", "16"}},
			{Key: "batch", Quick: []string{"1", "1024"}, Full: []string{"1", "32", "1024"}},
		}}
	keys, err := ParseKeys(spec.Keys)
	if err != nil {
		panic(err)
	}
	return &Op{spec: spec, keys: keys}
}()

// celTable parses rows as celOp's table with the given grid header word
// ("" for none).
func celTable(t *testing.T, grid string, rows ...string) *Table {
	t.Helper()
	src := "# revision=1\n"
	if grid != "" {
		src += "# grid=" + grid + "\n"
	}
	src += "# keys: n:log:16 batch:log\n[float64]\n" + strings.Join(rows, "\n") + "\n"
	tb, err := ParseTable("cel.x86-64-v4.txt", []byte(src), celOp)
	require.NoError(t, err)
	return tb
}

// The quick grid's four cells, and a refinement row at n=8 (between the
// grid's 4 and 16) measured at batch 1024 only, where b won.
var celRows = []string{
	"n=4 batch=1 | a 1 | b 2",
	"n=16 batch=1 | a 1 | b 2",
	"n=4 batch=1024 | b 1 | a 2",
	"n=16 batch=1024 | b 1 | a 2",
	"n=8 batch=1024 | b 1 | a 2",
}

func TestNearestStaysInTheGridCell(t *testing.T) {
	tb := celTable(t, "quick", celRows...)
	// By distance alone the refinement row is nearest to n=8 batch=1
	// (10 against 16), but batch 1 is a grid value and the row lies
	// outside the call's cell; a grid row at batch 1 serves it.
	r, d := nearest(t, tb, Int(8), Int(1))
	assert.Equal(t, "n=4 batch=1", r.Key.Format(tb.Keys))
	assert.InDelta(t, 16.0, d, 1e-9)
	// Inside its cell (batch between 1 and 1024) the refinement row serves.
	r, _ = nearest(t, tb, Int(8), Int(1000))
	assert.Equal(t, "n=8 batch=1024", r.Key.Format(tb.Keys))
	r, _ = nearest(t, tb, Int(7), Int(2))
	assert.Equal(t, "n=8 batch=1024", r.Key.Format(tb.Keys), "batch 2 lies in the cell (1, 1024)")
	// Beyond the grid the cell is the last value: batch 5000 is served by
	// rows at 1024.
	r, _ = nearest(t, tb, Int(9), Int(5000))
	assert.Equal(t, "n=8 batch=1024", r.Key.Format(tb.Keys))
}

func TestNearestLeavesAnEmptyCell(t *testing.T) {
	// No row in the cell n=16 batch=1024 (a cell the work caps skipped):
	// the whole section is searched, as for a table without a grid.
	tb := celTable(t, "quick", celRows[:3]...)
	r, _ := nearest(t, tb, Int(16), Int(2000))
	assert.Equal(t, "n=16 batch=1", r.Key.Format(tb.Keys))
	// A table that does not name its grid is searched whole.
	tb = celTable(t, "", celRows...)
	r, _ = nearest(t, tb, Int(8), Int(1))
	assert.Equal(t, "n=8 batch=1024", r.Key.Format(tb.Keys))
	// So is a table whose grid word this package cannot read.
	tb = celTable(t, "n=4:x", celRows...)
	r, _ = nearest(t, tb, Int(8), Int(1))
	assert.Equal(t, "n=8 batch=1024", r.Key.Format(tb.Keys))
}

func TestNearestCellOfFullAndCustomGrids(t *testing.T) {
	// n=7 is the nearest row to n=9 batch=1 by distance, and in its quick
	// cell (n in [4, 16]); the full grid and this custom one have n=8, so
	// their cell is n in [8, 16], which n=7 is not in.
	rows := []string{
		"n=7 batch=1 | a 1 | b 2",
		"n=16 batch=1 | b 1 | a 2",
		"n=8 batch=1024 | b 1 | a 2",
	}
	for _, c := range []struct{ grid, want string }{
		{"quick", "n=7 batch=1"},
		{"full", "n=16 batch=1"},
		{"n=4:8:16", "n=16 batch=1"}, // batch keeps its quick values
		{"batch=1:1024", "n=7 batch=1"},
	} {
		tb := celTable(t, c.grid, rows...)
		r, _ := nearest(t, tb, Int(9), Int(1))
		assert.Equal(t, c.want, r.Key.Format(tb.Keys), "grid=%s", c.grid)
	}
}

// KeyDistance is the distance Nearest reports, weights included; another
// exact key is no distance.
func TestKeyDistanceIsNearests(t *testing.T) {
	tb := table(t, "uplo:exact n:log:4 batch:log",
		"uplo=L n=8 batch=64 | a 1", "uplo=L n=64 batch=2 | b 1", "uplo=U n=16 batch=512 | c 1")
	for _, k := range []Key{MakeKey(Str("L"), Int(11), Int(100)), MakeKey(Str("L"), Int(40), Int(1)), MakeKey(Str("U"), Int(0), Int(9000))} {
		r, d, err := tb.Nearest(Float64, k)
		require.NoError(t, err)
		got, ok := KeyDistance(tb.Keys, k, r.Key)
		require.True(t, ok)
		assert.InDelta(t, d, got, 1e-12, "%v", k)
	}
	_, ok := KeyDistance(tb.Keys, MakeKey(Str("L"), Int(8), Int(64)), MakeKey(Str("U"), Int(8), Int(64)))
	assert.False(t, ok, "another exact key")
	_, ok = KeyDistance(tb.Keys, MakeKey(Int(8)), MakeKey(Int(8)))
	assert.False(t, ok, "a key of another length")
}
