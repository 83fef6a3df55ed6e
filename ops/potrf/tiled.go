package potrf

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// tiledNB is the tile order of the tiled kernel: each update task is a
// product of depth tiledNB on the vector tile, deep enough to run it near
// its speed, and a matrix of order 1024 still has 6 column tiles, enough
// tasks to keep two workers busy past the critical path of diagonal
// factorisations. On the development VM (float64, one matrix, two
// workers) tiles of 64, 96, 128 and 192 took 4.7, 4.4, 3.8 and 3.7 ms at
// n=1024 and 32.7, 27.1, 27.7 and 23.6 ms at n=2048.
const tiledNB = 192

// tiledRowBlock is the rows of one product call inside an update task on
// device d: the rows of L read by a call (rows x tiledNB) stay in L2 while
// the call sweeps the tile's columns eight at a time. It changes no sum
// (every row's products are the same), so it derives from the device's L2:
// 192 rows on the 1 MiB L2 it was measured on, in proportion elsewhere,
// whole tiles of 24 rows from 48 to 768.
func tiledRowBlock(d *sel.Device) int {
	rows := cache.L2(d).Size / (1 << 20 / 192)
	return min(max(rows/24*24, 48), 768)
}

// tiledPotrf factors the matrices of a one after another, each spread
// over the workers as a list of tasks on its tiles of order tiledNB (see
// tiledLower). Upper goes through a transposed copy, as in perMatrix, in
// the first scratchSize(n) elements of ws. This is the kernel for one big
// matrix (a Gaussian process's covariance, say): the per-matrix kernels
// use one worker per matrix, and blocked steps through the whole batch
// with a nested call per block.
func tiledPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32) error {
	return tiledPotrfNB(ctx, uplo, a, ws, info, tiledNB)
}

// tiledPotrfNB is tiledPotrf with tiles of order nb (the tests
// take small tiles to make many tasks of small matrices).
func tiledPotrfNB[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32, nb int) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	if need := tiledScratch[T](uplo, n); len(ws) < need {
		ws = make([]T, need)
	}
	st := getTileState((n + nb - 1) / nb)
	defer tileStates.Put(st)
	j := parallel.Get[tiledJob[T]]()
	defer parallel.Put(j)
	// The tasks of a matrix run to its end once it has started (a part
	// factored matrix is of no use), so ctx is asked between matrices
	// only, as the per-matrix kernels do; the tasks' loop takes ctx's
	// parallelism cap without its cancellation (parallel.RunAll).
	for i := range a.Count {
		if err := ctx.Err(); err != nil {
			return &batchlas.InterruptedError{Count: a.Count, Completed: i, Touched: i, Err: err}
		}
		m, mld := a.Data[i*stride:i*stride+(n-1)*ld+n], ld
		if uplo == batchlas.Upper {
			mld = scratchLD[T](n)
			upperToLower(ws, mld, m, ld, n)
			m = ws[:(n-1)*mld+n]
		}
		info[i] = int32(tiledLower(ctx, j, m, mld, n, nb, st))
		if uplo == batchlas.Upper {
			lowerToUpper(a.Data[i*stride:i*stride+(n-1)*ld+n], ld, ws, mld, n)
		}
	}
	return nil
}

// tiledScratch is the workspace of the tiled kernel: a transposed copy of
// one matrix for Upper, nothing for Lower.
func tiledScratch[T batchlas.Float](uplo batchlas.Uplo, n int) int {
	if uplo == batchlas.Upper {
		return scratchSize[T](n)
	}
	return 0
}

// tileState is what the tasks of one matrix wait on. Every counter only
// grows while a matrix is factored, and reset clears them between
// matrices.
type tileState struct {
	next     atomic.Int64   // the next task to hand out
	failed   atomic.Int32   // the matrix's info, once a diagonal tile failed
	updated  []atomic.Int32 // updated[j]: steps whose update of column tile j is done
	factored []atomic.Int32 // factored[k]: 1 once diagonal tile k is factored
	solved   []atomic.Int32 // solved[i]: steps whose solve of row tile i is done
}

