//go:build !novendor

package geqrf

import (
	"context"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 QR. float32 calls run natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorNB is the work gonum's Dgeqrf is given per column: its block size
// for dgeqrf (ilaenv's 32), so it runs blocked.
const vendorNB = 32

// vendorScratch is the per-worker scratch of the vendor kernel: the
// row-major copy and gonum's work.
func vendorScratch(m, n int) int { return parallel.Pad(m*n + max(1, n)*vendorNB) }

// vendorGeqrf calls gonum's Dgeqrf on each matrix, parallel over the
// batch. gonum is row-major: each matrix is transposed into the worker's
// m x n row-major copy, factored there and transposed back; tau is
// written directly.
func vendorGeqrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	buf, _ := any(ws).([]float64)
	nn := vendorScratch(a.Rows, a.Cols)
	if len(buf) < nn {
		buf = make([]float64, parallel.Workers(ctx)*nn)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.tau, j.buf, j.slot = runVendor, a, tau, buf, nn
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(a.Rows, a.Cols), len(buf)/nn, j)
}

// vendor factors matrices [lo, hi) of a (float64) with gonum on worker
// w's copy.
func (j *job[T]) vendor(w, lo, hi int) {
	data, _ := any(j.a.Data).([]float64)
	td, _ := any(j.tau.Data).([]float64)
	a := j.a
	m, n, ld := a.Rows, a.Cols, a.LD
	k := min(m, n)
	s := j.buf[w*j.slot : (w+1)*j.slot]
	t, work := s[:m*n], s[m*n:]
	impl := gonum.Implementation{}
	for i := lo; i < hi; i++ {
		mat := data[i*a.Stride : i*a.Stride+(n-1)*ld+m]
		for c := 0; c < n; c++ {
			for r, v := range mat[c*ld : c*ld+m] {
				t[r*n+c] = v
			}
		}
		o := i * j.tau.Stride
		impl.Dgeqrf(m, n, t, n, td[o:o+k], work, len(work))
		for c := 0; c < n; c++ {
			col := mat[c*ld : c*ld+m]
			for r := range col {
				col[r] = t[r*n+c]
			}
		}
	}
}
