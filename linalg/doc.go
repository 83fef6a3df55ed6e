// Package linalg is batchlas in numpy's words: one call per job, for a
// batch of float32 or float64 matrices, that leaves its inputs alone and
// returns new outputs.
//
//	x, err := linalg.Solve(ctx, a, b)           // numpy.linalg.solve(a, b)
//	l, err := linalg.Cholesky(ctx, a)           // numpy.linalg.cholesky(a)
//	w, v, err := linalg.Eigh(ctx, a)            // numpy.linalg.eigh(a)
//	sign, logdet, err := linalg.Slogdet(ctx, a) // numpy.linalg.slogdet(a)
//	x, err := linalg.Lstsq(ctx, a, b)           // numpy.linalg.lstsq(a, b)[0]
//	s, u, vt, err := linalg.SVD(ctx, a)         // numpy.linalg.svd(a, full_matrices=False)
//
// Each function is a thin layer over the LAPACK-level ops in ops/<op>:
// it validates its arguments, copies the inputs the op would overwrite
// into new tight batches, allocates the outputs, and makes one call to the
// op (Solve: gesv; Inv: matinv; SolveSPD: posv; Cholesky: potrf;
// CholeskySolve: potrs; LU, Det and Slogdet: getrf; Eigh and Eigvalsh:
// syev; QR: geqrf and orgqr; InvSPD: poinv; Lstsq: gels; SVD
// and SVDValues: gesvd). The same tuned kernels run: the op picks its kernel from the
// tables for the call's shape, BATCHLAS_SELECT_TRACE=1 traces the
// decision under the op's name, and pins (BATCHLAS_<OP>_ROUTE, sel.WithPin
// on ctx) and batchlas.WithParallelism apply as they do to a direct call.
// The price of the convenience is the copies and the allocations, output
// and workspace, made on every call. Use the ops directly to work in
// place, reuse workspace (BufferSize), factor once and solve many times
// with your own layout, or pick the other triangle.
//
// # Conventions
//
//   - Inputs are never modified. An input the op only reads (CholeskySolve's
//     l, Eigvalsh's a, SVD's a) is passed to it as it is; every other input is
//     copied first.
//   - Outputs are new batches with tight storage (batchlas.NewBatch's
//     layout: LD = max(1, rows), Stride = LD*cols) and storage of their
//     own per matrix, whatever the inputs' layout.
//   - Inputs may be views (LD > Rows, a Stride with gaps, Batch.Sub) and
//     broadcasts (batchlas.Broadcast: one matrix for the whole batch);
//     counts must agree exactly, as in the ops (no implicit broadcasting
//     of a Count of 1).
//   - Symmetric inputs are read from their lower triangle, the diagonal
//     included, as numpy's default UPLO='L'; the strictly upper triangle
//     may hold anything.
//   - Per-matrix scalars (Det, Slogdet) come as a batchlas.Vectors[T] of
//     length 1, one value per matrix, as posv.LogDet writes them: stored
//     tight, so Data is the plain slice of values (d.Data[i] is matrix i's)
//     and d.At(i, 0) reads the same value.
//   - A nil ctx is context.Background().
//
// # Errors
//
// A bad argument (an invalid batch, a zero Batch{}, a non-square matrix,
// mismatched rows or counts) is a *batchlas.ArgError whose Op is the
// function ("linalg.Solve"), whose Arg names the argument, and whose
// message says what is expected; nothing is computed and the outputs are
// zero values. No argument makes a function panic. Empty batches (Count
// 0) and matrices of order 0 are valid and give empty outputs (the
// determinant of a 0x0 matrix is 1, as numpy's).
//
// Errors of the op underneath are returned unchanged, with the op's name
// ("gesv", "potrf", ...): a *sel.PinError for a bad pin (with zero
// outputs, as for every error that comes without results), and the two
// that come with results:
//
//   - *batchlas.NumericalError: some matrices failed (Solve and Inv:
//     singular; SolveSPD, Cholesky and InvSPD: not positive definite; Eigh and
//     Eigvalsh: NaN or infinity in the input, or no convergence). Every
//     other matrix was computed, and the outputs are returned with the
//     error, so the good results can be used: Index lists the failed
//     matrices (and Info the op's LAPACK-style code), and their outputs
//     are set to NaN so that they cannot be mistaken for results (LU's
//     are not: see below). numpy raises LinAlgError for the whole stack
//     instead.
//   - *batchlas.InterruptedError: ctx was cancelled or passed its deadline.
//     The outputs are returned too: matrices [0, Completed) are results
//     (but those listed in its Failed, which are NaN), and every later
//     matrix is set to NaN.
//
// Where a failure is not an error in numpy it is not one here: Det and
// Slogdet of a singular matrix give 0 and (0, -Inf), and LU of a singular
// matrix returns its complete factor (U has a zero on its diagonal)
// together with getrf's NumericalError, as scipy's lu_factor returns it
// with a warning.
package linalg
