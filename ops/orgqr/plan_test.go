package orgqr_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/orgqr"
	sel "github.com/batchlas-go/batchlas/select"
)

// A plan run over two ranges, the later first and on another worker,
// gives every candidate's Orgqr bits, on a count that leaves a lanes
// group partly filled.
func TestPlanIsOrgqr(t *testing.T) {
	eachCandidate(t, planIsOrgqr[float32], planIsOrgqr[float64])
}

func planIsOrgqr[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, s := range [][2]int{{9, 9}, {20, 7}} {
		m, n, count := s[0], s[1], 21
		a, tau, _, _ := factors[T](uint64(m*n), m, n, count, m+1, 3)
		b := testmat.Clone(a)
		err := orgqr.Orgqr(ctx, a, tau, nil)
		if refused(err) {
			continue
		}
		require.NoError(t, err)
		p, err := orgqr.NewPlan(ctx, b, tau)
		require.NoError(t, err)
		// Two ranges of several groups each, the later first, on the
		// last worker and then on worker 0.
		g := p.Group()
		mid := (count/2 + g - 1) / g * g
		p.Run(p.Workers()-1, mid, count)
		p.Run(0, 0, mid)
		require.Equal(t, -1, testmat.SameMatrices(a, b, 0, count), "%dx%d", m, n)
	}
}

// NewPlan refuses what Orgqr refuses, with the same errors, and binds an
// empty batch to a plan that does nothing.
func TestPlanErrors(t *testing.T) {
	wide := batchlas.NewBatch[float64](3, 4, 2)
	tau := batchlas.NewVectors[float64](3, 2)
	_, perr := orgqr.NewPlan(context.Background(), wide, tau)
	require.Error(t, perr)
	require.Equal(t, orgqr.Orgqr(context.Background(), wide, tau, nil).Error(), perr.Error())
	a := batchlas.NewBatch[float64](4, 3, 2)
	ctx := sel.WithPin(context.Background(), "orgqr", "no-such-kernel")
	_, perr = orgqr.NewPlan(ctx, a, tau)
	require.Error(t, perr)
	require.Equal(t, orgqr.Orgqr(ctx, a, tau, nil).Error(), perr.Error())
	p, err := orgqr.NewPlan(context.Background(), batchlas.NewBatch[float64](4, 3, 0), batchlas.NewVectors[float64](3, 0))
	require.NoError(t, err)
	require.Equal(t, 1, p.Group())
	p.Run(0, 0, 0)
}
