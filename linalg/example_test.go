package linalg_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/linalg"
)

// Gaussian-process regression: score three kernel length scales on the
// same 20 observations. Each covariance K = k(x, x) + noise*I is factored
// once, reading its lower triangle only; alpha = K^-1*y comes from the
// factor, and so does log det K, twice the sum of the logs of L's
// diagonal (Slogdet gives it too, from both triangles). The log marginal
// likelihood is -(y^T*alpha + log det K + n*log(2*pi))/2. A K that is not
// positive definite would be named in err1 (a *batchlas.NumericalError),
// with the others computed; this program stops on any error.
func Example_gaussianProcess() {
	const n = 20
	scales := []float64{0.05, 0.3, 3}
	k, y := batchlas.NewBatch[float64](n, n, 3), batchlas.NewBatch[float64](n, 1, 3)
	for i, ell := range scales {
		for r := range n {
			y.Set(i, r, 0, math.Sin(6*float64(r)/n))
			for c := range r { // Cholesky reads the lower triangle only
				k.Set(i, r, c, math.Exp(-math.Pow(float64(r-c)/n/ell, 2)/2))
			}
			k.Set(i, r, r, 1+0.01) // k(x, x) plus the noise
		}
	}
	l, err1 := linalg.Cholesky(context.Background(), k)
	alpha, err2 := linalg.CholeskySolve(context.Background(), l, y)
	if err := errors.Join(err1, err2); err != nil {
		log.Fatal(err)
	}
	for i, ell := range scales {
		ll := -n * math.Log(2*math.Pi) / 2
		for r := range n {
			ll -= y.At(i, r, 0)*alpha.At(i, r, 0)/2 + math.Log(l.At(i, r, r))
		}
		fmt.Printf("length scale %.2f: log likelihood %8.2f\n", ell, ll)
	}
	// Output:
	// length scale 0.05: log likelihood   -14.68
	// length scale 0.30: log likelihood    12.33
	// length scale 3.00: log likelihood  -178.72
}

// Principal stresses: the eigenvalues of 100,000 symmetric 3x3 stress
// tensors (in MPa), in ascending order. Only the lower triangle is read,
// so only it is filled.
func ExampleEigvalsh() {
	const count = 100_000
	s := batchlas.NewBatch[float64](3, 3, count)
	for i := range count {
		t := 2 * math.Pi * float64(i) / count
		s.Set(i, 0, 0, 80+20*math.Cos(t)) // sigma_xx
		s.Set(i, 1, 1, 40)                // sigma_yy
		s.Set(i, 2, 2, -10*math.Sin(t))   // sigma_zz
		s.Set(i, 1, 0, 30*math.Sin(t))    // tau_xy
		s.Set(i, 2, 1, 15)                // tau_yz
	}
	w, err := linalg.Eigvalsh(context.Background(), s)
	if err != nil {
		log.Fatal(err) // a *batchlas.NumericalError names tensors holding NaN or Inf
	}
	for _, i := range []int{0, 25_000, 50_000, 75_000} {
		fmt.Printf("tensor %6d: %7.2f %7.2f %7.2f\n", i, w.At(i, 0), w.At(i, 1), w.At(i, 2))
	}
	// Output:
	// tensor      0:   -5.00   45.00  100.00
	// tensor  25000:  -14.95   28.41   96.54
	// tensor  50000:   -5.00   45.00   60.00
	// tensor  75000:    1.63   31.72   96.65
}

// 10,000 systems of order 16 solved by LU in one call, one of which is
// singular: the call reports it in a *batchlas.NumericalError (errors.As
// reads its Index and Info), its x is NaN, and every other system is
// solved. Each A_i*x = b_i has the solution x = (1, ..., 1).
func ExampleSolve_singular() {
	const n, count, bad = 16, 10_000, 4321
	a := batchlas.NewIdentity[float64](n, count)
	b := batchlas.NewBatch[float64](n, 1, count)
	for i := range count {
		for c := range n {
			for r := range n {
				a.Set(i, r, c, n*a.At(i, r, c)+math.Cos(float64(i+3*r+7*c))) // diagonally dominant
				b.Set(i, r, 0, b.At(i, r, 0)+a.At(i, r, c))                  // b = A*1
			}
		}
	}
	for r := range n {
		a.Set(bad, r, 5, 0) // column 5 of matrix 4321 is zero: singular
	}
	x, err := linalg.Solve(context.Background(), a, b)
	fmt.Println(err)
	solved := 0
	for _, v := range x.Data {
		if math.Abs(v-1) < 1e-12 {
			solved++
		}
	}
	fmt.Printf("unknowns within 1e-12 of 1: %d of %d\n", solved, len(x.Data))
	// Output:
	// gesv: 1 matrix(es) failed: #4321 (info 6)
	// unknowns within 1e-12 of 1: 159984 of 160000
}

