package gesvd

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/svd"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "gesvd"

// Job says which singular vectors a call computes, for U (jobu) and for
// V^T (jobvt) separately: LAPACK's 'N', 'S' and 'A'.
type Job byte

const (
	// NoVectors computes none of them; the operand may be the zero Batch.
	NoVectors Job = 'N'
	// ThinVectors computes the min(m, n) leading ones: U is m x min(m, n),
	// V^T is min(m, n) x n.
	ThinVectors Job = 'S'
	// AllVectors computes all of them: U is m x m, V^T is n x n.
	AllVectors Job = 'A'
)

func (j Job) String() string {
	switch j {
	case NoVectors:
		return "N"
	case ThinVectors:
		return "S"
	case AllVectors:
		return "A"
	}
	return fmt.Sprintf("Job(%q)", rune(j))
}

// check returns an *ArgError on arg unless j is one of the three jobs.
func (j Job) check(arg string) error {
	if j != NoVectors && j != ThinVectors && j != AllVectors {
		return opkit.Argf(opName, arg, "%s %q: want gesvd.NoVectors ('N'), gesvd.ThinVectors ('S') or gesvd.AllVectors ('A')", arg, rune(j))
	}
	return nil
}

// kernelJob is j in internal/svd's words.
func (j Job) kernelJob() svd.Job {
	switch j {
	case ThinVectors:
		return svd.Thin
	case AllVectors:
		return svd.All
	}
	return svd.None
}

// Gesvd computes the singular value decomposition A_i = U_i S_i V_i^T of
// every m x n matrix A_i of a batch (LAPACK's xGESVD, batched,
// column-major), any m and n: tall, square or wide. A is only read (it may
// be a batchlas.Broadcast).
//
// s receives the k = min(m, n) singular values of A_i in descending
// order: s.Count must equal a.Count and s.Len be at least k; only the
// first k entries of each vector are written.
//
// With jobu = ThinVectors, u is a batch of m x k matrices and receives the
// left singular vectors, column j the one of s_i[j]; with AllVectors it is
// m x m, its last m - k columns an orthonormal basis of the rest of the
// space. With jobvt = ThinVectors, vt is a batch of k x n matrices and
// receives V_i^T, row j the right singular vector of s_i[j]; with
// AllVectors it is n x n. Singular vectors of a zero (or repeated)
// singular value are an orthonormal basis of their space. With NoVectors
// the operand is not read and may be the zero Batch. u and vt must hold
// a.Count matrices when computed, and s, u and vt may share no element
// with each other or with a.
//
// Signs do not depend on the kernel: when U is computed, the entry of
// largest magnitude of each of its columns is positive (the first of them
// on a tie) and row j of V^T has the sign that goes with column j; when
// only V^T is computed, each row's entry of largest magnitude is positive.
// (Entries equal in magnitude up to rounding may still break the tie
// either way.)
//
// A matrix of order 0 (m or n zero) has no singular values; with
// AllVectors its u (m x m) or vt (n x n) is the identity.
//
// ws is workspace of at least BufferSize elements sharing none with the
// operands (an *ArgError on ws); nil means the call allocates what it
// needs. With the workspace supplied a call allocates nothing but the
// error it returns.
//
// A matrix that fails does not stop the batch: every other matrix is
// still computed, and the call returns a *batchlas.NumericalError listing
// the failed matrices with their info, the same codes for every kernel:
//
//   - k+1: A_i holds a NaN or an infinity; nothing is computed for it, and
//     its s_i, u_i and vt_i are left exactly as they were;
//   - 1..k: the iteration did not converge (60 Jacobi sweeps; the vendor
//     kernel's QR iteration limit, reported as k): s_i, u_i and vt_i hold
//     its last iterate.
//
// A nil ctx is context.Background(). An empty batch (no matrix) runs no
// kernel and makes no decision, so the pin is not read: a bad pin is no
// error there; neither does a batch of order 0.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of a (and alike s, u and vt); its Failed field lists
// the failures among the completed matrices. Every kernel computes each
// matrix on one worker from start to end, so Touched == Completed:
// matrices 0 .. Completed-1 are done (or reported failed) and every later
// one is untouched.
func Gesvd[T batchlas.Float](ctx context.Context, jobu, jobvt Job, a batchlas.Batch[T], s batchlas.Vectors[T], u, vt batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(jobu, jobvt, a, s, u, vt); err != nil {
		return err
	}
	if a.Count == 0 {
		return nil
	}
	if a.Rows == 0 || a.Cols == 0 {
		orderZero(jobu, jobvt, a, u, vt)
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(jobu, jobvt, a)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	p := problem[T]{jobu: jobu, jobvt: jobvt, a: a, s: s, u: u, vt: vt}
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, &p, ws, info)
	})
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Op = opName
		// The completed matrices' info is final; InfoError copies it out.
		ie.Failed, _ = opkit.InfoError(opName, info[:ie.Completed]).(*batchlas.NumericalError)
		return ie
	}
	if err != nil {
		return err
	}
	return opkit.InfoError(opName, info)
}

