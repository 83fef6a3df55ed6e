package main

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// gesv is timed on testmat.General matrices (well conditioned, pivoting at
// almost every step) and a random B, both overwritten (A by its factor, B
// by X), so both are restored before every call, in working copies made
// in pairs. Its nested kernel calls getrf and getrs (and through them trsm
// and gemm), so all their sources are part of gesv's kernels.
func init() {
	registerTuner(&opTuner{
		op: gesv.Op,
		flops: func(c cell) float64 {
			n := float64(c.num("n"))
			return (2*n*n*n/3 + 2*n*n*float64(c.num("nrhs"))) * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			// A and B, and their pristine copies
			return (2*n*n + 2*n*nrhs) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newGesvCase[float32](c, seed)
			}
			return newGesvCase[float64](c, seed)
		},
	})
}

type gesvCase[T batchlas.Float] struct {
	a, b *inPlace[T]
	ipiv batchlas.Vectors[int32]
	ws   workspace[T]
}

func newGesvCase[T batchlas.Float](c cell, seed uint64) (*gesvCase[T], error) {
	n, nrhs, count := c.num("n"), c.num("nrhs"), c.num("batch")
	r := testmat.Rand(seed)
	a := tiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { testmat.General(r, b) })
	b := tiledBatch[T](r, n, nrhs, count, nil)
	// As many pairs of working copies as fit in copiesBytes together, so
	// that call j finds both its A and its B fresh.
	var zero T
	bytes := max((len(a.Data)+len(b.Data))*int(unsafe.Sizeof(zero)), 1)
	k := min(max(copiesBytes/bytes, 1), maxCopies)
	return &gesvCase[T]{a: inPlaceCopies(a, k), b: inPlaceCopies(b, k), ipiv: batchlas.NewVectors[int32](n, count)}, nil
}

// inPlaceCopies is newInPlace with exactly k working copies.
func inPlaceCopies[T batchlas.Float](orig batchlas.Batch[T], k int) *inPlace[T] {
	p := &inPlace[T]{orig: orig, work: make([]batchlas.Batch[T], k)}
	for j := range p.work {
		p.work[j] = testmat.Clone(orig)
	}
	return p
}

func (tc *gesvCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := gesv.BufferSize(ctx, tc.a.orig, tc.ipiv, tc.b.orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.nan(size)
	return &boundCase{
		call: func(ctx context.Context, j int) error {
			return gesv.Gesv(ctx, tc.a.work[j], tc.ipiv, tc.b.work[j], ws)
		},
		copies: len(tc.a.work),
		restore: func(k int) {
			tc.a.restore(k)
			tc.b.restore(k)
		},
		poison: func() {
			for j := range tc.ipiv.Data {
				tc.ipiv.Data[j] = -1
			}
		},
		check: tc.check,
	}, nil
}

// check: valid pivots, and A*X = B within 8*(n+2)*eps of P*|L|*|U|*|X|
// (the factor and pivots gesv wrote), the backward-error bound of LU with
// partial pivoting followed by the solve.
func (tc *gesvCase[T]) check() error {
	n := tc.a.orig.Rows
	tol := 8 * float64(n+2) * epsOf[T]()
	for _, i := range checkedMatrices(tc.a.orig.Count) {
		scale, err := luScale(denseOf(tc.a.work[0], i), tc.ipiv, i)
		if err != nil {
			return err
		}
		x, b := denseOf(tc.b.work[0], i), denseOf(tc.b.orig, i)
		prod, _ := mulAbs(denseOf(tc.a.orig, i), x)
		_, abs := mulAbs(scale, x)
		if err := withinBound(fmt.Sprintf("matrix %d: A*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
