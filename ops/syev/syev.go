package syev

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "syev"

// Job says whether Syev computes eigenvectors (LAPACK's jobz).
type Job byte

const (
	// ValuesOnly computes the eigenvalues only; A is left as it was.
	ValuesOnly Job = 'N'
	// WithVectors computes the eigenvalues and the eigenvectors, which
	// overwrite A.
	WithVectors Job = 'V'
)

func (j Job) String() string {
	switch j {
	case ValuesOnly:
		return "N"
	case WithVectors:
		return "V"
	}
	return fmt.Sprintf("Job(%q)", rune(j))
}

// Check returns an *ArgError on "jobz" from op unless j is ValuesOnly or
// WithVectors.
func (j Job) Check(op string) error {
	if j != ValuesOnly && j != WithVectors {
		return opkit.Argf(op, "jobz", "jobz %q: want syev.ValuesOnly ('N') or syev.WithVectors ('V')", rune(j))
	}
	return nil
}

// Syev computes the eigenvalues, and with jobz = WithVectors the
// eigenvectors, of every symmetric matrix A_i of a batch (LAPACK's xSYEV,
// batched, column-major). Only the uplo triangle of A_i is read (the
// diagonal included); the other triangle may hold anything, NaN included.
//
// w receives the eigenvalues of A_i in ascending order: w.Count must equal
// a.Count and w.Len be at least n; only the first n entries of each vector
// are written. With WithVectors, A_i is overwritten, both triangles, with
// the orthonormal eigenvectors: column j is the eigenvector of w_i[j].
// Each eigenvector's entry of largest magnitude is positive (on a tie, the
// first of them), whatever kernel runs, so results do not change sign
// with the table's choice (entries equal in magnitude up to rounding may
// still break the tie either way). With ValuesOnly, A is only read and is
// left exactly as it was (it may then be a batchlas.Broadcast).
//
// a is n x n; a written a may not be a broadcast, and w may not share an
// element with a (an *ArgError on w). ws is workspace of at least
// BufferSize elements sharing none with a or w (an *ArgError on ws); nil
// means the call allocates what it needs.
//
// A matrix that fails does not stop the batch: every other matrix is
// still computed, and the call returns a *batchlas.NumericalError listing
// the failed matrices with their info, the same codes for every kernel:
//
//   - n+1: the read triangle holds a NaN or an infinity; nothing is
//     computed for that matrix (no iteration runs on it);
//   - 1..n: the iteration limit was reached (30 sweeps for Jacobi, 30*n
//     QL/QR iterations otherwise) with info eigenvalues not converged;
//   - n+2: the matrix is finite but an eigenvalue's magnitude exceeds the
//     largest finite number of T (possible when entries are within a
//     factor n of it): it would be an infinity.
//
// A failed matrix's w_i and A_i are left exactly as they were.
//
// With ws of BufferSize elements, a call allocates nothing (the vendor
// kernel: see the package doc) but for the error it returns.
//
// A nil ctx is context.Background(). An empty batch (no matrix, or order
// 0) runs no kernel and makes no decision, so the pin is not read: a bad
// pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of a and the vectors of w; its Failed field lists the
// failures among the completed matrices, with their info. Every kernel
// works on copies in its workspace and writes a matrix's A_i and w_i only
// once that matrix is done, so Touched == Completed: matrices 0 ..
// Completed-1 are done (or reported failed), every later one is
// untouched, and the call can be resumed on the rest of the batch.
func Syev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(jobz, uplo, a, w); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(jobz, uplo, a)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, jobz, uplo, a, w, ws, info)
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
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// launch runs kernel c, writing each matrix's info. It refuses exactly what
// can_run refuses (R3), and a workspace shorter than c needs or sharing an
// element with an operand.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "a", "kernel %s cannot solve n=%d on device %s; pin another kernel or unset the pin", c, a.Rows, dev.Key)
	}
	need := bufferSize(ctx, c, jobz, a)
	if ws == nil {
		p := getScratch[T](need)
		defer putScratch(p)
		ws = *p
	} else {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int { return bufferSize(ctx, c, jobz, a) })
		}
		ws = ws[:need]
		if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
			return err
		}
		if err := opkit.CheckWorkspace(opName, ws, "w", batchlas.VectorsAsBatch(w)); err != nil {
			return err
		}
	}
	n := a.Rows
	switch c.Family() {
	case jacobiFamily:
		return perMatrix(ctx, uplo, a, w, ws, info, jacobiSlot(n, jobz), n, matrixKernel{kind: kernelJacobi, n: n, vectors: jobz == WithVectors})
	case lanesFamily:
		return lanesSyev(ctx, jobz, uplo, a, w, ws, info)
	case tridiagFamily:
		return perMatrix(ctx, uplo, a, w, ws, info, tridiagSlot[T](n), workLD[T](n), tridiagKernel[T](n, jobz))
	case lanesTriFamily:
		return lanesTriSyev(ctx, jobz, uplo, a, w, ws, info)
	case blockedFamily, dcFamily:
		nb, dc := blockedShape(c, jobz)
		return blockedSyev(ctx, jobz, uplo, a, w, nb, dc, ws, info)
	case vendorFamily:
		return vendorSyev(ctx, jobz, uplo, a, w, ws, info)
	}
	return opkit.Argf(opName, "a", "kernel %s is not a syev family", c)
}

