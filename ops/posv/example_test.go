package posv_test

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/posv"
)

// A Gaussian-process user's step: for each of three data sets, the
// covariance K = k(x_r, x_c) + noise*I of its points (a squared-exponential
// kernel with its own length scale), solved for two right-hand sides at
// once (the observations y and a second output), and the log-determinant
// of K, the two terms of the log marginal likelihood
// -y^T K^-1 y / 2 - log det K / 2 - n log(2 pi) / 2.
func Example_gaussianProcess() {
	const (
		n     = 6 // points per data set
		sets  = 3
		noise = 0.1
	)
	ctx := context.Background()
	k := batchlas.NewBatch[float64](n, n, sets)
	y := batchlas.NewBatch[float64](n, 2, sets)
	for i := 0; i < sets; i++ {
		scale := 0.5 + float64(i) // length scale of data set i
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				d := (float64(r) - float64(c)) / scale
				k.Set(i, r, c, math.Exp(-d*d/2))
			}
			k.Set(i, c, c, k.At(i, c, c)+noise)
			y.Set(i, c, 0, math.Sin(float64(c)))
			y.Set(i, c, 1, 1)
		}
	}
	y0, _ := y.Clone() // keep y: posv overwrites it with alpha = K^-1 y

	// K = L*L^T in place, and y = K^-1 y.
	if err := posv.Posv(ctx, batchlas.Lower, k, y, nil); err != nil {
		var ne *batchlas.NumericalError
		if errors.As(err, &ne) {
			fmt.Println("not positive definite:", ne.Index) // the others are solved
		}
		fmt.Println(err)
		return
	}
	logdet := batchlas.NewVectors[float64](1, sets)
	if err := posv.LogDet(ctx, batchlas.Lower, k, logdet); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < sets; i++ {
		fit := 0.0 // y^T K^-1 y for the first output
		for r := 0; r < n; r++ {
			fit += y0.At(i, r, 0) * y.At(i, r, 0)
		}
		ll := -fit/2 - logdet.At(i, 0)/2 - n*math.Log(2*math.Pi)/2
		fmt.Printf("set %d: log det K = %7.3f  log likelihood = %7.3f\n", i, logdet.At(i, 0), ll)
	}
	// Output:
	// set 0: log det K =   0.495  log likelihood =  -7.000
	// set 1: log det K =  -3.680  log likelihood =  -4.975
	// set 2: log det K =  -5.794  log likelihood =  -5.768
}

// A matrix that is not positive definite is reported with potrf's info;
// the other systems are solved, and the failed one's right-hand side is
// left as it was.
func Example_notPositiveDefinite() {
	a := batchlas.NewBatch[float64](2, 2, 3)
	for i, m := range [][4]float64{{4, 2, 2, 5}, {1, 2, 2, 1}, {9, 3, 3, 5}} { // column-major
		copy(a.Data[i*a.Stride:], m[:])
	}
	b := batchlas.NewBatch[float64](2, 1, 3)
	copy(b.Data, []float64{8, 12, 7, 7, 15, 13}) // A_i * [1; 2] for the good ones
	err := posv.Posv(context.Background(), batchlas.Lower, a, b, nil)
	fmt.Println(err)
	for i := 0; i < 3; i++ {
		fmt.Printf("b%d = [%.4g; %.4g]\n", i, b.At(i, 0, 0), b.At(i, 1, 0))
	}
	// Output:
	// posv: 1 matrix(es) failed: #1 (info 2)
	// b0 = [1; 2]
	// b1 = [7; 7]
	// b2 = [1; 2]
}
