package orgqr

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "orgqr"

// problem is one validated call.
type problem struct {
	m, n, k int // A is m x n, k reflectors (k = tau.Len)
}

// Key positions, in the order of keyNames.
const (
	keyM = iota
	keyN
	keyBatch
)

func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Int(p.m), sel.Int(p.n), sel.Int(count))
}

// check validates the arguments of Orgqr and BufferSize.
func check[T batchlas.Float](a batchlas.Batch[T], tau batchlas.Vectors[T]) (problem, error) {
	if err := a.Check(opName, "a", true); err != nil {
		return problem{}, err
	}
	if err := tau.Check(opName, "tau", false); err != nil {
		return problem{}, err
	}
	switch {
	case a.Rows < a.Cols:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d: orgqr forms the first n columns of an m x m Q, so m >= n (a wide factor's Q is its first m columns: pass a.Sub of its columns)", a.Rows, a.Cols)
	case tau.Len > a.Cols:
		return problem{}, opkit.Argf(opName, "tau", "tau.Len %d > n %d: Q is the product of k = tau.Len reflectors, k <= n", tau.Len, a.Cols)
	case tau.Count != a.Count:
		return problem{}, opkit.Argf(opName, "tau", "tau.Count %d != a.Count %d: give one tau vector per matrix, or batchlas.BroadcastVectors(tau, %d)", tau.Count, a.Count, a.Count)
	}
	if err := opkit.CheckDisjoint(opName, "a", a, "tau", batchlas.VectorsAsBatch(tau)); err != nil {
		return problem{}, err
	}
	return problem{m: a.Rows, n: a.Cols, k: tau.Len}, nil
}

// Orgqr overwrites every m x n A_i (m >= n) holding geqrf's output (the
// reflectors below the diagonal; what is on and above it is ignored) with
// the first n columns of Q_i = H_0 H_1 .. H_{k-1}, the product of its
// first k reflectors with the factors in tau (LAPACK's xORGQR, batched,
// column-major). k is tau.Len, k <= n: geqrf's tau (length min(m, n) = n)
// gives the whole Q's first n columns; a shorter tau (WrapStridedVectors
// over the same storage with a smaller length) uses fewer reflectors, as
// LAPACK's k argument does.
//
// tau is only read and may be a broadcast; it may not share an element
// with a, nor may the part of ws a kernel uses share one with a or tau.
// ws is the workspace: nil allocates it, otherwise it needs BufferSize
// elements; with it supplied a call allocates nothing.
//
// NaN or Inf in a factor or tau gives NaN or Inf in that Q_i by IEEE
// arithmetic (no error, no panic); a zero tau_j is H_j = I.
//
// A call with nothing to form (no matrix, m == 0 or n == 0) reads nothing
// and makes no decision. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel forms each
// Q_i on one worker from start to end, so A_0 .. A_{Completed-1} hold
// their Q and every later A_i is untouched.
func Orgqr[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(a, tau)
	if err != nil {
		return err
	}
	p := &pv
	if a.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(a.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d on %s; pin another kernel or unset the pin", c, p.m, p.n, dev.Key)
		}
		need := bufferSize[T](ctx, c, p)
		if ws != nil {
			if len(ws) < need {
				return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
					return bufferSize[T](ctx, c, p)
				})
			}
			ws = ws[:need]
			if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
				return err
			}
			if err := opkit.CheckWorkspace(opName, ws, "tau", batchlas.VectorsAsBatch(tau)); err != nil {
				return err
			}
		} else {
			ws = make([]T, need)
		}
		switch c.Family() {
		case unblocked:
			return runJob(ctx, runUnblocked, p, 0, a, tau, ws)
		case lanesFamily:
			return lanesOrgqr(ctx, p, a, tau, ws)
		case blocked:
			return runJob(ctx, runBlocked, p, c.Field("nb"), a, tau, ws)
		case vendor:
			return launchVendor(ctx, p, a, tau, ws)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to orgqr.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Orgqr needs for
// these arguments, for the kernel the same call would choose (same
// context: pins, device, worker cap). It is 0, with no decision, for a
// call with nothing to form. A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T]) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(a, tau)
	if err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), pv.key(a.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize[T](ctx, c, &pv), nil
}

// bufferSize is choice c's workspace: per-worker scratch for the workers
// a call with ctx may use.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem) int {
	return parallel.Workers(ctx) * perWorker[T](c, p)
}

// perWorker is one worker's scratch: a column's worth for unblocked, T
// and the block reflector's product for blocked, the row-major copy and
// gonum's work for vendor.
// Padded (parallel.Pad) so that two workers' scratch never shares a
// cache line: ormqr side=R unblocked, whose per-worker C v was m elements
// unpadded, ran at half speed from the two workers writing one line.
func perWorker[T batchlas.Float](c sel.Choice, p *problem) int {
	return parallel.Pad(perWorkerTight[T](c, p))
}

// perWorkerTight is perWorker before padding.
func perWorkerTight[T batchlas.Float](c sel.Choice, p *problem) int {
	switch c.Family() {
	case unblocked:
		return p.n
	case lanesFamily:
		return lanesSlot[T](p)
	case blocked:
		nb := c.Field("nb")
		return nb*nb + qr.BlockedWork(p.m, p.n, nb)
	case vendor:
		return vendorSize(p)
	}
	return 0
}

// canRun is orgqr's correctness gate (R3): lanes takes m up to lanesMax;
// the other native kernels form every shape (blocked needs nb >= 1);
// vendor needs gonum's LAPACK.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case unblocked:
		return true
	case lanesFamily:
		return k.Int(keyM) <= lanesMax
	case blocked:
		return c.Field("nb") >= 1
	case vendor:
		return d.Has("vendor:lapack")
	}
	return false
}

// twin: blocked with nb >= n (so nb >= k) runs Org2r, unblocked's code.
func twin(c sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	if c.Is(blocked) && k.Int(keyN) <= c.Field("nb") {
		return unblocked.Name
	}
	return ""
}

// flopsPerMatrix is the cost of forming one Q with k = n reflectors,
// LAPACK's 4 m n k - 2 (m + n) k^2 + 4/3 k^3 at k = n.
func flopsPerMatrix(p *problem) float64 {
	m, n, k := float64(p.m), float64(p.n), float64(p.k)
	return max(4*m*n*k-2*(m+n)*k*k+4*k*k*k/3, m*n)
}
