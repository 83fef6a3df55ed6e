package syev

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for syev.
func pin(ctx context.Context, c sel.Choice) context.Context {
	return sel.WithPin(ctx, opName, c.String())
}

// The kinds of test matrices, by i % kinds for matrix i of a problem.
const (
	kindRandom    = iota // uniform entries in [-1, 1)
	kindClustered        // Q*diag(1,1,1,2,2,2,3,...)*Q^T: repeated eigenvalues
	kindDiagonal         // a diagonal, unsorted, with repeated entries
	kindZero             // the zero matrix
	kindIdentity         // I
	kindSpread           // Q*diag(+-10^(-8j/n))*Q^T: eigenvalues over 8 decades
	kinds
)

// problem is one test input: count symmetric matrices full (both
// triangles, values exactly representable in T, the oracle's input), a
// holding their uplo triangle with NaN everywhere else of its storage
// (the other triangle and all padding: a kernel that reads it poisons the
// result, and it must stay as it is), and w, NaN throughout, vectors of
// Len wlen >= n with NaN gaps between them when padded.
type problem[T batchlas.Float] struct {
	jobz Job
	uplo batchlas.Uplo
	full batchlas.Batch[float64]
	a    batchlas.Batch[T]
	w    batchlas.Vectors[T]
	refs []*reference // gonum's results per matrix, made when first asked
}

// reference is gonum's eigendecomposition of one matrix.
type reference struct{ w, v []float64 }

// newProblem makes count matrices of order n, the kinds in turn from
// first (so a batch of one can be any kind), padded (LD > n, gaps between
// matrices and between eigenvalue vectors, w.Len > n) when padded is set.
func newProblem[T batchlas.Float](r *rand.Rand, jobz Job, uplo batchlas.Uplo, n, count, first int, padded bool) problem[T] {
	lda, sa, wlen, sw := 0, 0, n, n
	if padded {
		lda = n + 3
		sa = lda*n + 5
		wlen, sw = n+1, n+3
	}
	a := testmat.Batch[T](r, n, n, count, lda, sa)
	full := batchlas.NewBatch[float64](n, n, count)
	for i := 0; i < count; i++ {
		m := symmetric(r, n, (first+i)%kinds)
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				v := T(m[row+c*n]) // rounded to T; symmetric stays symmetric
				full.Set(i, row, c, float64(v))
				a.Set(i, row, c, v)
			}
		}
	}
	poisonOutside(a, func(row, c int) bool { return inTriangle(uplo, row, c) })
	w := batchlas.Vectors[T]{Data: testmat.NaNs[T](max(1, sw*count)), Len: wlen, Stride: sw, Count: count}
	return problem[T]{jobz: jobz, uplo: uplo, full: full, a: a, w: w, refs: make([]*reference, count)}
}

// clone copies the problem's operands, for a call to overwrite.
func (p problem[T]) clone() (batchlas.Batch[T], batchlas.Vectors[T]) {
	w := p.w
	w.Data = append([]T(nil), w.Data...)
	return testmat.Clone(p.a), w
}

// symmetric returns a symmetric n x n matrix of the kind, column-major.
func symmetric(r *rand.Rand, n, kind int) []float64 {
	m := make([]float64, n*n)
	switch kind {
	case kindRandom:
		for c := 0; c < n; c++ {
			for row := c; row < n; row++ {
				v := 2*r.Float64() - 1
				m[row+c*n], m[c+row*n] = v, v
			}
		}
	case kindClustered, kindSpread:
		lam := make([]float64, n)
		for j := range lam {
			if kind == kindClustered {
				lam[j] = float64(1 + j/3)
			} else {
				lam[j] = math.Pow(10, -8*float64(j)/float64(max(1, n)))
				if j%2 == 1 {
					lam[j] = -lam[j]
				}
			}
		}
		q := orthogonal(r, n)
		for c := 0; c < n; c++ {
			for row := c; row < n; row++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += q[row+k*n] * lam[k] * q[c+k*n]
				}
				m[row+c*n], m[c+row*n] = s, s
			}
		}
	case kindDiagonal:
		for j := 0; j < n; j++ {
			m[j+j*n] = float64((j*7)%5) - 2 // -2..2, repeated, unsorted
		}
	case kindIdentity:
		for j := 0; j < n; j++ {
			m[j+j*n] = 1
		}
	}
	return m
}

