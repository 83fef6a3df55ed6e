package main

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// getrs is timed on the factors of testmat.General matrices (well
// conditioned, pivoting at almost every step), factored once per cell by
// the getrf op, with a random B restored before every call (working
// copies: inPlace) because it is overwritten by X. Its nested kernel calls
// trsm (and through it gemm), so their sources are part of getrs's
// kernels; getrf only makes the inputs (inputsBy), so it is measured
// first but is not part of the hash: any correct factor times the same.
func init() {
	registerTuner(&opTuner{
		op:       getrs.Op,
		inputsBy: []string{"getrf"},
		flops: func(c cell) float64 {
			n := float64(c.num("n"))
			return 2 * n * n * float64(c.num("nrhs")) * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			// the original A (for the residual), its factor, B and B's
			// pristine copy
			return (2*n*n + 2*n*nrhs) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newGetrsCase[float32](c, seed)
			}
			return newGetrsCase[float64](c, seed)
		},
	})
}

type getrsCase[T batchlas.Float] struct {
	trans batchlas.Transpose
	orig  batchlas.Batch[T] // A before factoring
	lu    batchlas.Batch[T]
	ipiv  batchlas.Vectors[int32]
	b     *inPlace[T]
	ws    workspace[T]
	// scales holds P*|L|*|U| of each checked matrix, computed on the first
	// check: it depends on the inputs only, and every candidate's check
	// needs it (recomputing it was most of a tuning run's time for getrs).
	scales map[int]dense
}

func newGetrsCase[T batchlas.Float](c cell, seed uint64) (*getrsCase[T], error) {
	trans, err := letterOf("trans", c.get("trans"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := c.num("n"), c.num("nrhs"), c.num("batch")
	r := testmat.Rand(seed)
	// The distinct matrices are factored once, then repeated as
	// tiledBatch repeats them: factoring 1024 copies of seven matrices
	// would cost more than timing the solves.
	orig := tiledBatch[T](r, n, n, min(count, distinctMatrices), func(b batchlas.Batch[T]) { testmat.General(r, b) })
	lu := testmat.Clone(orig)
	piv := batchlas.NewVectors[int32](n, orig.Count)
	if err := getrf.Getrf(context.Background(), lu, piv, nil); err != nil {
		return nil, fmt.Errorf("getrs inputs: factoring with getrf: %w", err)
	}
	tc := &getrsCase[T]{trans: trans, orig: repeat(orig, count), lu: repeat(lu, count), ipiv: batchlas.NewVectors[int32](n, count)}
	for i := range count {
		copy(tc.ipiv.Vector(i), piv.Vector(i%piv.Count))
	}
	tc.b = newInPlace(tiledBatch[T](r, n, nrhs, count, nil))
	return tc, nil
}

func (tc *getrsCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := getrs.BufferSize(ctx, tc.trans, tc.lu, tc.ipiv, tc.b.orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.nan(size)
	return &boundCase{
		call: func(ctx context.Context, j int) error {
			return getrs.Getrs(ctx, tc.trans, tc.lu, tc.ipiv, tc.b.work[j], ws)
		},
		copies:  len(tc.b.work),
		restore: tc.b.restore,
		check:   tc.check,
	}, nil
}

// check: op(A)*X = B within 8*(n+2)*eps of op(P*|L|*|U|)*|X|, the
// backward-error bound of an LU solve (the factorisation's error and the
// two triangular solves') in any summation order, A being the matrix
// before factoring.
func (tc *getrsCase[T]) check() error {
	n := tc.orig.Rows
	tol := 8 * float64(n+2) * epsOf[T]()
	if tc.scales == nil {
		tc.scales = map[int]dense{}
	}
	for _, i := range checkedMatrices(tc.b.orig.Count) {
		scale, ok := tc.scales[i]
		if !ok {
			var err error
			if scale, err = luScale(denseOf(tc.lu, i), tc.ipiv, i); err != nil {
				return err
			}
			tc.scales[i] = scale
		}
		x, b := denseOf(tc.b.work[0], i), denseOf(tc.b.orig, i)
		trans := tc.trans == batchlas.Trans
		prod, _ := mulAbs(denseOf(tc.orig, i).op(trans), x)
		_, abs := mulAbs(scale.op(trans), x)
		if err := withinBound(fmt.Sprintf("matrix %d: op(A)*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}

// luScale returns P*|L|*|U| for the LU factor lu (as getrf leaves it)
// with pivot vector i of ipiv: the scale of the rounding errors of an LU
// solve. It refuses pivots outside [j, n).
func luScale(lu dense, ipiv batchlas.Vectors[int32], i int) (dense, error) {
	n := lu.r
	l := dense{r: n, c: n, v: make([]float64, n*n)}
	u := dense{r: n, c: n, v: make([]float64, n*n)}
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			switch {
			case r > c:
				l.v[r+c*n] = lu.at(r, c)
			case r == c:
				l.v[r+c*n] = 1
				u.v[r+c*n] = lu.at(r, c)
			default:
				u.v[r+c*n] = lu.at(r, c)
			}
		}
	}
	_, abs := mulAbs(l, u)
	for j := n - 1; j >= 0; j-- { // P*(|L|*|U|): undo the interchanges, last first
		q := int(ipiv.At(i, j))
		if q < j || q >= n {
			return dense{}, fmt.Errorf("matrix %d: ipiv[%d] = %d, want in [%d, %d)", i, j, q, j, n)
		}
		for c := 0; c < n; c++ {
			abs.v[j+c*n], abs.v[q+c*n] = abs.v[q+c*n], abs.v[j+c*n]
		}
	}
	return abs, nil
}