// tileStates recycles tile states with their counters, so that a call
// with its workspace supplied allocates nothing.
var tileStates = parallel.NewFreeList[*tileState]()

// getTileState returns a tile state with room for nt tiles a side (its
// counters are cleared by reset, per matrix).
func getTileState(nt int) *tileState {
	s, ok := tileStates.Get()
	if !ok || cap(s.updated) < nt {
		return &tileState{
			updated:  make([]atomic.Int32, nt),
			factored: make([]atomic.Int32, nt),
			solved:   make([]atomic.Int32, nt),
		}
	}
	s.updated, s.factored, s.solved = s.updated[:nt], s.factored[:nt], s.solved[:nt]
	return s
}

func (s *tileState) reset() {
	s.next.Store(0)
	s.failed.Store(0)
	for i := range s.updated {
		s.updated[i].Store(0)
		s.factored[i].Store(0)
		s.solved[i].Store(0)
	}
}

// waitFor spins until ok holds, yielding the processor between looks. A
// task only waits for tasks handed out before it, and a task once handed
// out runs to its end, so the wait ends.
func waitFor(ok func() bool) {
	for !ok() {
		runtime.Gosched()
	}
}

// tiledLower factors the lower triangle of one n x n matrix m (leading
// dimension ld) in tiles of order nb and returns its info. Step k of
// right-looking Cholesky is three kinds of task, handed out in this order,
// nt^2 tasks in all for nt tiles a side:
//
//	factor k      L_kk = chol(A_kk)                      (one worker)
//	solve i, k    L_ik = A_ik L_kk^-T, for i > k          (a task per row tile)
//	update j, k   A_jj.. -= L_j..k L_jk^T, for j > k      (a task per column tile:
//	              its diagonal tile and every tile below it)
//
// Workers take tasks in that order from one counter and wait, before
// running one, for the tasks it reads (always handed out earlier), so
// step k+1's diagonal tile is factored as soon as its column is updated,
// while the other worker still updates the columns further right. Each
// element is computed by one task, in the same order whichever worker runs
// it, so the result is the same bit for bit for any number of workers.
// st has room for the matrix's tiles; j is the loop's job, reused from
// one matrix to the next.
func tiledLower[T batchlas.Float](ctx context.Context, j *tiledJob[T], m []T, ld, n, nb int, st *tileState) int {
	nt := (n + nb - 1) / nb
	st.reset()
	*j = tiledJob[T]{m: m, ld: ld, n: n, nb: nb, nt: nt, rowBlock: tiledRowBlock(opkit.DeviceFrom(ctx)), st: st}
	// One chunk per worker; each runs tasks until none is left, whatever
	// ctx says (see tiledPotrf).
	parallel.RunAll(ctx, parallel.Workers(ctx), flopsPerMatrix(n), j)
	return int(st.failed.Load())
}

// tiledJob is the tasks' loop of one matrix, the Body every worker runs.
type tiledJob[T batchlas.Float] struct {
	m             []T
	ld, n, nb, nt int
	rowBlock      int // tiledRowBlock of the call's device
	st            *tileState
}

// Chunk runs tasks until none is left.
func (j *tiledJob[T]) Chunk(_, _, _ int) {
	var upper [tiledDiagCols * (tiledDiagCols - 1) / 2]T // a diagonal block's other triangle
	k, first := 0, int64(0)                              // the step of the last task taken, and its first task
	total := int64(j.nt * j.nt)
	for {
		t := j.st.next.Add(1) - 1
		if t >= total {
			return
		}
		for t >= first+int64(2*(j.nt-k)-1) {
			first += int64(2*(j.nt-k) - 1)
			k++
		}
		tiledTask(j.m, j.ld, j.n, j.nb, j.nt, j.rowBlock, k, int(t-first), j.st, upper[:])
	}
}

