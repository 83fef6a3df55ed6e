//go:build amd64 && !purego

package simd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The AVX2 tiles (tile_avx2_amd64.s, written by gen_avx2.go): nvec is 1, 2
// or 3 row vectors of 32 bytes, the last one under the lane mask at mask
// (nil when it is full); 1 <= ncols <= avx2Cols; strides and offsets in
// bytes; otherwise the contract of the AVX-512 tiles.
//
//go:noescape
func tileAVX2F64(k int, a *float64, lda int, b *float64, bsl int, boff *[avx2Cols]int, c *float64, ldc int, nvec int, mask *[4]int64, ncols int, ab *[2]float64, hasBeta int, count, sa, sb, sc int)

//go:noescape
func tileAVX2F32(k int, a *float32, lda int, b *float32, bsl int, boff *[avx2Cols]int, c *float32, ldc int, nvec int, mask *[8]int32, ncols int, ab *[2]float32, hasBeta int, count, sa, sb, sc int)

// avx2Cols is the most columns one AVX2 tile holds: 3 row vectors by 4
// columns are 12 of the 16 ymm registers.
const avx2Cols = 4

// The lane masks of a last row vector with r rows (index r, 1 <= r < lanes).
var (
	avx2MaskF64 = func() (m [4][4]int64) {
		for r := range m {
			for i := range r {
				m[r][i] = -1
			}
		}
		return m
	}()
	avx2MaskF32 = func() (m [8][8]int32) {
		for r := range m {
			for i := range r {
				m[r][i] = -1
			}
		}
		return m
	}()
)

// avx2Lanes is the number of elements of T in one 32-byte vector.
func avx2Lanes[T batchlas.Float]() int { return 32 / elemSize[T]() }

// tileAVX2 is Tile on the AVX2 assembly: the tile is cut into pieces of
// at most 3 row vectors by avx2Cols columns, each summing its elements'
// products in Tile's order, so the pieces give what one tile would.
func tileAVX2[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	lanes := avx2Lanes[T]()
	es := elemSize[T]()
	beta := 0
	if hasBeta {
		beta = 1
	}
	for r0 := 0; r0 < rows; r0 += 3 * lanes {
		rr := min(3*lanes, rows-r0)
		nvec := (rr + lanes - 1) / lanes
		last := rr - (nvec-1)*lanes
		for c0 := 0; c0 < ncols; c0 += avx2Cols {
			nc := min(avx2Cols, ncols-c0)
			// Columns past nc repeat the piece's last column, so the
			// tile reads nothing outside B.
			var boffB [avx2Cols]int
			far := 0
			for i := range boffB {
				boffB[i] = boff[c0+min(i, nc-1)] * es
				far = max(far, boffB[i]/es)
			}
			// The assembly reads and writes within these slices (masked
			// lanes past rows are neither read nor written); slicing
			// checks they exist.
			ap := a[r0:][:(count-1)*sa+(k-1)*lda+rr]
			bp := b[:(count-1)*sb+(k-1)*bsl+far+1]
			cp := c[c0*ldc+r0:][:(count-1)*sc+(nc-1)*ldc+rr]
			if es == 8 {
				var mask *[4]int64
				if last < lanes {
					mask = &avx2MaskF64[last]
				}
				tileAVX2F64(k, (*float64)(unsafe.Pointer(&ap[0])), lda*es, (*float64)(unsafe.Pointer(&bp[0])), bsl*es, &boffB,
					(*float64)(unsafe.Pointer(&cp[0])), ldc*es, nvec, mask, nc, (*[2]float64)(unsafe.Pointer(ab)), beta, count, sa*es, sb*es, sc*es)
				continue
			}
			var mask *[8]int32
			if last < lanes {
				mask = &avx2MaskF32[last]
			}
			tileAVX2F32(k, (*float32)(unsafe.Pointer(&ap[0])), lda*es, (*float32)(unsafe.Pointer(&bp[0])), bsl*es, &boffB,
				(*float32)(unsafe.Pointer(&cp[0])), ldc*es, nvec, mask, nc, (*[2]float32)(unsafe.Pointer(ab)), beta, count, sa*es, sb*es, sc*es)
		}
	}
}

// TileShape is the biggest tile the path in use runs as one piece of
// assembly, rows by columns: 3 vectors by Cols with AVX-512, 3 vectors by
// avx2Cols with AVX2, and 0, 0 on the Go twin. A caller that packs its
// operands for the tile (gemm's packed kernel) packs for this shape.
func TileShape[T batchlas.Float]() (rows, cols int) {
	switch {
	case AVX512:
		return 3 * Lanes[T](), Cols
	case AVX2:
		return 3 * avx2Lanes[T](), avx2Cols
	}
	return 0, 0
}

// The four-row transposes (gen_avx2.go): k a multiple of 4 (float64) or
// 8 (float32), strides in bytes.
//
//go:noescape
func transpose4AVX2F64(src *float64, lds int, dst *float64, k int)

//go:noescape
func transpose4AVX2F32(src *float32, lds int, dst *float32, k int)

// transpose4AVX2 is Transpose for m = 4 rows into ldd = 4, the shape of
// gemm's packed B panels on the AVX2 tile: whole blocks in assembly, the
// last k mod 4 (float64) or 8 (float32) columns by TransposeGo.
func transpose4AVX2[T batchlas.Float](dst []T, src []T, lds, k int) {
	es := elemSize[T]()
	blk := 32 / es
	full := k / blk * blk
	if full > 0 {
		// The assembly reads and writes within these; slicing checks
		// they exist.
		_ = src[3*lds+full-1]
		_ = dst[4*full-1]
		if es == 8 {
			transpose4AVX2F64((*float64)(unsafe.Pointer(&src[0])), lds*es, (*float64)(unsafe.Pointer(&dst[0])), full)
		} else {
			transpose4AVX2F32((*float32)(unsafe.Pointer(&src[0])), lds*es, (*float32)(unsafe.Pointer(&dst[0])), full)
		}
	}
	if full < k {
		TransposeGo(dst[4*full:], 4, src[full:], lds, 4, k-full)
	}
}

//go:noescape
func copy96AVX2(src unsafe.Pointer, lds int, dst unsafe.Pointer, k int)

// copyColumnsFast runs CopyColumns' copy of cols columns of 96 bytes each
// into contiguous columns as assembly on the AVX2 path and reports whether
// it did; anything else is left to copy.
func copyColumnsFast[T batchlas.Float](dst []T, ldd int, src []T, lds, rows, cols int) bool {
	if AVX512 || !AVX2 || cols <= 0 || rows*elemSize[T]() != 96 || ldd != rows {
		return false
	}
	// The assembly reads and writes within these; slicing checks they
	// exist.
	_ = src[(cols-1)*lds+rows-1]
	_ = dst[cols*rows-1]
	copy96AVX2(unsafe.Pointer(&src[0]), lds*elemSize[T](), unsafe.Pointer(&dst[0]), cols)
	return true
}
