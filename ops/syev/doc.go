// Package syev is the batched symmetric eigensolver: for every symmetric
// matrix A_i of a batch it computes the eigenvalues, in ascending order,
// and optionally the orthonormal eigenvectors (LAPACK's xSYEV, batched,
// column-major), A_i = V_i*diag(w_i)*V_i^T.
//
// Only the uplo triangle of each A_i is read (the diagonal included): the
// other triangle may hold anything, NaN included, and is never read. The
// eigenvalues go to a batchlas.Vectors of the matrices' element type, one
// vector per matrix (batchlas.NewVectors[float64](n, count)). With
// jobz = WithVectors the eigenvectors overwrite A_i, both triangles:
// column j is the eigenvector of w_i[j]. With jobz = ValuesOnly, A is only
// read and left exactly as it was; it may then be a batchlas.Broadcast.
//
// # Sign convention
//
// An eigenvector is defined up to its sign. Every kernel returns each
// eigenvector with its entry of largest magnitude positive (on a tie, the
// first such entry), so a result does not change sign with the kernel the
// table picks. (Entries whose magnitudes are equal up to rounding may
// still break the tie differently from kernel to kernel. Eigenvectors of
// a repeated eigenvalue are any orthonormal basis of its eigenspace.)
//
// # Failures and info codes
//
// A matrix that fails is reported in a *batchlas.NumericalError, and every
// other matrix of the batch is still computed. Its info, the same codes
// whichever kernel runs:
//
//   - n+1: the read triangle holds a NaN or an infinity. This is checked
//     before any iteration: nothing is computed for that matrix.
//   - 1..n: the iteration limit was reached with info eigenvalues not
//     converged. The limits are 30 sweeps for Jacobi and 30*n implicit
//     QL/QR iterations for the tridiagonal kernels, as LAPACK's; the count
//     is that of the off-diagonal entries not yet negligible (Jacobi: the
//     columns still holding one). For a finite matrix this does not
//     happen in practice: every kernel scales a matrix whose largest entry
//     is near overflow or underflow into a safe range (by a power of two,
//     exactly) and scales the eigenvalues back.
//   - n+2: the matrix is finite but an eigenvalue is not a finite number
//     of the element type: its magnitude exceeds the largest one (which
//     an eigenvalue can when entries are within a factor n of it; the
//     kernels find it on the scaled copy, but scaled back it would be an
//     infinity). Scale such a matrix down (by a power of two, exactly) and
//     scale the eigenvalues back in a wider type. (A NaN eigenvalue, which
//     no kernel is known to produce from a finite matrix, is reported so
//     too.)
//
// A failed matrix's w_i and A_i are left exactly as they were: no
// infinity or NaN is ever written to w.
//
// # Kernels
//
// Each call makes one decision through the selection core (package sel):
// the key is `jobz:exact uplo:exact n:log:4 batch:log`, and the
// candidates are
//
//	jacobi            n <= 32: cyclic two-sided Jacobi per matrix, on a
//	                  full symmetric copy, with the relative off-diagonal
//	                  test of Demmel and Veselic
//	lanes             n <= 128: the same Jacobi across matrices: groups of
//	                  8 (float64) or 16 (float32) matrices interleaved one
//	                  per vector lane, each sweep in round-robin steps of
//	                  disjoint rotations computed together (AVX-512 on
//	                  x86-64-v4, a Go twin that gives the same bits
//	                  elsewhere); the last group is padded with zero
//	                  matrices
//	tridiag           per matrix: Householder reduction to tridiagonal
//	                  form (LAPACK's xSYTD2), Q formed from the reflectors
//	                  for vectors (xORGTR), implicit QL/QR (xSTEQR; for
//	                  eigenvalues only its root-free variant, xSTERF); the
//	                  reduction's matrix-vector products and rank-2
//	                  updates, the reflector applications of Q and the
//	                  rotations QL/QR accumulates into it run as AVX-512
//	                  kernels on x86-64-v4 (a bit-identical Go twin
//	                  elsewhere); the rotations are queued and applied a
//	                  block of rows at a time through many sweeps, and the
//	                  working copy's columns are padded off a power-of-two
//	                  stride
//	lanestri          n <= 256: tridiag's reduction across matrices, in
//	                  groups interleaved as in lanes (AVX-512 with a
//	                  bit-identical Go twin), then per matrix as tridiag:
//	                  for vectors Q and QL/QR with rotations; for values
//	                  alone the root-free QL/QR, the whole group's
//	                  iterations interleaved step by step
//	blocked:nb=16|32  panels of nb columns reduced per matrix (xLATRD), the
//	                  symmetric rank-2nb update of the trailing matrices'
//	                  lower triangles on the vector tile, in blocks of 64
//	                  columns spread over the workers (one big matrix
//	                  uses every core), on a chunk of the batch at a
//	                  time, then as tridiag; an order up to nb is
//	                  tridiag's code
//	dc                blocked with nb = 32, then for vectors divide and
//	                  conquer on the tridiagonal matrix (LAPACK's xSTEDC)
//	                  in place of QL/QR: the matrix is torn in halves by
//	                  a rank-one term down to blocks of 32 (QL/QR), and
//	                  each merge deflates, solves the secular equation
//	                  root by root (spread over the workers) and forms
//	                  its eigenvectors by Gu and Eisenstat's formula; the
//	                  merges' products and the reflectors, applied in
//	                  blocks of 32 (xORMTR), run on the gemm op, so one
//	                  matrix uses every worker; values alone run
//	                  blocked:nb=32's code
//	vendor            gonum's LAPACK Dsyev per matrix, inside the same
//	                  checks and conventions (float64 only: gonum has no
//	                  float32 eigensolver; absent from a -tags novendor
//	                  build)
//
// Without a tuned table the last-resort order decides: tridiag, which
// serves every order and batch size.
//
// Pin a kernel with BATCHLAS_SYEV_ROUTE=<spelling> or
// sel.WithPin(ctx, "syev", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: every kernel works on a
// copy of each matrix, so the per-matrix kernels need about workers*n*n
// (2*workers*n*n for jacobi with vectors, about 2*workers*L*n*n for lanes
// with its group of L matrices and workers*(L+1)*n*n for lanestri;
// workers: GOMAXPROCS, or the cap batchlas.WithParallelism puts on ctx),
// and blocked above its nb a chunk of matrices (about two million
// elements, at least one matrix), dc with vectors also three n*n matrices
// and 6n integers (carved from the workspace) per matrix of the chunk,
// and the workspace of its nested gemm calls: gemm.WorkspaceBound for
// order n, for each matrix the chunk solves at once (at most workers; the
// products of each then run on workers/that many workers, so one matrix
// alone keeps every worker).
//
// With the BufferSize workspace supplied, a call allocates nothing on any
// native kernel, whatever the batch (the nested gemm calls included), but
// for the *batchlas.NumericalError or *batchlas.InterruptedError it may
// return. The vendor kernel allocated nothing in any shape measured
// (gonum's Dsyev given the work it asks for); its documented bound is one
// allocation per matrix.
//
// A call whose context is cancelled reports a *batchlas.InterruptedError
// with Touched == Completed for every kernel: a matrix's A_i and w_i are
// written only once it is done.
//
// Syev and BufferSize treat a nil context as context.Background().
package syev
