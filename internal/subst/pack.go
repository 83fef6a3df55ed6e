package subst

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// width is the number of lanes of T in one 64-byte vector.
func width[T batchlas.Float]() int {
	var z T
	return 64 / int(unsafe.Sizeof(z))
}

// E is read from a matrix's storage as E[i,k] = a[i*ers + k*ecs]: (1, lda)
// for E = A, (lda, 1) for E = A^T. back says E is upper, solved from its
// last row up; forward, from the first row down. Only the referenced
// triangle is read, and the diagonal only when unit is false.

// StepsSize is the length of PackSteps' layout for order t.
func StepsSize(t int) int { return t * (t + 1) / 2 }

// PackSteps writes E into pk in the order its rows are solved ("steps"):
// the row solved at step s holds its s coefficients against the rows
// already solved, in increasing row order, then 1/E[i,i] (1 for a unit
// diagonal). Row i of step s is s forward and t-1-s backward, coupled to
// rows 0..s-1 forward and t-s..t-1 backward. pk needs StepsSize(t).
func PackSteps[T batchlas.Float](pk, a []T, t, ers, ecs int, back, unit bool) {
	for s := 0; s < t; s++ {
		row := pk[s*(s+1)/2:][: s+1 : s+1]
		i, k0 := s, 0
		if back {
			i = t - 1 - s
			k0 = i + 1
		}
		o := i*ers + k0*ecs
		for k := range row[:s] {
			row[k] = a[o]
			o += ecs
		}
		row[s] = diagInv(a, i, ers, ecs, unit)
	}
}

func diagInv[T batchlas.Float](a []T, i, ers, ecs int, unit bool) T {
	if unit {
		return 1
	}
	return 1 / a[i*(ers+ecs)]
}

// block is one vector of rows of E in PackBlocks' layout: rows
// [row0, row0+cnt), coupled to the ne rows klo.. solved before them.
type block struct{ row0, cnt, klo, ne int }

// blockAt is the p-th block solved. Blocks start at multiples of w rows
// (the last may be short); forward they are solved top to bottom,
// backward bottom to top.
func blockAt(p, t, w int, back bool) block {
	j := p
	if back {
		j = (t+w-1)/w - 1 - p
	}
	b := block{row0: j * w, cnt: min(w, t-j*w)}
	if back {
		b.klo = b.row0 + b.cnt
		b.ne = t - b.klo
	} else {
		b.ne = b.row0
	}
	return b
}

// DiagSize is the length of PackDiag's layout for order t.
func DiagSize[T batchlas.Float](t int) int {
	w := width[T]()
	return (t + w - 1) / w * (w + 1) * w
}

// PackDiag writes the diagonal blocks of E (one vector of rows each, see
// blockAt), E column-major (E[i,k] = e[i+k*lde]), into dg in the order
// they are solved, w+1 vectors of w lanes a block, lane l belonging to the
// block's row row0+l:
//
//   - the reciprocal diagonal d: 1/E[row0+l, row0+l] (1 for unit), 0 past
//     the block's rows;
//   - for each lane li, the coefficients E[row0+l, row0+li] * d[li] in
//     the lanes l solved after li; the other lanes are never read. Scaling
//     by d here takes a multiplication off the kernel's chain of
//     dependent steps.
//
// dg needs DiagSize(t).
func PackDiag[T batchlas.Float](dg, e []T, lde, t int, back, unit bool) {
	w := width[T]()
	_ = e[(t-1)*lde+t-1]
	for p := 0; p*w < t; p++ {
		b := blockAt(p, t, w, back)
		v := dg[p*(w+1)*w : (p+1)*(w+1)*w]
		blk := e[b.row0+b.row0*lde:]
		if !diagAsm(v, blk, lde, b.cnt, back, unit) {
			diagGo(v, blk, lde, b.cnt, back, unit)
		}
	}
}

// diagGo is the assembly's twin for one block, its diagonal at blk[0].
func diagGo[T batchlas.Float](v, blk []T, lde, cnt int, back, unit bool) {
	w := width[T]()
	d := v[:w]
	for l := range d {
		switch {
		case l >= cnt:
			d[l] = 0
		case unit:
			d[l] = 1
		default:
			d[l] = 1 / blk[l*(lde+1)]
		}
	}
	for li := range cnt {
		lo, hi := li+1, cnt // the lanes solved after li
		if back {
			lo, hi = 0, li
		}
		dv := v[(li+1)*w:]
		col := blk[li*lde:]
		for l := lo; l < hi; l++ {
			dv[l] = col[l] * d[li]
		}
	}
}

// PackE copies the triangle of E that the substitution reads, its
// diagonal included unless unit, into e as a column-major t x t matrix
// with leading dimension lde >= t (E[i,k] = e[i+k*lde]), for PackDiag and
// SolveCols when E is not column-major in a's storage (ers != 1) or its
// columns lie where they would conflict in cache. The entries it does not read are
// left as they are. It goes by tiles of peTile x peTile, so that the rows
// it reads and the columns it writes stay in the L1 cache.
func PackE[T batchlas.Float](e []T, lde int, a []T, t, ers, ecs int, back, unit bool) {
	if ers == 1 {
		packColumns(e, lde, a, t, ecs, back, unit)
		return
	}
	for i0 := 0; i0 < t; i0 += peTile {
		i1 := min(i0+peTile, t)
		for k0 := 0; k0 < t; k0 += peTile {
			k1 := min(k0+peTile, t)
			if !back && k0 > i1-1 || back && k1-1 < i0 {
				continue // the tile is outside the triangle
			}
			for i := i0; i < i1; i++ {
				lo, hi := k0, min(k1, i+1) // forward: row i against rows 0..i
				if back {
					lo, hi = max(k0, i), k1
				}
				if unit && back && lo == i {
					lo++
				} else if unit && !back && hi == i+1 {
					hi--
				}
				row := a[i*ers:]
				for k := lo; k < hi; k++ {
					e[i+k*lde] = row[k*ecs]
				}
			}
		}
	}
}

// packColumns is PackE for a column-major E (rows 1 apart, columns ecs
// apart): each column's part of the triangle is one contiguous copy, where
// the tiles' scalar moves cost trsm side Left float64 m = n = 512 a tenth
// of its time.
func packColumns[T batchlas.Float](e []T, lde int, a []T, t, ecs int, back, unit bool) {
	for k := range t {
		lo, hi := k, t // forward: column k holds rows k..t-1
		if back {
			lo, hi = 0, k+1
		}
		if unit && back {
			hi--
		} else if unit {
			lo++
		}
		if lo < hi {
			copy(e[lo+k*lde:hi+k*lde], a[lo+k*ecs:hi+k*ecs])
		}
	}
}

// peTile is PackE's tile: 16 rows of E are two cache lines of float64.
const peTile = 16

// lane is the lane a block of cnt rows solves at its step st.
func lane(st, cnt int, back bool) int {
	if back {
		return cnt - 1 - st
	}
	return st
}

// after reports whether lane l is solved after lane li.
func after(l, li int, back bool) bool {
	if back {
		return l < li
	}
	return l > li
}
