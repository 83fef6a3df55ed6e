package geqrf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestGradedAndNearlyRankDeficient: every candidate keeps the residual
// bounds (trial.CheckQRFactor: ||A - QR||_F <= 64 max(m,n) eps ||A||_F,
// each reflector orthogonal) on matrices whose columns are scaled from
// 1e-8 to 1e8, and on matrices whose last column is a combination of the
// others plus a perturbation of 1e-12 relative.
func TestGradedAndNearlyRankDeficient(t *testing.T) {
	forEachCandidate(t, hardInputs[float32], hardInputs[float64])
}

func hardInputs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, sh := range [][2]int{{8, 8}, {33, 17}, {17, 33}, {64, 64}, {100, 40}} {
		m, n := sh[0], sh[1]
		for _, kind := range []string{"graded", "nearly rank-deficient"} {
			a0 := padded[T](r, m, n, 4)
			for i := 0; i < a0.Count; i++ {
				for col := 0; col < n; col++ {
					for row := 0; row < m; row++ {
						x := a0.At(i, row, col)
						if kind == "graded" {
							x *= T(math.Pow(10, -8+16*float64(col)/float64(max(1, n-1))))
						} else if col == n-1 && n > 1 {
							x = a0.At(i, row, 0) + 2*a0.At(i, row, 1%n) + T(1e-12)*x
						}
						a0.Set(i, row, col, x)
					}
				}
			}
			a := testmat.Clone(a0)
			if !runs(c, a) {
				continue
			}
			tau := tauFor[T](m, n, a.Count)
			require.NoError(t, Geqrf(ctx, a, tau, nil))
			k := min(m, n)
			for i := 0; i < a.Count; i++ {
				tv := make([]float64, k)
				for j := range tv {
					tv[j] = float64(tau.At(i, j))
				}
				require.NoError(t, trial.CheckQRFactor(fmt.Sprintf("%s %s %dx%d matrix %d", c, kind, m, n, i), trial.DenseOf(a0, i), trial.DenseOf(a, i), tv, testmat.Eps[T]()))
			}
		}
	}
}

// TestConcurrentCalls: calls on different batches from several goroutines
// at once give the results of the same calls one after
// another.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const g = 4
	var src, want [g]batchlas.Batch[float64]
	for i := range src {
		src[i] = padded[float64](r, 20+i, 12, 30)
		want[i] = testmat.Clone(src[i])
		require.NoError(t, Geqrf(context.Background(), want[i], tauFor[float64](20+i, 12, 30), nil))
	}
	var wg sync.WaitGroup
	got := make([]batchlas.Batch[float64], g)
	errs := make([]error, g)
	for i := range src {
		got[i] = testmat.Clone(src[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = Geqrf(context.Background(), got[i], tauFor[float64](20+i, 12, 30), nil)
		}()
	}
	wg.Wait()
	for i := range src {
		require.NoError(t, errs[i])
		require.Equal(t, -1, testmat.SameMatrices(got[i], want[i], 0, got[i].Count), "goroutine %d", i)
	}
}
