//go:build !novendor

package getri

import (
	"context"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorFloat64 is the vendor candidate: gonum's LAPACK has no float32
// inverse, so float32 calls run natively.
var vendorFloat64 = []sel.Choice{vendor.With()}

// vendorSlot is the vendor kernel's per-worker scratch: the row-major
// copy of the factor gonum works on, gonum's int pivots (an int takes a
// float64's 8 bytes) and Dgetri's work; or the per-matrix kernel's, for
// the factors that go to it.
func vendorSlot(n int) int {
	return max(parallel.Pad(n*n+n+vendorWork(n)), permatrixSlot[float64](n))
}

// vendorWork is the work length Dgetri asks for at order n.
func vendorWork(n int) int {
	// The query answers through a shared array: a local one would escape
	// into gonum (an allocation on every call and every BufferSize).
	vendorQuery.Lock()
	defer vendorQuery.Unlock()
	gonum.Implementation{}.Dgetri(n, nil, max(1, n), nil, vendorQuery.q[:], -1)
	return max(int(vendorQuery.q[0]), n, 1)
}

// vendorQuery is where vendorWork's workspace queries answer.
var vendorQuery struct {
	sync.Mutex
	q [1]float64
}

// launchVendor inverts each matrix with gonum's Dgetri, parallel over the
// batch.
func launchVendor[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	return runJob(ctx, runVendor, a, ipiv, ws, vendorSlot(a.Rows), info)
}

// vendor inverts one factor (float64) with gonum on its worker's scratch
// (work, vendorSlot elements).
// gonum is row-major and reads a row-major matrix's rows as our columns,
// so the factor goes to it transposed (its rows our rows) and the inverse
// comes back transposed again; gonum's pivots are ints, 0-based as ours.
func (j *job[T]) vendor(ai []T, piv []int32, work []T) {
	n, lda := j.a.Rows, j.a.LD
	a, _ := any(ai).([]float64)
	s, _ := any(work).([]float64)
	t, gw := s[:n*n], s[n*n+n:]
	// The pivots as ints, in the workspace: an int is 8 bytes, as a
	// float64 is, and neither holds a pointer.
	ip := unsafe.Slice((*int)(unsafe.Pointer(&s[n*n])), n)
	for c := range n {
		for r := range n {
			t[r*n+c] = a[c*lda+r]
		}
	}
	for k, p := range piv {
		ip[k] = int(p)
	}
	gonum.Implementation{}.Dgetri(n, t, n, ip, gw, len(gw))
	for c := range n {
		for r := range n {
			a[c*lda+r] = t[r*n+c]
		}
	}
}
