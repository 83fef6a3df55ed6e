package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

func cellTexts(cs []cell) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestExpandGridSameAxesFollow(t *testing.T) {
	g, err := parseGridFlag("n=8:2,batch=16")
	require.NoError(t, err)
	cells, err := expandGrid(gemm.Op, g)
	require.NoError(t, err)
	// ta and tb keep their quick values; m and k copy n; sorted by n.
	assert.Equal(t, []string{
		"ta=N tb=N m=2 n=2 k=2 batch=16",
		"ta=N tb=N m=8 n=8 k=8 batch=16",
	}, cellTexts(cells))

	_, err = parseGridFlag("n=8,n=16")
	assert.Error(t, err)
	g, err = parseGridFlag("m=8,batch=2")
	require.NoError(t, err)
	cells, err = expandGrid(gemm.Op, g)
	require.NoError(t, err)
	assert.Equal(t, []string{"ta=N tb=N m=8 n=8 k=8 batch=2"}, cellTexts(cells), "setting a follower sets what it follows")
	g, err = parseGridFlag("m=8,n=4")
	require.NoError(t, err)
	_, err = expandGrid(gemm.Op, g)
	assert.ErrorContains(t, err, "follows n")
	g, _ = parseGridFlag("n=0")
	_, err = expandGrid(potrf.Op, g)
	assert.ErrorContains(t, err, "positive integer")
}

func TestQuickGridsSpanTheSizes(t *testing.T) {
	for _, name := range tunerNames() {
		tu := tuners[name]
		cells, err := expandGrid(tu.op, gridFlag{name: "quick", text: "quick"})
		require.NoError(t, err, name)
		require.NotEmpty(t, cells, name)
		// Every key of every cell is set, and cells are unique.
		seen := map[string]bool{}
		for _, c := range cells {
			assert.False(t, seen[c.String()], "%s: duplicate cell %s", name, c)
			seen[c.String()] = true
			assert.Equal(t, len(tu.op.Keys()), len(c.vals))
		}
	}
}

func TestParseCellArgs(t *testing.T) {
	c, err := parseCellArgs(gemm.Op, []string{"ta=N", "tb=T", "n=64", "batch=100"})
	require.NoError(t, err)
	assert.Equal(t, "ta=N tb=T m=64 n=64 k=64 batch=100", c.String(), "m and k follow n when left out")
	c, err = parseCellArgs(gemm.Op, []string{"ta=N", "tb=T", "m=3", "n=64", "k=5", "batch=100"})
	require.NoError(t, err)
	assert.Equal(t, "ta=N tb=T m=3 n=64 k=5 batch=100", c.String())
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=4"})
	assert.ErrorContains(t, err, "missing key batch")
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=4", "batch=2", "m=3"})
	assert.ErrorContains(t, err, `no key "m"`)
	_, err = parseCellArgs(potrf.Op, []string{"uplo=L", "n=-4", "batch=2"})
	assert.Error(t, err)
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
		res("80", entry{"unblocked", 1, 1}, entry{"tiny", 0, 1.02}), // tied: no disagreement with 64
		res("99", entry{"tiny", 0, 1}, entry{"unblocked", 1, 1.1}),  // 99/80 < 1.25: too close
	} {
		c := potrfCell(r.Vals...)
		cells = append(cells, c)
		results[c.String()] = r
	}
	disagree := func(a, b string) bool { return disagreeOnWinner(results[a], results[b]) }
	tried := map[string]bool{}
	got := refinePoints(cells, disagree, "n", nil, refineRatio, tried)
	assert.Equal(t, []string{"uplo=L n=32 batch=16"}, cellTexts(got), "only 16..64 disagree and are far apart")
	assert.Empty(t, refinePoints(cells, disagree, "n", nil, refineRatio, tried), "a midpoint is proposed once")

	// Sizes 2 and 3 disagree but have no integer between them.
	cells = []cell{potrfCell("L", "2", "16"), potrfCell("L", "3", "16")}
	results[cells[0].String()] = res("2", entry{"tiny", 0, 1}, entry{"unblocked", 1, 2})
	results[cells[1].String()] = res("3", entry{"unblocked", 1, 1}, entry{"tiny", 0, 2})
	assert.Empty(t, refinePoints(cells, disagree, "n", nil, refineRatio, map[string]bool{}))
}

func TestRefinePointsFollowers(t *testing.T) {
	keys := gemm.Op.Keys()
	a := newCell(keys, []string{"N", "N", "8", "8", "8", "16"})
	b := newCell(keys, []string{"N", "N", "32", "32", "32", "16"})
	got := refinePoints([]cell{a, b}, func(string, string) bool { return true }, "n", []string{"m", "k"}, refineRatio, map[string]bool{})
	assert.Equal(t, []string{"ta=N tb=N m=16 n=16 k=16 batch=16"}, cellTexts(got))
}

func TestRefineAxesResolveFollowers(t *testing.T) {
	axis, follow := refineAxes(gemm.Op, "n")
	assert.Equal(t, "n", axis)
	assert.Equal(t, []string{"m", "k"}, follow)
	axis, follow = refineAxes(trsm.Op, "n") // trsm's n follows m
	assert.Equal(t, "m", axis)
	assert.Equal(t, []string{"n"}, follow)
	axis, follow = refineAxes(potrf.Op, "n")
	assert.Equal(t, "n", axis)
	assert.Empty(t, follow)
	axis, _ = refineAxes(potrf.Op, "m")
	assert.Equal(t, "", axis)
}
