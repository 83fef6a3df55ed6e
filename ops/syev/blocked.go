package syev

import (
	"cmp"
	"context"
	"errors"
	"sync"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// blockedChunkElems bounds the workspace of blocked's batch-wide path: the
// batch goes through it in chunks of as many matrices as fit in this many
// elements (at least one). A variable only so that the package's tests
// can make chunks of a few matrices; nothing else writes it.
var blockedChunkElems = 1 << 21

// blockedStride is the workspace of one matrix on the batch-wide path: the
// symmetric copy S (n columns workLD apart), the panel's [V W V] (n x
// 3nb: the panel's reflectors on both sides of latrdLower's W), the
// diagonal, subdiagonal and reflector factors, steqr's scratch and the
// scale factor (0 marks a matrix whose triangle held a NaN or an
// infinity); with dc (divide and conquer for the vectors) also the
// tridiagonal matrix's eigenvectors, two n x n matrices of merge scratch
// and dcEig's vectors and integers.
func blockedStride[T batchlas.Float](n, nb int, dc bool) int {
	s := blockedBase[T](n, nb)
	if dc {
		s += 3*n*n + dcScratch[T](n)
	}
	return parallel.Pad(s)
}

// blockedBase is where dc's scratch starts in a matrix's stride: past S,
// [V W V], d, e, tau, steqr's scratch and the scale factor.
func blockedBase[T batchlas.Float](n, nb int) int {
	return workLD[T](n)*n + 3*n*nb + 3*n + steqrWork(n) + 1
}

// trailingCols is the width of the column blocks in which blocked
// updates the lower triangle of the trailing matrix after each panel: the
// diagonal square of a block is computed whole, so a block costs
// trailingCols/2 columns more than its triangle's share.
const trailingCols = 64

// blockedChunk is the number of matrices per chunk of the batch-wide path.
// It depends on the sizes only, never on the workers, so the nested gemm
// calls (and their decisions) are the same whatever the parallelism.
func blockedChunk[T batchlas.Float](n, nb, count int, dc bool) int {
	return min(count, max(1, blockedChunkElems/blockedStride[T](n, nb, dc)))
}

// blockedSyev is the blocked kernel, and with dc (blockedShape) the dc
// kernel with vectors. An order up to nb is a single panel: the tridiag
// kernel's code, per matrix (twin). Above it the batch goes through the
// workspace in chunks, each in three phases:
//
//  1. per matrix: load the read triangle into the chunk's S (the NaN/Inf
//     check and scaling of every kernel);
//  2. for each panel of nb columns while more than nb remain (LAPACK's
//     xSYTRD, uplo L): the panel is reduced per matrix (latrdLower, which
//     also gives W), and the trailing matrix of every matrix of the chunk
//     gets the symmetric rank-2nb update A22 -= V*W^T + W*V^T as one
//     product [V W]*[W V]^T per block of trailingCols columns, from the
//     block's diagonal down (simd.Gemm), the blocks of all the chunk's
//     matrices spread over the workers: a single large matrix uses every
//     core, and the upper triangle, which is never read, is not computed
//     (but for the blocks' diagonal squares);
//  3. per matrix: the last columns are reduced unblocked (sytd2), and the
//     rest is tridiag's: Q formed from the reflectors, QL/QR, and the
//     shared epilogue that writes w_i and A_i; or, for the dc kernel
//     with vectors, divide and conquer and the reflectors applied in
//     blocks (dcVectors), whose products go through the gemm op.
//
// dc's nested gemm calls go through the op's public entry point with this
// call's values (a detached context: never cancelled, and capped at a
// share of the workers when several matrices run at once), so their
// decisions are traced and covered; their workspace is carved from syev's
// (dcGemm: gemm.WorkspaceBound, which holds whatever they choose). A matrix's A_i and w_i are written only in
// phase 3, so an interruption reports Completed == Touched: the chunks
// before, and the prefix of phase 3 of the current one.
func blockedSyev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], nb int, dc bool, ws []T, info []int32) error {
	n := a.Rows
	if n <= nb {
		return perMatrix(ctx, uplo, a, w, ws, info, tridiagSlot[T](n), workLD[T](n), tridiagKernel[T](n, jobz))
	}
	per := blockedStride[T](n, nb, dc)
	chunk := blockedChunk[T](n, nb, a.Count, dc)
	if len(ws) < blockedWorkspace[T](ctx, n, nb, a.Count, dc) {
		ws = make([]T, blockedWorkspace[T](ctx, n, nb, a.Count, dc))
	}
	// The chunk's matrices, then (dc) the nested products' workspace.
	gws := ws[chunk*per:]
	for c0 := 0; c0 < a.Count; c0 += chunk {
		cn := min(chunk, a.Count-c0)
		err := blockedChunkRun(ctx, jobz, uplo, a, w, nb, dc, ws[:cn*per], per, gws, c0, cn, info)
		if err != nil {
			var ie *batchlas.InterruptedError
			if errors.As(err, &ie) {
				return &batchlas.InterruptedError{Count: a.Count, Completed: ie.Completed, Touched: ie.Completed, Err: ie.Err}
			}
			return err
		}
	}
	return nil
}

