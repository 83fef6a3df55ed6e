//go:build !novendor

package potrs

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 Cholesky solve, and converting through float64 would make
// "vendor" a different algorithm at a different precision. float32 calls
// run natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorPotrs calls gonum's Dpotrs on each matrix, parallel over the batch.
//
// gonum is row-major. The factor needs no copy: a column-major matrix with
// leading dimension ld is the row-major transpose with stride ld, so the
// lower factor L of the column-major matrix is the upper factor L^T of the
// row-major one, of the same A (and the reverse). B does: its column-major
// reading is B^T row-major, and Dpotrs solves for the columns of a
// row-major n x nrhs matrix. So B_i is transposed into the worker's
// scratch, solved there and transposed back; a single column needs no
// copy (n x 1 row-major with stride 1 is the column itself).
func vendorPotrs[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.b = runVendorColumn, uplo, a, b
	n, nrhs := b.Rows, b.Cols
	work := flopsPerMatrix(n, nrhs)
	if nrhs == 1 {
		return parallel.Run(ctx, b.Count, work, j)
	}
	per := vendorScratch(n, nrhs)
	wsd, _ := any(ws).([]float64)
	if len(wsd) < per {
		wsd = make([]float64, parallel.Workers(ctx)*per)
	}
	// At most one worker per slot of ws, so (w+1)*per <= len(ws).
	j.kernel, j.wsd, j.per = runVendorCopied, wsd, per
	return parallel.RunScratch(ctx, b.Count, work, len(wsd)/per, j)
}

// vendor solves systems [lo, hi) with gonum, on worker w's scratch when B
// has several columns.
func (j *job[T]) vendor(w, lo, hi int) {
	a, b := j.a, j.b
	ad, _ := any(a.Data).([]float64)
	bd, _ := any(b.Data).([]float64)
	ul := blas.Upper
	if j.uplo == batchlas.Upper {
		ul = blas.Lower
	}
	n, nrhs := b.Rows, b.Cols
	impl := gonum.Implementation{}
	factor := func(i int) []float64 { return ad[i*a.Stride : i*a.Stride+(n-1)*a.LD+n] }
	if j.kernel == runVendorColumn {
		for i := lo; i < hi; i++ {
			impl.Dpotrs(ul, n, 1, factor(i), a.LD, bd[i*b.Stride:i*b.Stride+n], 1)
		}
		return
	}
	per := j.per
	t := j.wsd[w*per : w*per+n*nrhs] // row-major n x nrhs, stride nrhs
	for i := lo; i < hi; i++ {
		m := bd[i*b.Stride:]
		for c := 0; c < nrhs; c++ {
			col := m[c*b.LD : c*b.LD+n]
			for r, v := range col {
				t[r*nrhs+c] = v
			}
		}
		impl.Dpotrs(ul, n, nrhs, factor(i), a.LD, t, nrhs)
		for c := 0; c < nrhs; c++ {
			col := m[c*b.LD : c*b.LD+n]
			for r := range col {
				col[r] = t[r*nrhs+c]
			}
		}
	}
}

// vendorScratch is the per-worker scratch of the vendor kernel: a
// transposed copy of one B_i, none for a single column.
func vendorScratch(n, nrhs int) int {
	if nrhs == 1 {
		return 0
	}
	return parallel.Pad(n * nrhs)
}
