//go:build !novendor

package gesvd

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/svd"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 SVD. float32 calls run natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorSlot is the vendor kernel's per-worker scratch: the copy of A
// gonum overwrites, and Dgesvd's work.
func vendorSlot(m, n int, jobu, jobvt Job) int {
	return parallel.Pad(m*n + vendorWork(m, n, jobu, jobvt))
}

// vendorWork is the work length Dgesvd asks for the transposed problem
// vendorGesvd hands it.
func vendorWork(m, n int, jobu, jobvt Job) int {
	// The query answers through a shared array: a local one would escape
	// into gonum (an allocation on every call and every BufferSize).
	vendorQuery.Lock()
	defer vendorQuery.Unlock()
	// The query slices its operands past one leading dimension (gonum's
	// Dorgbr takes a[lda+1:]) without reading them: a shared dummy, grown
	// once to the largest order asked, stands for all three.
	if d := max(m, n) + 2; len(vendorQuery.dummy) < d {
		vendorQuery.dummy = make([]float64, d)
	}
	x := vendorQuery.dummy
	gonum.Implementation{}.Dgesvd(svdJob(jobvt), svdJob(jobu), n, m, x, max(1, m), x, x, max(1, n), x, max(1, m), vendorQuery.q[:], -1)
	k := min(m, n)
	return max(int(vendorQuery.q[0]), 5*k, 3*k+max(m, n), 1)
}

// vendorQuery is where vendorWork's workspace queries answer.
var vendorQuery struct {
	sync.Mutex
	q     [1]float64
	dummy []float64
}

func svdJob(j Job) lapack.SVDJob {
	switch j {
	case ThinVectors:
		return lapack.SVDStore
	case AllVectors:
		return lapack.SVDAll
	}
	return lapack.SVDNone
}

// vendorGesvd calls gonum's Dgesvd on each matrix, parallel over the
// batch. gonum is row-major, and a column-major A read as row-major is
// A^T = V S U^T: Dgesvd of that n x m matrix returns V where it writes
// its U and U^T where it writes its V^T, laid out as row-major matrices
// whose memory is exactly our column-major V^T and U. So it writes u, vt
// and s in place; only A is copied (Dgesvd overwrites it).
func vendorGesvd[T batchlas.Float](ctx context.Context, p *problem[T], ws []T, info []int32) error {
	if _, ok := any(p.a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	buf, _ := any(ws).([]float64)
	nn := vendorSlot(p.a.Rows, p.a.Cols, p.jobu, p.jobvt)
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.buf, j.slot, j.info = runVendor, *p, buf, nn, info
	work := flopsPerMatrix(p.a.Rows, p.a.Cols, p.jobu != NoVectors || p.jobvt != NoVectors)
	return parallel.RunScratch(ctx, p.a.Count, work, len(buf)/nn, j)
}

// vendor decomposes matrices [lo, hi) (float64) with gonum on worker w's
// scratch.
func (j *job[T]) vendor(w, lo, hi int) {
	p := &j.p
	m, n := p.a.Rows, p.a.Cols
	k := min(m, n)
	data, _ := any(p.a.Data).([]float64)
	sd, _ := any(p.s.Data).([]float64)
	s := j.buf[w*j.slot : (w+1)*j.slot]
	t, work := s[:m*n], s[m*n:]
	impl := gonum.Implementation{}
	for i := lo; i < hi; i++ {
		a := data[i*p.a.Stride : i*p.a.Stride+(n-1)*p.a.LD+m]
		if !svd.Finite(m, n, a, p.a.LD) {
			j.info[i] = int32(k + 1)
			continue
		}
		for c := range n {
			copy(t[c*m:c*m+m], a[c*p.a.LD:c*p.a.LD+m])
		}
		u, ldu := floatVectors(p.jobu, p.u, i)
		vt, ldvt := floatVectors(p.jobvt, p.vt, i)
		o := i * p.s.Stride
		ok := impl.Dgesvd(svdJob(p.jobvt), svdJob(p.jobu), n, m, t, m, sd[o:o+k], vt, ldvt, u, ldu, work, len(work))
		svd.Signs(m, n, p.jobu.kernelJob(), p.jobvt.kernelJob(), u, ldu, vt, ldvt)
		if !ok {
			j.info[i] = int32(k)
			continue
		}
		j.info[i] = 0
	}
}

// floatVectors is vectorsOf for the float64 batch b (the vendor kernel's
// only dtype).
func floatVectors[T batchlas.Float](job Job, b batchlas.Batch[T], i int) ([]float64, int) {
	v, ld := vectorsOf(job, b, i)
	f, _ := any(v).([]float64)
	return f, ld
}
