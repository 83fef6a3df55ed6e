// Package svd holds the per-matrix singular value decomposition of the
// gesvd op: A = U * diag(s) * V^T for one m x n column-major matrix, generic
// over batchlas.Float, by one-sided (Hestenes) Jacobi. Jacobi computes the
// columns of A V directly: it is short, needs no bidiagonal reduction and no
// implicit QR shifts, and it gives small singular values to high relative
// accuracy on graded matrices. Its cost, a few sweeps of n^2/2 pair
// rotations, is higher than LAPACK's dgesvd for large n, which is accepted
// for the small matrices a batch holds. Bidiag (bidiag.go, bdsqr.go) is
// the other kernel with the same contract, for larger orders: steps 1-4
// and 8 below are shared, and the sweeps are replaced by LAPACK xGESVD's
// bidiagonal reduction and implicit QR (see Bidiag).
//
// The steps of Jacobi, and why each is what it is:
//
//  1. Non-finite input. A NaN or Inf anywhere in A gives info = k+1
//     (k = min(m, n)) before any arithmetic, and nothing is written: the
//     iteration would otherwise spread NaN through rotations whose
//     convergence tests never pass, and end only at the sweep limit. The
//     outputs are left as they were, which is gesvd's contract for such a
//     matrix, so the op checks each matrix once, here.
//
//  2. Transpose. Jacobi orthogonalises columns, and a wide matrix has more
//     columns than rank, so for m < n it factors B = A^T = V S U^T instead:
//     the U of B is A's V (written to vt as its transpose) and the V of B is
//     A's U. From here on B is mm x nn with mm >= nn.
//
//  3. Power-of-two scaling. B is copied into the workspace multiplied by
//     2^e, chosen from max|a_ij| so that the largest entry lies in
//     [2^(h-1), 2^h) with 2h + log2(m n) at most 896 (float64) or 124
//     (float32). No squared column norm or dot product of columns can then
//     exceed ||A||_F^2 < 2^896 (2^124), well below overflow, while an entry
//     whose square underflows is less than 2^-900 (float64; 2^-90 for
//     float32) times the largest, which no normwise result can see.
//     float64's bound is below 2^900 so that internal/qr's Householder
//     vectors stay on their fast, unscaled path. Multiplying by a power of
//     two is exact, so A and 2^j A give bit-identical vectors and singular
//     values 2^j apart; the singular values are unscaled (math.Ldexp, one
//     rounding) at the end.
//
//  4. QR preprocessing. A tall B (mm > nn) is first reduced by Householder
//     QR (internal/qr.Geqr2) to its nn x nn triangle R, and Jacobi runs on
//     R: the sweeps then cost nn^3 instead of mm nn^2 per sweep, and
//     U = Q [U_R 0; 0 I] is formed at the end by applying the reflectors
//     (qr.Orm2r) to U_R padded with the identity. The identity block makes
//     Q's last mm - nn columns the extra columns of U for jobu == All, an
//     exactly orthogonal completion for free. A square B is used as it is.
//
//  5. Sweeps. Column pairs (p, q), p < q, are visited row-cyclically. A
//     pair is rotated when |g_p . g_q| > tol ||g_p|| ||g_q|| with
//     tol = eps sqrt(nn), eps the machine epsilon of T and nn the column
//     length: the rounding error of a computed dot product of nn terms is
//     typically of order sqrt(nn) eps ||g_p|| ||g_q||, so asking for less
//     would rotate on noise, and a cosine of that size between columns is
//     what makes ||U^T U - I|| of order nn eps. The three sums g_p.g_p,
//     g_q.g_q and g_p.g_q are recomputed for every pair in one pass over the
//     two columns rather than updated from the rotation, so no drift builds
//     up in the norms. The rotation is the stable one: zeta =
//     (||g_q||^2 - ||g_p||^2) / (2 g_p.g_q), t = sign(zeta) / (|zeta| +
//     sqrt(1 + zeta^2)), c = 1/sqrt(1+t^2), s = c t; when |zeta| is so large
//     that zeta^2 would lose 1 (or overflow), t = 1/(2 zeta) is taken
//     directly as g_p.g_q / (||g_q||^2 - ||g_p||^2) (the lanes kernel of
//     package lanessvd forms the same c and t another way, in fewer
//     dependent steps: its doc gives the formulas). The rotated pair is
//     stored with the longer column at p (swapping two columns is an exact
//     orthogonal step), so the columns end nearly sorted by norm and the
//     final sort moves little. The same transform is applied to V when V
//     is wanted. Pairs in which a squared column norm is below
//     2^-969 (2^-102 for float32) are not rotated: after the scaling such a
//     column is negligible, and its singular vector is rebuilt anyway (step
//     7). A sweep that rotates nothing ends the iteration. Every
//     convergence test is written so that NaN fails it. After maxSweeps
//     (60) sweeps the pairs are checked once more and info is the number of
//     columns in a pair that fails; the outputs are formed anyway.
//
//  6. Singular values and order. s_k is the norm of the final column k,
//     computed as a sum of squares scaled by a power of two near the
//     column's largest entry (exact scaling, no overflow, no underflow of
//     what matters). The values are sorted descending by a stable
//     insertion sort that swaps columns of G and V alike, so equal values
//     keep their order (an identity matrix gives U = V = I).
//
//  7. Vectors. U's column k is g_k / s_k. A column whose s_k is not above
//     eps * s_max (zero, or made of rounding noise of the other columns)
//     is replaced: unit vectors, in order, are orthogonalised twice by
//     modified Gram-Schmidt against the columns already kept, and the first
//     whose remainder has norm at least 1/(2 sqrt(nn)) is normalised and
//     taken. Such a vector always exists (the remainders' squared norms sum
//     to the missing dimension), and "twice is enough" makes it orthogonal
//     to working precision. V needs no completion: it is a product of exact
//     orthogonal steps from the identity. A zero matrix thus gets U = I and
//     V = I.
//
//  8. Signs. The factorisation fixes each vector only up to sign, so a sign
//     convention makes results comparable across algorithms: for each
//     k < min(m, n), when U is computed its column k is negated if its
//     entry of largest magnitude (the first, on ties) is negative, and row
//     k of VT with it; when only VT is computed, row k of VT gets the same
//     rule. Extra columns of U and extra rows of VT (jobs All beyond k)
//     each get their largest entry positive too.
//
// The singular values do not depend on jobu and jobvt: the same arithmetic
// runs on G whatever vectors are wanted, so s is bit-identical across jobs.
// Bidiag's are bit-identical across the jobs that want vectors; with none
// it computes them by dqds, to the same accuracy but not the same bits.
// ValuesGroup (lanesbd.go) is Bidiag without vectors on a group of
// matrices at once, one per vector lane: the reduction made across the
// lanes, each lane's bidiagonal to dqds, several at a time (dqdsMany:
// each gets dqds' bits); its values are Bidiag's within rounding.
//
// Nothing here allocates; all scratch is the caller's work slice, of
// WorkSize elements. The input matrix is only read, and its padding rows
// (between m and lda) are never touched; neither are the padding rows of u
// and vt.
package svd
