// Package batchlas is batched linear algebra for Go: many small and medium
// matrices per call, every op choosing its kernel through a per-device,
// tuned-table dispatch engine (package sel under select/).
//
// This package holds the vocabulary the ops share: the strided Batch of
// column-major matrices, Uplo/Side/Transpose/Diag, the device a call runs on
// (the host CPU unless WithDevice says otherwise), and the errors ops return.
// The ops live in ops/<op> (gemm, trsm, potrf, potrs, posv, getrf, getrs,
// gesv, the condition estimates gecon and pocon, and the symmetric
// eigensolver syev); WithConditionCheck makes the solvers report
// ill-conditioned matrices. Package linalg puts them in
// numpy's words, one call per job that leaves its inputs alone and
// returns new outputs (Solve, Cholesky, Eigh, Det, ...); package gonummat
// converts to and from gonum's matrices.
//
// # Batches
//
// NewBatch and NewIdentity allocate; WrapBatch and WrapStrided wrap data
// the program already holds, without copying; Clone, Sub, CopyMatrixIn,
// CopyMatrixOut, SetZero and SetIdentity copy, cut and fill. A batch of
// one matrix used for every matrix of a call (one A for many B, say) is a
// Broadcast, which ops accept only for operands they read. A batch of
// Stride 0 over several matrices that Broadcast did not make is an error,
// not a broadcast, so that a forgotten Stride does not silently repeat the
// first matrix.
//
// Vectors is the per-matrix companion of a Batch: one vector per matrix
// (pivot indices as int32, values as float32 or float64), with the same
// Count/Stride discipline and an explicit BroadcastVectors.
//
// # Row-major data
//
// A Batch is column-major, as BLAS and LAPACK are. Row-major data (numpy's
// C order, gonum's mat.Dense) wrapped as it is, with rows and columns
// swapped (WrapBatch(data, cols, rows, count)), reads as the transposes of
// its matrices, and every op can be given the transposed problem instead of
// a copy:
//
//   - gemm: C = op(A)*op(B) row-major is C^T = op(B)^T*op(A)^T: pass B
//     where A goes and A where B goes, with their transpose flags swapped
//     too (Gemm(ctx, tb, ta, alpha, B, A, beta, C, ws)).
//   - potrf: a symmetric matrix is its own transpose, and its row-major
//     lower triangle is the column-major upper one: factor with the other
//     uplo. Upper on row-major data leaves L (S = L*L^T) in the row-major
//     lower triangle.
//   - trsm: op(A)*X = alpha*B row-major is X^T*op(A)^T = alpha*B^T, and a
//     row-major lower triangle reads as an upper one: flip side and uplo,
//     keep ta and diag.
//
// The package example rowMajor (Example_rowMajor) runs all three.
//
// # Contexts and sharing
//
// Every function here and in the ops that takes a context.Context treats a
// nil context as context.Background().
//
// Calls are batch-parallel over workers shared by the whole process: the
// calling goroutine always works on its own call, and at most GOMAXPROCS-1
// helper goroutines run for all calls together, so concurrent callers do
// not oversubscribe the machine. WithParallelism caps the workers of the
// calls made with a context (pass the same context to BufferSize, which
// sizes per-worker scratch for it); results do not depend on the cap.
//
// The library prints nothing on a healthy call path. Misconfiguration (a
// broken BATCHLAS_TUNED_DIR table, a native or vendor pin that falls back,
// a malformed BATCHLAS_DEVICE, an unusable BATCHLAS_COVERAGE_OUT) is
// warned about once on stderr, or where SetWarnOutput says; which tables
// are borrowed and every decision are in the trace
// (BATCHLAS_SELECT_TRACE=1). docs/select.md, "Switches", lists every
// environment variable and function that changes what is selected or
// printed.
//
// A written operand may not share an element with any other operand of the
// call, nor a workspace with any operand (an *ArgError otherwise; Overlap
// tells beforehand): elements, not address ranges, so disjoint sub-matrix
// views of one parent may be passed together however their columns
// interleave in memory.
//
// Functions and methods that take data return an *ArgError, never panic,
// on arguments they refuse; the constructors that take only sizes
// (NewBatch, NewIdentity) panic on negative sizes as make does, and At,
// Set and Matrix index like a slice.
package batchlas
