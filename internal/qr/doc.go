// Package qr holds the per-matrix Householder kernels of the QR ops
// (geqrf, orgqr, ormqr, gels): one column-major matrix at a time, generic
// over batchlas.Float, with LAPACK's meaning and reflector convention.
//
// A reflector is H = I - tau v v^T with v(0) = 1 implied (not stored: the
// factor keeps R's diagonal there) and tau either 0 (H = I) or in [1, 2],
// beta's sign chosen as LAPACK's dlarfg chooses it, so that gonum's
// Dorgqr and Dormqr accept a factor made here once its layout is
// transposed. The kernels are:
//
//   - Larfg (dlarfg): generate one reflector;
//   - Larf (dlarf): apply one reflector from the left or the right;
//   - Geqr2 (dgeqr2): unblocked QR, one reflector per column;
//   - GeqrfBlocked (dgeqrf with nx = 0): panels of nb columns (blocked
//     themselves at half the width down to 8 columns, then by Geqr2), the
//     trailing matrix updated by the panel's block reflector;
//   - Org2r, Orm2r, OrgqrBlocked, OrmqrBlocked: forming and applying Q.
//
// The blocked forms apply a panel's reflectors as one block reflector,
// H_0 .. H_{k-1} = I - V T V^T (dlarft and dlarfb, forward, columnwise),
// on a copy of V with its unit diagonal and the zeros above it written,
// so that each of its products is one call of the vector tile
// (internal/simd.Gemm): see dense.go.
//
// None of them allocates, reads the diagonal head of a stored reflector,
// or writes outside the m x n part of a matrix (its padding rows are left
// as they are). A NaN or Inf input gives NaN results, never a panic or a
// loop without end.
package qr
