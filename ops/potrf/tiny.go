package potrf

import (
	"context"
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// tinyLD is the leading dimension of the tiny kernel's stack arrays.
const tinyLD = tinyMax

// tinyMask keeps stack-array indices provably in range, so the compiler
// drops their bounds checks.
const tinyMask = tinyLD*tinyLD - 1

// tiny is one matrix's working copy: its triangle as a lower factor,
// column-major with leading dimension tinyLD.
type tiny[T batchlas.Float] [tinyLD * tinyLD]T

//go:generate go run gen_tiny.go

// tinyPotrf factors matrices of order n <= tinyMax in registers or on the
// stack. Up to unrollMax, a straight-line kernel generated per order
// (tiny_unrolled.go) holds the triangle in local variables: no loop
// overhead, and the compiler schedules the independent updates freely. It
// computes A = L*D*L^T and takes the square roots only at the end
// (C = L*sqrt(D)): a tiny factorisation is bound by the chain of dependent
// operations from one pivot to the next, and that chain then holds one
// division instead of a square root and a division.
// Above it, each matrix's triangle is copied into a fixed 16x16 array as a
// lower factor (Upper is transposed on the way in and out, since U = L^T)
// and factored right-looking there, two matrices in lockstep: a tiny
// factorisation is a chain of dependent square roots and divisions, and
// interleaving two independent chains keeps the core busy while each waits.
func tinyPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	n, ld := a.Rows, a.LD
	if n > tinyMax { // canRun refuses this; the kernel guards itself too
		return opkit.Argf("potrf", "a", "tiny kernel holds n <= %d, got n=%d", tinyMax, n)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.uplo, j.a, j.info = uplo, a, info
	j.kernel = runTinyPairs
	if n <= unrollMax {
		// Element (i, j) of the lower factor is at i*rs + j*cs.
		j.kernel, j.rs, j.cs = runTinyUnrolled, 1, ld
		if uplo == batchlas.Upper {
			j.rs, j.cs = ld, 1
		}
	}
	return parallel.Run(ctx, a.Count, flopsPerMatrix(n), j)
}

// tinyPairs factors matrices [lo, hi) of a above unrollMax, two at a time
// in lockstep.
func tinyPairs[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], info []int32, lo, hi int) {
	n, ld, stride := a.Rows, a.LD, a.Stride
	var s0, s1 tiny[T]
	matrix := func(i int) []T { return a.Data[i*stride : i*stride+(n-1)*ld+n] }
	i := lo
	for ; i+2 <= hi; i += 2 {
		m0, m1 := matrix(i), matrix(i+1)
		tinyLoad(&s0, m0, ld, n, uplo)
		tinyLoad(&s1, m1, ld, n, uplo)
		f0, f1 := tinyFactor2(&s0, &s1, n)
		info[i], info[i+1] = int32(f0), int32(f1)
		tinyStore(&s0, m0, ld, n, uplo)
		tinyStore(&s1, m1, ld, n, uplo)
	}
	if i < hi {
		m0 := matrix(i)
		// The pair kernel needs two arrays; the spare one factors a copy.
		tinyLoad(&s0, m0, ld, n, uplo)
		tinyLoad(&s1, m0, ld, n, uplo)
		f0, _ := tinyFactor2(&s0, &s1, n)
		info[i] = int32(f0)
		tinyStore(&s0, m0, ld, n, uplo)
	}
}

// tinyRedo is what a straight-line kernel returns, leaving its matrix as
// it was, for a pivot it cannot invert by multiplication: one below the
// smallest normal number (its reciprocal may overflow, and the multiplier
// u/d that the division would give finite comes out Inf or NaN) or +Inf
// (the factor's column would be w*sqrt(d) = 0*Inf = NaN where LAPACK's
// a/sqrt(d) gives 0). Such a matrix is factored again by tinyCareful.
const tinyRedo = -1

// pivotRange is the range of pivots the straight-line kernels take as
// they are: from the smallest normal number (whose reciprocal is finite,
// as is every multiplier of an SPD matrix then) to the largest finite one.
func pivotRange[T batchlas.Float]() (lo, hi T) {
	var z T
	// Variables, not constants: a constant must convert to both float32
	// and float64, and MaxFloat64 overflows float32.
	small, big := 0x1p-1022, math.MaxFloat64
	if unsafe.Sizeof(z) == 4 {
		small, big = 0x1p-126, math.MaxFloat32
	}
	return T(small), T(big)
}

