package potrf

import (
	"context"
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

// The orders that straddle the kernels' limits and block edges.
var straddleSizes = []int{1, 2, 3, 7, 8, 9, 12, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129}

// residualBound is the stated backward-error bound of every candidate:
// max|A - L*L^T| <= residualC * n * eps * max|A| (Cholesky is backward
// stable with a bound of about (n+1)*eps*|L||L^T|, and |L||L^T| <= max|A|
// elementwise for an SPD A).
const residualC = 4

// pin returns ctx with candidate c pinned for potrf.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "potrf", c.String())
}

// batchFor allocates an n x n batch of count matrices, padded (LD > rows,
// Stride > LD*Cols) when padded is true, and fills it with SPD matrices.
// The padding holds random values a kernel must not touch.
func batchFor[T batchlas.Float](r *rand.Rand, n, count int, padded bool) batchlas.Batch[T] {
	ld, stride := 0, 0
	if padded {
		ld = n + 3
		stride = ld*n + 5
	}
	a := testmat.Batch[T](r, n, n, count, ld, stride)
	testmat.SPD(r, a)
	return a
}

// inTriangle reports whether (r, c) is in the uplo triangle.
func inTriangle(uplo batchlas.Uplo, r, c int) bool {
	if uplo == batchlas.Lower {
		return r >= c
	}
	return r <= c
}

// residual is max|A - F*F'| / (n*eps*max|A|) for matrix i, comparing the
// uplo triangle only, where F is the factor read from got's uplo triangle
// (L*L^T for Lower, U^T*U for Upper) and A is orig's uplo triangle.
func residual[T batchlas.Float](uplo batchlas.Uplo, orig, got batchlas.Batch[T], i int) float64 {
	n := orig.Rows
	// l is the lower factor, column-major n x n (L, or U^T).
	l := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := c; r < n; r++ {
			if uplo == batchlas.Lower {
				l[r+c*n] = float64(got.At(i, r, c))
			} else {
				l[r+c*n] = float64(got.At(i, c, r))
			}
		}
	}
	worst, amax := 0.0, 0.0
	for c := 0; c < n; c++ {
		for r := c; r < n; r++ {
			s := 0.0
			for k := 0; k <= c; k++ {
				s += l[r+k*n] * l[c+k*n]
			}
			var a float64
			if uplo == batchlas.Lower {
				a = float64(orig.At(i, r, c))
			} else {
				a = float64(orig.At(i, c, r))
			}
			d := math.Abs(a - s)
			if math.IsNaN(d) {
				return math.Inf(1)
			}
			worst = max(worst, d)
			amax = max(amax, math.Abs(a))
		}
	}
	if amax == 0 {
		return worst
	}
	return worst / (float64(n) * testmat.Eps[T]() * amax)
}

// oracleFactor factors matrix i of orig with gonum in float64 and returns
// the factor in the same layout as potrf writes it (column-major, n x n,
// only the uplo triangle meaningful), and whether gonum succeeded.
func oracleFactor[T batchlas.Float](uplo batchlas.Uplo, orig batchlas.Batch[T], i int) ([]float64, bool) {
	n := orig.Rows
	d := testmat.Dense(orig, i) // column-major, ld n
	// Column-major with ld n is row-major transposed: Lower <-> Upper.
	ul := blas.Upper
	if uplo == batchlas.Upper {
		ul = blas.Lower
	}
	ok := gonum.Implementation{}.Dpotrf(ul, n, d, max(1, n))
	return d, ok
}

// checkFactor fails t unless every matrix of got (factored from orig) has a
// small residual, agrees with gonum, and left the other triangle and all
// padding of the backing slice as they were.
func checkFactor[T batchlas.Float](t *testing.T, uplo batchlas.Uplo, orig, got batchlas.Batch[T]) {
	t.Helper()
	n := orig.Rows
	eps := testmat.Eps[T]()
	for i := 0; i < orig.Count; i++ {
		if res := residual(uplo, orig, got, i); !(res <= residualC) {
			t.Fatalf("matrix %d of %d (n=%d uplo=%c): residual %.3g n*eps*|A| > %d", i, orig.Count, n, uplo, res, residualC)
		}
		want, ok := oracleFactor(uplo, orig, i)
		if !ok {
			t.Fatalf("matrix %d: gonum oracle says the test input is not SPD", i)
		}
		lmax := testmat.MaxAbs(want)
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				g := float64(got.At(i, r, c))
				if !inTriangle(uplo, r, c) {
					if o := orig.At(i, r, c); !(got.At(i, r, c) == o) {
						t.Fatalf("matrix %d: element (%d,%d) outside the %c triangle changed from %g to %g", i, r, c, uplo, o, g)
					}
					continue
				}
				if d := math.Abs(g - want[r+c*n]); !(d <= 64*float64(n)*eps*lmax) {
					t.Fatalf("matrix %d (n=%d uplo=%c): factor (%d,%d) = %g, gonum %g", i, n, uplo, r, c, g, want[r+c*n])
				}
			}
		}
	}
	if !testmat.Untouched(got, got.Data, orig.Data) {
		t.Fatalf("padding outside the matrices changed")
	}
}

// property is one conformance property, run for one candidate: ctx pins
// the candidate (and may carry a device).
type property func(t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo)

// smallCache is the host with a 1-byte L2: on it the blocked kernel takes
// its batch-wide path (nested trsm and gemm) for every n > blockedNB, which
// the host's real cache would keep per-matrix up to much larger orders.
func smallCache() *sel.Device {
	d := *batchlas.Host()
	d.L2 = 1
	return &d
}

// forEachCandidate runs f for every compiled candidate of both dtypes
// (iterating Op.Candidates, never a retyped list) and both uplos. blocked
// runs twice: on the host and on smallCache, so both of its paths are
// covered.
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				name := string(dt) + "/" + c.String() + "/" + uplo.String()
				t.Run(name, func(t *testing.T) { f(t, pin(c), c, uplo) })
				if c.Is(blockedFamily) {
					t.Run(name+"/nested", func(t *testing.T) { f(t, batchlas.WithDevice(pin(c), smallCache()), c, uplo) })
				}
			}
		}
	}
}

// runnable reports whether c can run order n on the host.
func runnable(c sel.Choice, uplo batchlas.Uplo, n, count int) bool {
	k := sel.MakeKey(sel.Str(uplo.String()), sel.Int(n), sel.Int(count))
	return Op.CanRun(c, k, batchlas.Host())
}
