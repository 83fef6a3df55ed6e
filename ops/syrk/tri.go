package syrk

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// syrkTri is syrkTile where the triangle kernel runs (triRuns; Syrk
// decides once a call, job kernel runTri): the whole uplo triangle of C_i
// in one assembly call, for NoTrans on A where it lies, for Trans on each
// transposed transDepth-deep slice of op(A) in the worker's scratch s, as
// the tiles take it. With prefetch the call hints matrix i+1's A and C
// (hintBytes of each), spread over its inner loop.
//
// Against the tiles it leaves out the Go work around each tile, the
// diagonal blocks' copy through the stack (their vector is stored under a
// mask per column instead) and the Go loop of hints: at n = k = 32 batch =
// 8192 on the Zen 5 guest that work was half the time.
func syrkTri[T batchlas.Float](p *problem[T], i int, prefetch bool, s []T) {
	n, k, lda, ldc := p.n, p.k, p.a.LD, p.c.LD
	a, c := p.a.Data[i*p.a.Stride:], p.c.Data[i*p.c.Stride:]
	var pf [4]uintptr
	if prefetch {
		pf = nextRanges(p, i+1)
	}
	ab := [2]T{p.alpha, p.beta}
	if !p.trans {
		tri(k, a, lda, c, ldc, n, &ab, p.beta != 0, !p.lower, &pf)
		return
	}
	for l0 := 0; l0 < k; l0 += transDepth {
		kd := min(transDepth, k-l0)
		simd.Transpose(s, n, a[l0:], lda, n, kd)
		tri(kd, s, n, c, ldc, n, &ab, ab[1] != 0, !p.lower, &pf)
		ab[1] = 1         // later slices add to C
		pf = [4]uintptr{} // the hints go with the first slice
	}
}

// hintSpan is how much longer than the bytes a matrix operand uses the
// range from its first to its last byte may be and still be hinted whole:
// the kernel hints ranges, and an operand that is a view of a much wider
// array would fetch mostly bytes nobody reads.
const hintSpan = 1.5

// hintBytes returns the lengths in bytes of the ranges of each matrix's A
// and C that the kernel hints, or 0 for an operand whose range is more
// than hintSpan times the bytes it uses. C's range is its whole columns,
// the other triangle's lines included: at n = 32 a quarter more lines
// than the triangle's, which cost less than hinting the triangle column
// by column. The same for every matrix, so Syrk computes it once a call.
func hintBytes[T batchlas.Float](p *problem[T]) (a, c uintptr) {
	var z T
	es := int(unsafe.Sizeof(z))
	span := func(rows, cols, ld int) uintptr {
		bytes := ((cols-1)*ld + rows) * es
		if float64(bytes) > hintSpan*float64(rows*cols*es) {
			return 0
		}
		return uintptr(bytes)
	}
	rows, cols := p.n, p.k // A's shape
	if p.trans {
		rows, cols = cols, rows
	}
	return span(rows, cols, p.a.LD), span(p.n, p.n, p.c.LD)
}

// nextRanges returns the byte ranges of matrix i's A and C to hint (of
// hintBytes' lengths), or empty ranges past the batch.
func nextRanges[T batchlas.Float](p *problem[T], i int) (pf [4]uintptr) {
	if i >= p.c.Count {
		return pf
	}
	if p.hintA > 0 {
		pf[0] = uintptr(unsafe.Pointer(&p.a.Data[i*p.a.Stride]))
		pf[1] = pf[0] + p.hintA
	}
	if p.hintC > 0 {
		pf[2] = uintptr(unsafe.Pointer(&p.c.Data[i*p.c.Stride]))
		pf[3] = pf[2] + p.hintC
	}
	return pf
}
