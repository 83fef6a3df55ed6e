// Package poinv inverts a batch of symmetric positive definite matrices
// out of place: X_i := inv(A_i) for every i, column-major, the whole
// symmetric inverse written, A read from its uplo triangle only (the
// other triangle may hold anything) and never written, so it may be a
// view or a broadcast. It is the op behind linalg.InvSPD; a program that
// has Cholesky factors already inverts them in place with potri.
//
//	x := batchlas.NewBatch[float64](n, n, a.Count)
//	err := poinv.Poinv(ctx, batchlas.Lower, a, x, nil) // x holds the inverses
//
// Every inverse comes from the Cholesky factor potrf would compute, then
// potri's method (the triangle's inverse, then its product with its
// transpose), then the triangle copied onto the other. Each call makes
// one decision through the selection core (package sel): the key is
// `uplo:exact n:log:4 batch:log`, and the candidates are
//
//	lanes  groups of 8 (float64) or 16 (float32) matrices interleaved one
//	       per vector lane, factored, inverted and mirrored in one pass
//	       over the group, only the inverses written back; n <= 128
//	chain  A copied into X, then the potrf op and the potri op on X (each
//	       choosing its own kernel, traced beneath poinv), then the
//	       triangle mirrored
//
// Without a tuned table the last-resort order decides: chain.
//
// A matrix that is not positive definite (potrf's info > 0) has no
// inverse: its X_i is NaN everywhere and the call returns a
// *batchlas.NumericalError listing it with potrf's info, the same
// whichever kernel runs; every other matrix is inverted. With
// batchlas.WithConditionCheck the ill-conditioned ones are listed too
// (info n+1), from the exact 1-norm condition number.
//
// Pin a kernel with BATCHLAS_POINV_ROUTE=<spelling> or
// sel.WithPin(ctx, "poinv", spelling); pins of potrf and potri apply to
// chain's calls. Size the workspace with BufferSize under the same
// context, or pass nil: lanes needs a group of matrices per worker, chain
// what potrf needs. With it supplied a call with no failure allocates
// nothing.
//
// Poinv and BufferSize treat a nil context as context.Background().
package poinv
