package trial_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/trial"
)

// The tests of shapes and measurements that need an op are in
// internal/allops (trial_test.go), where every op is linked anyway.

func TestLetter(t *testing.T) {
	u, err := trial.Letter("uplo", "U", batchlas.Lower, batchlas.Upper)
	require.NoError(t, err)
	require.Equal(t, batchlas.Upper, u)
	d, err := trial.Letter("diag", "N", batchlas.NonUnit, batchlas.Unit)
	require.NoError(t, err)
	require.Equal(t, batchlas.NonUnit, d)
	for _, bad := range []string{"", "X", "LL", "l"} {
		_, err := trial.Letter("side", bad, batchlas.Left, batchlas.Right)
		require.EqualError(t, err, `side "`+bad+`": want L or R`)
	}
}
