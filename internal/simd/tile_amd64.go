//go:build amd64 && !purego

package simd

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/batchlas-go/batchlas"
)

// AVX512 runs the tile as the AVX-512 assembly of tile_amd64.s when the
// executing CPU is x86-64-v4 and the process presents itself as one. The
// assembly needs only AVX-512 F, but tying the path to the level that names
// the device key means machines sharing a key share the code path, so their
// tables compare; and a process run with BATCHLAS_DEVICE=x86-64-v3 on an
// AVX-512 machine leaves it off: it runs, and measures, what an x86-64-v3
// machine runs (the x86-64-v3 tables are tuned that way). A variable so the
// tests run both paths on one machine.
var AVX512 = cpuid.CPU.X64Level() >= 4 && cpuid.CPU.Supports(cpuid.AVX512F) &&
	batchlas.Host().Family == "x86-64" && batchlas.Host().Arch >= 4

// AVX2 runs the tile as the AVX2/FMA assembly of tile_avx2_amd64.s where
// AVX512 is off: on x86-64-v3 machines (every AVX2 CPU has FMA too, but
// both are checked), and on an AVX-512 machine presented as one. It gives
// the AVX-512 tile's bits; tied to the device level like AVX512, for the
// same reason. A variable so the tests run every path on one machine.
var AVX2 = cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3) &&
	batchlas.Host().Family == "x86-64" && batchlas.Host().Arch >= 3

// The AVX-512 tiles. Strides and offsets are in bytes; nvec is 1, 2 or 3
// row vectors, the last one masked by mask; k >= 1 and count >= 1
// matrices, a, b and c advancing by sa, sb and sc bytes from one to the
// next.
//
//go:noescape
func tileF64(k int, a *float64, lda int, b *float64, bsl int, boff *[Cols]int, c *float64, ldc int, nvec int, mask uint64, ncols int, ab *[2]float64, hasBeta int, count, sa, sb, sc int)

//go:noescape
func tileF32(k int, a *float32, lda int, b *float32, bsl int, boff *[Cols]int, c *float32, ldc int, nvec int, mask uint64, ncols int, ab *[2]float32, hasBeta int, count, sa, sb, sc int)

// Tile computes, for each of count matrices (a, b and c advancing by sa,
// sb and sc elements), the rows x ncols block C = alpha*acc (+ beta*C when
// hasBeta; C is not read otherwise), acc = sum over l = 0 .. k-1, in
// order, of A[:, l] times B's element (l, cc), which is at
// b[l*bsl+boff[cc]]. rows <= 3*Lanes, 1 <= ncols <= Cols, k >= 1, count >= 1;
// ab holds alpha and beta.
func Tile[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	if !AVX512 {
		if AVX2 {
			tileAVX2(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, hasBeta, count, sa, sb, sc)
			return
		}
		TileGo(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, hasBeta, count, sa, sb, sc)
		return
	}
	beta := 0
	if hasBeta {
		beta = 1
	}
	tile(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, beta, count, sa, sb, sc)
}

// TileStream is Tile without beta (C = alpha*acc, C not read) whose stores
// of whole 64-byte vectors stream to memory instead of reading each line
// of C into the cache first: for a batch whose C is far bigger than the
// caches, about a quarter of the memory traffic of a small product. The
// same results bit for bit. It needs C's vectors 64-byte aligned (c's
// first element, ldc and sc in bytes); otherwise, and without AVX-512, it
// is Tile.
func TileStream[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, count, sa, sb, sc int) {
	if !AVX512 || !StreamAligned(c, ldc, sc) {
		Tile(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, false, count, sa, sb, sc)
		return
	}
	tile(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, 2, count, sa, sb, sc)
}

// StreamAligned reports whether TileStream can stream to c: its first
// element, and every column (ldc) and matrix (sc) after it, 64-byte
// aligned.
func StreamAligned[T batchlas.Float](c []T, ldc, sc int) bool {
	es := elemSize[T]()
	return len(c) > 0 && uintptr(unsafe.Pointer(&c[0]))%64 == 0 && ldc*es%64 == 0 && sc*es%64 == 0
}

