package main

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// potrs is timed on the factors of SPD matrices (testmat.SPD, factored
// once by the potrf op when the cell is made, untimed) and random
// right-hand sides; B is overwritten by X, so it is restored before every
// call (working copies: inPlace). Its nested kernel calls trsm through its
// entry point, whose blocked kernel calls gemm, so their sources are part
// of potrs's kernels, as is the per-matrix code it shares with posv.
func init() {
	registerTuner(&opTuner{
		op: potrs.Op,
		flops: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			return 2 * n * n * nrhs * float64(c.num("batch"))
		},
		elems: func(c cell) float64 {
			n, nrhs := float64(c.num("n")), float64(c.num("nrhs"))
			// the factors, B and B's pristine copy
			return (n*n + 2*n*nrhs) * float64(c.num("batch"))
		},
		newCase: func(dt sel.DType, c cell, seed uint64) (opCase, error) {
			if dt == sel.Float32 {
				return newPotrsCase[float32](c, seed)
			}
			return newPotrsCase[float64](c, seed)
		},
	})
}

type potrsCase[T batchlas.Float] struct {
	uplo batchlas.Uplo
	spd  batchlas.Batch[T] // the distinct SPD matrices: matrix i of a is factored from spd's i%spd.Count
	a    batchlas.Batch[T] // their factors, tiled over the batch
	b    *inPlace[T]
	ws   workspace[T]
}

func newPotrsCase[T batchlas.Float](c cell, seed uint64) (*potrsCase[T], error) {
	uplo, err := letterOf("uplo", c.get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := c.num("n"), c.num("nrhs"), c.num("batch")
	r := testmat.Rand(seed)
	pc := &potrsCase[T]{uplo: uplo}
	var ferr error
	pc.a = tiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) {
		testmat.SPD(r, b)
		pc.spd = testmat.Clone(b)
		ferr = potrf.Potrf(context.Background(), uplo, b, nil)
	})
	if ferr != nil {
		return nil, fmt.Errorf("potrs cell %s: factoring its inputs: %w", c, ferr)
	}
	pc.b = newInPlace(tiledBatch[T](r, n, nrhs, count, nil))
	return pc, nil
}

func (pc *potrsCase[T]) bind(ctx context.Context) (*boundCase, error) {
	size, err := potrs.BufferSize(ctx, pc.uplo, pc.a, pc.b.orig)
	if err != nil {
		return nil, err
	}
	ws := pc.ws.nan(size)
	return &boundCase{
		call:    func(ctx context.Context, j int) error { return potrs.Potrs(ctx, pc.uplo, pc.a, pc.b.work[j], ws) },
		copies:  len(pc.b.work),
		restore: pc.b.restore,
		check:   pc.check,
	}, nil
}

// check: A*X = B within the backward-error bound of a Cholesky solve.
func (pc *potrsCase[T]) check() error {
	return checkCholeskySolve[T](pc.uplo, pc.spd, pc.a, pc.b.orig, pc.b.work[0])
}

// checkCholeskySolve checks the first, middle and last systems of a
// Cholesky solve: with A_i the SPD matrix spd's i%spd.Count, F_i the
// factor in the uplo triangle of matrix i of f and X_i the solution in x,
// |A_i*X_i - B_i| <= 4*(3n+2)*eps * |F_i^T|*|F_i|*|X_i| elementwise (the
// factorisation and both substitutions together solve (A + dA)*X = B with
// |dA| <= gamma(3n+1)*|F^T|*|F|: Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., theorem 10.4). A NaN or Inf anywhere
// fails.
func checkCholeskySolve[T batchlas.Float](uplo batchlas.Uplo, spd, f, b, x batchlas.Batch[T]) error {
	n := f.Rows
	tol := 4 * float64(3*n+2) * epsOf[T]()
	for _, i := range checkedMatrices(b.Count) {
		a := denseOf(spd, i%spd.Count)
		fi := denseOf(f, i)
		l := dense{r: n, c: n, v: make([]float64, n*n)} // the factor as L (U^T for Upper)
		for j := 0; j < n; j++ {
			for r := j; r < n; r++ {
				if uplo == batchlas.Lower {
					l.v[r+j*n] = fi.at(r, j)
				} else {
					l.v[r+j*n] = fi.at(j, r)
				}
			}
		}
		xi := denseOf(x, i)
		prod, _ := mulAbs(a, xi)
		_, ltx := mulAbs(l.op(true), xi)
		_, scale := mulAbs(l, ltx)
		if err := withinBound(fmt.Sprintf("matrix %d: A*X vs B", i), prod, denseOf(b, i), scale, tol); err != nil {
			return err
		}
	}
	return nil
}
