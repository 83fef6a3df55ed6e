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