// problem is one call's operands.
type problem[T batchlas.Float] struct {
	jobu, jobvt Job
	a           batchlas.Batch[T]
	s           batchlas.Vectors[T]
	u, vt       batchlas.Batch[T]
}

// launch runs kernel c, writing each matrix's info. It refuses exactly
// what can_run refuses (R3), and a workspace shorter than c needs or
// sharing an element with an operand.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, p *problem[T], ws []T, info []int32) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "a", "kernel %s cannot decompose %dx%d on device %s; pin another kernel or unset the pin", c, p.a.Rows, p.a.Cols, dev.Key)
	}
	need := bufferSize(ctx, c, p)
	if ws == nil {
		ws = make([]T, need)
	} else {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int { return bufferSize(ctx, c, p) })
		}
		ws = ws[:need]
		if err := checkWorkspace(ws, p); err != nil {
			return err
		}
	}
	switch c.Family() {
	case jacobiFamily:
		return runJob(ctx, runJacobi, p, ws, jacobiSlot[T](p), info)
	case bidiagFamily:
		if bidiagGroups(p) {
			j := parallel.Get[job[T]]()
			defer parallel.Put(j)
			j.p, j.info = *p, info
			return lanes.RunGroups(ctx, p.a.Count, flopsPerMatrix(p.a.Rows, p.a.Cols, false), ws, bidiagSlot[T](p), j)
		}
		return runJob(ctx, runBidiag, p, ws, bidiagSlot[T](p), info)
	case lanesFamily:
		return lanesGesvd(ctx, p, ws, info)
	case vendorFamily:
		return vendorGesvd(ctx, p, ws, info)
	}
	return opkit.Argf(opName, "a", "kernel %s is not a gesvd family", c)
}

// checkWorkspace refuses a workspace that shares an element with an
// operand the call reads or writes.
func checkWorkspace[T batchlas.Float](ws []T, p *problem[T]) error {
	if err := opkit.CheckWorkspace(opName, ws, "a", p.a); err != nil {
		return err
	}
	if err := opkit.CheckWorkspace(opName, ws, "s", valuesBatch(p.s, min(p.a.Rows, p.a.Cols))); err != nil {
		return err
	}
	if p.jobu != NoVectors {
		if err := opkit.CheckWorkspace(opName, ws, "u", p.u); err != nil {
			return err
		}
	}
	if p.jobvt != NoVectors {
		return opkit.CheckWorkspace(opName, ws, "vt", p.vt)
	}
	return nil
}

// BufferSize returns the workspace, in elements, that Gesvd needs for this
// call: it asks the selection core the same question Gesvd asks, so the
// size fits the kernel that will run, and for the workers a call with ctx
// may use (batchlas.WithParallelism). It refuses the arguments Gesvd
// refuses. It is 0 for an empty batch or order 0, with no decision (the
// pin is not read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, jobu, jobvt Job, a batchlas.Batch[T], s batchlas.Vectors[T], u, vt batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(jobu, jobvt, a, s, u, vt); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(jobu, jobvt, a), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	p := problem[T]{jobu: jobu, jobvt: jobvt, a: a, s: s, u: u, vt: vt}
	return bufferSize(ctx, c, &p), nil
}