// BufferSize returns the workspace, in elements, that Syev needs for this
// call: it asks the selection core the same question Syev asks, so
// the size fits the kernel that will run, and for the workers a call with
// ctx may use (batchlas.WithParallelism). It refuses the arguments Syev
// refuses. It is 0 for an empty batch, with no decision (the pin is not
// read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(jobz, uplo, a, w); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(jobz, uplo, a), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, jobz, a), nil
}

// check validates the arguments of a call.
func check[T batchlas.Float](jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T]) error {
	if err := jobz.Check(opName); err != nil {
		return err
	}
	if err := uplo.Check(opName); err != nil {
		return err
	}
	if err := a.Check(opName, "a", jobz == WithVectors); err != nil {
		return err
	}
	if a.Rows != a.Cols {
		return opkit.Argf(opName, "a", "a is %dx%d; syev takes square symmetric matrices (rows == cols)", a.Rows, a.Cols)
	}
	if err := w.Check(opName, "w", true); err != nil {
		return err
	}
	switch {
	case w.Count != a.Count:
		return opkit.Argf(opName, "w", "w.Count %d != a.Count %d: give one eigenvalue vector per matrix", w.Count, a.Count)
	case w.Len < a.Rows:
		return opkit.Argf(opName, "w", "w.Len %d < n %d: each vector of w holds the n eigenvalues of its matrix", w.Len, a.Rows)
	}
	return opkit.CheckDisjoint(opName, "w", batchlas.VectorsAsBatch(w), "a", a)
}

// makeKey builds the call's key in the order of the declared key names:
// jobz:exact uplo:exact n:log:4 batch:log.
func makeKey[T batchlas.Float](jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Str(jobz.String()), sel.Str(uplo.String()), sel.Int(a.Rows), sel.Int(a.Count))
}

// Key positions, in the order of the declared key names.
const (
	keyJobz = iota
	keyUplo
	keyN
	keyBatch
)

// canRun is syev's correctness gate (R3): jacobi takes orders up to
// jacobiMax, lanes up to lanesMax; blocked needs a panel of at least one
// column; the vendor kernel needs gonum's LAPACK in the build. tridiag and
// dc take every order.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case jacobiFamily:
		return k.Int(keyN) <= jacobiMax
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	case tridiagFamily:
		return true
	case lanesTriFamily:
		return k.Int(keyN) <= lanesTriMax
	case blockedFamily:
		return c.Field("nb") >= 1
	case dcFamily:
		return true
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return false
}

// twin is syev's OpSpec.Twin: blocked on an order up to its nb has no
// panel to reduce and runs the tridiag kernel's code, and so does dc up to
// dcNB; above it, dc without vectors runs blocked:nb=dcNB's code.
func twin(c sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	switch {
	case c.Is(blockedFamily) && k.Int(keyN) <= c.Field("nb"):
		return tridiagFamily.Name
	case c.Is(dcFamily) && k.Int(keyN) <= dcNB:
		return tridiagFamily.Name
	case c.Is(dcFamily) && k.Str(keyJobz) == ValuesOnly.String():
		return blockedFamily.With(dcNB).String()
	}
	return ""
}

// bufferSize is the workspace kernel c needs for a call with ctx: one slot
// per worker for the per-matrix kernels (jacobi, tridiag, vendor, and
// blocked up to its nb), a chunk of matrices for blocked's batch-wide
// path (blocked.go).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, jobz Job, a batchlas.Batch[T]) int {
	n := a.Rows
	switch c.Family() {
	case jacobiFamily:
		return parallel.Workers(ctx) * jacobiSlot(n, jobz)
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](n, jobz)
	case tridiagFamily:
		return parallel.Workers(ctx) * tridiagSlot[T](n)
	case lanesTriFamily:
		return parallel.Workers(ctx) * lanesTriSlot[T](ctx, n, jobz)
	case blockedFamily, dcFamily:
		nb, dc := blockedShape(c, jobz)
		if n <= nb {
			return parallel.Workers(ctx) * tridiagSlot[T](n)
		}
		return blockedWorkspace[T](ctx, n, nb, a.Count, dc)
	case vendorFamily:
		return parallel.Workers(ctx) * vendorSlot(n, jobz)
	}
	return 0
}

// blockedShape is how blockedSyev runs a blocked or dc choice: its panel
// width, and whether divide and conquer finds the vectors (dc with
// vectors; values alone are blocked's code either way).
func blockedShape(c sel.Choice, jobz Job) (nb int, dc bool) {
	if c.Is(dcFamily) {
		return dcNB, jobz == WithVectors
	}
	return c.Field("nb"), false
}

// jacobiSlot is the jacobi kernel's per-worker scratch: the symmetric copy,
// the eigenvalues, and the rotations' product for vectors.
func jacobiSlot(n int, jobz Job) int {
	s := n*n + n
	if jobz == WithVectors {
		s += n * n
	}
	return parallel.Pad(s)
}

