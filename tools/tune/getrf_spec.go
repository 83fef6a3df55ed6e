package main

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// getrf is timed on testmat.General matrices: well conditioned, with each
// column's largest entry in a random row, so the kernels interchange rows
// at almost every step as on typical data (a diagonally dominant input
// would never swap and time a cheaper path). A is restored before every
// call (working copies: inPlace) because the factorisation overwrites it;
// the pivots go to one shared batch of vectors, poisoned before a verified
// call. Its batched kernel calls trsm and gemm through their entry points,
// so their sources are part of getrf's kernels.
func init() {
	registerTuner(&opTuner{
		op: getrf.Op,
		flops: func(c cell) float64 {
			n := float64(c.num("n"))
			return 2 * n * n * n / 3 * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n := float64(c.num("n"))
			// the batch, its pristine copy for restoring, the pivots
			return (2*n*n + n) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newGetrfCase[float32](c, seed)
			}
			return newGetrfCase[float64](c, seed)
		},
	})
}

type getrfCase[T batchlas.Float] struct {
	a        *inPlace[T]
	ipiv     batchlas.Vectors[int32]
	checkFor []int
	ws       workspace[T]
}

func newGetrfCase[T batchlas.Float](c cell, seed uint64) (*getrfCase[T], error) {
	n, count := c.num("n"), c.num("batch")
	r := testmat.Rand(seed)
	orig := tiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { testmat.General(r, b) })
	return &getrfCase[T]{a: newInPlace(orig), ipiv: batchlas.NewVectors[int32](n, count), checkFor: checkedMatrices(count)}, nil
}

func (p *getrfCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := getrf.BufferSize(ctx, p.a.orig, p.ipiv)
	if err != nil {
		return nil, err
	}
	ws := p.ws.nan(size)
	return &boundCase{
		call:    func(ctx context.Context, j int) error { return getrf.Getrf(ctx, p.a.work[j], p.ipiv, ws) },
		copies:  len(p.a.work),
		restore: p.a.restore,
		poison: func() {
			for j := range p.ipiv.Data {
				p.ipiv.Data[j] = -1
			}
		},
		check: p.check,
	}, nil
}

// check: valid pivots (j <= ipiv[j] < n), multipliers of magnitude at
// most 1 (partial pivoting), and P*L*U = A within 4*(n+2)*eps of
// P*|L|*|U| elementwise, the backward-error bound of LU in any summation
// order.
func (p *getrfCase[T]) check() error {
	n := p.a.orig.Rows
	eps := epsOf[T]()
	tol := 4 * float64(n+2) * eps
	for _, i := range p.checkFor {
		got, orig := denseOf(p.a.work[0], i), denseOf(p.a.orig, i)
		l := dense{r: n, c: n, v: make([]float64, n*n)}
		u := dense{r: n, c: n, v: make([]float64, n*n)}
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				switch {
				case r > c:
					if m := math.Abs(got.at(r, c)); !(m <= 1+2*eps) {
						return fmt.Errorf("matrix %d: |L(%d,%d)| = %g > 1: not partial pivoting", i, r, c, m)
					}
					l.v[r+c*n] = got.at(r, c)
				case r == c:
					l.v[r+c*n] = 1
					u.v[r+c*n] = got.at(r, c)
				default:
					u.v[r+c*n] = got.at(r, c)
				}
			}
		}
		prod, abs := mulAbs(l, u)
		for j := n - 1; j >= 0; j-- { // P*(L*U): undo the interchanges, last first
			q := int(p.ipiv.At(i, j))
			if q < j || q >= n {
				return fmt.Errorf("matrix %d: ipiv[%d] = %d, want in [%d, %d)", i, j, q, j, n)
			}
			for c := 0; c < n; c++ {
				prod.v[j+c*n], prod.v[q+c*n] = prod.v[q+c*n], prod.v[j+c*n]
				abs.v[j+c*n], abs.v[q+c*n] = abs.v[q+c*n], abs.v[j+c*n]
			}
		}
		if err := withinBound(fmt.Sprintf("matrix %d: P*L*U vs A", i), prod, orig, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