// tile runs the assembly: beta 0 (C = alpha*acc), 1 (+ beta*C) or 2
// (streaming stores, C = alpha*acc).
func tile[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, beta int, count, sa, sb, sc int) {
	// The assembly reads and writes within these slices (masked lanes
	// past rows are neither read nor written); slicing checks they exist.
	a = a[:(count-1)*sa+(k-1)*lda+rows]
	b = b[:(count-1)*sb+(k-1)*bsl+boff[ncols-1]+1]
	c = c[:(count-1)*sc+(ncols-1)*ldc+rows]
	lanes := Lanes[T]()
	nvec := (rows + lanes - 1) / lanes
	mask := uint64(1)<<(rows-(nvec-1)*lanes) - 1
	es := elemSize[T]()
	var boffB [Cols]int
	for i, o := range boff {
		boffB[i] = o * es
	}
	if es == 8 {
		tileF64(k, (*float64)(unsafe.Pointer(&a[0])), lda*es, (*float64)(unsafe.Pointer(&b[0])), bsl*es, &boffB,
			(*float64)(unsafe.Pointer(&c[0])), ldc*es, nvec, mask, ncols, (*[2]float64)(unsafe.Pointer(ab)), beta, count, sa*es, sb*es, sc*es)
		return
	}
	tileF32(k, (*float32)(unsafe.Pointer(&a[0])), lda*es, (*float32)(unsafe.Pointer(&b[0])), bsl*es, &boffB,
		(*float32)(unsafe.Pointer(&c[0])), ldc*es, nvec, mask, ncols, (*[2]float32)(unsafe.Pointer(ab)), beta, count, sa*es, sb*es, sc*es)
}

//go:noescape
func prefetch(p unsafe.Pointer, nbytes, ld, ncols, es, tri int)

// Prefetch asks the CPU to bring rows x ncols of the column-major x
// (leading dimension ld) into its caches, or with tri only the lower (tri
// 1) or upper (tri 2) triangle of its first ncols columns. A hint: it
// changes no result, and callers issue it for the next matrices while the
// current ones are computed, where the hardware prefetcher, following
// streams of addresses, would not fetch them in time.
func Prefetch[T batchlas.Float](x []T, rows, ld, ncols, tri int) {
	if rows <= 0 || ncols <= 0 || len(x) < (ncols-1)*ld+rows {
		return
	}
	var z T
	es := int(unsafe.Sizeof(z))
	prefetch(unsafe.Pointer(&x[0]), rows*es, ld*es, ncols, es, tri)
}

// The block transposes of the whole m x k matrix, strides in bytes
// (gen.go).
//
//go:noescape
func transposeF64(src *float64, lds int, dst *float64, ldd int, m, k int)

//go:noescape
func transposeF32(src *float32, lds int, dst *float32, ldd int, m, k int)

// Transpose writes dst[l*ldd+i] = src[i*lds+l] for i < m and l < k: the
// m x k matrix whose rows lie contiguous in src (row stride lds) stored
// with its columns contiguous in dst (column stride ldd), as gemm's copies
// of op(A) = A^T need. It runs as AVX-512 shuffles of 8 x 8 (float64) or
// 16 x 16 (float32) blocks, masked at the edges. A copy: any path gives
// the same bits.
func Transpose[T batchlas.Float](dst []T, ldd int, src []T, lds, m, k int) {
	if m <= 0 || k <= 0 {
		return
	}
	if !AVX512 {
		if AVX2 && m == 4 && ldd == 4 {
			transpose4AVX2(dst, src, lds, k)
			return
		}
		TransposeGo(dst, ldd, src, lds, m, k)
		return
	}
	// The assembly reads and writes within these (masked lanes are not
	// touched); slicing checks they exist.
	_ = src[(m-1)*lds+k-1]
	_ = dst[(k-1)*ldd+m-1]
	es := elemSize[T]()
	if es == 8 {
		transposeF64((*float64)(unsafe.Pointer(&src[0])), lds*es, (*float64)(unsafe.Pointer(&dst[0])), ldd*es, m, k)
	} else {
		transposeF32((*float32)(unsafe.Pointer(&src[0])), lds*es, (*float32)(unsafe.Pointer(&dst[0])), ldd*es, m, k)
	}
}
