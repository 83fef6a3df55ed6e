package getrs

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of getrs, in candidate order (simpler first, native
// before vendor). Each is one unexported driver in its own file.
var (
	// permatrix solves each system on one worker from start to end: the
	// row interchanges and both triangular solves, four columns of B at a
	// time, while the factor and the panel of B stay in cache
	// (permatrix.go, internal/lusolve).
	permatrix = &sel.Family{Name: "permatrix"}
	// vector is permatrix with both triangular solves on package subst's
	// vector substitution, AVX-512 on x86-64-v4 (vector.go).
	vector = &sel.Family{Name: "vector"}
	// nested applies the row interchanges to the whole batch, then solves
	// with L and U through the trsm op's entry point on the whole batch, so
	// trsm's kernels (and through them gemm's) do the work and their
	// decisions are traced beneath getrs's (nested.go).
	nested = &sel.Family{Name: "nested"}
	// vendor applies the interchanges here and calls gonum's Dtrsm or
	// Strsm twice per matrix (vendor.go); absent from the candidate list of
	// a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family getrs declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{permatrix, vector, nested, vendor}

// candidates is the one candidate list of getrs, the same for float32 and
// float64 (gonum's BLAS has both Dtrsm and Strsm): the native choices,
// then vendorCandidates (vendor.go, empty under -tags novendor).
var candidates = append([]sel.Choice{permatrix.With(), vector.With(), nested.With()}, vendorCandidates...)

// Key names: the transpose compared as text, then the order of A, the
// right-hand sides and the batch count by log distance; the two sizes
// weigh 4 against the batch, as in gesv (docs/decisions.md).
const keyNames = "trans:exact n:log:4 nrhs:log:4 batch:log"

// Op is getrs's registration with the selection core (also
// sel.Lookup("getrs")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses getrs's kernel with a pin instead:
// sel.WithPin(ctx, "getrs", ...) or BATCHLAS_GETRS_ROUTE.
var Op = sel.Register(spec)

// spec is what getrs declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  2, // 2: n and nrhs weigh 4 against batch (was 16)
	VendorLib: "blas",
	Keys:      keyNames,
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): permatrix and nested both serve every shape;
	// permatrix needs no workspace and makes no nested decision, so it is
	// the one that cannot fail for a reason of its own; vendor needs gonum.
	LastResort: []string{"permatrix", "vendor"},
	CanRun:     canRun,
	// Orders and right-hand sides each on their own axis: a solve with one
	// right-hand side (a Newton step, a Kalman update) and one with many (an
	// inverse, a block of load cases) rank the kernels differently. The
	// orders are dense at the small end, where the per-matrix kernel and
	// the nested trsm calls trade places; 2 right-hand sides is half a
	// panel of the per-matrix solve.
	Grid: []sel.GridAxis{
		{Key: "trans", Quick: []string{"N", "T"}, Full: []string{"N", "T"}},
		{Key: "n", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}, Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "nrhs", Quick: []string{"1", "2", "4", "8", "16", "32", "64"}, Full: []string{"1", "2", "3", "4", "8", "16", "32", "64", "256"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"}, Full: []string{"1", "8", "64", "512", "4096"}},
	},
}
