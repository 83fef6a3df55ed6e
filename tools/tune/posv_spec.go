package main

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/posv"
	sel "github.com/batchlas-go/batchlas/select"
)

// posv is timed on SPD matrices (testmat.SPD) and random right-hand sides.
// It overwrites both A (with the factor) and B (with X), so both are
// restored before every call, as many working copies of each as the
// smaller of the two allows. Its nested kernel calls potrf and potrs
// through their entry points (and they trsm and gemm), so their sources
// are part of posv's kernels: the op is measured after them.
func init() {
	registerTuner(&opTuner{
		op: posv.Op,
		flops: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			return (n*n*n/3 + n*n/2 + n/6 + 2*n*n*nrhs) * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			// A and B, each with its pristine copy
			return 2 * (n*n + n*nrhs) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newPosvCase[float32](c, seed)
			}
			return newPosvCase[float64](c, seed)
		},
	})
}

type posvCase[T batchlas.Float] struct {
	uplo batchlas.Uplo
	a, b *inPlace[T]
	ws   workspace[T]
}

func newPosvCase[T batchlas.Float](c cell, seed uint64) (*posvCase[T], error) {
	uplo, err := letterOf("uplo", c.get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := c.num("n"), c.num("nrhs"), c.num("batch")
	r := testmat.Rand(seed)
	a := tiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { testmat.SPD(r, b) })
	b := tiledBatch[T](r, n, nrhs, count, nil)
	return &posvCase[T]{uplo: uplo, a: newInPlace(a), b: newInPlace(b)}, nil
}

func (pc *posvCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := posv.BufferSize(ctx, pc.uplo, pc.a.orig, pc.b.orig)
	if err != nil {
		return nil, err
	}
	ws := pc.ws.nan(size)
	// Call j overwrites working copy j of both operands.
	copies := min(len(pc.a.work), len(pc.b.work))
	return &boundCase{
		call: func(ctx context.Context, j int) error {
			return posv.Posv(ctx, pc.uplo, pc.a.work[j], pc.b.work[j], ws)
		},
		copies: copies,
		restore: func(k int) {
			pc.a.restore(k)
			pc.b.restore(k)
		},
		check: pc.check,
	}, nil
}

// check: the factor posv left in A and X solve A*X = B within the
// backward-error bound of a Cholesky solve, and the other triangle of A
// was not written.
func (pc *posvCase[T]) check() error {
	orig, got := pc.a.orig, pc.a.work[0]
	n := orig.Rows
	for _, i := range checkedMatrices(orig.Count) {
		for j := 0; j < n; j++ {
			for r := 0; r < n; r++ {
				inTri := (pc.uplo == batchlas.Lower && r >= j) || (pc.uplo == batchlas.Upper && r <= j)
				if !inTri && got.At(i, r, j) != orig.At(i, r, j) {
					return fmt.Errorf("matrix %d: element (%d,%d) outside the %s triangle was written", i, r, j, pc.uplo)
				}
			}
		}
	}
	return checkCholeskySolve[T](pc.uplo, orig, got, pc.b.orig, pc.b.work[0])
}
