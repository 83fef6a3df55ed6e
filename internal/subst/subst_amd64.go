//go:build amd64 && !purego

package subst

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 kernels of subst_amd64.s. back is 0 or 1.
//
//go:noescape
func colsF64(cpl *float64, cstride, ne, klo int, dg *float64, row0, cnt, back int, c *float64, ldc, ncols int, alpha *float64)

//go:noescape
func colsF32(cpl *float32, cstride, ne, klo int, dg *float32, row0, cnt, back int, c *float32, ldc, ncols int, alpha *float32)

//go:noescape
func diagF64(v, e *float64, lde, cnt, back, unit int)

//go:noescape
func diagF32(v, e *float32, lde, cnt, back, unit int)

//go:noescape
func scaleF64(c *float64, ldc, nfull int, mask uint64, cols, count, sc int, a *float64, sa, unit int, alpha *float64)

//go:noescape
func scaleF32(c *float32, ldc, nfull int, mask uint64, cols, count, sc int, a *float32, sa, unit int, alpha *float32)

//go:noescape
func rowsF64(pk *float64, t, back int, c *float64, ldc, nfull int, mask uint64, alpha *float64)

//go:noescape
func rowsF32(pk *float32, t, back int, c *float32, ldc, nfull int, mask uint64, alpha *float32)

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// colsAsm runs one block of SolveCols in assembly when simd.AVX512 is set
// (the CPU and the presented device level are x86-64-v4) and reports
// whether it did. The caller has checked that e and c hold what it reads.
func colsAsm[T batchlas.Float](cpl []T, lde int, v []T, b block, back bool, c []T, ldc, ncols int, alpha T) bool {
	if !simd.AVX512 {
		return false
	}
	ep, vp, cp, ap := unsafe.Pointer(&cpl[0]), unsafe.Pointer(&v[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&alpha)
	if width[T]() == 8 {
		colsF64((*float64)(ep), lde, b.ne, b.klo, (*float64)(vp), b.row0, b.cnt, flag(back), (*float64)(cp), ldc, ncols, (*float64)(ap))
	} else {
		colsF32((*float32)(ep), lde, b.ne, b.klo, (*float32)(vp), b.row0, b.cnt, flag(back), (*float32)(cp), ldc, ncols, (*float32)(ap))
	}
	return true
}

// diagAsm packs one block of PackDiag in assembly when simd.AVX512 is set
// and reports whether it did.
func diagAsm[T batchlas.Float](v, blk []T, lde, cnt int, back, unit bool) bool {
	if !simd.AVX512 {
		return false
	}
	vp, ep := unsafe.Pointer(&v[0]), unsafe.Pointer(&blk[0])
	if width[T]() == 8 {
		diagF64((*float64)(vp), (*float64)(ep), lde, cnt, flag(back), flag(unit))
	} else {
		diagF32((*float32)(vp), (*float32)(ep), lde, cnt, flag(back), flag(unit))
	}
	return true
}

// scaleAsm runs Scale in assembly when simd.AVX512 is set and reports
// whether it did.
func scaleAsm[T batchlas.Float](c []T, ldc, rows, cols, count, sc int, a []T, sa int, unit bool, alpha T) bool {
	if !simd.AVX512 {
		return false
	}
	w := width[T]()
	nfull, mask := rows/w, uint64(1)<<(rows%w)-1
	cp, ap, alp := unsafe.Pointer(&c[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&alpha)
	if w == 8 {
		scaleF64((*float64)(cp), ldc, nfull, mask, cols, count, sc, (*float64)(ap), sa, flag(unit), (*float64)(alp))
	} else {
		scaleF32((*float32)(cp), ldc, nfull, mask, cols, count, sc, (*float32)(ap), sa, flag(unit), (*float32)(alp))
	}
	return true
}

// rowsAsm runs SolveRows in assembly when simd.AVX512 is set and reports
// whether it did.
func rowsAsm[T batchlas.Float](pk []T, t int, back bool, c []T, ldc, rows int, alpha T) bool {
	if !simd.AVX512 {
		return false
	}
	w := width[T]()
	nfull, mask := rows/w, uint64(1)<<(rows%w)-1
	pp, cp, ap := unsafe.Pointer(&pk[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&alpha)
	if w == 8 {
		rowsF64((*float64)(pp), t, flag(back), (*float64)(cp), ldc, nfull, mask, (*float64)(ap))
	} else {
		rowsF32((*float32)(pp), t, flag(back), (*float32)(cp), ldc, nfull, mask, (*float32)(ap))
	}
	return true
}
