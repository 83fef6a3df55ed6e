package sel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSmoke(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	require.Equal(t, lp8, c)
	t.Log(tr.String())
}