// blockedWorkspace is the batch-wide path's workspace for count matrices
// of order n under ctx: a chunk of matrices, and with dc a gemm workspace
// for each matrix phase 3 solves at once (dcGemm).
func blockedWorkspace[T batchlas.Float](ctx context.Context, n, nb, count int, dc bool) int {
	chunk := blockedChunk[T](n, nb, count, dc)
	size := chunk * blockedStride[T](n, nb, dc)
	if dc {
		conc, _, slot := dcGemm[T](ctx, n, chunk)
		size += conc * slot
	}
	return size
}

// blockedChunkRun runs the three phases on matrices [c0, c0+cn) of the
// batch, matrix c0+j in ws[j*per:]; gws is the nested products'
// workspace with dc (dcGemm's slots for a chunk). An interruption is
// reported over the whole batch: completed up to c0 plus what phase 3
// completed.
func blockedChunkRun[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], nb int, dc bool, ws []T, per int, gws []T, c0, cn int, info []int32) error {
	n := a.Rows
	j := parallel.Get[blockedJob[T]]()
	defer parallel.Put(j)
	*j = blockedJob[T]{jobz: jobz, uplo: uplo, a: a, w: w, info: info, ws: ws, per: per, gws: gws,
		n: n, nb: nb, sld: workLD[T](n), c0: c0, dc: dc}
	stopped := func(err error, completed int) error {
		var ie *batchlas.InterruptedError
		if errors.As(err, &ie) {
			return &batchlas.InterruptedError{Count: a.Count, Completed: c0 + completed, Touched: c0 + completed, Err: ie.Err}
		}
		return err
	}
	// Phase 1: load.
	j.phase = phaseLoad
	if err := parallel.Run(ctx, cn, float64(n*n), j); err != nil {
		return stopped(err, 0)
	}
	// Phase 2: panels.
	for j.k = 0; n-j.k > nb; j.k += nb {
		rows := n - j.k
		j.phase = phasePanel
		work := 2 * float64(rows) * float64(rows) * float64(nb)
		if err := parallel.Run(ctx, cn, work, j); err != nil {
			return stopped(err, 0)
		}
		// A22 -= V*W^T + W*V^T = [V W]*[W V]^T on the lower triangle of
		// A22 = S(k+nb:n, k+nb:n), in blocks of trailingCols columns from
		// the diagonal down, every block of every matrix a task.
		m := rows - nb
		j.phase, j.blocks = phaseUpdate, (m+trailingCols-1)/trailingCols
		work = 4 * float64(m) * float64(m) * float64(nb) / float64(j.blocks)
		if err := parallel.Run(ctx, cn*j.blocks, work, j); err != nil {
			return stopped(err, 0)
		}
	}
	// Phase 3: the last columns, then as tridiag. With dc, at most conc
	// matrices at once, each with its slot of gws and its products on
	// up to gemmWorkers workers, under a context that is never
	// cancelled (a matrix once started is finished).
	slots := parallel.Workers(ctx)
	if dc {
		var gemmWorkers int
		slots, gemmWorkers, j.gslot = dcGemm[T](ctx, n, cn)
		j.nested.set(ctx, nestedCap(gemmWorkers, parallel.Workers(ctx)))
	}
	j.phase = phaseFinish
	err := parallel.RunScratch(ctx, cn, flopsPerMatrix(n, jobz), slots, j)
	if err != nil {
		var ie *batchlas.InterruptedError
		if errors.As(err, &ie) {
			return stopped(err, ie.Completed)
		}
		return err
	}
	return j.nestedErr
}

// The phases of blockedChunkRun, each a batch loop of blockedJob.
const (
	phaseLoad   = iota // per matrix: load the read triangle
	phasePanel         // per matrix: reduce the panel at column k
	phaseUpdate        // per column block of a matrix: the trailing update
	phaseFinish        // per matrix: the last columns, then as tridiag or dc
)