// check validates the arguments of a call.
func check[T batchlas.Float](jobu, jobvt Job, a batchlas.Batch[T], s batchlas.Vectors[T], u, vt batchlas.Batch[T]) error {
	if err := jobu.check("jobu"); err != nil {
		return err
	}
	if err := jobvt.check("jobvt"); err != nil {
		return err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return err
	}
	if err := s.Check(opName, "s", true); err != nil {
		return err
	}
	m, n := a.Rows, a.Cols
	k := min(m, n)
	switch {
	case s.Count != a.Count:
		return opkit.Argf(opName, "s", "s.Count %d != a.Count %d: give one vector of singular values per matrix", s.Count, a.Count)
	case s.Len < k:
		return opkit.Argf(opName, "s", "s.Len %d < min(m, n) %d: each vector holds the singular values of its matrix", s.Len, k)
	}
	if err := checkVectors("u", jobu, u, a, m, vectorCols(jobu, m, k)); err != nil {
		return err
	}
	if err := checkVectors("vt", jobvt, vt, a, vectorCols(jobvt, n, k), n); err != nil {
		return err
	}
	if a.Count == 0 {
		return nil
	}
	// Every written operand is disjoint from every other operand.
	sb := valuesBatch(s, k)
	hasU := jobu != NoVectors && !u.Empty()
	hasVT := jobvt != NoVectors && !vt.Empty()
	if k > 0 {
		if err := opkit.CheckDisjoint(opName, "s", sb, "a", a); err != nil {
			return err
		}
	}
	if hasU {
		if err := disjointFrom("u", u, a, sb, k); err != nil {
			return err
		}
	}
	if hasVT {
		if err := disjointFrom("vt", vt, a, sb, k); err != nil {
			return err
		}
	}
	if hasU && hasVT {
		return opkit.CheckDisjoint(opName, "vt", vt, "u", u)
	}
	return nil
}

// disjointFrom refuses a written batch of vectors that shares an element
// with a or with the first k entries of s (sb).
func disjointFrom[T batchlas.Float](name string, w, a, sb batchlas.Batch[T], k int) error {
	if err := opkit.CheckDisjoint(opName, name, w, "a", a); err != nil {
		return err
	}
	if k == 0 {
		return nil
	}
	return opkit.CheckDisjoint(opName, name, w, "s", sb)
}

// vectorCols is how many vectors job asks for out of full (m for U, n for
// V^T), k being min(m, n).
func vectorCols(job Job, full, k int) int {
	if job == AllVectors {
		return full
	}
	return k
}

// checkVectors validates the operand of a computed set of vectors: a
// written batch of a.Count rows x cols matrices.
func checkVectors[T batchlas.Float](name string, job Job, b, a batchlas.Batch[T], rows, cols int) error {
	if job == NoVectors {
		return nil
	}
	if err := b.Check(opName, name, true); err != nil {
		return err
	}
	switch {
	case b.Count != a.Count:
		return opkit.Argf(opName, name, "%s.Count %d != a.Count %d: give one matrix of vectors per matrix", name, b.Count, a.Count)
	case b.Rows != rows || b.Cols != cols:
		return opkit.Argf(opName, name, "%s is %dx%d; %s = %s on %dx%d matrices wants %dx%d", name, b.Rows, b.Cols, "job"+name, job, a.Rows, a.Cols, rows, cols)
	}
	return nil
}

// valuesBatch views the used part of s (its first k entries) as a batch of
// k x 1 matrices, for the overlap checks.
func valuesBatch[T batchlas.Float](s batchlas.Vectors[T], k int) batchlas.Batch[T] {
	b := batchlas.VectorsAsBatch(s)
	b.Rows = k
	return b
}

// orderZero writes the vectors of matrices of order 0: with AllVectors,
// u (m x m) or vt (n x n) is the identity.
func orderZero[T batchlas.Float](jobu, jobvt Job, a batchlas.Batch[T], u, vt batchlas.Batch[T]) {
	if jobu == AllVectors {
		identities(u)
	}
	if jobvt == AllVectors {
		identities(vt)
	}
}

