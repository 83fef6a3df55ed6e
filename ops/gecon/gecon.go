package gecon

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "gecon"

// problem is one validated call, shared by every family.
type problem struct {
	norm batchlas.Norm
	n    int
}

// key is the selection key of the call, in the order of spec.Keys.
func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Str(p.norm.String()), sel.Int(p.n), sel.Int(count))
}

// check validates the arguments of Gecon and BufferSize: everything but
// the values of anorm (condest.CheckNorms).
func check[T batchlas.Float](norm batchlas.Norm, lu batchlas.Batch[T], anorm, rcond []T) (problem, error) {
	if err := norm.Check(opName, "norm"); err != nil {
		return problem{}, err
	}
	if err := condest.CheckArgs(opName, "lu", "an LU", lu, anorm, rcond); err != nil {
		return problem{}, err
	}
	return problem{norm: norm, n: lu.Rows}, nil
}

// Gecon estimates the reciprocal condition number of every matrix A_i of
// a batch from its LU factor, as LAPACK's xGECON does:
//
//	rcond_i = 1 / (||A_i|| * ||A_i^-1||)
//
// in the norm norm (batchlas.OneNorm or batchlas.InfNorm), with
// ||A_i^-1|| estimated by Higham's refinement of Hager's method from a few
// solves with the factor. lu holds the factors as getrf (or gesv) leaves
// them; the pivots are not needed, since permuting rows does not change
// either norm of the inverse. anorm_i is ||A_i|| in the same norm, taken
// before factoring (Norm computes it). The estimate is a lower bound of
// ||A_i^-1||, almost always within a factor of 3, so rcond_i is rarely
// more than 3 times too large. rcond receives one value per matrix.
//
// What each matrix gets, in order of precedence:
//
//   - anorm_i == 0 or +Inf: 0, as LAPACK gives;
//   - anorm_i NaN, or an Inf or NaN in the factor: NaN (nothing can be
//     said; a comparison with a threshold must treat it as failing);
//   - a factor whose solves overflow, a zero pivot among them: 0, the
//     matrix is singular to working precision;
//   - otherwise the estimate, in (0, 1] up to the estimator's error.
//
// A negative anorm_i is an *ArgError naming it; nothing is written then.
// lu and anorm are read only (lu may be a broadcast); rcond may share no
// element with either, and ws none with any operand. ws is the workspace:
// nil allocates it, otherwise it needs BufferSize elements. A call with
// no matrix makes no decision; with n == 0 it writes rcond_i = 1 and makes
// no decision either. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError: each kernel handles a matrix on one worker,
// so rcond_0 .. rcond_{Completed-1} are written and every later one is
// untouched.
func Gecon[T batchlas.Float](ctx context.Context, norm batchlas.Norm, lu batchlas.Batch[T], anorm, rcond []T, ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(norm, lu, anorm, rcond)
	if err != nil {
		return err
	}
	p := &pv
	anorm, rcond = anorm[:lu.Count], rcond[:lu.Count]
	if err := condest.CheckNorms(opName, anorm); err != nil {
		return err
	}
	if lu.Count == 0 {
		return nil
	}
	if p.n == 0 {
		for i := range rcond {
			rcond[i] = 1
		}
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(lu.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run n=%d on %s; pin another kernel or unset the pin", c, p.n, dev.Key)
		}
		need := bufferSize[T](ctx, c, p)
		if ws != nil {
			if len(ws) < need {
				return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
					return bufferSize[T](ctx, c, p)
				})
			}
			if err := condest.CheckWorkspace(opName, "lu", ws[:need], lu, anorm, rcond); err != nil {
				return err
			}
		}
		switch c.Family() {
		case permatrix:
			return condest.Run(ctx, lu, 0, anorm, rcond, ws, need, flopsPerMatrix(p.n), estimator[T](p))
		case vendor:
			return launchVendor(ctx, p, lu, anorm, rcond, ws, need)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to gecon.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Gecon needs for
// these arguments, for the kernel the same call would choose: with the
// same context (pins, device, the worker cap of batchlas.WithParallelism)
// and shapes. It refuses what Gecon refuses, but does not read anorm's
// values. It is 0 for a call with no matrix or n == 0, with no decision.
// A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, norm batchlas.Norm, lu batchlas.Batch[T], anorm, rcond []T) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(norm, lu, anorm, rcond)
	if err != nil {
		return 0, err
	}
	if lu.Count == 0 || pv.n == 0 {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), pv.key(lu.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize[T](ctx, c, &pv), nil
}

// bufferSize is the workspace of choice c: per worker, the estimator's two
// vectors for permatrix, and for vendor a row-major copy of the factor and
// Dgecon's 4n of work.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem) int {
	return parallel.Workers(ctx) * slot[T](c, p.n)
}

// slot is one worker's share of the workspace of choice c at order n.
func slot[T batchlas.Float](c sel.Choice, n int) int {
	if c.Is(vendor) {
		return vendorSlot(n)
	}
	return parallel.Pad(2 * n)
}

// canRun is gecon's correctness gate: permatrix serves every shape;
// vendor needs gonum's LAPACK in the build.
func canRun(c sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case permatrix:
		return true
	case vendor:
		return d.Has("vendor:lapack")
	}
	return false
}

// flopsPerMatrix is a typical cost of one estimate, about 5 solves with
// one right-hand side (2*n^2 flops each): what parallel.Run weighs a
// matrix by and what the benchmarks report GFLOP/s against.
func flopsPerMatrix(n int) float64 {
	return 10 * float64(n) * float64(n)
}
