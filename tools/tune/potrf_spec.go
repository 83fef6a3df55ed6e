package main

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// potrf is timed on SPD matrices (testmat.SPD), restored before every call
// (working copies: inPlace) because the factorisation overwrites its input. Its blocked kernel calls
// trsm and gemm through their entry points, so their sources are part of
// potrf's kernels: a faster gemm makes potrf's table stale too.
func init() {
	registerTuner(&opTuner{
		op: potrf.Op,
		flops: func(c cell) float64 {
			n := float64(c.num("n"))
			return (n*n*n/3 + n*n/2 + n/6) * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n := float64(c.num("n"))
			// the batch, its pristine copy for restoring
			return 2 * n * n * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newPotrfCase[float32](c, seed)
			}
			return newPotrfCase[float64](c, seed)
		},
	})
}

type potrfCase[T batchlas.Float] struct {
	uplo     batchlas.Uplo
	a        *inPlace[T]
	checkFor []int
	ws       workspace[T]
}

func newPotrfCase[T batchlas.Float](c cell, seed uint64) (*potrfCase[T], error) {
	uplo, err := letterOf("uplo", c.get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, count := c.num("n"), c.num("batch")
	r := testmat.Rand(seed)
	orig := tiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { testmat.SPD(r, b) })
	return &potrfCase[T]{uplo: uplo, a: newInPlace(orig), checkFor: checkedMatrices(count)}, nil
}

func (p *potrfCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := potrf.BufferSize(ctx, p.uplo, p.a.orig)
	if err != nil {
		return nil, err
	}
	ws := p.ws.nan(size)
	return &boundCase{
		call:    func(ctx context.Context, j int) error { return potrf.Potrf(ctx, p.uplo, p.a.work[j], ws) },
		copies:  len(p.a.work),
		restore: p.a.restore,
		check:   p.check,
	}, nil
}

// check: A = L*L^T (or U^T*U) within 4*(n+2)*eps of |L|*|L^T|, and the
// other triangle untouched.
func (p *potrfCase[T]) check() error {
	n := p.a.orig.Rows
	tol := 4 * float64(n+2) * epsOf[T]()
	for _, i := range p.checkFor {
		got, orig := denseOf(p.a.work[0], i), denseOf(p.a.orig, i)
		f := dense{r: n, c: n, v: make([]float64, n*n)} // the factor, as L
		for j := 0; j < n; j++ {
			for r := 0; r < n; r++ {
				inTri := (p.uplo == batchlas.Lower && r >= j) || (p.uplo == batchlas.Upper && r <= j)
				if !inTri {
					if got.at(r, j) != orig.at(r, j) {
						return fmt.Errorf("matrix %d: element (%d,%d) outside the %s triangle was written", i, r, j, p.uplo)
					}
					continue
				}
				if p.uplo == batchlas.Lower {
					f.v[r+j*n] = got.at(r, j)
				} else {
					f.v[j+r*n] = got.at(r, j) // U^T is lower
				}
			}
		}
		prod, abs := mulAbs(f, f.op(true))
		if err := withinBound(fmt.Sprintf("matrix %d: L*L^T vs A", i), prod, orig, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
