package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// A space with few off-grid shapes gives up after maxDraws draws, however
// many shapes are asked for (it tried 10,000 per shape: --shapes 1e9 never
// finished).
func TestRandomShapesDrawsAreBounded(t *testing.T) {
	caps := cellCaps{maxFlops: 4e8, maxBytes: 512 << 20}
	g, err := parseGridFlag("n=2:3,batch=1:2")
	require.NoError(t, err)
	_, err = randomShapes(tuners["potrf"], sel.Float64, g, caps, maxShapes, 1, spaceDiagonal)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("in %d draws", maxDraws))
}

// Grids are bounded per axis and in cells before a cell is made, and
// every op's full grid is inside the bounds.
func TestGridSizeIsBounded(t *testing.T) {
	var vals []string
	for i := 1; i <= 5000; i++ {
		vals = append(vals, fmt.Sprint(i))
	}
	_, err := parseGridFlag("n=" + strings.Join(vals[:maxGridValues+1], ":"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf(`key "n" has %d values; want at most %d per key`, maxGridValues+1, maxGridValues))

	axis := strings.Join(vals[:maxGridValues], ":")
	g, err := parseGridFlag("m=" + axis + ",n=" + axis + ",k=" + axis)
	require.NoError(t, err)
	_, err = expandGrid(tuners["gemm"].op, g)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("want at most %d", maxGridCells))

	// The same through the command, with --plan: refused, not expanded.
	code, _, errs := tune("run", "--op=gemm", "--plan", "--grid=m="+axis+",n="+axis+",k="+axis)
	assert.Equal(t, 1, code)
	assert.Contains(t, lastLine(errs), "cells; want at most")

	for _, name := range tunerNames() {
		cells, err := expandGrid(tuners[name].op, gridFlag{name: "full", text: "full"})
		require.NoError(t, err, name)
		assert.LessOrEqual(t, len(cells), maxGridCells, name)
		// A table of the largest grid, every dtype's cells, loads.
		assert.LessOrEqual(t, maxGridCells*len(tuners[name].op.DTypes()), sel.MaxTableRows, name)
	}
}

// A time of any size prints in a few characters (1e308 printed 309
// digits), and the usual ones stay plain decimals.
func TestFormatMSIsShort(t *testing.T) {
	for ms, want := range map[float64]string{1e308: "1e+308", 1e-308: "1e-308", 1.23456: "1.235", 0.001234: "0.001234", 123456: "123500", 0: "0"} {
		assert.Equal(t, want, formatMS(ms))
	}
	assert.Equal(t, "1e+308", formatPeerMS(1e308))
}