// pivotOutOfRange is a straight-line kernel's verdict on pivot d of
// column col (1-based) outside pivotRange: col when it is not positive
// (NaN included), as LAPACK reports, else tinyRedo.
func pivotOutOfRange[T batchlas.Float](d T, col int) int {
	if !(d > 0) {
		return col
	}
	return tinyRedo
}

// tinyCareful factors one matrix of order n in place the way the unblocked
// and lpanel kernels do, dividing by sqrt of each pivot rather than
// multiplying by a pivot's reciprocal: a subnormal pivot's square root is
// normal and its reciprocal finite, and sqrt(+Inf) gives a zero column.
// It is the straight-line kernels' slow path, taken only for a matrix with
// such a pivot.
func tinyCareful[T batchlas.Float](m []T, ld, n int, uplo batchlas.Uplo) int {
	if uplo == batchlas.Upper {
		return upperPanel(m, ld, 0, n, n)
	}
	return lowerPanel(m, ld, 0, n, n)
}

// tinyLoad copies the uplo triangle of m into s as a lower factor.
func tinyLoad[T batchlas.Float](s *tiny[T], m []T, ld, n int, uplo batchlas.Uplo) {
	for c := 0; c < n; c++ {
		if uplo == batchlas.Lower {
			col := m[c*ld+c : c*ld+n]
			for r, v := range col {
				s[(c*tinyLD+c+r)&tinyMask] = v
			}
		} else { // U(r, c) -> L(c, r)
			col := m[c*ld : c*ld+c+1]
			for r, v := range col {
				s[(r*tinyLD+c)&tinyMask] = v
			}
		}
	}
}

// tinyStore copies the lower factor in s back into the uplo triangle of m.
func tinyStore[T batchlas.Float](s *tiny[T], m []T, ld, n int, uplo batchlas.Uplo) {
	for c := 0; c < n; c++ {
		if uplo == batchlas.Lower {
			col := m[c*ld+c : c*ld+n]
			for r := range col {
				col[r] = s[(c*tinyLD+c+r)&tinyMask]
			}
		} else {
			col := m[c*ld : c*ld+c+1]
			for r := range col {
				col[r] = s[(r*tinyLD+c)&tinyMask]
			}
		}
	}
}

// tinyFactor2 factors the lower triangles of s0 and s1 in place, in
// lockstep, right-looking: take the pivot, scale the column, subtract its
// outer product from the trailing triangle. It returns each matrix's info:
// 0, or the 1-based column whose pivot was not positive. A failed matrix
// keeps being computed (NaNs, harmlessly) so the loops stay in lockstep;
// its columns from the failing one on are unspecified, as for every kernel.
func tinyFactor2[T batchlas.Float](s0, s1 *tiny[T], n int) (f0, f1 int) {
	for j := 0; j < n; j++ {
		jj := (j*tinyLD + j) & tinyMask
		d0, d1 := s0[jj], s1[jj]
		if !(d0 > 0) && f0 == 0 {
			f0 = j + 1
		}
		if !(d1 > 0) && f1 == 0 {
			f1 = j + 1
		}
		d0, d1 = T(math.Sqrt(float64(d0))), T(math.Sqrt(float64(d1)))
		s0[jj], s1[jj] = d0, d1
		inv0, inv1 := 1/d0, 1/d1
		c0 := s0[j*tinyLD+j+1 : j*tinyLD+n]
		c1 := s1[j*tinyLD+j+1 : j*tinyLD+n]
		c1 = c1[:len(c0)]
		for r := range c0 {
			c0[r] *= inv0
			c1[r] *= inv1
		}
		// Trailing update: s(r, c) -= s(r, j) * s(c, j) for c > j, r >= c.
		for c := j + 1; c < n; c++ {
			src0 := s0[j*tinyLD+c : j*tinyLD+n]
			src1 := s1[j*tinyLD+c : j*tinyLD+n]
			dst0 := s0[c*tinyLD+c : c*tinyLD+n]
			dst1 := s1[c*tinyLD+c : c*tinyLD+n]
			src1, dst0, dst1 = src1[:len(src0)], dst0[:len(src0)], dst1[:len(src0)]
			l0, l1 := src0[0], src1[0]
			for r, v := range src0 {
				dst0[r] -= v * l0
				dst1[r] -= src1[r] * l1
			}
		}
	}
	return f0, f1
}
