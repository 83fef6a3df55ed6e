//go:build !novendor

package orgqr

import (
	"context"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorFloat64 appends gonum's kernel to float64's candidates (gonum's
// LAPACK has no float32 routines).
var vendorFloat64 = []sel.Choice{vendor.With()}

// launchVendor forms each Q with gonum's Dorgqr. gonum is row-major, and
// our column-major m x n A read row-major is A^T, which is no QR factor
// Dorgqr understands: each matrix is copied into a row-major m x n
// scratch, formed there, and copied back.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	return runJob(ctx, runVendor, p, 0, a, tau, ws)
}

// vendorWork is the work length given to Dorgqr: n times gonum's block
// size for it (Ilaenv's 32), what its workspace query answers. Not asked
// through the query itself: the query's one-element slice escapes into
// gonum, an allocation per call.
func vendorWork(p *problem) int { return max(p.n, 1) * 32 }

// vendorSize is one worker's scratch: the row-major copy and the work.
func vendorSize(p *problem) int { return p.m*p.n + vendorWork(p) }

// vendor forms matrix i's Q in scratch (float64 only: the vendor choice
// is no float32 candidate).
func (j *job[T]) vendor(i int, scratch []T) {
	s, ok := any(scratch).([]float64)
	if !ok {
		return
	}
	p, a := &j.p, j.a
	ad := any(a.Data).([]float64)[i*a.Stride:]
	var t []float64
	if p.k > 0 {
		t = any(taus(j.tau, i, p.k)).([]float64)
	}
	m, n := p.m, p.n
	rm, work := s[:m*n], s[m*n:]
	for c := 0; c < n; c++ {
		col := ad[c*a.LD : c*a.LD+m]
		for r, x := range col {
			rm[r*n+c] = x
		}
	}
	gonum.Implementation{}.Dorgqr(m, n, p.k, rm, max(1, n), t, work, len(work))
	for c := 0; c < n; c++ {
		col := ad[c*a.LD : c*a.LD+m]
		for r := range col {
			col[r] = rm[r*n+c]
		}
	}
}
