package gels_test

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gels"
	sel "github.com/batchlas-go/batchlas/select"
)

// normalResidual is ||A^T (A X - B)||_F / (max(m, n, nrhs) ||A||_F
// scale eps) with scale = ||B||_F, the QR issue's bound, or, with
// backward, ||A||_F ||X||_F + ||B||_F: what a backward-stable solver
// guarantees when ||A|| ||X|| far exceeds ||B|| (nearly rank-deficient
// A). The residual is summed in big.Float (200 bits), so its evaluation
// adds nothing.
func normalResidual(a []float64, m, n int, b []float64, x func(r, c int) float64, nrhs int, eps float64, backward bool) float64 {
	prec := uint(200)
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	fro := func(v []float64) float64 {
		s := 0.0
		for _, e := range v {
			s += e * e
		}
		return math.Sqrt(s)
	}
	total, xs := 0.0, 0.0
	for c := range nrhs {
		res := make([]*big.Float, m)
		for r := range m {
			s := nf(-b[r+c*m])
			for k := range n {
				s.Add(s, new(big.Float).SetPrec(prec).Mul(nf(a[r+k*m]), nf(x(k, c))))
			}
			res[r] = s
		}
		for k := range n {
			xs += x(k, c) * x(k, c)
			s := nf(0)
			for r := range m {
				s.Add(s, new(big.Float).SetPrec(prec).Mul(nf(a[r+k*m]), res[r]))
			}
			v, _ := s.Float64()
			total += v * v
		}
	}
	scale := fro(b)
	if backward {
		scale += fro(a) * math.Sqrt(xs)
	}
	return math.Sqrt(total) / (float64(max(m, n, nrhs)) * fro(a) * scale * eps)
}

// Every candidate's solution meets the accuracy bound (64) on random and
// graded (columns scaled from 1e-8 to 1e8) matrices with ||B|| as the
// scale, and on nearly rank-deficient ones (a column a combination of two
// others plus 1e-12 noise) with ||A|| ||X|| + ||B||: there ||X|| is about
// 1e12 and no backward-stable solver, gonum's Dgels included, keeps the
// residual of the normal equations below ||A|| ||B|| eps. Tall and
// square, both dtypes (float32 solutions measured against their float32
// inputs).
func TestAccuracyBound(t *testing.T) {
	worst := map[string]float64{}
	defer func() {
		for k, v := range worst {
			t.Logf("worst %s: %.3g", k, v)
		}
	}()
	for _, dt := range []sel.DType{sel.Float64, sel.Float32} {
		eps := 0x1p-52
		if dt == sel.Float32 {
			eps = 0x1p-23
		}
		for _, sh := range [][3]int{{8, 8, 1}, {33, 17, 3}, {64, 8, 2}, {100, 40, 4}, {17, 17, 5}} {
			m, n, nrhs := sh[0], sh[1], sh[2]
			for _, kind := range []string{"random", "graded", "nearly rank-deficient"} {
				as, bs := random(uint64(m*7+n), m, n, 3), random(uint64(n*7+m), m, nrhs, 3)
				for _, a := range as {
					for c := range n {
						for r := range m {
							switch {
							case kind == "graded":
								a[r+c*m] *= math.Pow(10, -8+16*float64(c)/float64(max(1, n-1)))
							case kind == "nearly rank-deficient" && c == n-1 && n > 1:
								a[r+c*m] = a[r] + 2*a[r+m*(1%n)] + 1e-12*a[r+c*m]
							}
						}
					}
				}
				for name, ctx := range calls(dt) {
					what := fmt.Sprintf("%s %s m=%d n=%d nrhs=%d %s", dt, name, m, n, nrhs, kind)
					var x func(i, r, c int) float64
					var err error
					// The inputs as the dtype holds them, for the residual.
					in := func(v []float64) []float64 {
						if dt == sel.Float64 {
							return v
						}
						out := make([]float64, len(v))
						for i, e := range v {
							out[i] = float64(float32(e))
						}
						return out
					}
					if dt == sel.Float32 {
						a, b := padded[float32](as, m, n), padded[float32](bs, m, nrhs)
						err = gels.Gels(ctx, a, b, nil)
						x = func(i, r, c int) float64 { return float64(b.At(i, r, c)) }
					} else {
						a, b := padded[float64](as, m, n), padded[float64](bs, m, nrhs)
						err = gels.Gels(ctx, a, b, nil)
						x = func(i, r, c int) float64 { return b.At(i, r, c) }
					}
					if err != nil && strings.Contains(err.Error(), "can_run refuses") {
						continue
					}
					var ne *batchlas.NumericalError
					if err != nil && !asNumerical(err, &ne) {
						t.Fatalf("%s: %v", what, err)
					}
					for i := range as {
						if ne != nil && ne.Index != nil && contains(ne.Index, i) {
							continue // R exactly singular in this dtype: reported, not solved
						}
						got := normalResidual(in(as[i]), m, n, in(bs[i]), func(r, c int) float64 { return x(i, r, c) }, nrhs, eps, kind == "nearly rank-deficient")
						worst[string(dt)+" "+kind] = max(worst[string(dt)+" "+kind], got)
						if !(got <= 64) {
							t.Errorf("%s matrix %d: the scaled residual of the normal equations is %.3g, over 64", what, i, got)
						}
					}
				}
			}
		}
	}
}

func contains(s []int, v int) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

func asNumerical(err error, ne **batchlas.NumericalError) bool {
	e, ok := err.(*batchlas.NumericalError)
	*ne = e
	return ok
}
