// Package getrf is batched LU factorisation with partial pivoting: every
// square matrix A_i of a batch is factored in place as A_i = P_i*L_i*U_i,
// L_i unit lower triangular (below the diagonal; its unit diagonal is not
// stored), U_i upper triangular (on and above it), with the row
// interchanges in a batch of int32 pivot vectors, as LAPACK's getrf.
//
// Pivots are 0-based (gonum's convention): for j = 0 .. n-1 in order, row
// j was interchanged with row ipiv[j] >= j. Applying those interchanges to
// the rows of A, in that order, gives L*U.
//
// Each call makes one decision through the selection core (package sel):
// the key is `n:log:4 batch:log`, and the candidates are
//
//	tiny             n <= 16: each matrix factored in a stack array
//	unblocked        per matrix, right-looking, one column at a time
//	                 (LAPACK's getf2)
//	recursive        per matrix, recursive halving of the columns (the
//	                 shape of LAPACK's getrf2); getf2 on 8 columns or fewer
//	batched:nb=16|32 right-looking over the whole batch: panels of nb
//	                 columns per matrix here, the triangular solve and the
//	                 trailing update through the trsm and gemm ops; an
//	                 order up to nb is one panel, the unblocked kernel
//	lanes            n <= 32: 8 (float64) or 16 (float32) matrices at a
//	                 time, interleaved one per vector lane, with getf2's
//	                 arithmetic and pivot rule, for small orders in big
//	                 batches
//	vendor           gonum's LAPACK Dgetrf per matrix, on a row-major
//	                 transposed copy (float64 only: gonum has no float32
//	                 LU; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: recursive, which
// serves every order and batch size.
//
// # Pivots, zero pivots and NaN
//
// Every kernel makes the same decisions on the same values; the kernels
// differ only in the order in which they sum the updates of an element,
// which changes rounding, never a rule. The rules are LAPACK's getf2 (and
// gonum's Dgetf2), so the vendor kernel follows them too:
//
//   - Pivot choice: in column j, the first row i >= j of largest |a_ij|,
//     found as BLAS's i?amax finds it: a running maximum that starts at row
//     j and is replaced only by a strictly larger value. A NaN never
//     compares larger, so a NaN is the pivot only when it is the first
//     candidate (the entry on the diagonal); ties go to the first row.
//   - A zero pivot (every candidate zero, or the first one zero and the
//     rest zero or NaN): no interchange (ipiv[j] = j) and no scaling: the
//     column below the diagonal is left as it is, since there is nothing to
//     divide by. The factorisation carries on with the next column; the
//     rank-1 update with that column's entries is still applied (with
//     zeros it changes nothing finite).
//   - Any other pivot p, NaN included: the entries below it are multiplied
//     by 1/p, or divided by p when |p| is below the smallest normal number
//     (its reciprocal would overflow). A NaN pivot makes its column NaN.
//   - Updates are never skipped for a zero multiplier, so 0*NaN and 0*Inf
//     spread NaN as IEEE arithmetic says.
//
// info, per matrix, is the first j (1-based, as LAPACK) with
// !(|U(j-1, j-1)| > 0): a zero pivot or a NaN one. (LAPACK's info counts
// exact zeros only; a NaN pivot is a failure here.) A matrix with info > 0
// is still factored to the end under the rules above, the rest of the
// batch is factored normally, and the call returns a
// *batchlas.NumericalError listing the failed matrices with their info.
// An infinite pivot is no failure: its column of multipliers becomes
// zeros (NaN where an entry was infinite too).
//
// Because the decisions are made on computed values, two kernels can
// differ where rounding decides: a near-tie in a pivot column, or a pivot
// that is zero in exact arithmetic but a rounding residue in one kernel.
// On inputs whose elimination is exact (small integers and dyadic
// fractions) and on those where a NaN decides, every kernel gives the same
// pivots, info and factors.
//
// Pin a kernel with BATCHLAS_GETRF_ROUTE=<spelling> or
// sel.WithPin(ctx, "getrf", spelling). An empty batch runs no kernel,
// makes no decision and does not read the pin, so a bad pin is no error
// there, as in every op.
//
// Workspace: the vendor kernel uses an n x n row-major copy per worker,
// so BufferSize is about workers*n*n for it (workers: GOMAXPROCS, or the
// cap batchlas.WithParallelism puts on ctx; pass BufferSize the call's
// ctx); the batched kernel's nested trsm and gemm calls work in the
// call's workspace, so its BufferSize is the largest of theirs; the other
// kernels need none. With it supplied a call allocates nothing (the vendor
// kernel only inside gonum's Dgetrf, from order 128 on: about 4 + 2 per
// 64x64 block of each trailing update). A workspace that shares an element
// with a is an *ArgError.
//
// Getrf and BufferSize treat a nil context as context.Background().
package getrf
