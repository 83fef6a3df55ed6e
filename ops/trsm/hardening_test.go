package trsm_test

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// TestNilContext: a nil context is context.Background() for Trsm and
// BufferSize (issue #9): no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	v := variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	a, b := randomInput[float64](4, v, 12, 5, 3, false)
	want := testmat.Clone(b)
	if err := trsm.Trsm(context.Background(), v.side, v.uplo, v.ta, v.diag, 2, a, want, nil); err != nil {
		t.Fatal(err)
	}
	n, err := trsm.BufferSize(nilCtx, v.side, v.uplo, v.ta, v.diag, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 2, a, b, make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	for i := range b.Data {
		if b.Data[i] != want.Data[i] {
			t.Fatalf("element %d: %v with a nil context, %v with Background", i, b.Data[i], want.Data[i])
		}
	}
	// The quick returns take nil too.
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 0, a, b, nil); err != nil {
		t.Fatal(err)
	}
	empty := batchlas.NewBatch[float64](4, 4, 0)
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 1, empty, empty, nil); err != nil {
		t.Fatal(err)
	}
}
