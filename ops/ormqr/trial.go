package ormqr

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/internal/trial/qrref"
	sel "github.com/batchlas-go/batchlas/select"
)

// ormqr is timed on the QR factors of random nq x k matrices (nq the order
// of Q: m on the left, n on the right), factored once per trial in
// float64 by internal/trial/qrref's Householder QR and rounded to the
// dtype, applied to a random C restored before every call
// (trial.InPlace). The check compares C with the reflectors applied one
// at a time in float64 to the original C.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			p, count, _ := shapeOf(k)
			return flopsPerMatrix(&p) * float64(count)
		},
		Elems: func(k sel.Key) float64 {
			p, count, _ := shapeOf(k)
			// the factor, C and its pristine copy, tau (in float64: the
			// sizes of a key may overflow an int's product)
			nq, kk, m, n := float64(p.nq()), float64(p.k), float64(p.m), float64(p.n)
			return (nq*kk + 2*m*n + kk) * float64(count)
		},
		Problem: func(k sel.Key) error {
			_, _, err := shapeOf(k)
			return err
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newOrmqrTrial[float32](k, seed)
			}
			return newOrmqrTrial[float64](k, seed)
		},
	})
}

// shapeOf reads a key: the problem, the batch count, and why it is no
// call (k > nq) or nil.
func shapeOf(k sel.Key) (problem, int, error) {
	s := trial.ShapeOf(Op, k)
	side, err := trial.Letter("side", s.Get("side"), batchlas.Left, batchlas.Right)
	if err != nil {
		return problem{}, 0, err
	}
	trans, err := trial.Letter("trans", s.Get("trans"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return problem{}, 0, err
	}
	p := problem{left: side == batchlas.Left, trans: trans == batchlas.Trans, m: s.Num("m"), n: s.Num("n"), k: s.Num("k")}
	if p.k > p.nq() {
		return p, s.Num("batch"), fmt.Errorf("ormqr: k %d > %d, the order of Q", p.k, p.nq())
	}
	return p, s.Num("batch"), nil
}

type ormqrTrial[T batchlas.Float] struct {
	side  batchlas.Side
	trans batchlas.Transpose
	a     batchlas.Batch[T]
	tau   batchlas.Vectors[T]
	c     *trial.InPlace[T]
	ws    trial.Workspace[T]
	refs  map[int]trial.Dense
	norm  map[int]float64 // the largest 2-norm of a column (left) or row (right) of C_i
}

func newOrmqrTrial[T batchlas.Float](k sel.Key, seed uint64) (*ormqrTrial[T], error) {
	p, count, err := shapeOf(k)
	if err != nil {
		return nil, err
	}
	r := matgen.Rand(seed)
	d := min(count, trial.DistinctMatrices)
	nq := p.nq()
	src := matgen.Batch[T](r, nq, p.k, d, 0, 0)
	fac := batchlas.NewBatch[T](nq, p.k, d)
	dtau := batchlas.NewVectors[T](p.k, d)
	facs := make([]trial.Dense, d)
	taus := make([][]float64, d)
	for i := 0; i < d; i++ {
		facs[i], taus[i] = qrref.FactorsOf(src, i, fac, dtau)
	}
	tc := &ormqrTrial[T]{side: batchlas.Right, trans: batchlas.NoTrans, refs: map[int]trial.Dense{}, norm: map[int]float64{}}
	if p.left {
		tc.side = batchlas.Left
	}
	if p.trans {
		tc.trans = batchlas.Trans
	}
	tc.a = trial.Repeat(fac, count)
	tc.tau = batchlas.NewVectors[T](p.k, count)
	for i := 0; i < count; i++ {
		copy(tc.tau.Vector(i), dtau.Vector(i%d))
	}
	tc.c = trial.NewInPlace(trial.TiledBatch[T](r, p.m, p.n, count, nil))
	for _, i := range trial.CheckedMatrices(count) {
		c0 := trial.DenseOf(tc.c.Orig, i)
		tc.refs[i] = qrref.ApplyReflectors(p.left, p.trans, facs[i%d], taus[i%d], p.k, c0)
		if !p.left {
			c0 = c0.Op(true)
		}
		norm := 0.0
		for j := 0; j < c0.C; j++ {
			s := 0.0
			for _, x := range c0.V[j*c0.R : (j+1)*c0.R] {
				s += x * x
			}
			norm = max(norm, math.Sqrt(s))
		}
		tc.norm[i] = norm
	}
	return tc, nil
}

func (tc *ormqrTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.side, tc.trans, tc.a, tc.tau, tc.c.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Ormqr(ctx, tc.side, tc.trans, tc.a, tc.tau, tc.c.Work[j], ws)
		},
		Copies:  len(tc.c.Work),
		Restore: tc.c.Restore,
		Check:   tc.check,
	}, nil
}

// Output is the updated C (its first working copy).
func (tc *ormqrTrial[T]) Output() batchlas.Batch[T] { return tc.c.Work[0] }

// check: each element of op(Q) C within (k+8)*eps times the largest
// 2-norm of a column (left) or row (right) of C of the float64
// reference: Q is orthogonal, so that norm bounds every element, and the
// rounding of k reflectors grows with k.
func (tc *ormqrTrial[T]) check() error {
	c := tc.c.Work[0]
	k := tc.tau.Len
	eps := matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(c.Count) {
		tol := float64(k+8) * eps * tc.norm[i]
		if err := qrref.MaxAbsDiff(fmt.Sprintf("matrix %d: op(Q) C vs the reflectors applied in float64", i), trial.DenseOf(c, i), tc.refs[i], tol); err != nil {
			return err
		}
	}
	return nil
}
