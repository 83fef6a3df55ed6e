package linalg_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/linalg"
)

// QR gives Q with orthonormal columns and an upper triangular R whose
// product is A, for tall, square and wide matrices (k = min(m, n)), both
// dtypes, from a padded input it leaves alone.
func TestQR(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {5, 3}, {3, 5}, {8, 8}, {33, 17}, {17, 33}, {64, 64}, {100, 7}} {
		m, n := s[0], s[1]
		a := testmat.Batch[float64](testmat.Rand(uint64(m*100+n)), m, n, 3, m+2, (m+2)*n+1)
		orig := append([]float64(nil), a.Data...)
		q, r, err := linalg.QR(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range a.Data {
			if math.Float64bits(v) != math.Float64bits(orig[i]) {
				t.Fatalf("%dx%d: QR wrote its input", m, n)
			}
		}
		k := min(m, n)
		if q.Rows != m || q.Cols != k || r.Rows != k || r.Cols != n {
			t.Fatalf("%dx%d: q %dx%d, r %dx%d", m, n, q.Rows, q.Cols, r.Rows, r.Cols)
		}
		tol := 64 * float64(max(m, n)) * 0x1p-52
		for i := range a.Count {
			for row := range m {
				for c := range n {
					var s float64
					for l := range k {
						s += q.At(i, row, l) * r.At(i, l, c)
					}
					if d := math.Abs(s - a.At(i, row, c)); d > tol*4 {
						t.Fatalf("%dx%d matrix %d: (QR - A)(%d,%d) = %g", m, n, i, row, c, d)
					}
				}
			}
			for x := range k {
				for y := range k {
					var s float64
					for row := range m {
						s += q.At(i, row, x) * q.At(i, row, y)
					}
					if x == y {
						s--
					}
					if math.Abs(s) > tol {
						t.Fatalf("%dx%d matrix %d: (Q^T Q - I)(%d,%d) = %g", m, n, i, x, y, s)
					}
				}
			}
			for c := range n {
				for row := c + 1; row < k; row++ {
					if r.At(i, row, c) != 0 {
						t.Fatalf("%dx%d matrix %d: R(%d,%d) = %g below the diagonal", m, n, i, row, c, r.At(i, row, c))
					}
				}
			}
		}
	}
	q, r, err := linalg.QR(context.Background(), batchlas.NewBatch[float32](4, 3, 0))
	if err != nil || q.Count != 0 || r.Count != 0 || q.Rows != 4 || r.Cols != 3 {
		t.Errorf("empty batch: %v %v %v", q, r, err)
	}
}
