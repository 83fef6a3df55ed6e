package main

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// bench refuses a call shape whose operands do not fit the memory cap
// before it allocates anything, and says which op, cell and cap. Before
// the cap, n=batch=3037000500 panicked in makeslice (the element count
// wrapped around int64) and n=batch=200000 asked for 2.2 TB.
func TestBenchRefusesCellsOverTheMemoryCap(t *testing.T) {
	var out, errb bytes.Buffer
	// A cell the default cap admits, refused under a smaller one: the cap
	// is the flag's, and nothing is measured.
	err := cmdBench([]string{"potrf", "--max-cell-bytes", "4096", "uplo=L", "n=64", "batch=4096"}, &out, &errb)
	require.Error(t, err)
	assert.ErrorContains(t, err, "potrf float64 uplo=L n=64 batch=4096: its operands take 256 MiB, over the memory cap of 4 KiB (--max-cell-bytes 4096)")
	assert.Empty(t, out.String(), "refused before anything is measured or printed")

	for _, keys := range [][]string{
		{"uplo=L", "n=3037000500", "batch=3037000500"}, // n*n*batch overflows int64
		{"uplo=U", "n=200000", "batch=200000"},
	} {
		out.Reset()
		err := cmdBench(append([]string{"potrf"}, keys...), &out, &errb)
		require.Error(t, err, keys)
		assert.ErrorContains(t, err, "potrf float64 "+strings.Join(keys, " ")+": its operands take ")
		assert.ErrorContains(t, err, "over the memory cap of 512 MiB (--max-cell-bytes 536870912)")
		assert.Empty(t, out.String())
	}
	var stderr bytes.Buffer
	assert.Equal(t, 1, mainCode([]string{"bench", "gemm", "ta=N", "tb=N", "m=3037000500", "n=3037000500", "k=3037000500", "batch=3037000500"}, &out, &stderr))
	assert.Contains(t, stderr.String(), "tune bench: gemm float64 ta=N tb=N m=3037000500 n=3037000500 k=3037000500 batch=3037000500: its operands take")
}

// The element counts of every spec are computed without integer overflow:
// a cell whose count does not fit an int64 is over every cap, not below
// it.
func TestCellBytesDoNotOverflow(t *testing.T) {
	caps := cellCaps{maxFlops: 1e300, maxBytes: 1 << 62}
	for _, name := range tunerNames() {
		tu := tuners[name]
		for _, c := range []cell{
			smallCell(t, tu, "3037000500").with("batch", "3037000500"),
			// Every count here is a multiple of 2^64: in int64 it is 0.
			smallCell(t, tu, "4294967296").with("batch", "1"),
		} {
			for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
				b := cellBytes(tu, dt, c)
				assert.Greater(t, b, 1e19, "%s %s %s", name, dt, c)
				assert.False(t, caps.fits(tu, dt, c), "%s %s %s fits a cap of 4 EiB", name, dt, c)
				assert.ErrorContains(t, caps.err(tu, dt, c), "over the memory cap of 4 EiB")
			}
		}
	}
}

// run goes through the same caps: a grid cell over them is left out
// before anything is allocated, counted, and listed by --plan.
func TestRunLeavesOutCellsOverTheMemoryCap(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	// 2*n*n*batch elements: 2^65, which an int64 count wraps to 0.
	grid := "uplo=L,n=4294967296,batch=1"
	code := mainCode([]string{"run", "--op", "potrf", "--dtype", "float64", "--grid", grid, "--max-cell-flops", "1e300", "--out", out, "--plan"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "uplo=L n=4294967296 batch=1")
	assert.Contains(t, stdout.String(), "skipped: over the caps")

	stdout.Reset()
	code = mainCode([]string{"run", "--op", "potrf", "--dtype", "float64", "--grid", grid, "--max-cell-flops", "1e300", "--out", out}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "0 cells measured, 0 from the ledger, 0 refinement cells, 0 confirmed, 1 over the caps")
	ents, _ := os.ReadDir(out)
	assert.Empty(t, ents)
}

// Every measurement checks the memory cap itself, so a cell that reaches
// measureCell past the commands' filters is refused, not allocated; a
// zero cap in the settings is the default cap, never no cap.
func TestMeasureCellAppliesTheMemoryCap(t *testing.T) {
	tu := tuners["trsm"]
	c := smallCell(t, tu, "200000").with("batch", "200000")
	_, err := measureCell(t.Context(), tu, sel.Float64, c, measureSettings{proto: defaultProtocol()})
	assert.ErrorContains(t, err, "over the memory cap of 512 MiB")
	_, err = measureCell(t.Context(), tu, sel.Float64, smallCell(t, tu, "8"), measureSettings{proto: defaultProtocol(), maxBytes: 100})
	assert.ErrorContains(t, err, "over the memory cap of 100 B (--max-cell-bytes 100)")
}

// The work cap counts one matrix up to lanesBatch, so every size the cap
// admits at batch 1 is also measured at a batch that fills an
// across-matrices kernel's lanes, and the whole call past it; batch 1
// itself is always admitted.
func TestWorkCapUpToLanesBatch(t *testing.T) {
	tu := tuners["syev"]
	one := smallCell(t, tu, "256").with("jobz", "V").with("batch", "1")
	caps := cellCaps{maxFlops: 1.01 * tu.flops(one), maxBytes: defaultMaxCellBytes}
	for batch, fits := range map[string]bool{"1": true, "2": true, "16": true, "17": false, "64": false} {
		c := one.with("batch", batch)
		assert.Equal(t, fits, caps.fits(tu, sel.Float64, c), "%s", c)
	}
	tight := cellCaps{maxFlops: 0.99 * tu.flops(one), maxBytes: defaultMaxCellBytes}
	for _, batch := range []string{"2", "8", "64"} {
		err := tight.err(tu, sel.Float64, one.with("batch", batch))
		assert.ErrorContains(t, err, "over the work cap", "batch %s: one matrix is over the cap", batch)
	}
	// One matrix of every order is measured, whatever the work cap, but
	// not past the memory cap.
	assert.NoError(t, tight.err(tu, sel.Float64, one), "batch 1 over the work cap")
	assert.NoError(t, cellCaps{maxFlops: 1, maxBytes: defaultMaxCellBytes}.err(tu, sel.Float64, one.with("n", "4096")), "batch 1, n=4096")
	small := cellCaps{maxFlops: 1e300, maxBytes: 1000}
	assert.ErrorContains(t, small.err(tu, sel.Float64, one), "over the memory cap", "batch 1 past the memory cap")
}

// A cell the op's measurement says is no call of it (sel.Measure.Problem)
// is left out like a cell over the caps, with the op's reason; the other
// cells are measured.
func TestCellsThatAreNoCallAreLeftOut(t *testing.T) {
	base := tuners["potrf"]
	tu := *base
	tu.problem = func(c cell) error {
		if c.num("n") > 4 {
			return errors.New("n > 4 is no call here")
		}
		return nil
	}
	caps := cellCaps{maxFlops: 1e300, maxBytes: defaultMaxCellBytes}
	small := smallCell(t, &tu, "4")
	assert.True(t, caps.fits(&tu, sel.Float64, small))
	err := caps.err(&tu, sel.Float64, small.with("n", "8"))
	assert.ErrorContains(t, err, "not a call of potrf: n > 4 is no call here")
	assert.True(t, caps.fits(base, sel.Float64, small.with("n", "8")), "the op's own tuner has no such rule")
}
