package main

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// trsm is timed with alpha 1 on well-conditioned triangles
// (testmat.Triangular: the other triangle holds garbage a kernel must not
// read). B is overwritten by X, so it is restored before every call (working
// copies: inPlace). Its
// blocked kernel updates through gemm's entry point, so gemm's sources are
// part of trsm's kernels.
func init() {
	registerTuner(&opTuner{
		op: trsm.Op,
		flops: func(c cell) float64 {
			m, n := float64(c.num("m")), float64(c.num("n"))
			if c.get("side") == "R" {
				return m * n * n * float64(c.num("batch"))
			}
			return m * m * n * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			m, n, t := float64(c.num("m")), float64(c.num("n")), float64(trsmOrder(c))
			// A, B and B's pristine copy
			return (t*t + 2*m*n) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newTrsmCase[float32](c, seed)
			}
			return newTrsmCase[float64](c, seed)
		},
	})
}

// trsmOrder is the order of the triangle of a trsm cell: m for side Left,
// n for Right.
func trsmOrder(c cell) int {
	if c.get("side") == "R" {
		return c.num("n")
	}
	return c.num("m")
}

type trsmCase[T batchlas.Float] struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
	a    batchlas.Batch[T]
	b    *inPlace[T]
	ws   workspace[T]
}

func newTrsmCase[T batchlas.Float](c cell, seed uint64) (*trsmCase[T], error) {
	tc := &trsmCase[T]{}
	var err error
	if tc.side, err = letterOf("side", c.get("side"), batchlas.Left, batchlas.Right); err != nil {
		return nil, err
	}
	if tc.uplo, err = letterOf("uplo", c.get("uplo"), batchlas.Lower, batchlas.Upper); err != nil {
		return nil, err
	}
	if tc.ta, err = letterOf("ta", c.get("ta"), batchlas.NoTrans, batchlas.Trans); err != nil {
		return nil, err
	}
	if tc.diag, err = letterOf("diag", c.get("diag"), batchlas.NonUnit, batchlas.Unit); err != nil {
		return nil, err
	}
	m, n, count := c.num("m"), c.num("n"), c.num("batch")
	t := m
	if tc.side == batchlas.Right {
		t = n
	}
	r := testmat.Rand(seed)
	tc.a = tiledBatch[T](r, t, t, count, func(b batchlas.Batch[T]) { testmat.Triangular(r, b, tc.uplo) })
	tc.b = newInPlace(tiledBatch[T](r, m, n, count, nil))
	return tc, nil
}

func (tc *trsmCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := trsm.BufferSize(ctx, tc.side, tc.uplo, tc.ta, tc.diag, tc.a, tc.b.orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.nan(size)
	return &boundCase{
		call: func(ctx context.Context, j int) error {
			return trsm.Trsm(ctx, tc.side, tc.uplo, tc.ta, tc.diag, 1, tc.a, tc.b.work[j], ws)
		},
		copies:  len(tc.b.work),
		restore: tc.b.restore,
		check:   tc.check,
	}, nil
}

// triangle returns matrix i of A as the dense triangle the solve uses: the
// uplo triangle, with ones on the diagonal when diag is Unit.
func (tc *trsmCase[T]) triangle(i int) dense {
	a := denseOf(tc.a, i)
	t := dense{r: a.r, c: a.c, v: make([]float64, len(a.v))}
	for j := 0; j < a.c; j++ {
		for r := 0; r < a.r; r++ {
			switch {
			case r == j && tc.diag == batchlas.Unit:
				t.v[r+j*a.r] = 1
			case r == j || (tc.uplo == batchlas.Lower && r > j) || (tc.uplo == batchlas.Upper && r < j):
				t.v[r+j*a.r] = a.at(r, j)
			}
		}
	}
	return t
}

// check: op(A)*X = B (Left) or X*op(A) = B (Right) within 4*(t+2)*eps of
// |op(A)|*|X| (or |X|*|op(A)|), the backward-error bound of substitution.
func (tc *trsmCase[T]) check() error {
	for _, i := range checkedMatrices(tc.b.orig.Count) {
		opA := tc.triangle(i).op(tc.ta == batchlas.Trans)
		x, b := denseOf(tc.b.work[0], i), denseOf(tc.b.orig, i)
		tol := 4 * float64(opA.r+2) * epsOf[T]()
		var prod, abs dense
		if tc.side == batchlas.Left {
			prod, abs = mulAbs(opA, x)
		} else {
			prod, abs = mulAbs(x, opA)
		}
		if err := withinBound(fmt.Sprintf("matrix %d: op(A)*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
