package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// settleGrid is a potrf grid of five sizes by five batches, so that cells
// lie on and off the lattice along both log keys.
const settleGrid = "uplo=L,n=1:2:4:8:16,batch=1:4:16:64:256"

// settlePrior is a prior whose rows put tiny first for n <= 4 and
// unblocked first for n >= 8, at every cell of settleGrid.
func settlePrior(t *testing.T) *prior {
	t.Helper()
	var b strings.Builder
	b.WriteString("# op=potrf device=x86-64-v4 revision=" + strconv.Itoa(potrf.Op.Spec().Revision) + "\n# keys: uplo:exact n:log:4 batch:log\n[float64]\n")
	for _, n := range []string{"1", "2", "4", "8", "16"} {
		for _, batch := range []string{"1", "4", "16", "64", "256"} {
			first, second := "tiny", "unblocked"
			if n == "8" || n == "16" {
				first, second = second, first
			}
			b.WriteString("uplo=L n=" + n + " batch=" + batch + " | " + first + " 1 | " + second + " 3\n")
		}
	}
	tab, err := sel.ParseTable("potrf.x86-64-v4.zen5.txt", []byte(b.String()), potrf.Op)
	require.NoError(t, err)
	p := newPrior(potrf.Op, map[sel.DType]*sel.Table{sel.Float64: tab})
	return &p
}

func settleCells(t *testing.T) (gridLattice, []cell) {
	t.Helper()
	g, err := parseGridFlag(settleGrid)
	require.NoError(t, err)
	cells, err := expandGrid(potrf.Op, g)
	require.NoError(t, err)
	require.Len(t, cells, 25)
	return newGridLattice(potrf.Op, g), cells
}

func texts(cells []cell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.String())
	}
	slices.Sort(out)
	return out
}

// A cell is deferred only off the lattice and where the prior names the
// same winner at the cells one step away along each key.
func TestSettleDefersOnlyWhereThePriorIsUniform(t *testing.T) {
	l, cells := settleCells(t)
	first, deferred := deferSettled(l, settlePrior(t), sel.Float64, cells)
	assert.Len(t, append(first, deferred...), 25)
	// Off the lattice: n=2 or n=8 (positions 1 and 3), batch=4 or 64.
	// n=2 lies between n=1 and n=4 (both tiny): deferred at every batch.
	// n=8 lies between n=4 (tiny) and n=16 (unblocked): never deferred,
	// and neither are n=4's odd batches, next to n=8. n=1's and n=16's odd
	// batches are deferred: every neighbour agrees.
	var want []cell
	for _, c := range cells {
		n, batch := c.get("n"), c.get("batch")
		switch {
		case n == "2":
			want = append(want, c)
		case (n == "1" || n == "16") && (batch == "4" || batch == "64"):
			want = append(want, c)
		}
	}
	assert.Equal(t, texts(want), texts(deferred))
	for _, c := range first {
		if n := c.get("n"); n == "8" || n == "4" {
			continue
		}
		assert.True(t, l.onLattice(c), "%s measured first though the prior is uniform around it", c)
	}

	// No prior: everything is measured.
	first, deferred = deferSettled(l, nil, sel.Float64, cells)
	assert.Len(t, first, 25)
	assert.Empty(t, deferred)
}

// A deferred cell is measured once a measured cell around it finds the
// prior's winner more than settleTolerance slower than this machine's
// fastest; a cell whose neighbours all confirm the prior stays settled.
func TestSettleMeasuresWhereTheMachineDisagrees(t *testing.T) {
	l, cells := settleCells(t)
	pr := settlePrior(t)
	first, deferred := deferSettled(l, pr, sel.Float64, cells)
	measured := map[string]cellResult{}
	for _, c := range first {
		// The machine agrees with the prior everywhere but at n=1
		// batch=16, where unblocked wins by 1.5x.
		es := []entry{{Spelling: pr.winner(sel.Float64, c), MS: 1}, {Spelling: "lanes", MS: 2}}
		if c.get("n") == "1" && c.get("batch") == "16" {
			es = []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.5}}
		}
		measured[c.String()] = cellResult{Op: "potrf", DType: sel.Float64, Vals: c.vals, Entries: es}
	}
	now, still := unsettled(l, pr, sel.Float64, deferred, measured, cellIndex(first))
	// Around n=1 batch=16: n <= 2 and batch 4..64.
	var want []cell
	for _, c := range deferred {
		if (c.get("n") == "1" || c.get("n") == "2") && (c.get("batch") == "4" || c.get("batch") == "16" || c.get("batch") == "64") {
			want = append(want, c)
		}
	}
	assert.Equal(t, texts(want), texts(now))
	assert.Len(t, still, len(deferred)-len(want))

	// Within the tolerance is agreement: the same cell at 1.05x.
	c := potrfCell("L", "1", "16")
	measured[c.String()] = cellResult{Op: "potrf", DType: sel.Float64, Vals: c.vals, Entries: []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.05}}}
	now, _ = unsettled(l, pr, sel.Float64, deferred, measured, cellIndex(first))
	assert.Empty(t, now)
}

