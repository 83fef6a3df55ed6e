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
// call, nor a workspace with any operand (Overlap, CheckDisjoint): elements,
// not address ranges, so disjoint sub-matrix views of one parent may be
// passed together however their columns interleave in memory.
package batchlas