// A matrix that is singular in exact arithmetic rarely gives an exactly
// zero pivot: here column 5 of matrix 4321 is the sum of columns 3 and 4,
// LU factors it with a pivot of rounding size, and Solve alone returns
// garbage for it without a word. With batchlas.WithConditionCheck, the
// estimated reciprocal condition number of every matrix is compared with
// n*eps and that matrix is reported with info n+1 = 17; its x is still
// written (as LAPACK's xGESVX does), every other system is solved.
func ExampleSolve_conditionCheck() {
	const n, count, bad = 16, 10_000, 4321
	a := batchlas.NewIdentity[float64](n, count)
	b := batchlas.NewBatch[float64](n, 1, count)
	for i := range count {
		for c := range n {
			for r := range n {
				a.Set(i, r, c, n*a.At(i, r, c)+math.Cos(float64(i+3*r+7*c)))
			}
		}
	}
	for r := range n {
		a.Set(bad, r, 5, a.At(bad, r, 3)+a.At(bad, r, 4)) // rank 15
	}
	for i := range count {
		for c := range n {
			for r := range n {
				b.Set(i, r, 0, b.At(i, r, 0)+a.At(i, r, c)) // b = A*1
			}
		}
	}
	_, err := linalg.Solve(context.Background(), a, b)
	fmt.Println("without the check:", err)
	ctx := batchlas.WithConditionCheck(context.Background(), 0) // 0: n*eps
	x, err := linalg.Solve(ctx, a, b)
	fmt.Println("with the check:", err)
	solved := 0
	for i := range count {
		ok := true
		for r := range n {
			ok = ok && math.Abs(x.At(i, r, 0)-1) < 1e-10
		}
		if ok && i != bad {
			solved++
		}
	}
	fmt.Printf("other systems solved to 1e-10: %d of %d\n", solved, count-1)
	// Output:
	// without the check: <nil>
	// with the check: gesv: 1 matrix(es) failed: #4321 (info 17)
	// other systems solved to 1e-10: 9999 of 9999
}

// 20,000 straight-line fits at once: for every series i, the intercept and
// slope minimising the squared error of y = c0 + c1*t over 64 samples, as
// numpy.linalg.lstsq would fit each one. The samples lie on
// y = i + 2t plus a small wiggle that cancels out.
func ExampleLstsq() {
	const m, count = 64, 20_000
	a := batchlas.NewBatch[float64](m, 2, count)
	y := batchlas.NewBatch[float64](m, 1, count)
	for i := range count {
		for r := range m {
			t := float64(r) / m
			a.Set(i, r, 0, 1)
			a.Set(i, r, 1, t)
			wiggle := 1e-3 * float64(1-2*(r%2)) // +-, equal counts: orthogonal to 1, nearly to t
			y.Set(i, r, 0, float64(i)+2*t+wiggle)
		}
	}
	coef, err := linalg.Lstsq(context.Background(), a, y)
	if err != nil {
		panic(err)
	}
	round := func(v float64) float64 { return math.Round(v*1e4)/1e4 + 0 } // + 0: no "-0"
	for _, i := range []int{0, 7, count - 1} {
		fmt.Printf("series %d: c0 = %.4f, c1 = %.4f\n", i, round(coef.At(i, 0, 0)), round(coef.At(i, 1, 0)))
	}
	// Output:
	// series 0: c0 = 0.0000, c1 = 1.9999
	// series 7: c0 = 7.0000, c1 = 1.9999
	// series 19999: c0 = 19999.0000, c1 = 1.9999
}
