package gonummat

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFits: sizes whose product overflows an int are refused before
// NewBatch would panic on them. Real matrices that large cannot be made in
// a test, so the guard is tested on its own.
func TestFits(t *testing.T) {
	require.NoError(t, fits("op", 3, 4, 5))
	require.NoError(t, fits("op", 0, 4, math.MaxInt))
	require.NoError(t, fits("op", math.MaxInt, 1, 1))
	require.ErrorContains(t, fits("op", 1<<32, 1<<32, 1), "op: 1 matrices of 4294967296x4294967296 are more elements than an int can count")
	require.ErrorContains(t, fits("op", 1<<20, 1<<20, 1<<30), "more elements than an int can count")
	require.ErrorContains(t, fits("op", math.MaxInt, 1, 2), "more elements than an int can count")
}
