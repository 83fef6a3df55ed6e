// Package lanesqr is the Householder QR factorisation across matrices:
// a group of lanes.Lanes[T]() small matrices interleaved one per vector
// lane (package lanes' layout), factored by one stream of operations on
// whole rows of lanes, so that orders too small to fill a vector with one
// matrix's column still run every lane at once. It is geqrf's lanes
// kernel; each lane gets qr.Geqr2's factor and reflectors within
// rounding.
//
// Its column steps are AVX-512 assembly on x86-64-v4 (qr_amd64.s, written
// by gen.go) and AVX2 assembly on x86-64-v3 (qr_avx2_amd64.s, written by
// gen_avx2.go, each 64-byte vector as two halves), and a Go twin
// elsewhere (stepGo); all three make the same operations in the same
// order, fused multiply-adds included, and give the same bits.
//
// It is its own package, not part of package lanes, so that the ops built
// on lanes' other kernels do not depend on it.
package lanesqr
