package main

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gemm"
	sel "github.com/batchlas-go/batchlas/select"
)

// gemm is timed as C = op(A)*op(B) (alpha 1, beta 0), the common use: C is
// then write-only, so repeated calls need no restore between them.
func init() {
	registerTuner(&opTuner{
		op: gemm.Op,
		flops: func(c cell) float64 {
			return 2 * float64(c.num("m")) * float64(c.num("n")) * float64(c.num("k")) * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			m, n, k := float64(c.num("m")), float64(c.num("n")), float64(c.num("k"))
			return (m*k + k*n + m*n) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newGemmCase[float32](c, seed)
			}
			return newGemmCase[float64](c, seed)
		},
	})
}

type gemmCase[T batchlas.Float] struct {
	ta, tb  batchlas.Transpose
	a, b, c batchlas.Batch[T]
	// refs caches the reference product and its error scale per checked
	// matrix: the inputs are the same for every candidate.
	refs map[int][2]dense
	ws   workspace[T]
}

func newGemmCase[T batchlas.Float](c cell, seed uint64) (*gemmCase[T], error) {
	ta, err := letterOf("ta", c.get("ta"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	tb, err := letterOf("tb", c.get("tb"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	m, n, k, count := c.num("m"), c.num("n"), c.num("k"), c.num("batch")
	r := testmat.Rand(seed)
	ar, ac := m, k
	if ta == batchlas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb == batchlas.Trans {
		br, bc = n, k
	}
	return &gemmCase[T]{
		ta: ta, tb: tb,
		a:    tiledBatch[T](r, ar, ac, count, nil),
		b:    tiledBatch[T](r, br, bc, count, nil),
		c:    newLaidBatch[T](m, n, count),
		refs: map[int][2]dense{},
	}, nil
}

func (g *gemmCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := gemm.BufferSize(ctx, g.ta, g.tb, g.a, g.b, g.c)
	if err != nil {
		return nil, err
	}
	ws := g.ws.nan(size)
	return &boundCase{
		call: func(ctx context.Context, _ int) error {
			return gemm.Gemm(ctx, g.ta, g.tb, 1, g.a, g.b, 0, g.c, ws)
		},
		poison: func() {
			for i := range g.c.Data {
				g.c.Data[i] = T(math.NaN())
			}
		},
		copies: 1,
		check:  g.check,
	}, nil
}

// check: C_i = op(A_i)*op(B_i) within 4*(k+2)*eps of |op(A_i)|*|op(B_i)|.
func (g *gemmCase[T]) check() error {
	k := g.a.Cols
	if g.ta == batchlas.Trans {
		k = g.a.Rows
	}
	tol := 4 * float64(k+2) * epsOf[T]()
	for _, i := range checkedMatrices(g.c.Count) {
		ref, ok := g.refs[i]
		if !ok {
			want, scale := mulAbs(denseOf(g.a, i).op(g.ta == batchlas.Trans), denseOf(g.b, i).op(g.tb == batchlas.Trans))
			ref = [2]dense{want, scale}
			g.refs[i] = ref
		}
		want, scale := ref[0], ref[1]
		if err := withinBound(fmt.Sprintf("matrix %d", i), denseOf(g.c, i), want, scale, tol); err != nil {
			return err
		}
	}
	return nil
}
