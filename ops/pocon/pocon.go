package pocon

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "pocon"

// problem is one validated call, shared by every family.
type problem struct {
	uplo batchlas.Uplo
	n    int
}

// key is the selection key of the call, in the order of spec.Keys.
func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Str(p.uplo.String()), sel.Int(p.n), sel.Int(count))
}

// check validates the arguments of Pocon and BufferSize: everything but
// the values of anorm (condest.CheckNorms).
func check[T batchlas.Float](uplo batchlas.Uplo, chol batchlas.Batch[T], anorm, rcond []T) (problem, error) {
	if err := uplo.Check(opName); err != nil {
		return problem{}, err
	}
	if err := condest.CheckArgs(opName, "chol", "a Cholesky", chol, anorm, rcond); err != nil {
		return problem{}, err
	}
	return problem{uplo: uplo, n: chol.Rows}, nil
}

// Pocon estimates the reciprocal condition number of every symmetric
// positive definite matrix A_i of a batch from its Cholesky factor, as
// LAPACK's xPOCON does:
//
//	rcond_i = 1 / (||A_i||_1 * ||A_i^-1||_1)
//
// (the 1-norm and the infinity norm of a symmetric matrix are equal), with
// ||A_i^-1||_1 estimated by Higham's refinement of Hager's method from a
// few solves with the factor. chol holds the factors as potrf (or posv)
// leaves them in the uplo triangle (Lower: A_i = L*L^T; Upper:
// A_i = U^T*U); the other triangle is not read. anorm_i is ||A_i||_1,
// taken before factoring (Norm computes it from the same triangle). The
// estimate is a lower bound of ||A_i^-1||_1, almost always within a
// factor of 3, so rcond_i is rarely more than 3 times too large. rcond
// receives one value per matrix.
//
// What each matrix gets, in order of precedence:
//
//   - anorm_i == 0 or +Inf: 0, as LAPACK gives;
//   - anorm_i NaN, or an Inf or NaN in the factor's triangle: NaN (nothing
//     can be said; a comparison with a threshold must treat it as
//     failing);
//   - a factor whose solves overflow: 0, singular to working precision;
//   - otherwise the estimate, in (0, 1] up to the estimator's error.
//
// A matrix potrf could not factor (its info > 0) holds a partial factor:
// its rcond means nothing, and posv's condition check skips it.
//
// A negative anorm_i is an *ArgError naming it; nothing is written then.
// chol and anorm are read only (chol may be a broadcast); rcond may share
// no element with either, and ws none with any operand. ws is the
// workspace: nil allocates it, otherwise it needs BufferSize elements. A
// call with no matrix makes no decision; with n == 0 it writes
// rcond_i = 1 and makes no decision either. A nil ctx is
// context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError: each kernel handles a matrix on one worker,
// so rcond_0 .. rcond_{Completed-1} are written and every later one is
// untouched.
func Pocon[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, chol batchlas.Batch[T], anorm, rcond []T, ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(uplo, chol, anorm, rcond)
	if err != nil {
		return err
	}
	p := &pv
	anorm, rcond = anorm[:chol.Count], rcond[:chol.Count]
	if err := condest.CheckNorms(opName, anorm); err != nil {
		return err
	}
	if chol.Count == 0 {
		return nil
	}
	if p.n == 0 {
		for i := range rcond {
			rcond[i] = 1
		}
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(chol.Count)
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
			if err := condest.CheckWorkspace(opName, "chol", ws[:need], chol, anorm, rcond); err != nil {
				return err
			}
		}
		switch c.Family() {
		case permatrix:
			return condest.Run(ctx, chol, byte(p.uplo), anorm, rcond, ws, need, flopsPerMatrix(p.n), estimator[T](p))
		case vendor:
			return launchVendor(ctx, p, chol, anorm, rcond, ws, need)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to gecon.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Pocon needs for
// these arguments, for the kernel the same call would choose: with the
// same context (pins, device, the worker cap of batchlas.WithParallelism)
// and shapes. It refuses what Pocon refuses, but does not read anorm's
// values. It is 0 for a call with no matrix or n == 0, with no decision.
// A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, chol batchlas.Batch[T], anorm, rcond []T) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(uplo, chol, anorm, rcond)
	if err != nil {
		return 0, err
	}
	if chol.Count == 0 || pv.n == 0 {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), pv.key(chol.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize[T](ctx, c, &pv), nil
}

// bufferSize is the workspace of choice c: per worker, the estimator's two
// vectors for permatrix, and for vendor a row-major copy of the factor and
// Dpocon's 3n of work.
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

// canRun is pocon's correctness gate: permatrix serves every shape;
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

// special is the rcond every kernel gives matrix i without estimating
// anything, and whether it applies: anorm 0 or +Inf give 0, a NaN anorm or
// a non-finite factor NaN. Scanning the factor costs n^2 reads against the
// estimate's several solves.
func special[T batchlas.Float](an T, m []T, ld, n int) (T, bool) {
	switch {
	case an != an:
		return an, true
	case an == 0 || math.IsInf(float64(an), 1):
		return 0, true
	}
	var s T
	for c := range n {
		for _, v := range m[c*ld : c*ld+n] {
			s += v - v // 0 for a finite v, NaN for Inf or NaN
		}
	}
	if s != s {
		return T(math.NaN()), true
	}
	return 0, false
}

// scaleOf is the power of two nearest above anorm: the solves run on A/s,
// whose inverse is s*A^-1, so that neither a tiny nor a huge A overflows
// them while its condition is moderate. Exact, being a power of two.
func scaleOf[T batchlas.Float](an T) T {
	_, e := math.Frexp(float64(an))
	return T(math.Ldexp(1, e))
}

// fromEstimate is rcond from the estimate est of ||(A/s)^-1||: s/(anorm*est)
// computed so that it cannot overflow, 0 when the estimate is unusable.
func fromEstimate[T batchlas.Float](an, s T, est float64, finite bool) T {
	if !finite || !(est > 0) {
		return 0
	}
	return T(float64(s) / float64(an) / est)
}
