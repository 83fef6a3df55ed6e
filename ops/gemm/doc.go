// Package gemm is the batched general matrix multiply of batchlas:
//
//	C_i = alpha*op(A_i)*op(B_i) + beta*C_i,  op(X) = X or X^T,
//
// for every matrix i of a strided batch of column-major matrices. A and B
// may be broadcasts of one matrix to the whole batch (batchlas.Broadcast);
// C is written and
// must give each matrix its own storage, not shared with A or B. Sharing
// means sharing an element (batchlas.Overlap), not an address range:
// sub-matrix views of one parent batch that share no element may be passed
// together however their columns interleave; a C that shares an element
// with A or B, or a workspace that shares one with any operand, is an
// *ArgError.
//
// As in BLAS, beta == 0 means C is not read (NaN in C does not propagate)
// and alpha == 0 means A and B are not read.
//
// With the BufferSize workspace supplied a call allocates nothing with a
// native kernel. The vendor kernel allocates inside gonum, which runs a C
// of at least four 64x64 blocks on goroutines of its own: at most about 4
// + 2 per block, per matrix (none for a smaller C).
//
// Each call picks one kernel through the selection core (package sel): the
// families are
//
//   - direct: register-blocked loops on the operands as they lie in
//     memory, any shape;
//   - small: the batch loop and 4x2 tiles in one function per transpose
//     case, no copies, no blocking; built for tiny matrices in big
//     batches but correct for every shape (no size limit: the tables say
//     where it runs);
//   - simd: package simd's vector register tile (three 64-byte vectors of
//     rows by 8 columns) straight on the operands, no packing; a
//     transposed A is copied a row block at a time, and a tile position
//     runs over a group of matrices in one call of the assembly, so small
//     matrices pay no per-matrix Go code. An A whose columns would share
//     a few cache sets (a leading dimension that is a multiple of 4 KiB,
//     as views of a larger array have) is copied to a tight buffer first,
//     and a batch whose C is bigger than the last-level cache writes C with
//     streaming stores; neither changes a bit of the result. AVX-512 on
//     x86-64-v4, a Go tile of the same shape elsewhere;
//   - swapped: simd's tile on the transposed product, C^T = op(B)^T *
//     op(A)^T, through a small buffer per group of matrices: for a C with
//     fewer rows than a vector holds (a Kalman gain's 4 x 64 times
//     64 x 64), whose rows would waste most of each vector in simd. It
//     sums the same products in the same order as simd, so the two agree
//     bit for bit;
//   - packed:kc=K: contiguous panels and a register-blocked micro-kernel,
//     for larger matrices. kc (128 or 256) is the depth of each slice of
//     the sum over k; the rows of op(A) packed per block (mc) change
//     neither the work nor the result and derive from the L2 cache of the
//     device the call runs on (about half of it for the packed block).
//     The micro-kernel is simd's tile: AVX-512, 24 x 8 (float64) or 48 x 8
//     (float32), on x86-64-v4 CPUs; AVX2/FMA, 12 x 4 or 24 x 4, on
//     x86-64-v3 CPUs (a block's full tiles in one assembly call); a 4 x 2
//     tile in portable Go elsewhere and with -tags purego. A batch with fewer matrices than
//     workers has each matrix's columns cut over the workers (the same
//     result bit for bit);
//   - vendor: gonum BLAS per matrix; absent with -tags novendor.
//
// Pin one with sel.WithPin(ctx, "gemm", "packed:kc=128") or
// BATCHLAS_GEMM_ROUTE. A call that runs no kernel (an empty C, k == 0 or
// alpha == 0) makes no decision and does not read the pin, so a bad pin is
// no error there; the same rule holds in every op.
//
// Gemm and BufferSize treat a nil context as context.Background().
package gemm
