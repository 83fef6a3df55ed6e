package batchlas_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// Row-major data (numpy's C order, gonum's mat.Dense) wrapped as it is: a
// row-major r x c matrix reads as the column-major c x r matrix of its
// transpose, so each call is given the transposed problem, and nothing is
// copied.
func Example_rowMajor() {
	ctx := context.Background()
	// wrap reads count row-major rows x cols matrices, one after the
	// other, as their column-major transposes.
	wrap := func(rowMajor []float64, rows, cols, count int) batchlas.Batch[float64] {
		t, err := batchlas.WrapBatch(rowMajor, cols, rows, count)
		if err != nil {
			panic(err)
		}
		return t
	}
	nt, tr := batchlas.NoTrans, batchlas.Trans

	// gemm: C = A*B row-major is C^T = B^T*A^T column-major, so the
	// operands swap (and so would ta and tb).
	a := []float64{ // two 2x3
		1, 2, 3,
		4, 5, 6,

		1, 0, 0,
		0, 1, 0,
	}
	b := []float64{ // two 3x2
		1, 2,
		3, 4,
		5, 6,

		7, 8,
		9, 10,
		11, 12,
	}
	c := make([]float64, 2*2*2) // two 2x2
	if err := gemm.Gemm(ctx, nt, nt, 1, wrap(b, 3, 2, 2), wrap(a, 2, 3, 2), 0, wrap(c, 2, 2, 2), nil); err != nil {
		panic(err)
	}
	fmt.Println("C = A*B:", c)

	// potrf: the lower triangle of a row-major matrix is the upper
	// triangle of its column-major reading, and S^T = S, so uplo flips:
	// Upper factors S = U^T*U with U = L^T, which leaves L in the
	// row-major lower triangle (the upper one keeps S).
	s := []float64{ // two 3x3 SPD
		4, 2, 2,
		2, 10, 7,
		2, 7, 21,

		1, 2, 3,
		2, 5, 10,
		3, 10, 50,
	}
	if err := potrf.Potrf(ctx, batchlas.Upper, wrap(s, 3, 3, 2), nil); err != nil {
		panic(err)
	}
	for i := range 2 {
		m := s[i*9 : i*9+9]
		fmt.Printf("L%d = [%g 0 0; %g %g 0; %g %g %g]\n", i, m[0], m[3], m[4], m[6], m[7], m[8])
	}

	// trsm: L*Y = X row-major is Y^T*L^T = X^T column-major, with L^T the
	// column-major upper triangle: side and uplo flip, ta stays. Then
	// L^T*Z = Y is Z^T*L = Y^T, ta Trans. Together they solve S*Z = X.
	x := []float64{ // two 3x2, right-hand sides in columns
		20, 28,
		67, 86,
		128, 158,

		4, 5,
		12, 15,
		53, 60,
	}
	lt, xt := wrap(s, 3, 3, 2), wrap(x, 3, 2, 2)
	for _, ta := range []batchlas.Transpose{nt, tr} {
		if err := trsm.Trsm(ctx, batchlas.Right, batchlas.Upper, ta, batchlas.NonUnit, 1, lt, xt, nil); err != nil {
			panic(err)
		}
	}
	fmt.Println("Z = S\\X:", x)
	// Output:
	// C = A*B: [22 28 49 64 7 8 9 10]
	// L0 = [2 0 0; 1 3 0; 1 2 4]
	// L1 = [1 0 0; 2 1 0; 3 4 5]
	// Z = S\X: [1 2 3 4 5 6 1 0 0 1 1 1]
}

// One matrix applied to a whole batch: Broadcast repeats it without
// copying, for an operand the op only reads.
func ExampleBroadcast() {
	// R rotates by 90 degrees; three column vectors v_i.
	r, err := batchlas.WrapBatch([]float64{0, 1, -1, 0}, 2, 2, 1)
	if err != nil {
		panic(err)
	}
	v, err := batchlas.WrapBatch([]float64{1, 0, 0, 1, 3, 4}, 2, 1, 3)
	if err != nil {
		panic(err)
	}
	w := batchlas.NewBatch[float64](2, 1, 3)
	err = gemm.Gemm(context.Background(), batchlas.NoTrans, batchlas.NoTrans, 1, batchlas.Broadcast(r, 3), v, 0, w, nil)
	fmt.Println(w.Data, err)

	// Without Broadcast, a batch of stride 0 over several matrices (a
	// forgotten Stride) is refused rather than read as one matrix.
	forgot := batchlas.Batch[float64]{Data: r.Data, Rows: 2, Cols: 2, LD: 2, Count: 3}
	err = gemm.Gemm(context.Background(), batchlas.NoTrans, batchlas.NoTrans, 1, forgot, v, 0, w, nil)
	fmt.Println(err)
	// Output:
	// [0 1 -1 0 -4 3] <nil>
	// gemm: stride 0 with count 3: set Stride to ld*cols = 4 (or more) for 3 matrices of their own, or repeat one matrix with batchlas.Broadcast(m, 3)
}
