package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/batchlas-go/batchlas/ops/ormqr"
	sel "github.com/batchlas-go/batchlas/select"
)

func ormqrRow(k string, es ...entry) tableRow {
	return tableRow{cell: newCell(ormqr.Op.Keys(), []string{"L", "N", "32", "32", k, "64"}), entries: withOrder(ormqr.Op, sel.Float64, es)}
}

func rowSpellings(r tableRow) []string {
	var out []string
	for _, e := range r.entries {
		out = append(out, e.Spelling)
	}
	return out
}

// ormqr's blocked:nb=X runs unblocked's code at k <= X (its twin there).
// The row at k = 8, where all four are one code, takes its order from the
// row at k = 32, the nearest that times them apart, by the code each runs
// halfway (k = 16): blocked:nb=8 its own, the others unblocked's, which
// blocked:nb=32 also runs at k = 32. At k = 1 every candidate still runs
// unblocked's code halfway to k = 32, so candidate order stays; the k = 32
// row's own twins (unblocked and blocked:nb=32) have no row that times them
// apart. The written table passes check.
func TestOrderTwinTiesFollowsTheCodeRunPastTheRow(t *testing.T) {
	same := func(k string, ms float64) tableRow {
		return ormqrRow(k, entry{Spelling: "unblocked", MS: ms}, entry{Spelling: "blocked:nb=8", MS: ms},
			entry{Spelling: "blocked:nb=16", MS: ms}, entry{Spelling: "blocked:nb=32", MS: ms}, entry{Spelling: "vendor", MS: 9})
	}
	candidateOrder := []string{"unblocked", "blocked:nb=8", "blocked:nb=16", "blocked:nb=32", "vendor"}
	rows := []tableRow{
		same("1", 0.1),
		same("8", 1),
		ormqrRow("32", entry{Spelling: "blocked:nb=16", MS: 0.5}, entry{Spelling: "blocked:nb=8", MS: 0.6},
			entry{Spelling: "unblocked", MS: 1.2}, entry{Spelling: "blocked:nb=32", MS: 1.2}, entry{Spelling: "vendor", MS: 3}),
	}
	orderTwinTies(ormqr.Op, sel.Float64, rows)
	assert.Equal(t, candidateOrder, rowSpellings(rows[0]), "unblocked's code halfway for all: candidate order")
	assert.Equal(t, []string{"blocked:nb=8", "unblocked", "blocked:nb=16", "blocked:nb=32", "vendor"}, rowSpellings(rows[1]),
		"blocked:nb=16 runs unblocked's code halfway: it ranks as unblocked, though it leads at k = 32")
	assert.Equal(t, []string{"blocked:nb=16", "blocked:nb=8", "unblocked", "blocked:nb=32", "vendor"}, rowSpellings(rows[2]), "no row times its twins apart")

	prov := provenance{op: "ormqr", device: "x86-64-v4", revision: ormqr.Op.Spec().Revision, kernels: ormqr.Op.KernelsHash(),
		date: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), host: "test", cores: 2, grid: "test"}
	doc := &tableDoc{header: prov.header(), keys: ormqr.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: rows}}}
	_, _, problems := checkTable("ormqr.x86-64-v4.txt", doc.bytes())
	assert.Empty(t, problems, "equal times in any order")

	// Where unblocked's code leads at the far row, unblocked leads.
	slow := []tableRow{same("8", 1), ormqrRow("32", entry{Spelling: "unblocked", MS: 0.4}, entry{Spelling: "blocked:nb=32", MS: 0.4},
		entry{Spelling: "blocked:nb=8", MS: 0.6}, entry{Spelling: "blocked:nb=16", MS: 0.7}, entry{Spelling: "vendor", MS: 3})}
	orderTwinTies(ormqr.Op, sel.Float64, slow)
	assert.Equal(t, []string{"unblocked", "blocked:nb=16", "blocked:nb=32", "blocked:nb=8", "vendor"}, rowSpellings(slow[0]))

	// A row apart only in another exact key does not count.
	lone := []tableRow{same("8", 1), {cell: newCell(ormqr.Op.Keys(), []string{"R", "N", "32", "32", "32", "64"}), entries: rows[2].entries}}
	orderTwinTies(ormqr.Op, sel.Float64, lone)
	assert.Equal(t, candidateOrder, rowSpellings(lone[0]))
}

// check still wants the tie rule where times differ: a slower entry
// ahead of a faster one outside the 3% is refused.
func TestCheckRefusesUnequalTimesOutOfOrder(t *testing.T) {
	rows := []tableRow{ormqrRow("32", entry{Spelling: "blocked:nb=16", MS: 0.6}, entry{Spelling: "blocked:nb=8", MS: 0.5},
		entry{Spelling: "unblocked", MS: 1.2}, entry{Spelling: "blocked:nb=32", MS: 1.2}, entry{Spelling: "vendor", MS: 3})}
	prov := provenance{op: "ormqr", device: "x86-64-v4", revision: ormqr.Op.Spec().Revision, kernels: ormqr.Op.KernelsHash(),
		date: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), host: "test", cores: 2, grid: "test"}
	doc := &tableDoc{header: prov.header(), keys: ormqr.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: rows}}}
	_, _, problems := checkTable("ormqr.x86-64-v4.txt", doc.bytes())
	assert.Len(t, problems, 1)
}
