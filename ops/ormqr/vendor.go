//go:build !novendor

package ormqr

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorFloat64 appends gonum's kernel to float64's candidates (gonum's
// LAPACK has no float32 routines).
var vendorFloat64 = []sel.Choice{vendor.With()}

// launchVendor applies each Q with gonum's Dormqr. gonum is row-major, and
// our column-major factor read row-major is its transpose, no factor
// Dormqr understands: each factor's first k columns and each C are copied
// into row-major scratch, C is updated there and copied back.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], tau batchlas.Vectors[T], c batchlas.Batch[T], ws []T) error {
	return runJob(ctx, runVendor, p, 0, a, tau, c, ws)
}

// vendorWork is the work length given to Dormqr: what its workspace query
// answers (nw times its block size 64, plus its T's 64*65), computed here:
// the query's one-element slice would escape into gonum, an allocation
// per call.
func vendorWork(p *problem) int {
	nw := p.m
	if p.left {
		nw = p.n
	}
	return max(nw, 1)*64 + 64*65
}

// vendorSize is one worker's scratch: the two row-major copies and the
// work.
func vendorSize(p *problem) int { return p.nq()*p.k + p.m*p.n + vendorWork(p) }

// vendor updates C_i in scratch (float64 only: the vendor choice is no
// float32 candidate).
func (j *job[T]) vendor(i int, scratch []T) {
	s, ok := any(scratch).([]float64)
	if !ok {
		return
	}
	p, a, c := &j.p, j.a, j.c
	ad := any(a.Data).([]float64)[i*a.Stride:]
	cd := any(c.Data).([]float64)[i*c.Stride:]
	t := any(taus(j.tau, i, p.k)).([]float64)
	m, n, k, nq := p.m, p.n, p.k, p.nq()
	ar, cr, work := s[:nq*k], s[nq*k:nq*k+m*n], s[nq*k+m*n:]
	for col := 0; col < k; col++ {
		for r, x := range ad[col*a.LD : col*a.LD+nq] {
			ar[r*k+col] = x
		}
	}
	for col := 0; col < n; col++ {
		for r, x := range cd[col*c.LD : col*c.LD+m] {
			cr[r*n+col] = x
		}
	}
	side, trans := blas.Right, blas.NoTrans
	if p.left {
		side = blas.Left
	}
	if p.trans {
		trans = blas.Trans
	}
	gonum.Implementation{}.Dormqr(side, trans, m, n, k, ar, max(1, k), t, cr, max(1, n), work, len(work))
	for col := 0; col < n; col++ {
		cc := cd[col*c.LD : col*c.LD+m]
		for r := range cc {
			cc[r] = cr[r*n+col]
		}
	}
}