// tiledTask runs task o of step k (o = 0: factor; 1 .. nt-k-1: solve row
// tile k+o; then update column tile k+o-(nt-k-1)). After a failed
// factorisation every later task only records that it is done, so the
// workers waiting on it move on. The matrix is left as LAPACK's blocked
// dpotrf leaves it: the tiles left of the failed one factored, and the
// failed tile's columns before the failing one.
func tiledTask[T batchlas.Float](m []T, ld, n, nb, nt, rowBlock, k, o int, st *tileState, upper []T) {
	k0 := k * nb
	kb := min(nb, n-k0)
	rest := nt - k - 1
	switch {
	case o == 0:
		waitFor(func() bool { return st.updated[k].Load() == int32(k) })
		if st.failed.Load() == 0 {
			if f := lpanelLower(m[k0*ld+k0:], ld, kb, tiledPanel); f != 0 {
				st.failed.Store(int32(k0 + f))
			}
		}
		st.factored[k].Store(1)
	case o <= rest:
		i := k + o
		waitFor(func() bool { return st.factored[k].Load() == 1 })
		if st.failed.Load() == 0 {
			i0 := i * nb
			ib := min(nb, n-i0)
			// L_ik = A_ik * L_kk^-T.
			tiledSolve(ib, kb, m[k0*ld+k0:], ld, m[k0*ld+i0:], ld)
		}
		st.solved[i].Store(int32(k + 1))
	default:
		j := k + o - rest
		waitFor(func() bool {
			if st.updated[j].Load() != int32(k) {
				return false
			}
			for i := j; i < nt; i++ {
				if st.solved[i].Load() <= int32(k) {
					return false
				}
			}
			return true
		})
		if st.failed.Load() == 0 {
			tiledUpdate(m, ld, n, j*nb, min(nb, n-j*nb), k0, kb, rowBlock, upper)
		}
		st.updated[j].Store(int32(k + 1))
	}
}

// tiledPanel is the panel width of lpanel on a diagonal tile.
const tiledPanel = 16

// tiledDiagCols is the width of the column blocks in which an update
// task treats its diagonal tile: each block's product starts at the
// block's diagonal, so only its own square's upper part is computed and
// thrown away (about a quarter of the tile's, against all of it for one
// product over the whole tile, which cost a fifth more flops at n=2048).
const tiledDiagCols = 32

// tiledUpdate subtracts the product of the columns [k0, k0+kb) from the
// lower triangle of the jb columns from j0, rows j0 to n, on the vector
// tile:
//
//	m[j0:n, j0:j0+jb] -= m[j0:n, k0:k0+kb] * m[j0:j0+jb, k0:k0+kb]^T.
//
// The diagonal tile goes in column blocks of tiledDiagCols, each from its
// diagonal down; a block's product covers its square's strictly upper
// part too, which belongs to the other triangle, so that is saved before
// and put back after (as updateKeepingUpper does). The rows below go in
// blocks of rowBlock rows (tiledRowBlock).
func tiledUpdate[T batchlas.Float](m []T, ld, n, j0, jb, k0, kb, rowBlock int, upper []T) {
	for c0 := j0; c0 < j0+jb; c0 += tiledDiagCols {
		cw := min(tiledDiagCols, j0+jb-c0)
		s := 0
		for c := 1; c < cw; c++ {
			s += copy(upper[s:], m[(c0+c)*ld+c0:(c0+c)*ld+c0+c])
		}
		simd.Gemm(false, true, j0+jb-c0, cw, kb, -1, m[k0*ld+c0:], ld, m[k0*ld+c0:], ld, 1, m[c0*ld+c0:], ld)
		s = 0
		for c := 1; c < cw; c++ {
			s += copy(m[(c0+c)*ld+c0:(c0+c)*ld+c0+c], upper[s:])
		}
	}
	for r0 := j0 + jb; r0 < n; r0 += rowBlock {
		rows := min(rowBlock, n-r0)
		simd.Gemm(false, true, rows, jb, kb, -1, m[k0*ld+r0:], ld, m[k0*ld+j0:], ld, 1, m[j0*ld+r0:], ld)
	}
}

// solveCols is the width of the column blocks of tiledSolve.
const solveCols = 8