// orthogonal is a random orthogonal n x n matrix: the Q of a random
// matrix's QR factorisation (gonum).
func orthogonal(r *rand.Rand, n int) []float64 {
	q := make([]float64, n*n)
	for j := range q {
		q[j] = r.NormFloat64()
	}
	if n == 0 {
		return q
	}
	impl := gonum.Implementation{}
	tau := make([]float64, n)
	work := make([]float64, 64*n)
	impl.Dgeqrf(n, n, q, n, tau, work, len(work))
	impl.Dorgqr(n, n, n, q, n, tau, work, len(work))
	return q // row-major Q is column-major Q^T: orthogonal as well
}

// inTriangle reports whether (r, c) is in the uplo triangle.
func inTriangle(uplo batchlas.Uplo, r, c int) bool {
	if uplo == batchlas.Lower {
		return r >= c
	}
	return r <= c
}

// poisonOutside sets every element of x's storage to NaN but the elements
// (r, c) of its matrices for which keep says true.
func poisonOutside[T batchlas.Float](x batchlas.Batch[T], keep func(r, c int) bool) {
	inside := make([]bool, len(x.Data))
	for i := 0; i < x.Count; i++ {
		for c := 0; c < x.Cols; c++ {
			for r := 0; r < x.Rows; r++ {
				if keep(r, c) {
					inside[i*x.Stride+c*x.LD+r] = true
				}
			}
		}
	}
	for j := range x.Data {
		if !inside[j] {
			x.Data[j] = T(math.NaN())
		}
	}
}

// oracle is gonum's Dsyev in float64 on matrix i of p's full matrices:
// the eigenvalues and the eigenvectors as columns (leading dimension n).
func oracle[T batchlas.Float](p problem[T], i int) (w, v []float64) {
	n := p.full.Rows
	v = make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			v[r*n+c] = p.full.At(i, r, c)
		}
	}
	w = make([]float64, n)
	impl := gonum.Implementation{}
	work := make([]float64, 1)
	impl.Dsyev(lapack.EVCompute, blas.Upper, n, v, max(1, n), w, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dsyev(lapack.EVCompute, blas.Upper, n, v, max(1, n), w, work, len(work)) {
		panic("gonum's Dsyev did not converge on a test matrix")
	}
	// Row-major eigenvectors to columns.
	for c := 0; c < n; c++ {
		for r := c + 1; r < n; r++ {
			v[r*n+c], v[c*n+r] = v[c*n+r], v[r*n+c]
		}
	}
	return w, v
}

// frob is the Frobenius norm of matrix i of b.
func frob(b batchlas.Batch[float64], i int) float64 {
	s := 0.0
	for c := 0; c < b.Cols; c++ {
		for r := 0; r < b.Rows; r++ {
			s += b.At(i, r, c) * b.At(i, r, c)
		}
	}
	return math.Sqrt(s)
}

// threshold bounds the scaled residual and orthogonality ratios, as
// LAPACK's tests bound theirs.
const threshold = 30

