package trsm

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of trsm. Each is one unexported driver in its own file.
var (
	// direct solves each matrix by substitution (direct.go): all 16
	// side/uplo/trans/diag variants, any shape.
	direct = &sel.Family{Name: "direct"}
	// vector solves each matrix by substitution on whole vectors
	// (vector.go, package subst): along the triangle for side Left, along
	// B's rows for side Right. AVX-512 on x86-64-v4, a Go twin with the
	// same bits elsewhere.
	vector = &sel.Family{Name: "vector"}
	// simd solves each matrix by blocks (simd.go): diagonal blocks by
	// substitution, the products between them on the vector tile.
	simdFamily = &sel.Family{Name: "simd"}
	// blocked splits the triangle recursively into diagonal blocks of at
	// most nb, solved by substitution, and updates the rest of B through
	// the gemm op on the whole batch (blocked.go).
	blocked = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// vendor calls gonum's Dtrsm/Strsm per matrix (vendor.go); absent from
	// the candidate list of a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family trsm declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{direct, vector, simdFamily, blocked, vendor}

// nativeCandidates are the pure-Go choices, simplest first. The blocked
// leaf sizes are ordered smallest first: the last resort takes the first
// blocked candidate, and nb=8 keeps the most work in gemm.
var nativeCandidates = []sel.Choice{
	direct.With(),
	vector.With(),
	simdFamily.With(),
	blocked.With(8),
	blocked.With(16),
	blocked.With(32),
}

// candidates is the one candidate list of trsm, the same for float32 and
// float64: the native choices, then vendorCandidates (vendor.go, empty
// under -tags novendor).
var candidates = append(append([]sel.Choice(nil), nativeCandidates...), vendorCandidates...)

// The tuner's coarse design: all 16 side/uplo/ta/diag combinations, and
// the rows (m) and columns (n) of B each on its own axis, so a solve with a
// few right-hand sides is measured as such (n is finer at the small end).
// The tuner adds cells between neighbouring values whose winners disagree.
var (
	sizesQuick = []string{"1", "4", "16", "64", "256"}
	// rhsQuick adds 2 and 8 right-hand sides: solves with a few columns
	// (a Cholesky solve, a Kalman update) are common, and a 4-column panel
	// run on 2 columns behaves like neither 1 nor 4.
	rhsQuick   = []string{"1", "2", "4", "8", "16", "64", "256"}
	sizesFull  = []string{"1", "4", "16", "64", "256", "512"}
	batchQuick = []string{"1", "32", "1024"}
	batchFull  = []string{"1", "8", "64", "512", "4096"}
)

// Key names: the four enums compared as text, then the sizes of B and the
// batch count by log distance.
const keyNames = "side:exact uplo:exact ta:exact diag:exact m:log:4 n:log:4 batch:log"

// Op is trsm's registration with the selection core (also
// sel.Lookup("trsm")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses trsm's kernel with a pin instead:
// sel.WithPin(ctx, "trsm", ...) or BATCHLAS_TRSM_ROUTE.
var Op = sel.Register(spec)

// spec is what trsm declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  3, // 2: m and n weigh 16 against batch; 3: 4 (see docs/decisions.md)
	VendorLib: "blas",
	Keys:      keyNames,
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): blocked serves every shape; vendor needs gonum.
	LastResort: []string{"blocked", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "side", Quick: []string{"L", "R"}, Full: []string{"L", "R"}},
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "ta", Quick: []string{"N", "T"}, Full: []string{"N", "T"}},
		{Key: "diag", Quick: []string{"N", "U"}, Full: []string{"N", "U"}},
		{Key: "m", Quick: sizesQuick, Full: sizesFull},
		{Key: "n", Quick: rhsQuick, Full: sizesFull},
		{Key: "batch", Quick: batchQuick, Full: batchFull},
	},
	Twin: twin,
}