// tiledSolve overwrites the m x kb block b (leading dimension ldb) with
// b * L^-T, L the lower triangle of l (kb x kb, leading dimension ldl),
// in blocks of solveCols columns: each block first loses the product of
// the columns solved before it with L's rows of the block, on the vector
// tile, then is solved against its diagonal block row by row in Go
// (solve8). Pivots are applied as reciprocals, as lowerPivot does.
func tiledSolve[T batchlas.Float](m, kb int, l []T, ldl int, b []T, ldb int) {
	for c0 := 0; c0 < kb; c0 += solveCols {
		cw := min(solveCols, kb-c0)
		if c0 > 0 {
			// b[:, c0:c0+cw] -= b[:, 0:c0] * L[c0:c0+cw, 0:c0]^T.
			simd.Gemm(false, true, m, cw, c0, -1, b, ldb, l[c0:], ldl, 1, b[c0*ldb:], ldb)
		}
		if cw == solveCols {
			solve8(m, l[c0*ldl+c0:], ldl, b[c0*ldb:], ldb)
			continue
		}
		for c := c0; c < c0+cw; c++ {
			col := b[c*ldb:][:m]
			for c2 := c0; c2 < c; c2++ {
				f := l[c2*ldl+c]
				for i, x := range b[c2*ldb:][:m] {
					col[i] -= x * f
				}
			}
			r := 1 / l[c*ldl+c]
			for i := range col {
				col[i] *= r
			}
		}
	}
}

// solve8 overwrites the m x 8 block b with b * L^-T for the 8 x 8 lower
// triangle L of l: a row at a time, L's entries and its pivots'
// reciprocals in locals, so a row's eight unknowns are 36 operations on
// registers instead of eight sweeps of the block's columns (a fifth of
// the kernel's time at n=2048 with a solve by columns in blocks of 16).
func solve8[T batchlas.Float](m int, l []T, ldl int, b []T, ldb int) {
	at := func(r, c int) T { return l[c*ldl+r] }
	r0, r1, r2, r3 := 1/at(0, 0), 1/at(1, 1), 1/at(2, 2), 1/at(3, 3)
	r4, r5, r6, r7 := 1/at(4, 4), 1/at(5, 5), 1/at(6, 6), 1/at(7, 7)
	l10 := at(1, 0)
	l20, l21 := at(2, 0), at(2, 1)
	l30, l31, l32 := at(3, 0), at(3, 1), at(3, 2)
	l40, l41, l42, l43 := at(4, 0), at(4, 1), at(4, 2), at(4, 3)
	l50, l51, l52, l53, l54 := at(5, 0), at(5, 1), at(5, 2), at(5, 3), at(5, 4)
	l60, l61, l62, l63, l64, l65 := at(6, 0), at(6, 1), at(6, 2), at(6, 3), at(6, 4), at(6, 5)
	l70, l71, l72, l73, l74, l75, l76 := at(7, 0), at(7, 1), at(7, 2), at(7, 3), at(7, 4), at(7, 5), at(7, 6)
	b0 := b[:m]
	b1 := b[ldb:][:m]
	b2 := b[2*ldb:][:m]
	b3 := b[3*ldb:][:m]
	b4 := b[4*ldb:][:m]
	b5 := b[5*ldb:][:m]
	b6 := b[6*ldb:][:m]
	b7 := b[7*ldb:][:m]
	for i := range b0 {
		x0 := b0[i] * r0
		x1 := (b1[i] - x0*l10) * r1
		x2 := (b2[i] - x0*l20 - x1*l21) * r2
		x3 := (b3[i] - x0*l30 - x1*l31 - x2*l32) * r3
		x4 := (b4[i] - x0*l40 - x1*l41 - x2*l42 - x3*l43) * r4
		x5 := (b5[i] - x0*l50 - x1*l51 - x2*l52 - x3*l53 - x4*l54) * r5
		x6 := (b6[i] - x0*l60 - x1*l61 - x2*l62 - x3*l63 - x4*l64 - x5*l65) * r6
		x7 := (b7[i] - x0*l70 - x1*l71 - x2*l72 - x3*l73 - x4*l74 - x5*l75 - x6*l76) * r7
		b0[i], b1[i], b2[i], b3[i], b4[i], b5[i], b6[i], b7[i] = x0, x1, x2, x3, x4, x5, x6, x7
	}
}
