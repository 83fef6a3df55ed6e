package main

import (
	"math"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

func cellTexts(cs []cell) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestExpandGridEveryKeyIsItsOwnAxis(t *testing.T) {
	g, err := parseGridFlag("m=8:2,n=1,k=4,batch=16")
	require.NoError(t, err)
	cells, err := expandGrid(gemm.Op, g)
	require.NoError(t, err)
	// ta and tb keep their quick values (both transposes each); m, n and k
	// take their own values; sorted in table row order.
	assert.Equal(t, []string{
		"ta=N tb=N m=2 n=1 k=4 batch=16",
		"ta=N tb=N m=8 n=1 k=4 batch=16",
		"ta=N tb=T m=2 n=1 k=4 batch=16",
		"ta=N tb=T m=8 n=1 k=4 batch=16",
		"ta=T tb=N m=2 n=1 k=4 batch=16",
		"ta=T tb=N m=8 n=1 k=4 batch=16",
		"ta=T tb=T m=2 n=1 k=4 batch=16",
		"ta=T tb=T m=8 n=1 k=4 batch=16",
	}, cellTexts(cells))

	_, err = parseGridFlag("n=8,n=16")
	assert.Error(t, err)
	g, _ = parseGridFlag("n=0")
	_, err = expandGrid(potrf.Op, g)
	assert.ErrorContains(t, err, "positive integer")
}

// TestGridsSpanEveryKey holds each op's quick and full grids to the
// design: every exact key takes every value its axis lists, and any two log
// keys vary independently (their value pairs are the full product), so no
// size is tied to another.
func TestGridsSpanEveryKey(t *testing.T) {
	for _, name := range tunerNames() {
		tu := tuners[name]
		for _, gname := range []string{"quick", "full"} {
			cells, err := expandGrid(tu.op, gridFlag{name: gname, text: gname})
			require.NoError(t, err, name)
			require.NotEmpty(t, cells, name)
			keys := tu.op.Keys()
			seen := map[string]bool{}
			distinct := make([]map[string]bool, len(keys))
			for i := range keys {
				distinct[i] = map[string]bool{}
			}
			for _, c := range cells {
				assert.False(t, seen[c.String()], "%s: duplicate cell %s", name, c)
				seen[c.String()] = true
				require.Equal(t, len(keys), len(c.vals))
				for i, v := range c.vals {
					distinct[i][v] = true
				}
			}
			for i, k := range keys {
				ax := tu.op.Spec().Grid[slicesIndexAxis(tu.op.Spec().Grid, k.Name)]
				want := gridFlag{name: gname}.axisValues(ax)
				assert.Len(t, distinct[i], len(want), "%s %s grid: key %s", name, gname, k.Name)
				if k.Kind == sel.Exact {
					assert.GreaterOrEqual(t, len(want), 2, "%s: exact key %s must be measured over all its values", name, k.Name)
				}
			}
			for i := range keys {
				for j := i + 1; j < len(keys); j++ {
					pairs := map[[2]string]bool{}
					for _, c := range cells {
						pairs[[2]string{c.vals[i], c.vals[j]}] = true
					}
					assert.Len(t, pairs, len(distinct[i])*len(distinct[j]), "%s %s grid: keys %s and %s are not independent", name, gname, keys[i].Name, keys[j].Name)
				}
			}
		}
	}
}

func slicesIndexAxis(axes []sel.GridAxis, key string) int {
	for i, ax := range axes {
		if ax.Key == key {
			return i
		}
	}
	return -1
}

func TestParseCellArgs(t *testing.T) {
	c, err := parseCellArgs(gemm.Op, []string{"ta=N", "tb=T", "m=3", "n=64", "k=5", "batch=100"})
	require.NoError(t, err)
	assert.Equal(t, "ta=N tb=T m=3 n=64 k=5 batch=100", c.String())
	_, err = parseCellArgs(gemm.Op, []string{"ta=N", "n=64", "batch=100"})
	assert.ErrorContains(t, err, "missing key(s) tb, m, k (keys: ta=N|T tb=N|T m=<n> n=<n> k=<n> batch=<n>)", "every missing key at once, with the key list and the values of exact keys")
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=4"})
	assert.ErrorContains(t, err, "missing key(s) batch")
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=4", "batch=2", "m=3"})
	assert.ErrorContains(t, err, `no key "m"`)
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=-4", "batch=2"})
	assert.Error(t, err)
	_, err = parseCellArgs(potrf.Op, []string{"uplo=X", "n=4", "batch=2"})
	assert.EqualError(t, err, "potrf: key uplo=X: want one of L, U", "an exact key takes only the values its grid axis lists")
}

func TestRefinePointsBisectWhereWinnersDisagree(t *testing.T) {
	res := func(n string, es ...entry) cellResult {
		return cellResult{Vals: []string{"L", n, "16"}, Entries: es}
	}
	results := map[string]cellResult{}
	var cells []cell
	for _, r := range []cellResult{
		res("4", entry{"tiny", 0, 1}, entry{"unblocked", 1, 2}),
		res("16", entry{"tiny", 0, 1}, entry{"unblocked", 1, 1.5}),
		res("64", entry{"unblocked", 1, 1}, entry{"tiny", 0, 3}),
		res("80", entry{"unblocked", 1, 1}, entry{"tiny", 0, 1.08}), // within 10%: no disagreement with 64
		res("99", entry{"tiny", 0, 1}, entry{"unblocked", 1, 1.1}),  // 99/80 < 1.25: too close
	} {
		c := potrfCell(r.Vals...)
		cells = append(cells, c)
		results[c.String()] = r
	}
	stake := func(a, b string) float64 { return winnerStake(results[a], results[b]) }
	tried := map[string]bool{}
	got := refinePoints(cells, stake, "n", refineRatio, tried)
	require.Len(t, got, 1, "only 16..64 disagree and are far apart")
	assert.Equal(t, "uplo=L n=32 batch=16", got[0].String())
	assert.InDelta(t, 3.0, got[0].stake, 1e-9, "unblocked is 1.5x at 16, tiny 3x at 64: the larger is at stake")
	assert.Empty(t, refinePoints(cells, stake, "n", refineRatio, tried), "a midpoint is proposed once")

	// Sizes 2 and 3 disagree but have no integer between them.
	cells = []cell{potrfCell("L", "2", "16"), potrfCell("L", "3", "16")}
	results[cells[0].String()] = res("2", entry{"tiny", 0, 1}, entry{"unblocked", 1, 2})
	results[cells[1].String()] = res("3", entry{"unblocked", 1, 1}, entry{"tiny", 0, 2})
	assert.Empty(t, refinePoints(cells, stake, "n", refineRatio, map[string]bool{}))
}

func TestRefinePointsAlongEachAxis(t *testing.T) {
	keys := trsm.Op.Keys()
	mk := func(m, n, batch string) cell {
		return newCell(keys, []string{"L", "L", "N", "N", m, n, batch})
	}
	// A line along n (m=64) and a line along batch (n=1); they meet at
	// m=64 n=1 batch=16.
	cells := []cell{mk("64", "1", "16"), mk("64", "16", "16"), mk("64", "1", "4096")}
	all := func(string, string) float64 { return 2 }
	got := pickRefinement(refinePoints(cells, all, "n", refineRatio, map[string]bool{}), -1)
	assert.Equal(t, []string{"side=L uplo=L ta=N diag=N m=64 n=4 batch=16"}, cellTexts(got), "n is bisected with m and batch held")
	got = pickRefinement(refinePoints(cells, all, "batch", refineRatio, map[string]bool{}), -1)
	assert.Equal(t, []string{"side=L uplo=L ta=N diag=N m=64 n=1 batch=256"}, cellTexts(got))
	assert.Empty(t, refinePoints(cells, all, "m", refineRatio, map[string]bool{}), "no two cells differ in m alone")
	assert.Equal(t, []string{"m", "n", "batch"}, logAxes(trsm.Op))
	assert.Equal(t, []string{"m", "n", "k", "batch"}, logAxes(gemm.Op))
}

func TestExtendPointsLineARefinementCellUp(t *testing.T) {
	// A grid n = 32, 64 by batch = 1, 4, and the refinement cell n = 45
	// at batch = 1, where the per-matrix kernel wins; at batch 4 the
	// lanes kernel wins at 32 and 64, and per-matrix is 2x slower there.
	perMatrix := []entry{{"unblocked", 1, 1}, {"lanes", 0, 1.5}}
	lanes := []entry{{"lanes", 0, 1}, {"unblocked", 1, 2}}
	results := map[string]cellResult{}
	var cells []cell
	add := func(n, batch string, es []entry) {
		c := potrfCell("L", n, batch)
		cells = append(cells, c)
		results[c.String()] = cellResult{Vals: c.vals, Entries: es}
	}
	add("32", "1", perMatrix)
	add("64", "1", perMatrix)
	add("32", "4", lanes)
	add("64", "4", lanes)
	add("45", "1", perMatrix)
	all := func(cell) bool { return true }
	tried := map[string]bool{}
	got := extendPoints(cells, results, "batch", tried, all)
	require.Len(t, got, 1, "only the refinement cell has an extension to measure")
	assert.Equal(t, "uplo=L n=45 batch=4", got[0].String())
	assert.InDelta(t, 2.0, got[0].stake, 1e-9, "its winner is 2x slower at the neighbours of n=45 batch=4")
	assert.Empty(t, extendPoints(cells, results, "batch", tried, all), "proposed once")
	assert.Empty(t, extendPoints(cells, results, "n", tried, all), "proposed once, whichever axis comes to it")
	got = extendPoints(cells, results, "n", map[string]bool{}, all)
	assert.Equal(t, []string{"uplo=L n=45 batch=4"}, cellTexts(pickRefinement(got, -1)), "the grid cells at batch 4 reach the same cell along n")
	assert.Empty(t, extendPoints(cells, results, "batch", map[string]bool{}, func(cell) bool { return false }), "a cell the caps refuse is not proposed")

	// Where the neighbours' winner is the refinement cell's, or within the
	// tolerance of it both ways, nothing is at stake.
	results[potrfCell("L", "32", "4").String()] = cellResult{Entries: []entry{{"lanes", 0, 1}, {"unblocked", 1, 1.05}}}
	results[potrfCell("L", "45", "1").String()] = cellResult{Entries: []entry{{"unblocked", 1, 1}, {"lanes", 0, 1.08}}}
	results[potrfCell("L", "64", "4").String()] = cellResult{Entries: perMatrix}
	assert.Empty(t, extendPoints(cells, results, "batch", map[string]bool{}, all))

	// The neighbours are the nearest cells on the line: lanes at n=32
	// decides, not per-matrix at n=16 beyond it.
	results[potrfCell("L", "45", "1").String()] = cellResult{Entries: perMatrix}
	results[potrfCell("L", "32", "4").String()] = cellResult{Entries: lanes}
	add("16", "4", perMatrix)
	got = extendPoints(cells, results, "batch", map[string]bool{}, all)
	assert.Equal(t, []string{"uplo=L n=45 batch=4"}, cellTexts(pickRefinement(got, -1)))
}

func TestPickRefinementTakesTheLargestStakesFirst(t *testing.T) {
	ps := []refinePoint{
		{potrfCell("L", "3", "16"), 1.2},
		{potrfCell("L", "40", "16"), 3},
		{potrfCell("L", "5", "16"), 1.2},
		{potrfCell("L", "90", "16"), math.Inf(1)},
	}
	assert.Equal(t, []string{"uplo=L n=90 batch=16", "uplo=L n=40 batch=16", "uplo=L n=3 batch=16"}, cellTexts(pickRefinement(slices.Clone(ps), 3)))
	assert.Len(t, pickRefinement(slices.Clone(ps), -1), 4)
	assert.Empty(t, pickRefinement(slices.Clone(ps), 0))
}

func TestDisagreeOnWinnerUsesTheRefineTolerance(t *testing.T) {
	a := cellResult{Entries: []entry{{"tiny", 0, 1}, {"unblocked", 1, 1.09}}}
	b := cellResult{Entries: []entry{{"unblocked", 1, 1}, {"tiny", 0, 1.09}}}
	assert.False(t, disagreeOnWinner(a, b), "each winner within 10%% of the other's fastest")
	b.Entries[1].MS = 1.11
	assert.True(t, disagreeOnWinner(a, b), "tiny costs 11%% at b")
	c := cellResult{Entries: []entry{{"unblocked", 1, 1}}}
	assert.True(t, disagreeOnWinner(a, c), "a winner not timed at the other cell cannot serve it")
}

func TestSelectTunersOrdersCalleesFirst(t *testing.T) {
	names := func(ts []*opTuner) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.op.Name())
		}
		return out
	}
	for _, list := range []string{"potrf,trsm,gemm", "trsm,potrf,gemm"} {
		ts, err := selectTuners(list)
		require.NoError(t, err)
		assert.Equal(t, []string{"gemm", "trsm", "potrf"}, names(ts), list)
	}
	// all: the ops that call no other first (orgqr and ormqr among them:
	// their trials make their inputs themselves), then their callers (syev
	// calls gemm only; getrf, getrs, potrf and potrs call trsm and gemm;
	// getrs's inputs come from getrf), then gesv (getrf, getrs) and posv
	// (potrf, potrs), with the condition estimates their checks call
	// (gecon: inputs from getrf; pocon: from potrf) just before them; each
	// round in name order: every table is written before the ops whose
	// nested kernels read it are measured.
	ts, err := selectTuners("all")
	require.NoError(t, err)
	assert.Equal(t, []string{"gels", "gemm", "geqrf", "gesvd", "orgqr", "ormqr", "syev", "syrk", "trmm", "trsm", "getrf", "getri", "getrs", "potrf", "potri", "potrs", "gecon", "gesv", "matinv", "pocon", "poinv", "posv"}, names(ts), "all")
	assert.Equal(t, []string{"gemm"}, tuners["syev"].callees())
	ts, err = selectTuners("syev,posv,gemm")
	require.NoError(t, err)
	assert.Equal(t, []string{"gemm", "syev", "posv"}, names(ts), "syev's gemm first")
	assert.Equal(t, []string{"trsm", "gemm"}, tuners["getrf"].callees())
	assert.Equal(t, []string{"trsm", "gemm"}, tuners["getrs"].callees(), "getrf makes getrs's inputs; getrs does not call it")
	assert.Equal(t, []string{"getrf", "getrs", "trsm", "gecon", "gemm"}, tuners["gesv"].callees(), "gesv calls gecon for its condition check")
	ts, err = selectTuners("getrs,getrf")
	require.NoError(t, err)
	assert.Equal(t, []string{"getrf", "getrs"}, names(ts), "getrs's factors are made by the getrf table just measured")
	ts, err = selectTuners("gesv,getrs,trsm")
	require.NoError(t, err)
	assert.Equal(t, []string{"trsm", "getrs", "gesv"}, names(ts))
	ts, err = selectTuners("posv,potrs,potrf,trsm,gemm")
	require.NoError(t, err)
	assert.Equal(t, []string{"gemm", "trsm", "potrs", "potrf", "posv"}, names(ts), "callees first, the given order otherwise")
	ts, err = selectTuners("posv,potrs")
	require.NoError(t, err)
	assert.Equal(t, []string{"potrs", "posv"}, names(ts))
	ts, err = selectTuners("potrf,trsm")
	require.NoError(t, err)
	assert.Equal(t, []string{"trsm", "potrf"}, names(ts), "trsm's table is written before potrf's blocked calls it")
	assert.Equal(t, []string{"trsm", "gemm"}, tuners["potrf"].callees())
	assert.Empty(t, tuners["gemm"].callees())
}

func TestUseTunedDirSetsAndRestores(t *testing.T) {
	t.Setenv("BATCHLAS_TUNED_DIR", "/before")
	restore := useTunedDir("/run/out")
	assert.Equal(t, "/run/out", os.Getenv("BATCHLAS_TUNED_DIR"))
	restore()
	assert.Equal(t, "/before", os.Getenv("BATCHLAS_TUNED_DIR"))
}
