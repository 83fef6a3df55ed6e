package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Any table the library loads can be drawn: times at the ends of the
// float64 range make ratios that overflow or underflow (the plot library
// panicked on a log axis: "Values must be greater than 0").
func TestPlotDrawsExtremeTimes(t *testing.T) {
	for _, row := range []string{
		"uplo=L n=8 batch=4 | tiny 1e308 | unblocked 1e-308",
		"uplo=L n=8 batch=4 | unblocked 1e-308 | tiny 1e308",
		"uplo=L n=8 batch=4 | tiny 5e-324 | unblocked 1.7976931348623157e308",
		"uplo=L n=8 batch=4 | tiny 1e-300 | unblocked 1e-300",
	} {
		dir, out := t.TempDir(), t.TempDir()
		table := "# op=potrf device=x86-64-v4 revision=3\n# keys: uplo:exact n:log:4 batch:log\n[float64]\n" + row + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "potrf.x86-64-v4.txt"), []byte(table), 0o644))
		code, stdout, stderr := tune("plot", "--dir", dir, "--out", out, "--op", "potrf", "--dtype", "float64")
		require.Equal(t, 0, code, "%s: %s", row, stderr)
		assert.Contains(t, stdout, "gain.svg", row)
		data, err := os.ReadFile(filepath.Join(out, "potrf.x86-64-v4.float64.gain.svg"))
		require.NoError(t, err)
		svgTexts(t, data) // well-formed
	}
}

func TestClampRatio(t *testing.T) {
	assert.Equal(t, minGainRatio, clampRatio(0))
	assert.Equal(t, maxGainRatio, clampRatio(math.Inf(1)))
	assert.Equal(t, 2.5, clampRatio(2.5))
	assert.True(t, math.IsNaN(clampRatio(math.NaN())), "NaN stays NaN, for the caller to drop")
}
