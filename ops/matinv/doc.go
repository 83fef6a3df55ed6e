// Package matinv inverts a batch of square matrices out of place: X_i :=
// inv(A_i) for every i, column-major, A read only (it may be a view or a
// broadcast). It is the op behind linalg.Inv; a program that has LU
// factors already inverts them in place with getri.
//
//	x := batchlas.NewBatch[float64](n, n, a.Count)
//	err := matinv.Matinv(ctx, a, x, nil) // x holds the inverses
//
// Every inverse comes from an LU factorisation with partial pivoting, as
// getrf computes it. Each call makes one decision through the selection
// core (package sel): the key is `n:log:4 batch:log`, and the candidates
// are
//
//	lanes  groups of 8 (float64) or 16 (float32) matrices interleaved one
//	       per vector lane, factored and inverted in one pass over the
//	       group (the factorisation's unblocked arithmetic, then the solve
//	       of A_i X_i = I), only the inverses written back; n <= 64.
//	       3x3 matrices with columns 3 apart in A and X stay in the
//	       registers from their load to their inverses' store
//	chain  A copied into X, then the getrf op and the getri op on X, each
//	       choosing its own kernel and traced beneath matinv (through
//	       them, gonum's kernels may run)
//
// Without a tuned table the last-resort order decides: chain.
//
// A matrix with a zero or NaN pivot (getrf's info > 0) has no inverse:
// its X_i is NaN everywhere and the call returns a
// *batchlas.NumericalError listing it with getrf's info, the same
// whichever kernel runs; every other matrix is inverted. With
// batchlas.WithConditionCheck the ill-conditioned ones are listed too
// (info n+1), from the exact 1-norm condition number.
//
// Pin a kernel with BATCHLAS_MATINV_ROUTE=<spelling> or
// sel.WithPin(ctx, "matinv", spelling); pins of getrf and getri apply to
// chain's calls. Size the workspace with BufferSize under the same
// context, or pass nil: lanes needs a group of matrices and their
// inverses per worker, chain what getrf and getri need. With it supplied
// a call with no failure allocates nothing.
//
// Matinv and BufferSize treat a nil context as context.Background().
package matinv
