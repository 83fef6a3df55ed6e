package getrs_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	"github.com/batchlas-go/batchlas/ops/posv"
	"github.com/batchlas-go/batchlas/ops/syev"
)

// Row-major solvers, on the memory as it is: a row-major A reads as A^T.
//
//   - A general system A*x = b: factor the wrapped A^T with getrf, then
//     solve with getrs and Trans, since (A^T)^T = A. (gesv has no
//     transpose flag: this pair is gesv for row-major A.)
//   - An SPD system: A^T = A, so posv serves with uplo flipped (the row-major
//     lower triangle is the column-major upper one).
//   - syev: the eigenvalues are A's (uplo flipped); the eigenvectors, written
//     column by column, read row-major as V^T: row i is eigenvector i.
//
// One right-hand side is the same vector in both layouts. Several
// right-hand sides stored row-major (b[i][j] for row i, system column j)
// are B^T: store them one system column after another, which is the
// column-major B, or copy them so.
func Example_rowMajor() {
	ctx := context.Background()
	wrap := func(rowMajor []float64, rows, cols, count int) batchlas.Batch[float64] {
		t, err := batchlas.WrapBatch(rowMajor, cols, rows, count)
		if err != nil {
			panic(err)
		}
		return t
	}
	// vec wraps one right-hand side: the same n x 1 in both layouts.
	vec := func(v []float64) batchlas.Batch[float64] {
		t, err := batchlas.WrapBatch(v, len(v), 1, 1)
		if err != nil {
			panic(err)
		}
		return t
	}
	// A = [4 1; 2 3] and A*[1 2] = [6 8]; A^T would give another x.
	a := []float64{4, 1, 2, 3}
	b := []float64{6, 8}
	lu, ipiv := wrap(a, 2, 2, 1), batchlas.NewVectors[int32](2, 1)
	if err := getrf.Getrf(ctx, lu, ipiv, nil); err != nil {
		panic(err)
	}
	if err := getrs.Getrs(ctx, batchlas.Trans, lu, ipiv, vec(b), nil); err != nil {
		panic(err)
	}
	fmt.Printf("general: x = [%.6g %.6g]\n", b[0], b[1])

	// S = [4 2; 2 3], only the row-major lower triangle set (the upper is
	// never read), and S*[1 1] = [6 5].
	s := []float64{4, -99, 2, 3}
	c := []float64{6, 5}
	if err := posv.Posv(ctx, batchlas.Upper, wrap(s, 2, 2, 1), vec(c), nil); err != nil {
		panic(err)
	}
	fmt.Printf("SPD:     x = [%.6g %.6g]\n", c[0], c[1])

	// E = [5 2; 2 2]: eigenvalues 1 and 6, eigenvectors [1 -2]/sqrt(5) and
	// [2 1]/sqrt(5), each signed so its largest entry is positive.
	e := []float64{5, -99, 2, 2}
	w := batchlas.NewVectors[float64](2, 1)
	if err := syev.Syev(ctx, syev.WithVectors, batchlas.Upper, wrap(e, 2, 2, 1), w, nil); err != nil {
		panic(err)
	}
	fmt.Printf("eigenvalues: [%.6g %.6g]\n", w.At(0, 0), w.At(0, 1))
	fmt.Printf("eigenvector 0 (row 0): [%.4f %.4f]\n", e[0], e[1])
	fmt.Printf("eigenvector 1 (row 1): [%.4f %.4f]\n", e[2], e[3])
	// Output:
	// general: x = [1 2]
	// SPD:     x = [1 1]
	// eigenvalues: [1 6]
	// eigenvector 0 (row 0): [-0.4472 0.8944]
	// eigenvector 1 (row 1): [0.8944 0.4472]
}
