package potrs

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
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle the fused kernel's four-column groups and tails, trsm's
// small-triangle path (4) and blocked leaf sizes (8, 16, 32) beneath
// nested, and larger orders where trsm's blocked hands updates to gemm.
var orders = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 70, 130}

// rhsCounts straddle the four-column groups (1, 2, 3 alone; 8 two groups;
// 33 eight and a tail of one).
var rhsCounts = []int{1, 2, 3, 8, 33}

// pin returns ctx with candidate c pinned for potrs.
func pin(ctx context.Context, c sel.Choice) context.Context {
	return sel.WithPin(ctx, opName, c.String())
}

// system is one test input: SPD matrices, their factors in the uplo
// triangle of a (everything else of a's storage, the other triangle and
// all padding, NaN, so a kernel that reads it poisons X), and right-hand
// sides b whose padding is NaN too (it must stay untouched).
type system[T batchlas.Float] struct {
	uplo batchlas.Uplo
	spd  batchlas.Batch[T] // the matrices factored, both triangles
	a, b batchlas.Batch[T]
}

// newSystem makes count systems of order n with nrhs right-hand sides,
// padded (LD > rows, Stride > LD*Cols) when padded is set. The factor is
// potrf's.
func newSystem[T batchlas.Float](r *rand.Rand, uplo batchlas.Uplo, n, nrhs, count int, padded bool) system[T] {
	lda, sa, ldb, sb := 0, 0, 0, 0
	if padded {
		lda, ldb = n+3, n+2
		sa, sb = lda*n+5, ldb*nrhs+7
	}
	spd := testmat.Batch[T](r, n, n, count, lda, sa)
	testmat.SPD(r, spd)
	a := testmat.Clone(spd)
	if err := potrf.Potrf(context.Background(), uplo, a, nil); err != nil {
		panic(fmt.Sprintf("test input not SPD: %v", err))
	}
	poisonOutside(a, func(r, c int) bool { return inTriangle(uplo, r, c) })
	b := testmat.Batch[T](r, n, nrhs, count, ldb, sb)
	poisonOutside(b, func(int, int) bool { return true })
	return system[T]{uplo: uplo, spd: spd, a: a, b: b}
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

// oracle solves system i with gonum's Dpotrs in float64, on explicitly
// transposed copies (gonum is row-major): the factor as a row-major n x n
// matrix holding the same triangle, B as a row-major n x nrhs matrix. It
// returns X column-major with leading dimension n.
func oracle[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T], i int) []float64 {
	n, nrhs := b.Rows, b.Cols
	f := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if inTriangle(uplo, r, c) {
				f[r*n+c] = float64(a.At(i, r, c))
			}
		}
	}
	x := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < nrhs; c++ {
			x[r*nrhs+c] = float64(b.At(i, r, c))
		}
	}
	ul := blas.Lower
	if uplo == batchlas.Upper {
		ul = blas.Upper
	}
	gonum.Implementation{}.Dpotrs(ul, n, nrhs, f, max(1, n), x, max(1, nrhs))
	out := make([]float64, n*nrhs)
	for r := 0; r < n; r++ {
		for c := 0; c < nrhs; c++ {
			out[r+c*n] = x[r*nrhs+c]
		}
	}
	return out
}

// checkSolved fails t unless every X_i in x (solved from s.b) agrees with
// gonum's Dpotrs to 64*n*eps relative to the largest |X|, solves
// A_i*X = B_i within the Cholesky solve's backward-error bound
// 4*(3n+2)*eps*|F^T|*|F|*|X|, and B's padding is untouched.
func checkSolved[T batchlas.Float](t *testing.T, what string, s system[T], x batchlas.Batch[T]) {
	t.Helper()
	for i := 0; i < x.Count; i++ {
		if msg := solvedMessage(s, x, i); msg != "" {
			t.Fatalf("%s: matrix %d of %d (n=%d nrhs=%d uplo=%c): %s", what, i, x.Count, x.Rows, x.Cols, s.uplo, msg)
		}
	}
	if !testmat.Untouched(x, x.Data, s.b.Data) {
		t.Fatalf("%s: B's padding changed", what)
	}
}

// solvedMessage is checkSolved's verdict on system i: "" or what is wrong.
func solvedMessage[T batchlas.Float](s system[T], x batchlas.Batch[T], i int) string {
	n, nrhs := x.Rows, x.Cols
	eps := testmat.Eps[T]()
	want := oracle(s.uplo, s.a, s.b, i)
	xmax := testmat.MaxAbs(want)
	for c := 0; c < nrhs; c++ {
		for r := 0; r < n; r++ {
			g := float64(x.At(i, r, c))
			if d := math.Abs(g - want[r+c*n]); !(d <= 64*float64(n)*eps*xmax) {
				return fmt.Sprintf("X(%d,%d) = %g, gonum %g", r, c, g, want[r+c*n])
			}
		}
	}
	// Residual: |A*X - B| against |F^T|*|F|*|X|, F the factor as L.
	l := func(r, c int) float64 { // L(r, c), r >= c
		if s.uplo == batchlas.Lower {
			return float64(s.a.At(i, r, c))
		}
		return float64(s.a.At(i, c, r))
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
				ax += float64(s.spd.At(i, r, k)) * float64(x.At(i, k, c))
				if k <= r {
					scale += math.Abs(l(r, k)) * ltx[k]
				}
			}
			if d := math.Abs(ax - float64(s.b.At(i, r, c))); !(d <= tol*scale) {
				return fmt.Sprintf("residual (%d,%d) = %g > %g", r, c, d, tol*scale)
			}
		}
	}
	return ""
}

// property is one conformance property, run for one candidate: ctx pins
// it (and may carry a device or a pin of trsm).
type property func(t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo)

// forEachCandidate runs f for every compiled candidate of both dtypes
// (iterating Op.Candidates, never a retyped list) and both uplos. nested
// also runs once under each pin of trsm, so every trsm kernel serves it.
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
					for _, tc := range trsmPins {
						t.Run(name+"/trsm="+tc, func(t *testing.T) {
							f(t, sel.WithPin(pin(context.Background(), c), "trsm", tc), c, uplo)
						})
					}
				}
			}
		}
	}
}

// trsmPins are trsm kernels nested is run under: substitution, and the
// recursive blocking that hands updates to gemm.
var trsmPins = []string{"direct", "blocked:nb=8"}
