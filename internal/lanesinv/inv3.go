package lanesinv

//go:generate go run gen3.go
//go:generate go run gen3_avx2.go

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
)

// Inverse3 inverts groups whole groups of L = lanes.Lanes[T]() 3 x 3
// matrices in one pass: matrix l of group g starts at a[(Lg+l)*sa]
// (columns 3 apart; sa 0 reads one matrix for every lane) and its inverse
// goes to x[(Lg+l)*sx], with getrf's info of the matrix in info[Lg+l] (0,
// or the first d+1 whose u_dd is zero or NaN). The inverse of a matrix
// whose info is not 0 is garbage; failed reports whether there is one.
//
// Its results are internal/lanes' Inverse's for order 3 bit for bit (the
// same factorisation, pivots, info and solve; see gen3.go), without the
// gather into a group buffer and the scatter out of it: the group is
// loaded, interleaved, inverted and written back in registers, and the
// groups follow each other in one call. It runs on x86-64-v4 (AVX-512)
// and x86-64-v3 (AVX2) and reports ran false elsewhere, having done
// nothing: the caller then moves the groups through lanes.Gather,
// lanes.Inverse and lanes.Scatter.
func Inverse3[T batchlas.Float](x, a []T, sx, sa, groups int, small T, info []int32) (ran, failed bool) {
	if groups <= 0 {
		return Inverse3Runs[T](), false
	}
	L := lanes.Lanes[T]()
	last := groups*L - 1
	if sx < 9 || sa < 0 || len(x) < last*sx+9 || len(a) < last*sa+9 || len(info) < groups*L {
		panic("lanesinv: Inverse3's operands are shorter than its groups")
	}
	return inverse3(x, a, sx, sa, groups, small, info[:groups*L])
}

// Inverse3Runs reports whether Inverse3 runs for T on this machine.
func Inverse3Runs[T batchlas.Float]() bool { return inverse3Runs[T]() }
