package gesv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The fused family: each system on one worker from start to end, the
// factorisation (getf2) and then the solve (lusolve.Solve) back to back,
// so a matrix that fits in the core's cache is read from memory once for
// both; the batch spread over the workers. The factorisation follows
// getrf's rules to the letter (package getrf: i?amax pivots, no
// interchange and no scaling at a zero pivot, reciprocal scaling unless
// the pivot is below the smallest normal number, updates never skipped),
// so its pivots and info are getrf's.

// launchFused factors and solves every system; a singular one (info > 0)
// is factored to the end and its B left as it was.
func launchFused[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], info []int32) error {
	n, nrhs := p.n, p.nrhs
	small := safeMin[T]()
	return parallel.For(ctx, a.Count, flopsPerMatrix(p), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
			o := i * ipiv.Stride
			piv := ipiv.Data[o : o+n : o+n]
			info[i] = getf2(m, a.LD, n, piv, small)
			if info[i] == 0 {
				lusolve.Solve(false, m, a.LD, n, piv, b.Data[i*b.Stride:], b.LD, nrhs)
			}
		}
	})
}

// safeMin is the smallest normal number of T (LAPACK's lamch('S')): a
// pivot at least this large scales its column by its reciprocal, a
// smaller one divides each entry (its reciprocal would overflow).
func safeMin[T batchlas.Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		v := float32(0x1p-126)
		return T(v)
	}
	v := 0x1p-1022
	return T(v)
}

// absOf is |x|; NaN stays NaN, so every comparison with it is false.
func absOf[T batchlas.Float](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// getf2 factors the n x n column-major matrix a (leading dimension ld) in
// place, right-looking one column at a time, writes the pivots into piv
// and returns the info: the first j (1-based) with !(|U(j-1, j-1)| > 0),
// or 0.
//
// For column j: the pivot row is the first of largest |a(i, j)|, i >= j,
// found as BLAS's i?amax (a running maximum from row j, replaced only by
// a strictly larger value, so a NaN is the pivot only on the diagonal);
// rows j and the pivot row are interchanged across the whole matrix
// (only a nonzero, non-NaN pivot can lie below the diagonal, so this is
// LAPACK's "interchange unless the pivot is zero"); the entries below the
// pivot become multipliers (nothing at a zero pivot); and the trailing
// columns get the rank-1 update, never skipped for a zero multiplier.
func getf2[T batchlas.Float](a []T, ld, n int, piv []int32, small T) int32 {
	var info int32
	for j := 0; j < n; j++ {
		col := a[j*ld : j*ld+n]
		p, best := j, absOf(col[j])
		for i := j + 1; i < n; i++ {
			if v := absOf(col[i]); v > best {
				p, best = i, v
			}
		}
		piv[j] = int32(p)
		if p != j {
			for k := 0; k < n; k++ {
				o := k * ld
				a[o+j], a[o+p] = a[o+p], a[o+j]
			}
		}
		d := col[j]
		if info == 0 && !(absOf(d) > 0) {
			info = int32(j + 1)
		}
		l := col[j+1:]
		switch {
		case d == 0:
			// Nothing to divide by: the column stays as it is.
		case absOf(d) >= small:
			r := 1 / d
			for i := range l {
				l[i] *= r
			}
		default: // subnormal or NaN: divide (NaN gives NaN either way)
			for i := range l {
				l[i] /= d
			}
		}
		update(a, ld, n, j, l)
	}
	return info
}

// update subtracts l * a(j, k) from a(j+1:n, k) for every column k > j,
// l being column j's multipliers: four target columns share each load of
// l. Every element gets one multiply and one subtract per step, in the
// same order as a one-column loop gives it.
func update[T batchlas.Float](a []T, ld, n, j int, l []T) {
	k := j + 1
	for ; k+4 <= n; k += 4 {
		t0 := a[k*ld+j : k*ld+n]
		t1 := a[(k+1)*ld+j : (k+1)*ld+n]
		t2 := a[(k+2)*ld+j : (k+2)*ld+n]
		t3 := a[(k+3)*ld+j : (k+3)*ld+n]
		u0, u1, u2, u3 := t0[0], t1[0], t2[0], t3[0]
		t0, t1, t2, t3 = t0[1:], t1[1:], t2[1:], t3[1:]
		t0, t1, t2, t3 = t0[:len(l)], t1[:len(l)], t2[:len(l)], t3[:len(l)]
		for i, x := range l {
			t0[i] -= x * u0
			t1[i] -= x * u1
			t2[i] -= x * u2
			t3[i] -= x * u3
		}
	}
	for ; k < n; k++ {
		t := a[k*ld+j : k*ld+n]
		u := t[0]
		t = t[1:]
		t = t[:len(l)]
		for i, x := range l {
			t[i] -= x * u
		}
	}
}
