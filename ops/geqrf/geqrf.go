package geqrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "geqrf"

// Geqrf computes the QR factorisation of every m x n matrix of a, in
// place: A_i = Q_i R_i, R_i (min(m,n) x n upper trapezoidal) on and above
// the diagonal, Q_i = H_0 H_1 .. H_{k-1} (k = min(m, n)) given by the
// reflectors H_j = I - tau_j v_j v_j^T whose tails v_j(j+1:m) are stored
// below the diagonal of column j (v_j(j) = 1 is implied), as LAPACK's
// geqrf leaves them. Any m and n: tall, square or wide. Padding (LD > m,
// gaps between matrices) is left untouched.
//
// tau receives the k factors of matrix i in its vector i: tau.Count must
// equal a.Count and tau.Len be at least min(m, n); only the first min(m,
// n) entries of each vector are written. a and tau are written, so neither
// may be a broadcast of more than one matrix, and they may not share an
// element.
//
// ws is workspace of at least BufferSize elements, none of them shared
// with a (an *ArgError on ws); nil means the call allocates what it needs.
//
// A NaN or Inf in A_i gives NaN in its factor and tau; it is no error and
// does not affect the other matrices.
//
// A nil ctx is context.Background(). An empty batch (no matrix, m or n 0)
// runs no kernel and makes no decision, so the pin is not read: a bad pin
// is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of a (and, alike, the vectors of tau): every kernel
// factors each matrix on one worker from start to end, so A_0 ..
// A_{Completed-1} are factored and every later A_i is untouched (Touched
// == Completed).
func Geqrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(a, tau); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(a)
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, a, tau, ws)
	})
	return opkit.Interrupted(opName, err)
}

// launch runs kernel c on a. It refuses exactly what can_run refuses
// (R3), and a workspace shorter than c needs.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "a", "kernel %s cannot factor %dx%d on device %s; pin another kernel or unset the pin", c, a.Rows, a.Cols, dev.Key)
	}
	need := bufferSize(ctx, c, a)
	if ws != nil {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
				return bufferSize(ctx, c, a)
			})
		}
		if err := opkit.CheckWorkspace(opName, ws[:need], "a", a); err != nil {
			return err
		}
		if err := opkit.CheckWorkspace(opName, ws[:need], "tau", tauBatch(tau, min(a.Rows, a.Cols))); err != nil {
			return err
		}
	}
	switch c.Family() {
	case unblockedFamily:
		return runJob(ctx, runUnblocked, a, tau, 0, nil, 0)
	case lanesFamily:
		return lanesGeqrf(ctx, a, tau, ws)
	case blockedFamily:
		nb := c.Field("nb")
		if ws == nil {
			ws = make([]T, need)
		}
		return runJob(ctx, runBlocked, a, tau, nb, ws, blockedScratch(a, nb))
	case vendorFamily:
		return vendorGeqrf(ctx, a, tau, ws)
	}
	return opkit.Argf(opName, "a", "kernel %s is not a geqrf family", c)
}

// BufferSize returns the workspace, in elements, that Geqrf needs for this
// call: it asks the selection core the same question Geqrf asks, so the
// size fits the kernel that will run, and for the workers a call with ctx
// may use (batchlas.WithParallelism). It refuses the arguments Geqrf
// refuses. It is 0 for an empty batch, with no decision (the pin is not
// read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(a, tau); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(a), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, a), nil
}

// check validates the arguments of a call.
func check[T batchlas.Float](a batchlas.Batch[T], tau batchlas.Vectors[T]) error {
	if err := a.Check(opName, "a", true); err != nil {
		return err
	}
	if err := tau.Check(opName, "tau", true); err != nil {
		return err
	}
	k := min(a.Rows, a.Cols)
	switch {
	case tau.Count != a.Count:
		return opkit.Argf(opName, "tau", "tau.Count %d != a.Count %d: give one vector of factors per matrix", tau.Count, a.Count)
	case tau.Len < k:
		return opkit.Argf(opName, "tau", "tau.Len %d < min(m, n) %d: each vector holds one factor per reflector", tau.Len, k)
	}
	if a.Empty() || k == 0 {
		return nil
	}
	return opkit.CheckDisjoint(opName, "tau", tauBatch(tau, k), "a", a)
}

// tauBatch views the used part of tau (its first min(m, n) entries, at
// most Len) as a batch of k x 1 matrices, for the overlap checks.
func tauBatch[T batchlas.Float](tau batchlas.Vectors[T], k int) batchlas.Batch[T] {
	b := batchlas.VectorsAsBatch(tau)
	b.Rows = k
	return b
}

// makeKey builds the call's key in the order of the declared key names:
// m:log:4 n:log:4 batch:log.
func makeKey[T batchlas.Float](a batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Int(a.Rows), sel.Int(a.Cols), sel.Int(a.Count))
}

// Key positions, in the order of the declared key names.
const (
	keyM = iota
	keyN
	keyBatch
)

// twin is geqrf's OpSpec.Twin: blocked with nb >= min(m, n) runs the
// unblocked kernel's code (GeqrfBlocked hands such a matrix to Geqr2).
func twin(c sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	if c.Is(blockedFamily) && c.Field("nb") >= min(k.Int(keyM), k.Int(keyN)) {
		return unblockedFamily.Name
	}
	return ""
}

// canRun is geqrf's correctness gate (R3): lanes takes m and n up to
// lanesMax; blocked needs a panel width of at least one column; the vendor
// kernel needs gonum's LAPACK in the build. The others factor any shape.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case lanesFamily:
		return k.Int(keyM) <= lanesMax && k.Int(keyN) <= lanesMax
	case blockedFamily:
		return c.Field("nb") >= 1
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return true
}

// bufferSize is the workspace kernel c needs for a: blocked a triangle
// T (nb x nb) and qr.BlockedWork per worker; lanes a group and its
// scratch per worker; vendor a row-major copy and gonum's work per
// worker; unblocked none.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, a batchlas.Batch[T]) int {
	switch c.Family() {
	case blockedFamily:
		return parallel.Workers(ctx) * blockedScratch(a, c.Field("nb"))
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](a.Rows, a.Cols)
	case vendorFamily:
		return parallel.Workers(ctx) * vendorScratch(a.Rows, a.Cols)
	}
	return 0
}

// blockedScratch is the per-worker scratch of blocked:nb=nb.
func blockedScratch[T batchlas.Float](a batchlas.Batch[T], nb int) int {
	nb = max(1, min(nb, min(a.Rows, a.Cols)))
	return parallel.Pad(nb*nb + qr.BlockedWork(a.Rows, a.Cols, nb))
}

// flopsPerMatrix is the cost of one factorisation (LAPACK's count): 2mn^2
// - 2n^3/3 for m >= n, 2nm^2 - 2m^3/3 for m < n; what parallel.Run weighs
// a matrix by and what the benchmarks report GFLOP/s against.
func flopsPerMatrix(m, n int) float64 {
	fm, fn := float64(m), float64(n)
	if m < n {
		fm, fn = fn, fm
	}
	return 2*fm*fn*fn - 2*fn*fn*fn/3
}
