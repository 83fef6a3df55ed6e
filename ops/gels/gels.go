package gels

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "gels"

// problem is one validated call, shared by every family.
type problem struct {
	m, n, nrhs int // A is m x n (m >= n), B is m x nrhs
}

// key is the selection key of the call, in the order of spec.Keys.
func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Int(p.m), sel.Int(p.n), sel.Int(p.nrhs), sel.Int(count))
}

// check validates the arguments of Gels and BufferSize. Both operands are
// written.
func check[T batchlas.Float](a, b batchlas.Batch[T]) (problem, error) {
	if err := a.Check(opName, "a", true); err != nil {
		return problem{}, err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return problem{}, err
	}
	switch {
	case a.Rows < a.Cols:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d: gels solves least-squares problems with m >= n (rows >= cols); an underdetermined system (m < n) is not supported yet", a.Rows, a.Cols)
	case b.Rows != a.Rows:
		return problem{}, opkit.Argf(opName, "b", "b has %d rows but a is %dx%d; b needs one row per row of a (X is returned in its first %d rows)", b.Rows, a.Rows, a.Cols, a.Cols)
	case b.Count != a.Count:
		return problem{}, opkit.Argf(opName, "b", "b.Count %d != a.Count %d: give one right-hand side matrix per system", b.Count, a.Count)
	}
	if err := opkit.CheckDisjoint(opName, "b", b, "a", a); err != nil {
		return problem{}, err
	}
	return problem{m: a.Rows, n: a.Cols, nrhs: b.Cols}, nil
}

// Gels solves the least-squares problems min ||A_i*X_i - B_i|| (2-norm,
// each column of B_i on its own) for every i of a batch of m x n matrices
// with m >= n and full column rank, by Householder QR: A_i = Q_i*R_i,
// X_i = R_i^-1 * (Q_i^T*B_i)[0:n] (LAPACK xGELS with trans N). On return
// A_i holds its QR factor as geqrf leaves it (R in the upper triangle,
// the Householder vectors below) and B_i (m x nrhs) holds X_i in its
// first n rows and, in rows n to m-1, the components of the residual
// Q_i^T*(B_i - A_i*X_i): the sum of their squares is the squared residual
// norm of each column. With m == n it solves the square system.
//
// a and b are both written: neither may be a broadcast of more than one
// matrix, and they may not share an element (batchlas.Overlap), nor may
// the part of ws a kernel uses share one with either. ws is the
// workspace: nil allocates it, otherwise it needs BufferSize elements.
//
// A matrix whose R has a diagonal entry that is zero or NaN (!(|R_jj| >
// 0): A_i is rank-deficient, exactly, or holds a NaN) does not stop the
// batch: its B_i is left exactly as it was, its A_i holds the factor,
// every other system is solved, and the call returns a
// *batchlas.NumericalError listing those matrices with info j+1, the
// first such diagonal entry counted from 1, as xGELS reports it. A matrix
// that is rank-deficient in exact arithmetic usually factors with a tiny
// R_jj instead and is solved to large numbers: estimate R's condition
// first where that matters.
//
// A call with nothing to solve (no matrix, m == 0, n == 0 or nrhs == 0)
// runs no kernel, writes nothing (A is not factored either, as xGELS
// returns at once) and makes no decision, so the pin is not read: a bad
// pin is no error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel handles a
// system (A_i and B_i together) on one worker from start to end, so
// systems 0 .. Completed-1 are done and every later one untouched
// (Touched == Completed); its Failed field lists the rank-deficient
// matrices among the completed ones.
func Gels[T batchlas.Float](ctx context.Context, a, b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(a, b)
	if err != nil {
		return err
	}
	p := &pv
	if a.Empty() || p.nrhs == 0 {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(a.Count)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d nrhs=%d on %s; pin another kernel or unset the pin", c, p.m, p.n, p.nrhs, dev.Key)
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
			if err := opkit.CheckWorkspace(opName, ws, "b", b); err != nil {
				return err
			}
		} else {
			ws = make([]T, need)
		}
		switch c.Family() {
		case fused, blocked:
			return runJob(ctx, c, p, a, b, info, ws, need)
		case lanesFamily:
			return lanesGels(ctx, p, a, b, info, ws)
		case vendor:
			return launchVendor(ctx, p, a, b, info, ws, need)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to gels.go)", opName, c)
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
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// BufferSize returns the number of workspace elements Gels needs for these
// arguments, for the kernel the same call would choose: with the same
// context (pins, device, the worker cap of batchlas.WithParallelism) and
// shapes. It refuses what Gels refuses. It is 0 for a call with nothing
// to solve (no matrix, m, n or nrhs 0), with no decision. A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a, b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(a, b)
	if err != nil {
		return 0, err
	}
	if a.Empty() || pv.nrhs == 0 {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), pv.key(a.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize[T](ctx, c, &pv), nil
}

// bufferSize is the workspace of choice c: one slot per worker.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem) int {
	if c.Is(lanesFamily) {
		return parallel.Workers(ctx) * lanesSlot[T](p)
	}
	return parallel.Workers(ctx) * slot(c, p)
}

// slot is one worker's share: fused keeps tau (n) and the reflectors'
// work (max(n, nrhs)); blocked also a panel's triangular factor T
// (nb*nb) and work for nb columns; vendor the row-major copies of A_i and
// B_i and Dgels's work.
func slot(c sel.Choice, p *problem) int {
	switch c.Family() {
	case vendor:
		return vendorSlot(p)
	case blocked:
		nb := c.Field("nb")
		return parallel.Pad(p.n + nb*nb + qr.BlockedWork(p.m, max(p.n, p.nrhs), nb))
	}
	return parallel.Pad(p.n + max(p.n, p.nrhs, 1))
}

// canRun is gels's correctness gate: fused serves every shape, blocked
// every shape with a panel width of at least 1; vendor needs gonum's
// LAPACK in the build.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case fused:
		return true
	case lanesFamily:
		return k.Int(0) <= lanesMax && k.Int(2) <= lanesMax // m, nrhs
	case blocked:
		return c.Field("nb") >= 1
	case vendor:
		return d.Has("vendor:lapack")
	}
	return false
}

// flopsPerMatrix is the cost of one system: the QR factorisation,
// 2mn^2 - 2n^3/3, then Q^T applied to B, 4mn*nrhs - 2n^2*nrhs, and the
// triangular solve, n^2*nrhs: what parallel.Run weighs a matrix by and
// what the benchmarks report GFLOP/s against.
func flopsPerMatrix(p *problem) float64 {
	m, n, k := float64(p.m), float64(p.n), float64(p.nrhs)
	return 2*m*n*n - 2*n*n*n/3 + 4*m*n*k - n*n*k
}
