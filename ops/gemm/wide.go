package gemm

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The packed kernel's wide register tiles (package simd's AVX-512 or AVX2
// tile) are bigger than the 4 x 2 tile of microPacked: their shape is a
// property of the code path the CPU runs (wideShape), and the packing
// follows it. The workspace is sized for the largest wide tile whatever the
// CPU, so flipping the path (as the tests do) never outgrows it.
const (
	wideMaxMR = 48 // float32's 3 zmm of 16
	wideMaxNR = 8
)

// wideShape is the wide register tile of the packed kernel for T (the
// shape of one piece of package simd's tile: 24 x 8 float64 with AVX-512,
// 12 x 4 with AVX2), or 0, 0 when the wide path is off.
func wideShape[T batchlas.Float]() (mrw, nrw int) { return simd.TileShape[T]() }

// packAWide is packA for an mrw-row tile: element (i0+mrw*p+r, l0+l) of
// op(A) goes to dst[p*kb*mrw + l*mrw + r]; rows past mb are zero.
func packAWide[T batchlas.Float](dst, a []T, lda int, trans bool, i0, mb, l0, kb, mrw int) {
	for p := 0; p*mrw < mb; p++ {
		panel := dst[p*kb*mrw : (p+1)*kb*mrw]
		rows := min(mrw, mb-p*mrw)
		i := i0 + p*mrw
		if rows < mrw {
			clear(panel)
		}
		if trans {
			simd.Transpose(panel, mrw, a[i*lda+l0:], lda, rows, kb)
			continue
		}
		simd.CopyColumns(panel, mrw, a[l0*lda+i:], lda, rows, kb)
	}
}

// packBWide is packB for an nrw-column tile: element (l0+l, j0+nrw*q+c) of
// op(B) goes to dst[q*kb*nrw + l*nrw + c]; columns past nb are zero.
func packBWide[T batchlas.Float](dst, b []T, ldb int, trans bool, l0, kb, j0, nb, nrw int) {
	for q := 0; q*nrw < nb; q++ {
		panel := dst[q*kb*nrw : (q+1)*kb*nrw]
		cols := min(nrw, nb-q*nrw)
		j := j0 + q*nrw
		if cols < nrw {
			clear(panel)
		}
		if trans {
			off := l0*ldb + j
			for l := range kb {
				copy(panel[l*nrw:l*nrw+cols], b[off:off+cols])
				off += ldb
			}
			continue
		}
		simd.Transpose(panel, nrw, b[j*ldb+l0:], ldb, cols, kb)
	}
}

// packedOneWide is packedOne on an mrw x nrw wide tile: the simd family's
// tile (simd.Tile) run on the packed panels, which are column-major
// mrw-row blocks of op(A) (ld mrw) and row-major nrw-column blocks of op(B),
// storing straight into C.
func packedOneWide[T batchlas.Float](p *problem[T], mc, kc int, scratch, a, b, c []T, mrw, nrw int) {
	// Whole panels per block: mc is a multiple of 4 (packedMC), not of
	// mrw. Neither changes the result, and the workspace (rounded up to
	// wideMaxMR, a multiple of mrw) holds roundUp(min(mc, m), mrw) rows.
	mc = max(mc/mrw*mrw, mrw)
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	var boff [simd.Cols]int // column c of a packed B panel is at offset c
	for c := range boff {
		boff[c] = c
	}
	for j0 := 0; j0 < n; j0 += packedNC {
		nb := min(packedNC, n-j0)
		for l0 := 0; l0 < k; l0 += kc {
			kb := min(kc, k-l0)
			ab, hasBeta := sliceScale(p, l0)
			bp := scratch[len(scratch)-kb*roundUp(nb, nrw):]
			packBWide(bp, b, p.b.LD, p.transB, l0, kb, j0, nb, nrw)
			for i0 := 0; i0 < m; i0 += mc {
				mb := min(mc, m-i0)
				ap := scratch[:kb*roundUp(mb, mrw)]
				packAWide(ap, a, p.a.LD, p.transA, i0, mb, l0, kb, mrw)
				cb := c[j0*ldc+i0:]
				for jr := 0; jr < nb; jr += nrw {
					bpan := bp[jr*kb:]
					if !simd.AVX512 {
						// The AVX2 tile runs the block's full panels in one
						// call (count), prefetching each next tile's C.
						nc := min(nrw, nb-jr)
						full := mb / mrw
						if full > 0 {
							simd.Tile(kb, ap, mrw, bpan, nrw, &boff, cb[jr*ldc:], ldc, mrw, nc, &ab, hasBeta, full, mrw*kb, 0, mrw)
						}
						if ir := full * mrw; ir < mb {
							simd.Tile(kb, ap[ir*kb:], mrw, bpan, nrw, &boff, cb[jr*ldc+ir:], ldc, mb-ir, nc, &ab, hasBeta, 1, 0, 0, 0)
						}
						continue
					}
					for ir := 0; ir < mb; ir += mrw {
						prefetchNextTile(cb, ldc, ir, jr, mrw, nrw, 0, mb, nb)
						simd.Tile(kb, ap[ir*kb:], mrw, bpan, nrw, &boff, cb[jr*ldc+ir:], ldc, min(mrw, mb-ir), min(nrw, nb-jr), &ab, hasBeta, 1, 0, 0, 0)
					}
				}
			}
		}
	}
}
