//go:build !novendor

package gels

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 Dgels.
var vendorFloat64 = []sel.Choice{vendor.With()}

// launchVendor solves each system with gonum's Dgels, the batch spread over
// the workers.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, a, b batchlas.Batch[T], info []int32, ws []T, need int) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin fused for float32")
	}
	return runJob(ctx, vendor.With(), p, a, b, info, ws, need)
}

// vendorSlot is one worker's scratch: row-major copies of A_i (m x n) and
// B_i (m x nrhs), gonum being row-major, and Dgels's work; or fused's, for
// the systems vendorSolve hands to it.
func vendorSlot(p *problem) int {
	return max(parallel.Pad(p.m*p.n+p.m*p.nrhs+vendorWork(p)), slot(fused.With(), p))
}

// vendorMin and vendorMax bound the largest magnitude of A_i and of B_i
// that vendorSolve gives gonum's Dgels: outside LAPACK's smlnum and
// bignum (2^-970 and 2^970 in float64), Dgels scales the system first,
// and gonum v0.17's scaling returns wrong solutions without an error
// (x = [0.2, 0.6] came back as [0.601, 1.804] for A = 1e292*[2 1; 1 3],
// b = 1e292*[1, 2]). The bounds keep a factor 1024 of margin.
const (
	vendorMin = 0x1p-960
	vendorMax = 0x1p960
)

// vendorWork is the work Dgels asks for (its workspace query).
func vendorWork(p *problem) int {
	var q [1]float64
	gonum.Implementation{}.Dgels(blas.NoTrans, p.m, p.n, p.nrhs, nil, max(1, p.n), nil, max(1, p.nrhs), q[:], -1)
	return max(1, int(q[0]))
}

// vendorSolve is Dgels on one system through row-major copies. Dgels says
// only whether R is singular, not where: the info is found on R's
// diagonal, and B_i is written back only when it is solved. A system
// gonum would get wrong goes to fused's solve instead: one with an Inf or
// NaN (gonum's BLAS skips products with zero that IEEE arithmetic makes
// NaN, and Dgels's own scaling turns an Inf into a NaN everywhere, which
// would spoil B_i's finite columns, which are solved on their own), or
// with a largest magnitude in A_i or B_i outside [vendorMin, vendorMax].
func vendorSolve[T batchlas.Float](p *problem, a []T, lda int, b []T, ldb int, scratch []T) int32 {
	m, n, nrhs := p.m, p.n, p.nrhs
	ad, _ := any(a).([]float64)
	sd, _ := any(scratch).([]float64)
	ra, rb, work := sd[:m*n], sd[m*n:m*n+m*nrhs], sd[m*n+m*nrhs:]
	// amax and bmax: the largest magnitudes (Inf for an Inf, NaN once an
	// entry is NaN: Go's max keeps a NaN).
	var amax, bmax float64
	for c := range n {
		for r, v := range ad[c*lda : c*lda+m] {
			ra[r*n+c] = v
			amax = max(amax, math.Abs(v))
		}
	}
	bd, _ := any(b).([]float64)
	for c := range nrhs {
		for r, v := range bd[c*ldb : c*ldb+m] {
			rb[r*nrhs+c] = v
			bmax = max(bmax, math.Abs(v))
		}
	}
	// Outside the bounds, Inf or NaN (each comparison false on NaN).
	scaled := func(x float64) bool { return x != 0 && !(x >= vendorMin && x <= vendorMax) }
	if scaled(amax) || scaled(bmax) {
		return solve(p, 0, a, lda, b, ldb, scratch)
	}
	gonum.Implementation{}.Dgels(blas.NoTrans, m, n, nrhs, ra, n, rb, max(1, nrhs), work, len(work))
	for c := range n {
		for r := range m {
			ad[c*lda+r] = ra[r*n+c]
		}
	}
	for j := range n {
		if d := ad[j*lda+j]; !(d > 0 || d < 0) {
			return int32(j + 1)
		}
	}
	for c := range nrhs {
		col := bd[c*ldb : c*ldb+m]
		for r := range col {
			col[r] = rb[r*nrhs+c]
		}
	}
	return 0
}
