package getrf

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	sel "github.com/batchlas-go/batchlas/select"
)

// getrf's verification holds the partial-pivoting bound |L(r,c)| <= 1 to
// the rounding of one multiplication (1 + 2u, the next float64 after 1):
// a factorization that is exact (P*L*U = A) but whose multiplier is the
// float after that, 1 + 4u, did not pivot on the largest entry and is
// refused. Any loosening of the bound lets it through and fails here.
func TestTrialCheckHoldsThePartialPivotingBound(t *testing.T) {
	eps := matgen.Eps[float64]()
	for _, tc := range []struct {
		m    float64
		want string // "" when accepted
	}{
		{1, ""},         // a tie: no interchange, multiplier 1
		{1 + 2*eps, ""}, // a tie rounded up by a reciprocal multiply
		{1 + 4*eps, "not partial pivoting"},
		{1.5, "not partial pivoting"},
		{-(1 + 4*eps), "not partial pivoting"},
	} {
		require.Greater(t, 1+4*eps, 1+2*eps, "the multipliers are distinct floats")
		err := checkedFactor(t, tc.m)
		if tc.want == "" {
			assert.NoError(t, err, "multiplier %v", tc.m)
		} else {
			assert.ErrorContains(t, err, tc.want, "multiplier %v", tc.m)
		}
	}
}

// checkedFactor runs getrf's check on A = [1 0; m 1] with the factor
// L = [1 0; m 1], U = I and no interchange: exact, and partial pivoting
// exactly when |m| <= 1.
func checkedFactor(t *testing.T, m float64) error {
	t.Helper()
	oc, err := Op.Measurement().New(sel.Float64, sel.MakeKey(sel.Int(2), sel.Int(1)), 1)
	require.NoError(t, err)
	p := oc.(*getrfTrial[float64])
	require.Equal(t, 2, p.a.Orig.Rows, "the key is n=2 batch=1")
	require.Equal(t, 1, p.a.Orig.Count, "the key is n=2 batch=1")
	for _, b := range []batchlas.Batch[float64]{p.a.Work[0], p.a.Orig} {
		b.Set(0, 0, 0, 1)
		b.Set(0, 1, 0, m)
		b.Set(0, 0, 1, 0)
		b.Set(0, 1, 1, 1)
	}
	p.ipiv.Set(0, 0, 0)
	p.ipiv.Set(0, 1, 1)
	return p.check()
}
