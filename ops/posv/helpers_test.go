package posv

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
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

// orders straddle the fused kernels' four-column groups, potrf's tiny
// (16) and block (64) limits and trsm's leaf sizes beneath nested.
var orders = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 70, 130}

// rhsCounts straddle the four-column groups of the solves.
var rhsCounts = []int{1, 2, 3, 8, 33}

// pin returns ctx with candidate c pinned for posv.
func pin(ctx context.Context, c sel.Choice) context.Context {
	return sel.WithPin(ctx, opName, c.String())
}

// problem is one test input: SPD matrices spd (both triangles), a holding
// their uplo triangle with NaN everywhere else of its storage (the other
// triangle and all padding: a kernel that reads it poisons the result, and
// it must stay as it is), and right-hand sides b with NaN padding.
type problem[T batchlas.Float] struct {
	uplo batchlas.Uplo
	spd  batchlas.Batch[T]
	a, b batchlas.Batch[T]
}

// newProblem makes count systems of order n with nrhs right-hand sides,
// padded (LD > rows, Stride > LD*Cols) when padded is set.
func newProblem[T batchlas.Float](r *rand.Rand, uplo batchlas.Uplo, n, nrhs, count int, padded bool) problem[T] {
	lda, sa, ldb, sb := 0, 0, 0, 0
	if padded {
		lda, ldb = n+3, n+2
		sa, sb = lda*n+5, ldb*nrhs+7
	}
	spd := testmat.Batch[T](r, n, n, count, lda, sa)
	testmat.SPD(r, spd)
	a := testmat.Clone(spd)
	poisonOutside(a, func(r, c int) bool { return inTriangle(uplo, r, c) })
	b := testmat.Batch[T](r, n, nrhs, count, ldb, sb)
	poisonOutside(b, func(int, int) bool { return true })
	return problem[T]{uplo: uplo, spd: spd, a: a, b: b}
}

// clone copies the problem's operands, for a call to overwrite.
func (p problem[T]) clone() (a, b batchlas.Batch[T]) { return testmat.Clone(p.a), testmat.Clone(p.b) }

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

// oracle factors and solves system i with gonum in float64 (Dpotrf, then
// Dpotrs: gonum has no Dposv) on explicitly transposed copies, gonum being
// row-major. It returns the factor's uplo triangle and X, both
// column-major with leading dimension n, and whether gonum found the
// matrix positive definite.
func oracle[T batchlas.Float](p problem[T], i int) (f, x []float64, ok bool) {
	n, nrhs := p.b.Rows, p.b.Cols
	a := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			a[r*n+c] = float64(p.spd.At(i, r, c))
		}
	}
	ul := blas.Lower
	if p.uplo == batchlas.Upper {
		ul = blas.Upper
	}
	impl := gonum.Implementation{}
	if !impl.Dpotrf(ul, n, a, max(1, n)) {
		return nil, nil, false
	}
	xr := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < nrhs; c++ {
			xr[r*nrhs+c] = float64(p.b.At(i, r, c))
		}
	}
	impl.Dpotrs(ul, n, nrhs, a, max(1, n), xr, max(1, nrhs))
	f, x = make([]float64, n*n), make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if inTriangle(p.uplo, r, c) {
				f[r+c*n] = a[r*n+c]
			}
		}
		for c := 0; c < nrhs; c++ {
			x[r+c*n] = xr[r*nrhs+c]
		}
	}
	return f, x, true
}

// solvedMessage is the verdict on system i of p after a call left the
// factor in fa and X in x: "" or what is wrong. The factor and X agree
// with gonum's to 64*n*eps of their largest entries; A*X = B within the
// Cholesky solve's backward-error bound 4*(3n+2)*eps*|F^T|*|F|*|X|; the
// other triangle of A_i is untouched.
func solvedMessage[T batchlas.Float](p problem[T], fa, x batchlas.Batch[T], i int) string {
	n, nrhs := p.b.Rows, p.b.Cols
	eps := testmat.Eps[T]()
	wantF, wantX, ok := oracle(p, i)
	if !ok {
		return "gonum says the test input is not SPD"
	}
	fmax, xmax := testmat.MaxAbs(wantF), testmat.MaxAbs(wantX)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			g := fa.At(i, r, c)
			if !inTriangle(p.uplo, r, c) {
				if w := p.a.At(i, r, c); !(g == w || (g != g && w != w)) {
					return fmt.Sprintf("element (%d,%d) outside the %c triangle changed from %g to %g", r, c, p.uplo, w, g)
				}
				continue
			}
			if d := math.Abs(float64(g) - wantF[r+c*n]); !(d <= 64*float64(n)*eps*fmax) {
				return fmt.Sprintf("factor (%d,%d) = %g, gonum %g", r, c, g, wantF[r+c*n])
			}
		}
	}
	for c := 0; c < nrhs; c++ {
		for r := 0; r < n; r++ {
			g := float64(x.At(i, r, c))
			if d := math.Abs(g - wantX[r+c*n]); !(d <= 64*float64(n)*eps*xmax) {
				return fmt.Sprintf("X(%d,%d) = %g, gonum %g", r, c, g, wantX[r+c*n])
			}
		}
	}
	l := func(r, c int) float64 { // the factor as L, r >= c
		if p.uplo == batchlas.Lower {
			return float64(fa.At(i, r, c))
		}
		return float64(fa.At(i, c, r))
	}
	tol := 4 * float64(3*n+2) * eps
	for c := 0; c < nrhs; c++ {
		ltx := make([]float64, n) // |L^T|*|X(:, c)|
		for k := 0; k < n; k++ {
			for r := k; r < n; r++ {
				ltx[k] += math.Abs(l(r, k) * float64(x.At(i, r, c)))
			}
		}
		for r := 0; r < n; r++ {
			ax, scale := 0.0, 0.0
			for k := 0; k < n; k++ {
				ax += float64(p.spd.At(i, r, k)) * float64(x.At(i, k, c))
				if k <= r {
					scale += math.Abs(l(r, k)) * ltx[k]
				}
			}
			if d := math.Abs(ax - float64(p.b.At(i, r, c))); !(d <= tol*scale) {
				return fmt.Sprintf("residual (%d,%d) = %g > %g", r, c, d, tol*scale)
			}
		}
	}
	return ""
}

