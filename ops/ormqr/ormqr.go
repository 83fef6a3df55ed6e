package ormqr

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "ormqr"

// problem is one validated call.
type problem struct {
	left, trans bool
	m, n, k     int // C is m x n, k reflectors (k = tau.Len)
}

// nq is the order of Q: C's rows on the left, its columns on the right.
func (p *problem) nq() int {
	if p.left {
		return p.m
	}
	return p.n
}

// Key positions, in the order of keyNames.
const (
	keySide = iota
	keyTrans
	keyM
	keyN
	keyK
	keyBatch
)

func (p *problem) key(count int) sel.Key {
	side, trans := batchlas.Right, batchlas.NoTrans
	if p.left {
		side = batchlas.Left
	}
	if p.trans {
		trans = batchlas.Trans
	}
	return sel.MakeKey(sel.Str(side.String()), sel.Str(trans.String()), sel.Int(p.m), sel.Int(p.n), sel.Int(p.k), sel.Int(count))
}

// check validates the arguments of Ormqr and BufferSize.
func check[T batchlas.Float](side batchlas.Side, trans batchlas.Transpose, a batchlas.Batch[T], tau batchlas.Vectors[T], c batchlas.Batch[T]) (problem, error) {
	if err := side.Check(opName); err != nil {
		return problem{}, err
	}
	if err := trans.Check(opName, "trans"); err != nil {
		return problem{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem{}, err
	}
	if err := tau.Check(opName, "tau", false); err != nil {
		return problem{}, err
	}
	if err := c.Check(opName, "c", true); err != nil {
		return problem{}, err
	}
	p := problem{left: side == batchlas.Left, trans: trans == batchlas.Trans, m: c.Rows, n: c.Cols, k: tau.Len}
	nq := p.nq()
	switch {
	case a.Rows != nq:
		return problem{}, opkit.Argf(opName, "a", "a has %d rows but Q is of order %d (c's %s): a holds the reflectors of an order-%d Q, one per column", a.Rows, nq, map[bool]string{true: "rows", false: "columns"}[p.left], nq)
	case tau.Len > a.Cols:
		return problem{}, opkit.Argf(opName, "tau", "tau.Len %d > a.Cols %d: Q is the product of k = tau.Len reflectors, one per column of a", tau.Len, a.Cols)
	case tau.Len > nq:
		return problem{}, opkit.Argf(opName, "tau", "tau.Len %d > %d, the order of Q: at most one reflector per row of a", tau.Len, nq)
	case a.Count != c.Count:
		return problem{}, opkit.Argf(opName, "a", "a.Count %d != c.Count %d: give one factor per matrix of c, or batchlas.Broadcast(a, %d)", a.Count, c.Count, c.Count)
	case tau.Count != c.Count:
		return problem{}, opkit.Argf(opName, "tau", "tau.Count %d != c.Count %d: give one tau vector per matrix of c, or batchlas.BroadcastVectors(tau, %d)", tau.Count, c.Count, c.Count)
	}
	if err := opkit.CheckDisjoint(opName, "c", c, "a", a); err != nil {
		return problem{}, err
	}
	if err := opkit.CheckDisjoint(opName, "c", c, "tau", batchlas.VectorsAsBatch(tau)); err != nil {
		return problem{}, err
	}
	return p, nil
}

// Ormqr overwrites every m x n C_i with Q_i C_i, Q_i^T C_i (side Left;
// trans NoTrans, Trans) or C_i Q_i, C_i Q_i^T (side Right) without forming
// Q_i (LAPACK's xORMQR, batched, column-major). Q_i = H_0 H_1 ..
// H_{k-1} is given as geqrf leaves it: the reflectors below the diagonal
// of the first k columns of A_i (nq x r, nq = m on the left and n on the
// right, the order of Q; what is on and above the diagonal is never
// read) and their factors in tau; k is tau.Len, k <= min(nq, r).
//
// a and tau are only read and may be broadcasts (one factor for many
// C_i). c is written and may not share an element with a or tau, nor may
// the part of ws a kernel uses share one with any of them. ws is the
// workspace: nil allocates it, otherwise it needs BufferSize elements;
// with it supplied a call allocates nothing.
//
// NaN or Inf in a, tau or c gives NaN or Inf in the C_i they reach by
// IEEE arithmetic (no error, no panic); a zero tau_j is H_j = I.
//
// A call with nothing to do (no matrix, m == 0, n == 0 or k == 0: Q = I)
// writes nothing and makes no decision. A nil ctx is
// context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel handles
// each C_i on one worker from start to end, so C_0 .. C_{Completed-1}
// are done and every later C_i is untouched.
func Ormqr[T batchlas.Float](ctx context.Context, side batchlas.Side, trans batchlas.Transpose, a batchlas.Batch[T], tau batchlas.Vectors[T], c batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(side, trans, a, tau, c)
	if err != nil {
		return err
	}
	p := &pv
	if c.Empty() || p.k == 0 {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(c.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, ch sel.Choice) error {
		if !canRun(ch, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d k=%d on %s; pin another kernel or unset the pin", ch, p.m, p.n, p.k, dev.Key)
		}
		need := bufferSize(ctx, ch, p)
		if ws != nil {
			if len(ws) < need {
				return opkit.WorkspaceShort(ctx, opName, ch.String(), len(ws), need, func(ctx context.Context) int {
					return bufferSize(ctx, ch, p)
				})
			}
			ws = ws[:need]
			for _, o := range []struct {
				name string
				b    batchlas.Batch[T]
			}{{"a", a}, {"tau", batchlas.VectorsAsBatch(tau)}, {"c", c}} {
				if err := opkit.CheckWorkspace(opName, ws, o.name, o.b); err != nil {
					return err
				}
			}
		} else {
			ws = make([]T, need)
		}
		switch ch.Family() {
		case unblocked:
			return runJob(ctx, runUnblocked, p, 0, a, tau, c, ws)
		case blocked:
			return runJob(ctx, runBlocked, p, ch.Field("nb"), a, tau, c, ws)
		case vendor:
			return launchVendor(ctx, p, a, tau, c, ws)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to ormqr.go)", opName, ch)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Ormqr needs for
// these arguments, for the kernel the same call would choose (same
// context: pins, device, worker cap). It is 0, with no decision, for a
// call with nothing to do. A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, side batchlas.Side, trans batchlas.Transpose, a batchlas.Batch[T], tau batchlas.Vectors[T], c batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(side, trans, a, tau, c)
	if err != nil {
		return 0, err
	}
	if c.Empty() || pv.k == 0 {
		return 0, nil
	}
	ch, err := Op.Pick(ctx, opkit.DTypeOf[T](), pv.key(c.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, ch, &pv), nil
}

// bufferSize is choice ch's workspace: per-worker scratch for the workers
// a call with ctx may use.
func bufferSize(ctx context.Context, ch sel.Choice, p *problem) int {
	return parallel.Workers(ctx) * perWorker(ch, p)
}

// perWorker is one worker's scratch: C v for unblocked on the right,
// T and the block reflector's product for blocked, the row-major copies
// and gonum's work for vendor.
// Padded (parallel.Pad) so that two workers' scratch never shares a
// cache line: ormqr side=R unblocked, whose per-worker C v was m elements
// unpadded, ran at half speed from the two workers writing one line.
func perWorker(ch sel.Choice, p *problem) int {
	return parallel.Pad(perWorkerTight(ch, p))
}

// perWorkerTight is perWorker before padding.
func perWorkerTight(ch sel.Choice, p *problem) int {
	switch ch.Family() {
	case unblocked:
		if p.left {
			return 0
		}
		return p.m
	case blocked:
		nb := ch.Field("nb")
		return nb*nb + qr.BlockedWork(p.m, p.n, nb)
	case vendor:
		return vendorSize(p)
	}
	return 0
}

// canRun is ormqr's correctness gate (R3): the native kernels apply every
// shape (blocked needs nb >= 1); vendor needs gonum's LAPACK.
func canRun(ch sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch ch.Family() {
	case unblocked:
		return true
	case blocked:
		return ch.Field("nb") >= 1
	case vendor:
		return d.Has("vendor:lapack")
	}
	return false
}

// twin: blocked with nb >= k runs Orm2r, unblocked's code.
func twin(ch sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	if ch.Is(blocked) && k.Int(keyK) <= ch.Field("nb") {
		return unblocked.Name
	}
	return ""
}

// flopsPerMatrix is the cost of one application, LAPACK's 4 n m k - 2 n
// k^2 on the left (4 m n k - 2 m k^2 on the right).
func flopsPerMatrix(p *problem) float64 {
	m, n, k := float64(p.m), float64(p.n), float64(p.k)
	if !p.left {
		m, n = n, m
	}
	return max(4*n*m*k-2*n*k*k, m*n)
}
