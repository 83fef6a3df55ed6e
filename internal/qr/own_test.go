package qr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// ownFactor returns gonum's Dgeqrf of a random m x n matrix, column-major
// with leading dimension lda (rows beyond m NaN), and tau.
func ownFactor(r *rand.Rand, m, n, lda int) ([]float64, []float64) {
	rm := make([]float64, m*n)
	for i := range rm {
		rm[i] = r.NormFloat64()
	}
	k := min(m, n)
	tau := make([]float64, k)
	work := make([]float64, max(1, n)*64)
	impl := gonum.Implementation{}
	impl.Dgeqrf(m, n, rm, max(1, n), tau, work, len(work))
	a := make([]float64, lda*n)
	for i := range a {
		a[i] = math.NaN()
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			a[i+j*lda] = rm[i*n+j]
		}
	}
	return a, tau
}

// toRow copies the column-major m x n matrix a into a row-major one.
func toRow(m, n int, a []float64, lda int) []float64 {
	rm := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			rm[i*n+j] = a[i+j*lda]
		}
	}
	return rm
}

var ownSizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 33}

func TestOrg2rAndBlockedAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	impl := gonum.Implementation{}
	for _, m := range ownSizes {
		for _, n := range ownSizes {
			if n > m {
				continue
			}
			for _, k := range []int{0, n / 2, n} {
				lda := m + 3
				a, tau := ownFactor(r, m, n, lda)
				want := toRow(m, n, a, lda)
				work := make([]float64, max(1, n)*64)
				impl.Dorgqr(m, n, k, want, max(1, n), tau[:k], work, len(work))
				for _, nb := range []int{0, 1, 2, 4, 8, 16} {
					got := append([]float64(nil), a...)
					if nb == 0 {
						Org2r(m, n, k, got, lda, tau, make([]float64, n))
					} else {
						OrgqrBlocked(m, n, k, got, lda, tau, nb, make([]float64, nb*nb), make([]float64, BlockedWork(m, n, nb)))
					}
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							if d := math.Abs(got[i+j*lda] - want[i*n+j]); !(d <= 1e-13*float64(m+1)) {
								t.Fatalf("m=%d n=%d k=%d nb=%d: Q(%d,%d) = %v, gonum %v", m, n, k, nb, i, j, got[i+j*lda], want[i*n+j])
							}
						}
					}
					for i := m; i < lda; i++ {
						for j := 0; j < n; j++ {
							if !math.IsNaN(got[i+j*lda]) {
								t.Fatalf("m=%d n=%d k=%d nb=%d: padding (%d,%d) written", m, n, k, nb, i, j)
							}
						}
					}
				}
			}
		}
	}
}

func TestOrm2rAndBlockedAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	impl := gonum.Implementation{}
	for _, left := range []bool{true, false} {
		for _, trans := range []bool{false, true} {
			for _, m := range ownSizes {
				for _, n := range ownSizes {
					nq := n
					if left {
						nq = m
					}
					for _, kc := range []int{0, 1, 5, 17} { // columns of the factored matrix
						lda := nq + 2
						a, tau := ownFactor(r, nq, kc, lda)
						k := min(nq, kc)
						ldc := m + 1
						c := make([]float64, ldc*n)
						for i := range c {
							c[i] = r.NormFloat64()
						}
						want := toRow(m, n, c, ldc)
						side, tr := blas.Left, blas.NoTrans
						if !left {
							side = blas.Right
						}
						if trans {
							tr = blas.Trans
						}
						// gonum's row-major A (nq x k) from ours.
						ar := toRow(nq, k, a, lda)
						work := make([]float64, max(1, m, n)*64+64*65)
						impl.Dormqr(side, tr, m, n, k, ar, max(1, k), tau[:k], want, max(1, n), work, len(work))
						for _, nb := range []int{0, 1, 2, 4, 8} {
							got := append([]float64(nil), c...)
							acopy := append([]float64(nil), a...)
							if nb == 0 {
								Orm2r(left, trans, m, n, k, a, lda, tau, got, ldc, make([]float64, max(m, n)))
							} else {
								OrmqrBlocked(left, trans, m, n, k, a, lda, tau, got, ldc, nb, make([]float64, nb*nb), make([]float64, BlockedWork(m, n, nb)))
							}
							what := fmt.Sprintf("left=%v trans=%v m=%d n=%d k=%d nb=%d", left, trans, m, n, k, nb)
							for i := range a {
								if math.Float64bits(a[i]) != math.Float64bits(acopy[i]) {
									t.Fatalf("%s: a written", what)
								}
							}
							for i := 0; i < m; i++ {
								for j := 0; j < n; j++ {
									if d := math.Abs(got[i+j*ldc] - want[i*n+j]); !(d <= 1e-13*float64(m+n+1)) {
										t.Fatalf("%s: C(%d,%d) = %v, gonum %v", what, i, j, got[i+j*ldc], want[i*n+j])
									}
								}
							}
						}
					}
				}
			}
		}
	}
}