// checkSolved fails t unless every system of p named by idx (all when nil)
// is solved in fa and x, and no padding of either changed.
func checkSolved[T batchlas.Float](t *testing.T, what string, p problem[T], fa, x batchlas.Batch[T], idx []int) {
	t.Helper()
	if idx == nil {
		for i := 0; i < p.a.Count; i++ {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		if msg := solvedMessage(p, fa, x, i); msg != "" {
			t.Fatalf("%s: system %d of %d (n=%d nrhs=%d uplo=%c): %s", what, i, p.a.Count, p.a.Rows, p.b.Cols, p.uplo, msg)
		}
	}
	if !testmat.Untouched(fa, fa.Data, p.a.Data) {
		t.Fatalf("%s: A's padding changed", what)
	}
	if !testmat.Untouched(x, x.Data, p.b.Data) {
		t.Fatalf("%s: B's padding changed", what)
	}
}

// property is one conformance property, run for one candidate: ctx pins
// it (and may carry pins of the ops beneath nested).
type property func(t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo)

// nestedPins are pins of the ops beneath nested it also runs under: each
// family of potrs (and so trsm beneath its nested), and potrf's per-matrix
// kernel against its batch-wide blocked one.
var nestedPins = [][2]string{{"potrs", "fused"}, {"potrs", "nested"}, {"potrf", "unblocked"}}

// runs reports whether candidate c can run count systems of order n with
// nrhs right-hand sides on this host (lanes only takes small orders): the
// properties skip the shapes it cannot.
func runs(c sel.Choice, uplo batchlas.Uplo, n, nrhs, count int) bool {
	return Op.CanRun(c, sel.MakeKey(sel.Str(uplo.String()), sel.Int(n), sel.Int(nrhs), sel.Int(count)), batchlas.Host())
}

// forEachCandidate runs f for every compiled candidate of both dtypes
// (iterating Op.Candidates, never a retyped list) and both uplos; nested
// also under each of nestedPins.
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				name := string(dt) + "/" + c.String() + "/" + uplo.String()
				t.Run(name, func(t *testing.T) { f(t, pin(context.Background(), c), c, uplo) })
				if c.Is(nestedFamily) {
					for _, np := range nestedPins {
						t.Run(name+"/"+np[0]+"="+np[1], func(t *testing.T) {
							f(t, sel.WithPin(pin(context.Background(), c), np[0], np[1]), c, uplo)
						})
					}
				}
			}
		}
	}
}

// failAt overwrites matrix i of a (both triangles, NaN outside uplo's
// kept as NaN by the caller if wanted) with L*D*L^T, L unit lower with
// small integer entries and D = I except D[col-1] = -1: the leading minor
// of order col-1 is positive definite and the pivot of column col is
// exactly -1, computed exactly in float32 and float64 alike, so every
// correct Cholesky reports info = col.
func failAt[T batchlas.Float](a batchlas.Batch[T], i, col int) {
	n := a.Rows
	l := func(r, c int) float64 {
		switch {
		case r == c:
			return 1
		case r > c:
			return float64(1 + (r+c)%3)
		}
		return 0
	}
	for r := 0; r < n; r++ {
		for c := 0; c <= r; c++ {
			s := 0.0
			for k := 0; k <= c; k++ {
				d := 1.0
				if k == col-1 {
					d = -1
				}
				s += l(r, k) * d * l(c, k)
			}
			a.Set(i, r, c, T(s))
			a.Set(i, c, r, T(s))
		}
	}
}

// sameBits reports whether x and y hold the same values, a NaN matching a
// NaN (the poison in the tests' padding).
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
