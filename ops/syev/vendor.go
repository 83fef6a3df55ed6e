//go:build !novendor

package syev

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 eigensolver, and converting through float64 would make "vendor"
// a different algorithm at a different precision. float32 calls run
// natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorWork is the work length the vendor kernel gives gonum's Dsyev at
// order n: what Dsyev asks for, and for ValuesOnly at least n*n (see
// vendorSyev).
func vendorWork(n int, jobz Job) int {
	// The query's answer goes through a shared array: a local one escapes
	// into gonum (an allocation on every call and every BufferSize).
	vendorQuery.Lock()
	gonum.Implementation{}.Dsyev(evJob(jobz), blas.Upper, n, nil, max(1, n), nil, vendorQuery.q[:], -1)
	q := vendorQuery.q[0]
	vendorQuery.Unlock()
	lw := max(int(q), 3*n-1, 1)
	if jobz == ValuesOnly {
		lw = max(lw, n*n)
	}
	return lw
}

// vendorQuery is where vendorWork's workspace queries answer.
var vendorQuery struct {
	sync.Mutex
	q [1]float64
}

func evJob(jobz Job) lapack.EVJob {
	if jobz == WithVectors {
		return lapack.EVCompute
	}
	return lapack.EVNone
}

// vendorSlot is the vendor kernel's per-worker scratch: the symmetric
// copy, the eigenvalues and Dsyev's work.
func vendorSlot(n int, jobz Job) int { return parallel.Pad(n*n + n + vendorWork(n, jobz)) }

// vendorSyev calls gonum's Dsyev on each matrix, parallel over the batch,
// inside the shared prologue and epilogue (perMatrix): the NaN/Inf check
// comes first (gonum would iterate on a NaN), the copy is full symmetric
// (so the row-major reading gonum makes of it is the same matrix; Dsyev's
// scaling then never triggers, load having scaled already), and its
// row-major eigenvectors are transposed into columns before the shared
// ordering and sign convention. gonum reports non-convergence only as a
// boolean; the count is read, as LAPACK defines it, from the subdiagonal
// entries Dsyev leaves at the start of its work (work[0:n-1]) that are not
// zero.
//
// For ValuesOnly, gonum v0.17's Dsyev calls Dsterf, whose scaling of a
// block of the tridiagonal matrix (when the block's entries are below
// about 1e-122 or above 1e153: a matrix with a tiny or huge decoupled
// part) passes the order n as the leading dimension of a one-column
// Dlascl: its length checks then ask for n*(n-1)+1 elements of the
// diagonal d and the subdiagonal e where n are used, and panic on the
// exact lengths. The kernel hands Dsyev a d and a work (whose start is e)
// that long, laid over the slot so that d's tail is work's storage: only
// d's first n elements and work are ever touched, so nothing is shared,
// and Dsterf does not panic. Its scaling is wrong all the same: it does
// not undo it (a block scaled up keeps eigenvalues too large by the
// factor). So for ValuesOnly the copy is scaled further, by a power of two
// (exact), to a largest magnitude in [1/2, 1): then no block of the
// tridiagonal matrix is large enough to be scaled down, and a block small
// enough to be scaled up (a decoupled part below about 1e-122) errs by
// less than that, far below the rounding of the matrix's own scale.
func vendorSyev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	n := a.Rows
	k := matrixKernel{kind: kernelVendor, n: n, vectors: jobz == WithVectors, lwork: vendorWork(n, jobz)}
	return perMatrix(ctx, uplo, a, w, ws, info, vendorSlot(n, jobz), n, k)
}

// vendorSolve is the vendor kernel on one matrix in perMatrix's form
// (solveMatrix): Dsyev on the full symmetric copy s, with d and rest as
// vendorSyev lays them out.
func vendorSolve[T batchlas.Float](s, d, rest []T, n int, vectors bool, lwork int) ([]T, int) {
	impl := gonum.Implementation{}
	jobz := ValuesOnly
	if vectors {
		jobz = WithVectors
	}
	s64, d64 := any(s).([]float64), any(d).([]float64)
	work := any(rest).([]float64)[:lwork]
	var unit float64 = 1
	if !vectors {
		d64 = d64[:n+lwork] // d's tail is work's storage: see above
		var anrm float64
		for _, v := range s64 {
			anrm = max(anrm, math.Abs(v))
		}
		if anrm > 0 {
			unit = pow2Toward(anrm, 0.75)
			for j := range s64 {
				s64[j] *= unit
			}
		}
	}
	if !impl.Dsyev(evJob(jobz), blas.Upper, n, s64, max(1, n), d64, work, lwork) {
		bad := 0
		for _, v := range work[:n-1] {
			if v != 0 {
				bad++
			}
		}
		return nil, max(bad, 1)
	}
	if !vectors {
		for j := range d64[:n] {
			d64[j] /= unit // exact: a power of two
		}
		return nil, 0
	}
	for c := 0; c < n; c++ {
		for r := c + 1; r < n; r++ {
			s[c*n+r], s[r*n+c] = s[r*n+c], s[c*n+r]
		}
	}
	return s, 0
}