// solvedMessage is the verdict on matrix i of p after a call left a and
// w: "" or what is wrong. The eigenvalues are ascending and within
// threshold*n*eps*||A||_F of gonum's; with vectors, ||A*V - V*diag(w)||_F
// / (n*eps*||A||_F) and ||V^T*V - I||_F / (n*eps) are below threshold,
// every column keeps the sign convention, and the columns of well
// separated eigenvalues with a clear largest entry match gonum's; without
// vectors A_i is untouched; no element of w's vector past n is written.
func solvedMessage[T batchlas.Float](p problem[T], a batchlas.Batch[T], w batchlas.Vectors[T], i int) string {
	n := p.full.Rows
	eps := testmat.Eps[T]()
	nrm := frob(p.full, i)
	if p.refs[i] == nil {
		wg, vg := oracle(p, i)
		p.refs[i] = &reference{wg, vg}
	}
	wg, vg := p.refs[i].w, p.refs[i].v
	got := w.Vector(i)
	for j := 0; j < n; j++ {
		g := float64(got[j])
		if d := math.Abs(g - wg[j]); !(d <= threshold*float64(n)*eps*nrm) {
			return fmt.Sprintf("eigenvalue %d = %g, gonum %g (|A| = %g)", j, g, wg[j], nrm)
		}
		if j > 0 && !(got[j-1] <= got[j]) {
			return fmt.Sprintf("eigenvalues %d and %d out of order: %g, %g", j-1, j, got[j-1], got[j])
		}
	}
	for j := n; j < w.Len; j++ {
		if g := got[j]; g == g {
			return fmt.Sprintf("w[%d] past n was written: %g", j, g)
		}
	}
	if p.jobz == ValuesOnly {
		if testmat.SameMatrices(a, p.a, i, i+1) != -1 {
			return "A was written with jobz = N"
		}
		return ""
	}
	v, af := make([]float64, n*n), make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			v[r+c*n] = float64(a.At(i, r, c))
			af[r+c*n] = p.full.At(i, r, c)
		}
	}
	// Residual and orthogonality. A column-major n x n array read row-major
	// is its transpose: (V^T A^T)[c][r] = (AV)[r][c] and (V^T V)[r][c] is
	// column r of V dotted with column c (gonum's Dgemm: the triple loop
	// over Batch.At was most of the conformance test's time).
	vt := blas64.General{Rows: n, Cols: n, Stride: max(1, n), Data: v}
	avt := blas64.General{Rows: n, Cols: n, Stride: max(1, n), Data: make([]float64, n*n)}
	vtv := blas64.General{Rows: n, Cols: n, Stride: max(1, n), Data: make([]float64, n*n)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, vt, blas64.General{Rows: n, Cols: n, Stride: max(1, n), Data: af}, 0, avt)
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, vt, vt, 0, vtv)
	res, orth := 0.0, 0.0
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			d := avt.Data[c*n+r] - v[r+c*n]*float64(got[c])
			res += d * d
			e := vtv.Data[r*n+c]
			if r == c {
				e--
			}
			orth += e * e
		}
	}
	res, orth = math.Sqrt(res), math.Sqrt(orth)
	if !(res <= threshold*float64(n)*eps*max(nrm, math.SmallestNonzeroFloat64)) && !(res == 0) {
		return fmt.Sprintf("residual |AV - VW| = %g, %g n eps |A|", res, res/(float64(n)*eps*nrm))
	}
	if !(orth <= threshold*float64(n)*eps) {
		return fmt.Sprintf("orthogonality |V'V - I| = %g, %g n eps", orth, orth/(float64(n)*eps))
	}
	for c := 0; c < n; c++ {
		col := v[c*n : c*n+n]
		if at := largest(col); !(col[at] > 0) {
			return fmt.Sprintf("column %d: its largest entry %d is %g, not positive", c, at, col[at])
		}
	}
	// Columns that are well defined (eigenvalue separated from the others
	// by 1e-3 |A|) and whose sign is well defined (largest entry clear of
	// the next by 1e-3) match gonum's under the same sign convention.
	for c := 0; c < n; c++ {
		gap := math.Inf(1)
		for k := 0; k < n; k++ {
			if k != c {
				gap = min(gap, math.Abs(wg[k]-wg[c]))
			}
		}
		if !(gap > 1e-3*nrm) {
			continue
		}
		ref := append([]float64(nil), vg[c*n:c*n+n]...)
		at := largest(ref)
		if ref[at] < 0 {
			for k := range ref {
				ref[k] = -ref[k]
			}
		}
		if !clearMax(ref, 1e-3) {
			continue
		}
		tol := threshold * float64(n) * eps * nrm / gap
		for k := 0; k < n; k++ {
			if d := math.Abs(v[k+c*n] - ref[k]); !(d <= tol) {
				return fmt.Sprintf("eigenvector %d entry %d = %g, gonum %g (gap %g)", c, k, v[k+c*n], ref[k], gap)
			}
		}
	}
	return ""
}

