package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
)

func TestLetterOf(t *testing.T) {
	u, err := letterOf("uplo", "U", batchlas.Lower, batchlas.Upper)
	require.NoError(t, err)
	require.Equal(t, batchlas.Upper, u)
	d, err := letterOf("diag", "N", batchlas.NonUnit, batchlas.Unit)
	require.NoError(t, err)
	require.Equal(t, batchlas.NonUnit, d)
	for _, bad := range []string{"", "X", "LL", "l"} {
		_, err := letterOf("side", bad, batchlas.Left, batchlas.Right)
		require.EqualError(t, err, `side "`+bad+`": want L or R`)
	}
}
