package linalg_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/linalg"
	"github.com/batchlas-go/batchlas/ops/geqrf"
	"github.com/batchlas-go/batchlas/ops/orgqr"
	sel "github.com/batchlas-go/batchlas/select"
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
		for i := range a.Count {
			checkQR(t, a, q, r, i)
		}
	}
	q, r, err := linalg.QR(context.Background(), batchlas.NewBatch[float32](4, 3, 0))
	if err != nil || q.Count != 0 || r.Count != 0 || q.Rows != 4 || r.Cols != 3 {
		t.Errorf("empty batch: %v %v %v", q, r, err)
	}
}

// checkQR: Q_i R_i = A_i, Q_i^T Q_i = I and R_i is upper triangular.
func checkQR(t *testing.T, a, q, r batchlas.Batch[float64], i int) {
	t.Helper()
	m, n := a.Rows, a.Cols
	k := min(m, n)
	tol := 64 * float64(max(m, n)) * 0x1p-52
	for row := range m {
		for c := range n {
			var s float64
			for l := range k {
				s += q.At(i, row, l) * r.At(i, l, c)
			}
			if d := math.Abs(s - a.At(i, row, c)); !(d <= tol*4) {
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
			if !(math.Abs(s) <= tol) {
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

// QR on large tight batches (copied in one piece per worker's chunk) and
// on a broadcast (every matrix the same), tall, square and wide; and a
// cancelled call returns the op's interruption with every output NaN.
func TestQRTightBroadcastCancelled(t *testing.T) {
	for _, s := range [][2]int{{8, 8}, {9, 4}, {4, 9}, {32, 32}} {
		m, n := s[0], s[1]
		count := 4000
		a := testmat.Batch[float64](testmat.Rand(uint64(m*10+n)), m, n, count, m, m*n)
		q, r, err := linalg.QR(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 1, count / 2, count - 1} {
			checkQR(t, a, q, r, i)
		}
		one := testmat.Batch[float64](testmat.Rand(uint64(m+n)), m, n, 1, m, m*n)
		bc := batchlas.Broadcast(one, count)
		q, r, err = linalg.QR(context.Background(), bc)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, count / 3, count - 1} {
			checkQR(t, bc, q, r, i)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		q, r, err = linalg.QR(ctx, a)
		var ie *batchlas.InterruptedError
		if !errors.As(err, &ie) {
			t.Fatalf("%dx%d cancelled: err %v, want a *batchlas.InterruptedError", m, n, err)
		}
		for _, out := range []batchlas.Batch[float64]{q, r} {
			for i := ie.Completed; i < count; i += 997 {
				if v := out.At(i, 0, 0); !math.IsNaN(v) {
					t.Fatalf("%dx%d cancelled: matrix %d (completed %d) holds %g, want NaN", m, n, i, ie.Completed, v)
				}
			}
		}
	}
}

// QR for m >= n runs the matrices through geqrf's and orgqr's plans a
// range at a time; with every pair of their kernels pinned it gives the
// bits of geqrf.Geqrf and then orgqr.Orgqr run on the whole batch in
// turn, on counts that leave a lanes group partly filled.
func TestQRInCacheIsTheOpsInTurn(t *testing.T) {
	for _, s := range [][3]int{{9, 9, 17}, {20, 9, 21}, {40, 33, 3}} {
		m, n, count := s[0], s[1], s[2]
		a := testmat.Batch[float64](testmat.Rand(uint64(m*n+count)), m, n, count, m+1, (m+1)*n)
		key := sel.MakeKey(sel.Int(m), sel.Int(n), sel.Int(count))
		dev := batchlas.Host()
		for _, gc := range geqrf.Op.Candidates(sel.Float64) {
			if !geqrf.Op.CanRun(gc, key, dev) {
				continue
			}
			for _, oc := range orgqr.Op.Candidates(sel.Float64) {
				if !orgqr.Op.CanRun(oc, key, dev) {
					continue
				}
				ctx := sel.WithPin(sel.WithPin(context.Background(), "geqrf", gc.String()), "orgqr", oc.String())
				q, r, err := linalg.QR(ctx, a)
				if err != nil {
					t.Fatalf("%dx%d %s+%s: %v", m, n, gc, oc, err)
				}
				f := batchlas.NewBatch[float64](m, n, count)
				for i := range count {
					for c := range n {
						for row := range m {
							f.Set(i, row, c, a.At(i, row, c))
						}
					}
				}
				tau := batchlas.NewVectors[float64](n, count)
				if err := geqrf.Geqrf(ctx, f, tau, nil); err != nil {
					t.Fatal(err)
				}
				for i := range count {
					for c := range n {
						for row := 0; row <= c; row++ {
							if x, y := r.At(i, row, c), f.At(i, row, c); math.Float64bits(x) != math.Float64bits(y) {
								t.Fatalf("%dx%d %s+%s: R_%d(%d, %d) is %v, geqrf's %v", m, n, gc, oc, i, row, c, x, y)
							}
						}
					}
				}
				if err := orgqr.Orgqr(ctx, f, tau, nil); err != nil {
					t.Fatal(err)
				}
				for i := range count {
					for c := range n {
						for row := range m {
							if x, y := q.At(i, row, c), f.At(i, row, c); math.Float64bits(x) != math.Float64bits(y) {
								t.Fatalf("%dx%d %s+%s: Q_%d(%d, %d) is %v, orgqr's %v", m, n, gc, oc, i, row, c, x, y)
							}
						}
					}
				}
				checkQR(t, a, q, r, count-1)
			}
		}
	}
}
