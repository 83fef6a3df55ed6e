package gemm

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of gemm. families is their full list, vendor
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
	// kc is its one field: it splits each sum over k into kc-deep slices,
	// so it changes the arithmetic. mc changes neither the work nor the
	// result and derives from the device's L2 (packedMC).
	familyPacked = &sel.Family{Name: "packed", Fields: []string{"kc"}}
	// familySIMD runs 64-byte vector register tiles (three vectors of rows
	// by up to 8 columns) straight on the operands (a transposed A is
	// copied first, whole or a slice of a row block at a time): AVX-512
	// on x86-64-v4, a portable Go tile of the same shape elsewhere. Small
	// matrices go a group at a time; a big one by row panels and 512-deep
	// k slices, its columns split over the workers when the batch is
	// smaller than they are.
	familySIMD = &sel.Family{Name: "simd"}
	// familySwapped runs simd's tile on the transposed product, C^T =
	// op(B)^T * op(A)^T, through a buffer: for a C with few rows and
	// many columns, whose rows would fill only part of each vector.
	familySwapped = &sel.Family{Name: "swapped"}
	// familyVendor calls gonum BLAS per matrix, parallel over the batch.
	familyVendor = &sel.Family{Name: "vendor", Vendor: true}

	families = []*sel.Family{familyDirect, familySmall, familySIMD, familySwapped, familyPacked, familyVendor}
)

// nativeCandidates are the compiled native choices, in tie-break order
// (simpler first). vendorCandidates (vendor.go / vendor_none.go) follow
// them.
var nativeCandidates = []sel.Choice{
	familyDirect.With(),
	familySmall.With(),
	familySIMD.With(),
	familySwapped.With(),
	familyPacked.With(128),
	familyPacked.With(256),
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

// The tuner's coarse design: every transpose, and each of m, n and k on
// its own axis (a matrix-vector product is n = 1, a rank-k update small k).
// The tuner adds cells between neighbouring values whose winners disagree.
var (
	transposes = []string{"N", "T"}
	sizesQuick = []string{"1", "4", "16", "64", "256"}
	sizesFull  = []string{"1", "4", "16", "64", "256", "512"}
	batchQuick = []string{"1", "32", "1024"}
	batchFull  = []string{"1", "8", "64", "512", "4096"}
)

// Op is gemm's registration with the selection core (also
// sel.Lookup("gemm")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses gemm's kernel with a pin instead:
// sel.WithPin(ctx, "gemm", ...) or BATCHLAS_GEMM_ROUTE.
var Op = sel.Register(spec)

// spec is what gemm declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  2, // 2: packed lost mc (packed:kc=..); m, n, k weigh 16 against batch
	VendorLib: "blas",
	Keys:      "ta:exact tb:exact m:log:16 n:log:16 k:log:16 batch:log",
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates(),
		sel.Float64: candidates(),
	},
	// direct is the most general native kernel; vendor is the fallback.
	LastResort: []string{"direct", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "ta", Quick: transposes, Full: transposes},
		{Key: "tb", Quick: transposes, Full: transposes},
		{Key: "m", Quick: sizesQuick, Full: sizesFull},
		{Key: "n", Quick: sizesQuick, Full: sizesFull},
		{Key: "k", Quick: sizesQuick, Full: sizesFull},
		{Key: "batch", Quick: batchQuick, Full: batchFull},
	},
	Twin: twin,
}

// twin is gemm's OpSpec.Twin. The packed kernel cuts k into kc-deep
// slices and derives mc from the first slice's depth min(kc, k)
// (packedBlocking), so two packed candidates whose kc are both at least k
// run one k-deep slice with the same mc: the same code, bit for bit.
// packed:kc=c names the earliest packed candidate, in candidate order,
// that does so with it, and "" when that is itself (or k > c's kc, where
// its slicing is its own).
func twin(c sel.Choice, _ sel.DType, key sel.Key, _ *sel.Device) string {
	if !c.Is(familyPacked) {
		return ""
	}
	k := key.Int(keyK)
	if k > packedKC(c) {
		return ""
	}
	for _, e := range nativeCandidates {
		if e.Is(familyPacked) && k <= packedKC(e) {
			if e == c {
				return ""
			}
			return e.String()
		}
	}
	return ""
}
