package syev

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of syev, in candidate order (simpler first, native
// before vendor). Every one reads only the uplo triangle, and goes through
// the shared prologue and epilogue of common.go: the same NaN/Inf check,
// scaling, ascending order, sign convention and info codes.
var (
	// jacobiFamily is cyclic two-sided Jacobi per matrix on a full
	// symmetric copy (n <= jacobiMax).
	jacobiFamily = &sel.Family{Name: "jacobi"}
	// lanesFamily is the same cyclic Jacobi across matrices: groups of 8
	// (float64) or 16 (float32) matrices interleaved one per vector lane
	// (n <= lanesMax).
	lanesFamily = &sel.Family{Name: "lanes"}
	// tridiagFamily reduces each matrix to tridiagonal form with
	// Householder reflectors (unblocked), forms Q from them for vectors,
	// and runs implicit QL/QR on the tridiagonal matrix, per matrix.
	tridiagFamily = &sel.Family{Name: "tridiag"}
	// lanesTriFamily is tridiag's reduction across matrices: groups
	// interleaved as in lanes, reduced together, then per matrix Q (for
	// vectors) and QL/QR as tridiag.
	lanesTriFamily = &sel.Family{Name: "lanestri"}
	// blockedFamily reduces panels of nb columns per matrix, and applies
	// each panel's symmetric rank-2nb update to the trailing matrices of
	// a chunk of the batch with the gemm op; then QL/QR per matrix as
	// tridiag.
	blockedFamily = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// dcFamily is blocked with panels of dcNB columns and, for vectors,
	// divide and conquer on the tridiagonal matrix in place of QL/QR:
	// its merges and the product with Q are matrix products on the gemm
	// op, where QL/QR applies about 6n^3 flops of plane rotations on one
	// core.
	// Values alone run blocked's code.
	dcFamily = &sel.Family{Name: "dc"}
	// vendorFamily calls gonum's LAPACK Dsyev per matrix.
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family syev declares.
var families = []*sel.Family{jacobiFamily, lanesFamily, tridiagFamily, lanesTriFamily, blockedFamily, dcFamily, vendorFamily}

// jacobiMax is the largest order the jacobi kernel accepts: its cost grows
// as a handful of sweeps of n^3 each, which beyond this order loses to the
// tridiagonal reduction by a wide margin whatever the machine.
const jacobiMax = 32

// lanesMax is the largest order the lanes kernel accepts: beyond it the
// group's matrix and rotations (2*n*n 64-byte vectors, 2 MiB at 128)
// outgrow L2 and Jacobi's growing sweep count takes over. Where Jacobi
// stops paying below that (on dense matrices the tridiagonal kernels win
// from about n = 16 with vectors) is the tables' call.
const lanesMax = 128

// lanesTriMax is the largest order the lanestri kernel accepts: a group
// of order 256 is 4 MiB of 64-byte vectors per worker, beyond which the
// group no longer fits the caches and the per-matrix reductions serve
// better.
const lanesTriMax = 256

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	jacobiFamily.With(),
	lanesFamily.With(),
	tridiagFamily.With(),
	lanesTriFamily.With(),
	blockedFamily.With(16),
	blockedFamily.With(32),
	dcFamily.With(),
}

// dcNB is the dc kernel's panel width: blocked's wider one, which is
// faster on the large orders where dc pays.
const dcNB = 32

// candidates lists every compiled choice per dtype. The vendor choices come
// from vendor.go (float64 only: gonum has no float32 eigensolver) and are
// absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Op is syev's registration with the selection core (also
// sel.Lookup("syev")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses syev's kernel with a pin instead:
// sel.WithPin(ctx, "syev", ...) or BATCHLAS_SYEV_ROUTE.
var Op = sel.Register(spec)

// spec is what syev declares to the selection core once.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   2, // 2: n weighs 4 against batch (was 16): see docs/decisions.md
	VendorLib:  "lapack",
	Keys:       "jobz:exact uplo:exact n:log:4 batch:log",
	Families:   families,
	Candidates: candidates,
	// By generality (R4): tridiag serves every order and batch with no
	// nested decision and per-worker workspace only; vendor next; then
	// candidate order.
	LastResort: []string{"tridiag", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "jobz", Quick: []string{"N", "V"}, Full: []string{"N", "V"}},
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n",
			Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"},
			Full:  []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "batch",
			Quick: []string{"1", "2", "4", "8", "16", "64", "1024"},
			Full:  []string{"1", "16", "256", "4096", "32768"}},
	},
	Twin: twin,
}