// blockedJob is the state of blockedChunkRun's loops, the Body their
// workers share: a closure over it would escape to the heap on every
// loop.
type blockedJob[T batchlas.Float] struct {
	phase      int
	jobz       Job
	uplo       batchlas.Uplo
	a          batchlas.Batch[T]
	w          batchlas.Vectors[T]
	info       []int32
	ws         []T // the chunk: matrix j in ws[j*per:]
	per        int
	gws        []T // dc: the nested products' workspace, gslot per worker
	gslot      int
	n, nb, sld int
	c0         int // the chunk's first matrix
	dc         bool
	k          int      // phasePanel, phaseUpdate: the panel's first column
	blocks     int      // phaseUpdate: column blocks per matrix
	nested     detached // dc: the context of phase 3's nested products

	nestedMu  sync.Mutex
	nestedErr error // the first error of a nested gemm call (dc only)
}

// parts is matrix j's share of the chunk: the symmetric copy S, the
// panel's [V W V], d, e, tau, steqr's scratch and the scale factor.
func (b *blockedJob[T]) parts(j int) (s, vwv, d, e, tau, work, meta []T) {
	n, nb := b.n, b.nb
	m := b.ws[j*b.per : (j+1)*b.per]
	o := b.sld * n
	s, vwv = m[:o], m[o:o+3*n*nb]
	o += 3 * n * nb
	d, e, tau = m[o:o+n], m[o+n:o+2*n], m[o+2*n:o+3*n]
	o += 3 * n
	work, meta = m[o:o+steqrWork(n)], m[o+steqrWork(n):o+steqrWork(n)+1]
	return
}

// dcParts is matrix j's divide-and-conquer scratch, past parts'.
func (b *blockedJob[T]) dcParts(j int) (z, u, p, work []T) {
	n := b.n
	m := b.ws[j*b.per+blockedBase[T](n, b.nb):]
	return m[: n*n : n*n], m[n*n : 2*n*n : 2*n*n], m[2*n*n : 3*n*n : 3*n*n], m[3*n*n : 3*n*n+dcScratch[T](n) : 3*n*n+dcScratch[T](n)]
}

// Chunk runs the current phase on items lo..hi-1 (matrices of the chunk,
// or for phaseUpdate column blocks) as worker wk.
func (b *blockedJob[T]) Chunk(wk, lo, hi int) {
	switch b.phase {
	case phaseLoad:
		b.load(lo, hi)
	case phasePanel:
		b.panel(lo, hi)
	case phaseUpdate:
		b.update(lo, hi)
	default:
		b.finish(wk, lo, hi)
	}
}

// load is phase 1 on matrices lo..hi-1 of the chunk.
func (b *blockedJob[T]) load(lo, hi int) {
	a, n := b.a, b.n
	for j := lo; j < hi; j++ {
		i := b.c0 + j
		s, _, _, _, _, _, meta := b.parts(j)
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		sigma, ok := load(b.uplo, m, a.LD, n, s, b.sld, 1)
		if !ok {
			b.info[i] = nanInfo(n)
		}
		meta[0] = sigma // 0 when !ok; s is then zero and reduces to zero
	}
}

// panel reduces the panel at column k of matrices lo..hi-1 (latrdLower)
// and lays V on both sides of W.
func (b *blockedJob[T]) panel(lo, hi int) {
	n, nb, sld, k := b.n, b.nb, b.sld, b.k
	rows := n - k
	for j := lo; j < hi; j++ {
		s, vwv, _, e, tau, _, _ := b.parts(j)
		latrdLower(s[k*sld+k:], sld, rows, nb, e[k:], tau[k:], vwv[n*nb:], n)
		// V on both sides of W, from the rows past the panel.
		for c := range nb {
			v := s[(k+c)*sld+k+nb : (k+c)*sld+n]
			copy(vwv[c*n+nb:], v)
			copy(vwv[(2*nb+c)*n+nb:], v)
		}
	}
}

// update applies the trailing update to column blocks lo..hi-1 (block q
// of matrix q/blocks).
func (b *blockedJob[T]) update(lo, hi int) {
	n, nb, sld, k := b.n, b.nb, b.sld, b.k
	m := n - k - nb
	for q := lo; q < hi; q++ {
		s, vwv, _, _, _, _, _ := b.parts(q / b.blocks)
		c0 := (q % b.blocks) * trailingCols
		cw := min(trailingCols, m-c0)
		r0 := k + nb + c0 // the block's first row and column in S
		simd.Gemm(false, true, m-c0, cw, 2*nb, -1, vwv[nb+c0:], n, vwv[nb*n+nb+c0:], n, 1, s[r0*sld+r0:], sld)
	}
}

