package linalg_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/linalg"
)

// SVD returns descending values that match gonum's, orthonormal thin
// vectors whose product is A, for tall, square and wide matrices, from a
// padded input it leaves alone; SVDValues the same values.
func TestSVD(t *testing.T) {
	for _, sh := range [][2]int{{1, 1}, {5, 3}, {3, 5}, {8, 8}, {33, 17}, {17, 33}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		a := testmat.Batch[float64](testmat.Rand(uint64(m*100+n)), m, n, 3, m+2, (m+2)*n+1)
		orig := append([]float64(nil), a.Data...)
		s, u, vt, err := linalg.SVD(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := linalg.SVDValues(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range a.Data {
			if math.Float64bits(v) != math.Float64bits(orig[i]) {
				t.Fatalf("%dx%d: SVD wrote its input", m, n)
			}
		}
		if s.Len != k || u.Rows != m || u.Cols != k || vt.Rows != k || vt.Cols != n || vals.Len != k {
			t.Fatalf("%dx%d: s %d, u %dx%d, vt %dx%d, values %d", m, n, s.Len, u.Rows, u.Cols, vt.Rows, vt.Cols, vals.Len)
		}
		tl := 64 * float64(max(m, n)) * 0x1p-52
		for i := range a.Count {
			var g mat.SVD
			if !g.Factorize(dense(a, i), mat.SVDNone) {
				t.Fatal("gonum's SVD failed")
			}
			want := g.Values(nil)
			for j := range k {
				if d := math.Abs(s.At(i, j) - want[j]); !(d <= tl*want[0]) {
					t.Fatalf("%dx%d matrix %d: s[%d] = %g, gonum %g", m, n, i, j, s.At(i, j), want[j])
				}
				if d := math.Abs(vals.At(i, j) - want[j]); !(d <= tl*want[0]) {
					t.Fatalf("%dx%d matrix %d: SVDValues[%d] = %g, gonum %g", m, n, i, j, vals.At(i, j), want[j])
				}
			}
			for r := range m {
				for c := range n {
					var x float64
					for l := range k {
						x += u.At(i, r, l) * s.At(i, l) * vt.At(i, l, c)
					}
					if d := math.Abs(x - a.At(i, r, c)); !(d <= tl*4*want[0]) {
						t.Fatalf("%dx%d matrix %d: (U S V^T - A)(%d,%d) = %g", m, n, i, r, c, d)
					}
				}
			}
		}
	}
}

// A matrix with a NaN fails alone: the error lists it, its outputs are
// NaN, the others are computed; a bad argument names linalg.SVD.
func TestSVDFailures(t *testing.T) {
	a := testmat.Batch[float32](testmat.Rand(3), 4, 3, 3, 0, 0)
	a.Set(1, 2, 1, float32(math.NaN()))
	s, u, vt, err := linalg.SVD(context.Background(), a)
	var ne *batchlas.NumericalError
	if !errors.As(err, &ne) {
		t.Fatalf("want a *NumericalError, got %v", err)
	}
	info, ok := testmat.Infos(err, 3)
	if !ok || info[0] != 0 || info[1] != 4 || info[2] != 0 {
		t.Fatalf("info %v", info)
	}
	if !math.IsNaN(float64(s.At(1, 0))) || !math.IsNaN(float64(u.At(1, 0, 0))) || !math.IsNaN(float64(vt.At(1, 0, 0))) {
		t.Error("the failed matrix's outputs are not NaN")
	}
	if math.IsNaN(float64(s.At(0, 0))) || math.IsNaN(float64(s.At(2, 2))) {
		t.Error("a good matrix's values are NaN")
	}
	_, _, _, err = linalg.SVD(context.Background(), batchlas.Batch[float64]{})
	var ae *batchlas.ArgError
	if !errors.As(err, &ae) || ae.Op != "linalg.SVD" {
		t.Errorf("zero Batch: %v", err)
	}
	_, err = linalg.SVDValues(context.Background(), batchlas.Batch[float64]{})
	if !errors.As(err, &ae) || ae.Op != "linalg.SVDValues" {
		t.Errorf("zero Batch: %v", err)
	}
}
