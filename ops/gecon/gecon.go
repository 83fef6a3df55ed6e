package gecon

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
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
// the values of anorm (checkNorms).
func check[T batchlas.Float](norm batchlas.Norm, lu batchlas.Batch[T], anorm, rcond []T) (problem, error) {
	if err := norm.Check(opName, "norm"); err != nil {
		return problem{}, err
	}
	if err := lu.Check(opName, "lu", false); err != nil {
		return problem{}, err
	}
	switch {
	case lu.Rows != lu.Cols:
		return problem{}, opkit.Argf(opName, "lu", "lu is %dx%d; an LU factor is square", lu.Rows, lu.Cols)
	case len(anorm) < lu.Count:
		return problem{}, opkit.Argf(opName, "anorm", "len(anorm) %d < lu.Count %d: give the norm of every matrix, taken before factoring (gecon.Norm)", len(anorm), lu.Count)
	case len(rcond) < lu.Count:
		return problem{}, opkit.Argf(opName, "rcond", "len(rcond) %d < lu.Count %d: rcond receives one value per matrix", len(rcond), lu.Count)
	}
	if err := disjoint(lu, anorm, rcond); err != nil {
		return problem{}, err
	}
	return problem{norm: norm, n: lu.Rows}, nil
}

// disjoint refuses an rcond that shares an element with lu or anorm: rcond
// is written while they are read.
func disjoint[T batchlas.Float](lu batchlas.Batch[T], anorm, rcond []T) error {
	if lu.Count == 0 {
		return nil
	}
	r, _ := batchlas.WrapBatch(rcond[:lu.Count], 1, 1, lu.Count)
	an, _ := batchlas.WrapBatch(anorm[:lu.Count], 1, 1, lu.Count)
	if err := opkit.CheckDisjoint(opName, "rcond", r, "lu", lu); err != nil {
		return err
	}
	return opkit.CheckDisjoint(opName, "rcond", r, "anorm", an)
}

// checkNorms returns an *ArgError for the first negative anorm_i: a norm
// is never negative, so it is the wrong slice or a bug. NaN and Inf are
// not errors (a matrix with a NaN has a NaN norm): rcond is NaN and 0 for
// them.
func checkNorms[T batchlas.Float](anorm []T) error {
	for i, v := range anorm {
		if v < 0 {
			return opkit.Argf(opName, "anorm", "anorm[%d] = %g: a norm is >= 0 (give ||A_%d|| taken before factoring, gecon.Norm)", i, float64(v), i)
		}
	}
	return nil
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
	if err := checkNorms(anorm); err != nil {
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
			if err := checkWorkspace(ws[:need], lu, anorm, rcond); err != nil {
				return err
			}
		}
		switch c.Family() {
		case permatrix:
			return launchPerMatrix(ctx, p, lu, anorm, rcond, ws, need)
		case vendor:
			return launchVendor(ctx, p, lu, anorm, rcond, ws, need)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to gecon.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// checkWorkspace refuses a workspace that shares an element with an
// operand.
func checkWorkspace[T batchlas.Float](ws []T, lu batchlas.Batch[T], anorm, rcond []T) error {
	if err := opkit.CheckWorkspace(opName, ws, "lu", lu); err != nil {
		return err
	}
	for _, o := range []struct {
		name string
		s    []T
	}{{"anorm", anorm}, {"rcond", rcond}} {
		b, _ := batchlas.WrapBatch(o.s, 1, 1, len(o.s))
		if err := opkit.CheckWorkspace(opName, ws, o.name, b); err != nil {
			return err
		}
	}
	return nil
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