// finish is phase 3 on matrices lo..hi-1 as worker wk.
func (b *blockedJob[T]) finish(wk, lo, hi int) {
	a, w, n, sld, k := b.a, b.w, b.n, b.sld, b.k
	vectors := b.jobz == WithVectors
	for j := lo; j < hi; j++ {
		i := b.c0 + j
		s, _, d, e, tau, work, meta := b.parts(j)
		sigma := meta[0]
		if sigma == 0 {
			continue // info already says NaN/Inf
		}
		for jj := 0; jj < k; jj++ {
			d[jj] = s[jj*sld+jj]
		}
		sytd2Lower(s[k*sld+k:], sld, n-k, d[k:], e[k:], tau[k:])
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		if b.dc {
			z, u, p, dw := b.dcParts(j)
			f, err := dcVectors(&b.nested, s, sld, n, d, e, tau, z, u, p, dw, b.gws[wk*b.gslot:(wk+1)*b.gslot])
			if err != nil {
				b.nestedMu.Lock()
				b.nestedErr = cmp.Or(b.nestedErr, err)
				b.nestedMu.Unlock()
				return
			}
			if f != 0 {
				b.info[i] = int32(f)
				continue
			}
			b.info[i] = finish(d, z, n, n, sigma, w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
			continue
		}
		f := tridiagFinish(s, sld, n, vectors, d, e, tau, work)
		if f != 0 {
			b.info[i] = int32(f)
			continue
		}
		var z []T
		if vectors {
			z = s
		}
		b.info[i] = finish(d, z, sld, n, sigma, w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
	}
}

// latrdLower reduces the first nb columns of the m x m symmetric matrix
// whose lower triangle is in a (leading dimension lda) to tridiagonal
// form, and returns in w (m x nb, leading dimension ldw) the matrix W with
// which the trailing matrix's update is A22 := A22 - V*W^T - W*V^T, V
// being the reflectors (LAPACK's xLATRD, uplo L). Column i of the panel
// is first brought up to date with the reflectors before it, then its
// reflector is generated: e[i] gets the subdiagonal entry, tau[i] its
// factor, and a(i+1, i) is set to 1 (V's unit entry, which the update
// reads). The trailing matrix itself is only read. Rows 0..i-1 of w's
// column i serve as scratch, as in LAPACK.
func latrdLower[T batchlas.Float](a []T, lda, m, nb int, e, tau, w []T, ldw int) {
	for i := 0; i < nb; i++ {
		// A(i:m, i) -= A(i:m, 0:i)*W(i, 0:i)^T + W(i:m, 0:i)*A(i, 0:i)^T.
		ci := a[i*lda+i : i*lda+m]
		for j := 0; j < i; j++ {
			wij, aij := w[j*ldw+i], a[j*lda+i]
			vec.Axpy2(-wij, a[j*lda+i:j*lda+m], -aij, w[j*ldw+i:j*ldw+m], ci)
		}
		if i >= m-1 {
			continue
		}
		col := a[i*lda : i*lda+m]
		beta, ti := larfg(col[i+1], col[i+2:])
		e[i], tau[i] = beta, ti
		col[i+1] = 1
		v := col[i+1 : m]
		wi := w[i*ldw+i+1 : i*ldw+m]
		// W(i+1:m, i) = A22*v, A22 = A(i+1:m, i+1:m) not yet updated.
		symvLower(a[(i+1)*lda+i+1:], lda, m-i-1, 1, v, wi)
		tmp := w[i*ldw : i*ldw+i]
		// tmp = W(i+1:m, 0:i)^T*v; wi -= A(i+1:m, 0:i)*tmp.
		for j := 0; j < i; j++ {
			tmp[j] = vec.Dot(w[j*ldw+i+1:j*ldw+m], v)
		}
		for j := 0; j < i; j++ {
			vec.Axpy(-tmp[j], a[j*lda+i+1:j*lda+m], wi)
		}
		// tmp = A(i+1:m, 0:i)^T*v; wi -= W(i+1:m, 0:i)*tmp.
		for j := 0; j < i; j++ {
			tmp[j] = vec.Dot(a[j*lda+i+1:j*lda+m], v)
		}
		for j := 0; j < i; j++ {
			vec.Axpy(-tmp[j], w[j*ldw+i+1:j*ldw+m], wi)
		}
		for r := range wi {
			wi[r] *= ti
		}
		alpha := -ti / 2 * vec.Dot(wi, v)
		vec.Axpy(alpha, v, wi)
	}
}

// view is the rows x cols sub-matrix at (r0, c0) of every matrix of b, as
// a batch with b's leading dimension and stride. It edits a copy of b
// rather than building a literal.
func view[T batchlas.Float](b batchlas.Batch[T], r0, c0, rows, cols int) batchlas.Batch[T] {
	b.Data = b.Data[c0*b.LD+r0:]
	b.Rows, b.Cols = rows, cols
	return b
}