// An express run leaves settled cells out of the table and says how many;
// where the machine disagrees with the prior, it measures every cell.
func TestExpressRunSettlesOnlyWhatTheMachineConfirms(t *testing.T) {
	dev := batchlas.Host()
	run := func(t *testing.T, first, second string) (*sel.Table, string) {
		prior := t.TempDir()
		// Measured on today's kernels, so that it is the prior even where
		// a built-in table of the same level is fresh too (priorTable).
		prov := provenance{op: "potrf", device: dev.Key, revision: potrf.Op.Spec().Revision, kernels: potrf.Op.KernelsHash(),
			date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), host: "test", cores: 1, grid: "test"}
		var es []entry
		for i, c := range potrf.Op.Candidates(sel.Float64) {
			ms := 100 + float64(i)
			switch c.String() {
			case first:
				ms = 1
			case second:
				ms = 1.5
			}
			es = append(es, entry{c.String(), i, ms})
		}
		es = rankEntries(es)
		doc := &tableDoc{header: prov.header(), keys: potrf.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: []tableRow{
			{cell: potrfCell("L", "4", "32"), entries: es},
		}}}}
		require.NoError(t, os.WriteFile(filepath.Join(prior, tableFileName("potrf", dev.Key)), doc.bytes(), 0o644))
		t.Cleanup(sel.Reload)
		t.Setenv("BATCHLAS_TUNED_DIR", prior)
		sel.Reload()
		out := t.TempDir()
		// Batches of 16 and more: tiled's per-call set-up makes it several
		// times slower than tiny there (the shipped tables: 7x at n <= 4).
		args := []string{"run", "--op", "potrf", "--dtype", "float64", "--profile", "express", "--grid", "uplo=L,n=2:3:4,batch=16:32:64",
			"--out", out, "--target", "20us", "--refine-max", "0"}
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
		data, err := os.ReadFile(filepath.Join(out, tableFileName("potrf", dev.Label())))
		require.NoError(t, err)
		tab, err := sel.ParseTable(tableFileName("potrf", dev.Label()), data, potrf.Op)
		require.NoError(t, err)
		assert.Empty(t, tab.Header["partial"], "complete")
		return tab, stdout.String()
	}
	t.Run("confirmed", func(t *testing.T) {
		tab, out := run(t, "tiny", "tiled")
		// n=3 and batch=32 are off the lattice: 5 of the 9 cells.
		assert.Len(t, tab.Sections[sel.Float64], 4, "the lattice cells only")
		assert.Contains(t, out, "5 settled by the prior")
	})
	t.Run("disagreed", func(t *testing.T) {
		tab, out := run(t, "tiled", "tiny")
		assert.Len(t, tab.Sections[sel.Float64], 9, "every cell measured")
		assert.NotContains(t, out, "settled")
	})
}

// A settled cell has no row: where the nearest measured row ranks the
// prior's winner more than settleTolerance slower, the table would answer
// otherwise there, and the cell is measured (a hole); where the nearest
// row agrees, it stays settled.
func TestHolesAreSettledCellsTheTableWouldAnswerOtherwise(t *testing.T) {
	pr := settlePrior(t) // unblocked first for n >= 8, tiny below
	_, cells := settleCells(t)
	at := func(n, batch string) cell {
		i := slices.IndexFunc(cells, func(c cell) bool { return c.String() == "uplo=L n="+n+" batch="+batch })
		require.GreaterOrEqual(t, i, 0)
		return cells[i]
	}
	r := &opRun{t: tuners["potrf"], prior: pr, kernels: "test", results: map[sel.DType][]cellResult{}}
	measured := []struct {
		n, batch string
		entries  []entry
	}{
		// n=8 batch=4 agrees with the prior; n=16 batch=256 does not:
		// tiny is 2x faster there.
		{"8", "4", []entry{{Spelling: "unblocked", MS: 1}, {Spelling: "tiny", MS: 1.5}}},
		{"16", "256", []entry{{Spelling: "tiny", MS: 1}, {Spelling: "unblocked", MS: 2}}},
	}
	for _, m := range measured {
		r.results[sel.Float64] = append(r.results[sel.Float64], cellResult{
			Vals: []string{"L", m.n, m.batch}, Entries: rankEntries(withOrder(potrf.Op, sel.Float64, m.entries))})
	}
	tab, err := r.sectionTable(sel.Float64, batchlas.Host())
	require.NoError(t, err)
	// n=8 batch=1 is nearest n=8 batch=4 (unblocked, as the prior says);
	// n=16 batch=64 is nearest n=16 batch=256 (tiny, against the prior).
	now, still := r.holes(tab, sel.Float64, []cell{at("8", "1"), at("16", "64")})
	assert.Equal(t, []string{"uplo=L n=16 batch=64"}, texts(now))
	assert.Equal(t, []string{"uplo=L n=8 batch=1"}, texts(still))
}
