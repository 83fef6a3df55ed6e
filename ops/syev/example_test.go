package syev_test

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/syev"
)

// Principal axes of many point clouds at once: for each cloud, the 2x2
// covariance matrix of its points, whose eigenvectors are the axes of the
// cloud and whose eigenvalues are the variances along them. Each cloud is
// a line of points at its own angle, spread along the line and a little
// across it, so its major axis is that angle.
func Example_principalAxes() {
	const (
		clouds = 1000
		points = 50
	)
	ctx := context.Background()
	cov := batchlas.NewBatch[float64](2, 2, clouds)
	for i := 0; i < clouds; i++ {
		theta := math.Pi * float64(i) / clouds // the cloud's direction
		c, s := math.Cos(theta), math.Sin(theta)
		var sxx, sxy, syy float64
		for k := 0; k < points; k++ {
			along := float64(k/2 - 12)       // -12 .. 12, each twice
			across := 0.5 * float64(k%2*2-1) // +-0.5 beside each
			x, y := along*c-across*s, along*s+across*c
			sxx, sxy, syy = sxx+x*x, sxy+x*y, syy+y*y
		}
		// Only the lower triangle is read (batchlas.Lower).
		cov.Set(i, 0, 0, sxx/points)
		cov.Set(i, 1, 0, sxy/points)
		cov.Set(i, 1, 1, syy/points)
	}
	w := batchlas.NewVectors[float64](2, clouds)
	// Eigenvalues ascending into w, eigenvectors over cov (column j for w[j]).
	if err := syev.Syev(ctx, syev.WithVectors, batchlas.Lower, cov, w, nil); err != nil {
		fmt.Println(err)
		return
	}
	for _, i := range []int{0, 250, 600} {
		// The major axis is the last column; its largest entry is positive.
		ax, ay := cov.At(i, 0, 1), cov.At(i, 1, 1)
		angle := math.Atan2(ay, ax) * 180 / math.Pi
		fmt.Printf("cloud %3d: variances %.4f and %.4f, major axis (%.4f, %.4f) at %.1f degrees\n",
			i, w.At(i, 0), w.At(i, 1), ax, ay, angle)
	}
	// Output:
	// cloud   0: variances 0.2500 and 52.0000, major axis (1.0000, 0.0000) at 0.0 degrees
	// cloud 250: variances 0.2500 and 52.0000, major axis (0.7071, 0.7071) at 45.0 degrees
	// cloud 600: variances 0.2500 and 52.0000, major axis (-0.3090, 0.9511) at 108.0 degrees
}
