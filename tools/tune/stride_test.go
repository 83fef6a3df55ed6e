package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bench --ld and stride lay the operands out as views (rows past each
// matrix NaN, which a kernel must not let into its result: every candidate
// is verified), and stride refuses a bad ld.
func TestStrideAndLayout(t *testing.T) {
	code, out, errs := tune("bench", "gemm", "float64", "ta=N", "tb=T", "m=5", "n=4", "k=3", "batch=2", "--ld", "16", "--ld-pad", "3", "--reps", "1", "--target", "1us")
	require.Equal(t, 0, code, "bench --ld: %s%s", out, errs)
	require.NotContains(t, out, "BAD RESULT")
	code, out, errs = tune("stride", "--case", "potrf float32 uplo=L n=5 batch=3 ld=16", "--case", "getrf float64 n=7 batch=2", "--reps", "1", "--target", "1us")
	require.Equal(t, 0, code, "stride: %s%s", out, errs)
	require.Contains(t, out, "potrf float32 uplo=L n=5 batch=3")
	require.Contains(t, out, "getrf float64 n=7 batch=2")
	require.True(t, strings.HasPrefix(out, "machine: "), "stride names the machine first:\n%s", out)
	for _, bad := range []string{"potrf float64 uplo=L n=5 batch=3 ld=0", "potrf float64 uplo=L n=5 batch=3 ld=x", "gemm float16 m=1"} {
		code, _, errs = tune("stride", "--case", bad)
		require.NotEqual(t, 0, code, "stride --case %q", bad)
		require.Contains(t, errs, "call")
	}
}
