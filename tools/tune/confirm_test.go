package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// Each candidate keeps its faster time, the tie rule ranks the merged
// times again, a candidate that failed verification in the new measurement
// is dropped, and the noise flag follows the kept time.
func TestMergeKeepsTheFasterTimeAndRanksAgain(t *testing.T) {
	a := cellResult{Vals: []string{"L", "2", "1"},
		Entries: withOrder(potrf.Op, sel.Float64, []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.5}, {Spelling: "blocked", MS: 3}}),
		Noisy:   []string{"tiny", "blocked"}}
	b := cellResult{Vals: a.Vals,
		Entries: withOrder(potrf.Op, sel.Float64, []entry{{Spelling: "tiny", MS: 0.99}, {Spelling: "unblocked", MS: 1.2}}),
		Bad:     []note{{"blocked", "wrong result"}}}
	got := mergeMeasurements(potrf.Op, sel.Float64, a, b)
	var order []string
	var ms []float64
	for _, e := range got.Entries {
		order = append(order, e.Spelling)
		ms = append(ms, e.MS)
	}
	// tiny 0.99 and unblocked 1.0 tie (3%): candidate order puts tiny first.
	assert.Equal(t, []string{"tiny", "unblocked"}, order)
	assert.Equal(t, []float64{0.99, 1}, ms)
	assert.Empty(t, got.Noisy, "tiny's kept time came from the quiet measurement")
	assert.Equal(t, []note{{"blocked", "wrong result"}}, got.Bad)
	assert.Equal(t, 1, got.Again)
	again := mergeMeasurements(potrf.Op, sel.Float64, got, b)
	assert.Equal(t, 2, again.Again)
	assert.Len(t, again.Bad, 1, "a candidate that failed twice is reported once")
}

// The cells measured again are the rows whose leave-one-out regret is
// above confirmRegret and the rows that stood in for them; a cell already
// measured again is left alone.
func TestFragileCellsAreTheRegretRowsAndTheirStandIns(t *testing.T) {
	tu := tuners["potrf"]
	// The table of TestLeaveOneOutRegret: only n=4 has a large regret (2,
	// with n=2 standing in).
	times := []struct {
		n       string
		entries []entry
	}{
		{"1", []entry{{Spelling: "tiny", MS: 1}, {Spelling: "unblocked", MS: 2}}},
		{"2", []entry{{Spelling: "tiny", MS: 1}, {Spelling: "unblocked", MS: 1.5}}},
		{"4", []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 2}}},
		{"8", []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.2}}},
		// The same pattern with rows 1.1x apart, where a stand-in is near.
		{"10", []entry{{Spelling: "tiny", MS: 1}, {Spelling: "unblocked", MS: 2}}},
		{"11", []entry{{Spelling: "tiny", MS: 1}, {Spelling: "unblocked", MS: 1.5}}},
		{"12", []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 2}}},
		{"13", []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.2}}},
	}
	r := &opRun{t: tu, kernels: "test", results: map[sel.DType][]cellResult{}}
	for _, c := range times {
		r.results[sel.Float64] = append(r.results[sel.Float64], cellResult{
			Vals: []string{"L", c.n, "1"}, Entries: rankEntries(withOrder(potrf.Op, sel.Float64, c.entries))})
	}
	dev := batchlas.Host()
	texts := func(cs []cell) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.String())
		}
		return out
	}
	// Rows 1, 2, 4 and 8 are 2x apart: n=4's stand-in n=2 is farther than
	// confirmNear, so only the near copy of the pattern is measured
	// again: n=11, which n=12 mispredicts.
	cells, err := r.fragileCells(sel.Float64, dev)
	require.NoError(t, err)
	assert.Equal(t, []string{"uplo=L n=11 batch=1", "uplo=L n=12 batch=1"}, texts(cells))

	// A cell is measured again once.
	r.results[sel.Float64][6].Again = 1
	cells, err = r.fragileCells(sel.Float64, dev)
	require.NoError(t, err)
	assert.Equal(t, []string{"uplo=L n=11 batch=1"}, texts(cells))

	// Once n=11's second measurement ranks unblocked first, n=12's stand-in
	// chooses unblocked and n=12 is no longer fragile, but n=10, for which
	// n=11 stands in, now is: the next round measures n=10 alone.
	r.results[sel.Float64][5].Entries = rankEntries(withOrder(potrf.Op, sel.Float64, []entry{{Spelling: "unblocked", MS: 0.9}, {Spelling: "tiny", MS: 1}}))
	r.results[sel.Float64][5].Again = 1
	cells, err = r.fragileCells(sel.Float64, dev)
	require.NoError(t, err)
	assert.Equal(t, []string{"uplo=L n=10 batch=1"}, texts(cells))
}
