package gesv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condopt"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/ops/gecon"
)

// startConditionCheck takes the 1-norms of the matrices, before they are
// factored, when ctx carries batchlas.WithConditionCheck (nil otherwise).
// A bad threshold is an *ArgError before anything is written.
func startConditionCheck[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (*condopt.Check[T], error) {
	c, bad := condopt.Start[T](ctx, a.Rows, a.Count)
	if bad != "" {
		return nil, opkit.Argf(opName, "ctx", "%s", bad)
	}
	if c != nil {
		if err := gecon.Norm(ctx, batchlas.OneNorm, a, c.Anorm); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// finishConditionCheck estimates rcond from the factors Gesv left in a
// and gives info n+1 to the matrices below the threshold. The solves are
// done by then, so it runs to its end whatever ctx says: an interrupted
// estimate would leave a completed call half-checked.
func finishConditionCheck[T batchlas.Float](ctx context.Context, c *condopt.Check[T], a batchlas.Batch[T], info []int32) error {
	rcond := make([]T, a.Count)
	if err := gecon.Gecon(context.WithoutCancel(ctx), batchlas.OneNorm, a, c.Anorm, rcond, nil); err != nil {
		return err
	}
	c.Finish(info, rcond)
	return nil
}
