package potrs

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of potrs, in candidate order (simpler first, native
// before vendor). Each is one unexported driver in its own file.
var (
	// fusedFamily solves each system on one worker, both substitutions
	// straight from the factor while it is in cache (fused.go).
	fusedFamily = &sel.Family{Name: "fused"}
	// nestedFamily makes the two triangular solves through the trsm op's
	// public entry point on the whole batch, so each nested decision is
	// traced, covered and served by trsm's own table (nested.go).
	nestedFamily = &sel.Family{Name: "nested"}
	// vendorFamily calls gonum's LAPACK Dpotrs per matrix (vendor.go).
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family potrs declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{fusedFamily, nestedFamily, vendorFamily}

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	fusedFamily.With(),
	nestedFamily.With(),
}

// candidates lists every compiled choice per dtype. The vendor choice comes
// from vendor.go (float64 only: gonum has no float32 Cholesky solve) and is
// absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// The tuner's coarse design: the order n of A and the right-hand sides
// nrhs each on an axis of their own (a Gaussian-process posterior mean is
// nrhs = 1, a batch of predictions many), both uplo.
var (
	nQuick     = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}
	nrhsQuick  = []string{"1", "2", "4", "8", "16", "32", "64"}
	batchQuick = []string{"1", "4", "16", "64", "256", "1024"}
	nFull      = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}
	nrhsFull   = []string{"1", "2", "4", "8", "16", "32", "64", "256"}
	batchFull  = []string{"1", "4", "16", "64", "256", "1024", "4096"}
)

// Op is potrs's registration with the selection core (also
// sel.Lookup("potrs")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses potrs's kernel with a pin instead:
// sel.WithPin(ctx, "potrs", ...) or BATCHLAS_POTRS_ROUTE.
var Op = sel.Register(spec)

// spec is what potrs declares to the selection core once.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   2, // 2: n and nrhs weigh 4 against batch (was 16): see docs/decisions.md
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:4 nrhs:log:4 batch:log",
	Families:   families,
	Candidates: candidates,
	// By generality (R4): fused and nested both serve every shape and
	// batch; nested goes first as the composition of the tuned trsm op
	// (the role blocked has in potrf and trsm), then vendor, then the
	// candidate order.
	LastResort: []string{"nested", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n", Quick: nQuick, Full: nFull},
		{Key: "nrhs", Quick: nrhsQuick, Full: nrhsFull},
		{Key: "batch", Quick: batchQuick, Full: batchFull},
	},
}
