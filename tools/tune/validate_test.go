package main

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// TestRandomShapesCoverTheWholeSpace draws many shapes per op and checks
// that every exact key takes every value of its axis, that the size keys
// vary independently of each other, that batch reaches below the grid's
// smallest batch > 1 and up towards its largest, and that no shape is a grid
// cell or breaks the caps.
func TestRandomShapesCoverTheWholeSpace(t *testing.T) {
	caps := cellCaps{maxFlops: 4e8, maxBytes: 512 << 20}
	quick := gridFlag{name: "quick", text: "quick"}
	for _, name := range tunerNames() {
		tu := tuners[name]
		cells, err := randomShapes(tu, sel.Float64, quick, caps, 300, 7, spaceWhole)
		require.NoError(t, err, name)
		grid, err := expandGrid(tu.op, quick)
		require.NoError(t, err)
		onGrid := map[string]bool{}
		for _, c := range grid {
			onGrid[c.String()] = true
		}
		keys := tu.op.Keys()
		seen := make([]map[string]bool, len(keys))
		for i := range keys {
			seen[i] = map[string]bool{}
		}
		unequal := map[[2]int]int{}
		for _, c := range cells {
			assert.False(t, onGrid[c.String()], "%s: %s is a grid cell", name, c)
			assert.True(t, caps.fits(tu, sel.Float64, c), "%s: %s breaks the caps", name, c)
			for i, v := range c.vals {
				seen[i][v] = true
			}
			for i := range keys {
				for j := range keys {
					if keys[i].Kind == sel.Log && keys[j].Kind == sel.Log && c.vals[i] != c.vals[j] {
						unequal[[2]int{i, j}]++
					}
				}
			}
		}
		for i, k := range keys {
			ax := tu.op.Spec().Grid[slicesIndexAxis(tu.op.Spec().Grid, k.Name)]
			if k.Kind == sel.Exact {
				assert.Len(t, seen[i], len(quick.axisValues(ax)), "%s: exact key %s must take every value", name, k.Name)
				continue
			}
			// At least 20 values, or most of the integers the axis spans
			// when it spans few (gels's nrhs: 1 to 16).
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range quick.axisValues(ax) {
				f, err := strconv.ParseFloat(v, 64)
				require.NoError(t, err)
				lo, hi = min(lo, f), max(hi, f)
			}
			assert.Greater(t, len(seen[i]), min(20, int(hi-lo+1)*3/4), "%s: log key %s takes few values", name, k.Name)
			for j, k2 := range keys {
				if j != i && k2.Kind == sel.Log {
					assert.Greater(t, unequal[[2]int{i, j}], len(cells)/2, "%s: %s and %s are mostly equal: not drawn independently", name, k.Name, k2.Name)
				}
			}
		}
	}
}

func TestRandomShapesDiagonalSpace(t *testing.T) {
	caps := cellCaps{maxFlops: 4e8, maxBytes: 512 << 20}
	tu := tuners["gemm"]
	cells, err := randomShapes(tu, sel.Float32, gridFlag{name: "quick", text: "quick"}, caps, 50, 3, spaceDiagonal)
	require.NoError(t, err)
	batchVaries := false
	for _, c := range cells {
		assert.Equal(t, "N", c.get("ta"))
		assert.Equal(t, "N", c.get("tb"))
		assert.Equal(t, c.get("n"), c.get("m"))
		assert.Equal(t, c.get("n"), c.get("k"))
		batchVaries = batchVaries || c.get("batch") != cells[0].get("batch")
	}
	assert.True(t, batchVaries)
}

func TestValidateStatesTheSpaceAndCaps(t *testing.T) {
	var out, errb bytes.Buffer
	err := cmdValidate([]string{"--op", "potrf", "--dtype", "float64", "--shapes", "2", "--seed", "5",
		"--reps", "1", "--target", "50us", "--max-cell-flops", "1e6"}, &out, &errb)
	require.NoError(t, err, errb.String())
	assert.Contains(t, out.String(), "shapes: whole space of the quick grid, off its cells, within the caps (--max-cell-flops 1e+06 per call, --max-cell-bytes 512 MiB)")
	assert.Contains(t, out.String(), "geomean slowdown")
	err = cmdValidate([]string{"--op", "potrf", "--space", "square"}, &out, &errb)
	assert.ErrorContains(t, err, "--space")
}