// identities sets every matrix of b (square) to the identity.
func identities[T batchlas.Float](b batchlas.Batch[T]) {
	for i := range b.Count {
		for c := range b.Cols {
			col := b.Data[i*b.Stride+c*b.LD : i*b.Stride+c*b.LD+b.Rows]
			clear(col)
			col[c] = 1
		}
	}
}

// makeKey builds the call's key in the order of the declared key names:
// vectors:exact m:log:4 n:log:4 batch:log.
func makeKey[T batchlas.Float](jobu, jobvt Job, a batchlas.Batch[T]) sel.Key {
	vec := "N"
	if jobu != NoVectors || jobvt != NoVectors {
		vec = "V"
	}
	return sel.MakeKey(sel.Str(vec), sel.Int(a.Rows), sel.Int(a.Cols), sel.Int(a.Count))
}

// Key positions, in the order of the declared key names.
const (
	keyVectors = iota
	keyM
	keyN
	keyBatch
)

// canRun is gesvd's correctness gate (R3): lanes takes min(m, n) up to
// lanesMax; the vendor kernel needs gonum's LAPACK in the build; jacobi
// takes every shape.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case jacobiFamily, bidiagFamily:
		return true
	case lanesFamily:
		return min(k.Int(keyM), k.Int(keyN)) <= lanesMax
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return false
}

// bufferSize is the workspace kernel c needs for a call with ctx: one slot
// per worker.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem[T]) int {
	switch c.Family() {
	case jacobiFamily:
		return parallel.Workers(ctx) * jacobiSlot[T](p)
	case bidiagFamily:
		return parallel.Workers(ctx) * bidiagSlot[T](p)
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot(p)
	case vendorFamily:
		return parallel.Workers(ctx) * vendorSlot(p.a.Rows, p.a.Cols, p.jobu, p.jobvt)
	}
	return 0
}

// jacobiSlot is the jacobi kernel's per-worker scratch.
func jacobiSlot[T batchlas.Float](p *problem[T]) int {
	return parallel.Pad(svd.WorkSize[T](p.a.Rows, p.a.Cols, p.jobu.kernelJob(), p.jobvt.kernelJob()))
}

// bidiagSlot is the bidiag kernel's per-worker scratch: a group's
// (svd.ValuesGroup) where it takes the batch a group at a time.
func bidiagSlot[T batchlas.Float](p *problem[T]) int {
	if bidiagGroups(p) {
		return parallel.Pad(svd.ValuesGroupWorkSize[T](p.a.Rows, p.a.Cols))
	}
	return parallel.Pad(svd.BidiagWorkSize[T](p.a.Rows, p.a.Cols, p.jobu.kernelJob(), p.jobvt.kernelJob()))
}

// bidiagGroups reports whether the bidiag kernel takes p's batch a group
// of lanes.Lanes matrices at a time, one per vector lane (svd.ValuesGroup):
// for the values alone, of matrices up to svd.ValuesGroupMaxElems
// entries, in a batch of a group or more (a group's lanes cost the same
// filled or not: fewer matrices go one at a time). Its values are the
// per-matrix path's within rounding, and which path a matrix takes
// depends on the call's shape and batch only, never on the workers.
func bidiagGroups[T batchlas.Float](p *problem[T]) bool {
	return p.jobu == NoVectors && p.jobvt == NoVectors && p.a.Rows*p.a.Cols <= svd.ValuesGroupMaxElems && p.a.Count >= lanes.Lanes[T]()
}

// flopsPerMatrix is the nominal cost of one decomposition that the
// benchmarks and parallel.Run weigh a matrix by, for m >= n (m and n
// swapped otherwise): LAPACK's bidiagonal reduction, 4mn^2 - 4n^3/3,
// without vectors; with them, 4mn^2 + 8n^3 (a QR of A, the bidiagonal
// reduction of R and its vectors). Jacobi's true count depends on the
// sweeps the matrix needs.
func flopsPerMatrix(m, n int, vectors bool) float64 {
	fm, fn := float64(m), float64(n)
	if m < n {
		fm, fn = fn, fm
	}
	if vectors {
		return 4*fm*fn*fn + 8*fn*fn*fn
	}
	return 4*fm*fn*fn - 4*fn*fn*fn/3
}