// tridiagSlot is the tridiag kernel's per-worker scratch: the symmetric
// copy (then Q; n columns workLD apart), the diagonal, subdiagonal,
// reflector factors and steqr's scratch.
func tridiagSlot[T batchlas.Float](n int) int {
	return parallel.Pad(workLD[T](n)*n + 3*n + steqrWork(n))
}

// tridiagKernel is the tridiag kernel in perMatrix's form.
func tridiagKernel[T batchlas.Float](n int, jobz Job) matrixKernel {
	return matrixKernel{kind: kernelTridiag, n: n, vectors: jobz == WithVectors, sld: workLD[T](n)}
}

// kernelKind names a per-matrix kernel.
type kernelKind uint8

const (
	kernelJacobi kernelKind = iota
	kernelTridiag
	kernelVendor
)

// matrixKernel is a per-matrix kernel in perMatrix's form, as a value
// rather than a closure: perMatrix's job holds it, and a closure held by
// a job the workers share would escape to the heap on every call.
type matrixKernel struct {
	kind    kernelKind
	n       int
	vectors bool
	sld     int // tridiag: the copy's leading dimension
	lwork   int // vendor: Dsyev's work
}

// solveMatrix runs kernel k on the copy s (n x n), the eigenvalue vector
// d (n) and the rest of its slot; it returns where the eigenvectors are
// (nil for ValuesOnly) and its info.
func solveMatrix[T batchlas.Float](k *matrixKernel, s, d, rest []T) ([]T, int) {
	n := k.n
	switch k.kind {
	case kernelJacobi:
		var v []T
		if k.vectors {
			v = rest[:n*n]
		}
		return v, jacobiEig(s, n, d, v)
	case kernelTridiag:
		f := tridiagEig(s, k.sld, n, k.vectors, d, rest[:n], rest[n:2*n], rest[2*n:2*n+steqrWork(n)])
		if !k.vectors {
			return nil, f
		}
		return s, f
	}
	return vendorSolve(s, d, rest, n, k.vectors, k.lwork)
}

// perMatrix runs a per-matrix kernel over the batch, one worker per matrix
// at a time, each with its slot of slot elements of ws (nil or short:
// allocated here; launch passes one of bufferSize). For each matrix it
// loads the read triangle into the slot (load: the NaN/Inf check and the
// scaling), runs kernel on the copy s (n x n, leading dimension sld), the
// eigenvalue vector d (n) and the rest of the slot (solveMatrix), and on
// success writes the result back with finish.
func perMatrix[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32, slot, sld int, kernel matrixKernel) error {
	if len(ws) < slot {
		// nil (the caller left it to us), or not even one worker's slot.
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	j := parallel.Get[perMatrixJob[T]]()
	*j = perMatrixJob[T]{uplo: uplo, a: a, w: w, ws: ws, info: info, slot: slot, sld: sld, k: kernel}
	// At most one worker per slot of ws, so (wk+1)*slot <= len(ws).
	flops := flopsPerMatrix(a.Rows, ValuesOnly)
	if kernel.vectors {
		flops = flopsPerMatrix(a.Rows, WithVectors)
	}
	err := parallel.RunScratch(ctx, a.Count, flops, len(ws)/slot, j)
	parallel.Put(j)
	return err
}

// perMatrixJob is perMatrix's batch loop, the Body its workers share.
type perMatrixJob[T batchlas.Float] struct {
	uplo      batchlas.Uplo
	a         batchlas.Batch[T]
	w         batchlas.Vectors[T]
	ws        []T
	info      []int32
	slot, sld int
	k         matrixKernel
}

// Chunk solves matrices lo..hi-1 in worker wk's slot.
func (j *perMatrixJob[T]) Chunk(wk, lo, hi int) {
	a, w, n, sld := j.a, j.w, j.a.Rows, j.sld
	buf := j.ws[wk*j.slot : (wk+1)*j.slot]
	s, d, rest := buf[:sld*n], buf[sld*n:sld*n+n], buf[sld*n+n:]
	for i := lo; i < hi; i++ {
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		sigma, ok := load(j.uplo, m, a.LD, n, s, sld, 1)
		if !ok {
			j.info[i] = nanInfo(n)
			continue
		}
		z, f := solveMatrix(&j.k, s, d, rest)
		if f != 0 {
			j.info[i] = int32(f)
			continue
		}
		j.info[i] = finish(d, z, sld, n, sigma, w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
	}
}

// flopsPerMatrix is the rough cost of one matrix: the tridiagonal
// reduction's 4n^3/3, and with vectors about 9n^3 in all (forming Q and
// accumulating the QL/QR rotations into it), LAPACK's usual estimates.
// parallel.For weighs a matrix by it and the benchmarks report GFLOP/s
// against it.
func flopsPerMatrix(n int, jobz Job) float64 {
	f := float64(n)
	if jobz == WithVectors {
		return 9*f*f*f + f*f
	}
	return 4*f*f*f/3 + f*f
}
