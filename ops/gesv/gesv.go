package gesv

import (
	"context"
	"fmt"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/parallel"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "gesv"

// problem is one validated call, shared by every family.
type problem struct {
	n, nrhs int // A is n x n, B is n x nrhs
}

// Key positions, in the order of the declared key names.
const (
	keyN = iota
	keyNRHS
	keyBatch
)

func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Int(p.n), sel.Int(p.nrhs), sel.Int(count))
}

// check validates the arguments of Gesv and BufferSize. All three
// operands are written.
func check[T batchlas.Float](a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) (problem, error) {
	if err := a.Check(opName, "a", true); err != nil {
		return problem{}, err
	}
	if err := ipiv.Check(opName, "ipiv", true); err != nil {
		return problem{}, err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return problem{}, err
	}
	switch {
	case a.Rows != a.Cols:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d; gesv solves square systems (rows == cols)", a.Rows, a.Cols)
	case b.Rows != a.Rows:
		return problem{}, opkit.Argf(opName, "b", "b has %d rows but a is %dx%d; b needs one row per row of a", b.Rows, a.Rows, a.Cols)
	case b.Count != a.Count:
		return problem{}, opkit.Argf(opName, "b", "b.Count %d != a.Count %d: give one right-hand side matrix per system", b.Count, a.Count)
	case ipiv.Count != a.Count:
		return problem{}, opkit.Argf(opName, "ipiv", "ipiv.Count %d != a.Count %d: give one pivot vector per matrix", ipiv.Count, a.Count)
	case ipiv.Len < a.Rows:
		return problem{}, opkit.Argf(opName, "ipiv", "ipiv.Len %d < n %d: each pivot vector holds one row interchange per column", ipiv.Len, a.Rows)
	}
	if err := opkit.CheckDisjoint(opName, "b", b, "a", a); err != nil {
		return problem{}, err
	}
	return problem{n: a.Rows, nrhs: b.Cols}, nil
}

// Gesv solves A_i*X_i = B_i for every i by LU factorisation with partial
// pivoting: A_i is overwritten by its factors and ipiv by its pivots,
// exactly as getrf leaves them (A_i = P_i*L_i*U_i, 0-based pivots; see
// package getrf for the pivoting rules), and B_i (n x nrhs) by X_i.
//
// a, ipiv and b are all written: none may be a broadcast of more than one
// matrix, b may not share an element with a (batchlas.Overlap), and the
// part of ws a kernel uses may share none with a or b. ipiv.Len must be at
// least n; only the first n entries of each vector are written. ws is the
// workspace: nil allocates it, otherwise it needs BufferSize elements.
//
// A singular matrix does not stop the batch: a matrix whose factor has a
// zero or NaN pivot (getrf's info > 0: the first j, 1-based, with
// !(|U(j-1, j-1)| > 0)) is factored to the end, as getrf does, its B_i is
// left exactly as it was, every other system is solved, and the call
// returns a *batchlas.NumericalError from gesv listing the singular
// matrices with getrf's info.
//
// With batchlas.WithConditionCheck in ctx, gesv also takes ||A_i||_1
// before factoring and estimates rcond_i from the factor (package gecon,
// its decision traced after gesv's); a matrix that factored but whose
// rcond_i is below the threshold (n*eps by default) or NaN is solved all
// the same (X_i is written) and listed in the NumericalError with info
// n+1, as LAPACK's xGESVX reports it. The check allocates its norms and
// estimates, and runs to its end once the systems are solved, whatever
// ctx says. Without it, "singular" means an exactly zero (or NaN) pivot
// only: a matrix singular in exact arithmetic usually factors with a
// pivot near eps*||A_i|| instead, and is solved to garbage.
//
// With nrhs == 0 the matrices are still factored (and singular ones
// reported), as LAPACK's gesv does. A call with no matrix or n == 0 runs
// no kernel and makes no decision, so the pin is not read: a bad pin is
// no error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the systems (A_i, ipiv_i and B_i together: a system is complete
// when all three are as the uninterrupted call leaves them); its Failed
// field lists the singular matrices among the completed ones. fused
// handles each system on one worker from start to end: systems 0 ..
// Completed-1 are done, every later one untouched (Touched ==
// Completed). nested factors the whole batch with getrf, then solves: an
// interruption while factoring completes no system and leaves untouched
// the ones getrf reports untouched; one while solving completes the
// systems the getrs call completed, and every A_i has been written.
func Gesv[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(a, ipiv, b)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	if a.Empty() {
		return nil
	}
	cond, err := startConditionCheck(ctx, a)
	if err != nil {
		return err
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(a.Count)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run n=%d nrhs=%d on %s; pin another kernel or unset the pin", c, p.n, p.nrhs, dev.Key)
		}
		if ws != nil {
			need, err := bufferSize(ctx, c, a, ipiv, b)
			if err != nil {
				return err
			}
			if len(ws) < need {
				return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
					n, err := bufferSize(ctx, c, a, ipiv, b)
					if err != nil {
						return -1 // cannot size it: fits no worker count
					}
					return n
				})
			}
			ws = ws[:need]
			if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
				return err
			}
			if err := opkit.CheckWorkspace(opName, ws, "b", b); err != nil {
				return err
			}
		}
		switch c.Family() {
		case fused:
			return launchFused(ctx, p, a, ipiv, b, info)
		case nested:
			return launchNested(ctx, p, a, ipiv, b, ws, info)
		case lanesFamily:
			return launchLanes(ctx, p, a, ipiv, b, ws, info)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to gesv.go)", opName, c)
	})
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Op = opName
		// The completed systems' info is final; InfoError copies it out.
		ie.Failed, _ = opkit.InfoError(opName, info[:ie.Completed]).(*batchlas.NumericalError)
		return ie
	}
	if err != nil {
		return err
	}
	if cond != nil {
		if err := finishConditionCheck(ctx, cond, a, info); err != nil {
			return err
		}
	}
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// BufferSize returns the number of workspace elements Gesv needs for these
// arguments, for the kernel the same call would choose: with the same
// context (pins, device, the worker cap of batchlas.WithParallelism) and
// shapes. It refuses the arguments Gesv refuses. It is 0 for a call with
// no matrix or n == 0, with no decision (the pin is not read). A nil ctx
// is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	p, err := check(a, ipiv, b)
	if err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), p.key(a.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, a, ipiv, b)
}

// bufferSize is the workspace of choice c: nested hands getrf and then
// getrs the same workspace, so it is the larger of their BufferSize for
// the whole batch, the batch both are called on (see launchNested);
// lanes needs a group's scratch per worker; fused needs none.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](&problem{n: a.Rows, nrhs: b.Cols}), nil
	case fused:
		return 0, nil
	}
	nf, err := getrf.BufferSize(ctx, a, ipiv)
	if err != nil {
		return 0, err
	}
	ns, err := getrs.BufferSize(ctx, batchlas.NoTrans, a, ipiv, b)
	if err != nil {
		return 0, err
	}
	return max(nf, ns), nil
}

// canRun is gesv's correctness gate (R3): fused and nested serve every
// shape on every device (nested's own nested decisions have gates of
// their own); lanes takes orders up to lanesMax.
func canRun(c sel.Choice, k sel.Key, _ *sel.Device) bool {
	switch c.Family() {
	case fused, nested:
		return true
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	}
	return false
}

// flopsPerMatrix is the cost of one system: the factorisation, 2n^3/3,
// and the solve, 2n^2*nrhs.
func flopsPerMatrix(p *problem) float64 {
	n := float64(p.n)
	return 2*n*n*n/3 + 2*n*n*float64(p.nrhs)
}
