// Package batchlas is batched linear algebra for Go: many small and medium
// matrices per call, every op choosing its kernel through a per-device,
// tuned-table dispatch engine (package sel under select/).
//
// This package holds the vocabulary the ops share: the strided Batch of
// column-major matrices, Uplo/Side/Transpose/Diag, the device a call runs on
// (the host CPU unless WithDevice says otherwise), and the errors ops return.
// The ops live in ops/<op> (gemm, trsm, potrf).
//
// Every function here and in the ops that takes a context.Context treats a
// nil context as context.Background().
//
// A written operand may not share an element with any other operand of the
// call, nor a workspace with any operand (Overlap, CheckDisjoint): elements,
// not address ranges, so disjoint sub-matrix views of one parent may be
// passed together however their columns interleave in memory.
package batchlas
