package gemm

import (
	"slices"

	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of gemm. Families is their full list, vendor
// included even in novendor builds, so tables parse everywhere.
var (
	// familyDirect runs register-blocked loops straight on the operands
	// (no packing): the most general native kernel, good for small and
	// medium matrices.
	familyDirect = &sel.Family{Name: "direct"}
	// familySmall is for tiny matrices in big batches: the batch loop and
	// 4x2 tiles in one function per transpose case, edges by overlapping
	// tiles, no copies, no blocking. It runs any shape; tables say where.
	familySmall = &sel.Family{Name: "small"}
	// familyPacked packs op(A) into mc x kc row panels and op(B) into
	// kc-deep column panels, then runs a register-blocked micro-kernel.
	familyPacked = &sel.Family{Name: "packed", Fields: []string{"mc", "kc"}}
	// familyVendor calls gonum BLAS per matrix, parallel over the batch.
	familyVendor = &sel.Family{Name: "vendor", Vendor: true}

	Families = []*sel.Family{familyDirect, familySmall, familyPacked, familyVendor}
)

// nativeCandidates are the compiled native choices, in tie-break order
// (simpler first). vendorCandidates (vendor.go / vendor_none.go) follow
// them.
var nativeCandidates = []sel.Choice{
	familyDirect.With(),
	familySmall.With(),
	familyPacked.With(64, 128),
	familyPacked.With(128, 256),
	familyPacked.With(256, 128),
}

// candidates is the one list of compiled choices, per dtype.
func candidates() []sel.Choice {
	return append(append([]sel.Choice(nil), nativeCandidates...), vendorCandidates...)
}

// Key positions, in the order of the Keys line of the spec.
const (
	keyTA = iota
	keyTB
	keyM
	keyN
	keyK
	keyBatch
)

var sizeAxis = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}

// Op is gemm's registration with the selection core, for tools and tests.
var Op = sel.Register(sel.OpSpec{
	Name:      opName,
	Revision:  1,
	VendorLib: "blas",
	Keys:      "ta:exact tb:exact m:log n:log k:log batch:log",
	Families:  Families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates(),
		sel.Float64: candidates(),
	},
	// direct is the most general native kernel; vendor is the fallback.
	LastResort: []string{"direct", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "ta", Quick: []string{"N"}, Full: []string{"N", "T"}},
		{Key: "tb", Quick: []string{"N"}, Full: []string{"N", "T"}},
		{Key: "m", Same: "n"},
		{Key: "n", Quick: sizeAxis, Full: slices.Concat(sizeAxis, []string{"1024"})},
		{Key: "k", Same: "n"},
		{Key: "batch", Quick: []string{"1", "16", "256", "4096", "32768"}, Full: []string{"1", "4", "16", "64", "256", "1024", "4096", "16384", "32768", "131072"}},
	},
})
