package posv

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// With the BufferSize workspace supplied, the public call of every
// candidate allocates nothing, on one worker and on all: fused, lanes, and
// nested under each of its potrf and potrs pins, its potrf and potrs calls
// (and theirs: blocked potrf's trsm and gemm, potrs's trsm) working in
// the caller's workspace. Orders 1 to 130, one and three right-hand
// sides, one system and 64. LogDet allocates nothing either.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
	// nested over blocked potrf's batch-wide path (a 1-byte L2 puts every
	// order above 64 there), whose trsm and gemm calls nest a level deeper.
	dev := *batchlas.Host()
	dev.L2 = 1
	ctx := batchlas.WithDevice(sel.WithPin(pin(context.Background(), nestedFamily.With()), "potrf", "blocked"), &dev)
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		t.Run("float64/nested/potrf=blocked/small L2/"+uplo.String(), func(t *testing.T) { noAllocs[float64](t, ctx, nestedFamily.With(), uplo) })
		t.Run("float32/nested/potrf=blocked/small L2/"+uplo.String(), func(t *testing.T) { noAllocs[float32](t, ctx, nestedFamily.With(), uplo) })
	}
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, n := range []int{1, 5, 20, 70, 130} {
		for _, nrhs := range []int{1, 3} {
			for _, count := range []int{1, 64} {
				if !runs(c, uplo, n, nrhs, count) {
					continue
				}
				if n == 130 && count > 1 {
					continue
				}
				p := newProblem[T](r, uplo, n, nrhs, count, false)
				a, b := p.clone()
				size, err := BufferSize(ctx, uplo, a, b)
				if err != nil {
					t.Fatal(err)
				}
				ws := make([]T, size)
				what := fmt.Sprintf("n=%d nrhs=%d count=%d", n, nrhs, count)
				testmat.NoAllocs(t, what, func() {
					copy(a.Data, p.a.Data) // solve the same systems again
					copy(b.Data, p.b.Data)
					if err := Posv(ctx, uplo, a, b, ws); err != nil {
						t.Fatal(err)
					}
				})
				out := batchlas.Vectors[T]{Data: make([]T, count), Len: 1, Count: count, Stride: 1}
				testmat.NoAllocs(t, "LogDet "+what, func() {
					if err := LogDet(ctx, uplo, a, out); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}