// largest is the index of the first entry of largest magnitude.
func largest(x []float64) int {
	at, big := 0, -1.0
	for k, v := range x {
		if math.Abs(v) > big {
			at, big = k, math.Abs(v)
		}
	}
	return at
}

// clearMax reports whether x's largest magnitude exceeds every other by
// more than rel of it.
func clearMax(x []float64, rel float64) bool {
	at := largest(x)
	for k, v := range x {
		if k != at && math.Abs(x[at])-math.Abs(v) <= rel*math.Abs(x[at]) {
			return false
		}
	}
	return true
}

// checkSolved fails t unless every matrix of p named by idx (all when nil)
// is solved in a and w, and no padding of either changed.
func checkSolved[T batchlas.Float](t *testing.T, what string, p problem[T], a batchlas.Batch[T], w batchlas.Vectors[T], idx []int) {
	t.Helper()
	if idx == nil {
		for i := 0; i < p.a.Count; i++ {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		if msg := solvedMessage(p, a, w, i); msg != "" {
			t.Fatalf("%s: matrix %d of %d (kind %d, n=%d jobz=%v uplo=%v): %s", what, i, p.a.Count, i%kinds, p.a.Rows, p.jobz, p.uplo, msg)
		}
	}
	if !testmat.Untouched(a, a.Data, p.a.Data) {
		t.Fatalf("%s: A's padding changed", what)
	}
	if !vectorGapsUntouched(w, p.w) {
		t.Fatalf("%s: w's padding changed", what)
	}
}

// vectorGapsUntouched reports whether got and want agree (NaN matching
// NaN) on every element of the storage outside the first n = got.Len
// entries' vectors... precisely: outside [i*Stride, i*Stride+Len).
func vectorGapsUntouched[T batchlas.Float](got, want batchlas.Vectors[T]) bool {
	inside := make([]bool, len(got.Data))
	for i := 0; i < got.Count; i++ {
		for j := 0; j < got.Len; j++ {
			inside[i*got.Stride+j] = true
		}
	}
	for j := range got.Data {
		g, w := got.Data[j], want.Data[j]
		if !inside[j] && !(g == w || (g != g && w != w)) {
			return false
		}
	}
	return true
}

// sameVectors reports whether vectors [lo, hi) of got and want hold the
// same bits in their first Len entries (NaN matching NaN).
func sameVectors[T batchlas.Float](got, want batchlas.Vectors[T], lo, hi int) bool {
	for i := lo; i < hi; i++ {
		g, w := got.Vector(i), want.Vector(i)
		for j := range g {
			if !(g[j] == w[j] || (g[j] != g[j] && w[j] != w[j])) {
				return false
			}
		}
	}
	return true
}

// property is one conformance property, run for one candidate with
// ctx pinning it.
type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(context.Background(), c), c) })
		}
	}
}

// runs reports whether candidate c can run order n (can_run on the host).
func runs(c sel.Choice, jobz Job, uplo batchlas.Uplo, n, count int) bool {
	a := batchlas.Batch[float64]{Rows: n, Cols: n, LD: max(1, n), Count: count}
	return Op.CanRun(c, makeKey(jobz, uplo, a), batchlas.Host())
}

// sameBits reports whether x and y hold the same values, a NaN matching a
// NaN.
func sameBits[T batchlas.Float](x, y []T) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !(x[i] == y[i] || (x[i] != x[i] && y[i] != y[i])) {
			return false
		}
	}
	return true
}

// identity is the n x n identity, the z steqr starts from on a
// tridiagonal matrix of its own.
func identity(n int) []float64 {
	z := make([]float64, n*n)
	for i := range n {
		z[i*n+i] = 1
	}
	return z
}
