package trsm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestBroadcastEqualsCopies(t *testing.T) {
	eachCandidate(t, broadcastEqualsCopies[float32], broadcastEqualsCopies[float64])
}

// broadcastEqualsCopies: A made by batchlas.Broadcast gives, bit for bit,
// the X that count explicit copies of its matrix give (vendor: within the
// oracle's bound), on orders that take
// the small-triangle path, the substitution kernel and blocked's recursion,
// over batches of several of blocked's chunks (a device with a tiny L2
// keeps them small) and over counts 0 and 1.
func broadcastEqualsCopies[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	dev := *batchlas.Host()
	dev.L2 = 4 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	// blocked's chunks hold more matrices with a broadcast A (stored
	// once) than with its copies, so its nested gemm calls have other
	// batch counts and may be decided differently, which changes float32
	// rounding without anything being wrong. One gemm kernel for both
	// keeps the comparison about the broadcast alone.
	ctx = sel.WithPin(ctx, "gemm", "direct")
	for vi, v := range []variant{
		{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit},
		{batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.Unit},
		{batchlas.Left, batchlas.Upper, batchlas.Trans, batchlas.NonUnit},
	} {
		for _, k := range []int{3, 9, 40} {
			for _, count := range []int{0, 1, 37} {
				m, n := k, 5
				if v.side == batchlas.Right {
					m, n = 5, k
				}
				what := fmt.Sprintf("%s %v t=%d count=%d", c, v, k, count)
				r := testmat.Rand(uint64(100*vi + k))
				// One padded triangle, broadcast, and its copies with the
				// same leading dimension: only the broadcast is under test.
				one := testmat.Batch[T](r, k, k, 1, k+2, 0)
				testmat.Triangular(r, one, v.uplo)
				copies := testmat.Batch[T](r, k, k, count, k+2, 0)
				for i := range count {
					if err := copies.CopyMatrixIn(i, one.Data, one.LD); err != nil {
						t.Fatal(err)
					}
				}
				b := testmat.Batch[T](r, m, n, count, m+1, 0)
				bc := batchlas.Broadcast(one, count)
				got := solve(t, ctx, v, T(0.5), bc, b)
				want := solve(t, ctx, v, T(0.5), copies, b)
				if c.Vendor() {
					// gonum's float32 kernels may round differently with
					// the alignment of the operands in memory, which
					// differs between the copies: against the oracle.
					for i := range count {
						forward(t, what, v, T(0.5), copies, b, got, i)
					}
					continue
				}
				if i := testmat.SameMatrices(got, want, 0, count); i >= 0 {
					t.Fatalf("%s: matrix %d differs from the solve with explicit copies", what, i)
				}
				if count > 0 {
					forward(t, what, v, T(0.5), copies, b, got, count-1)
				}
			}
		}
	}
}

// TestStrideZeroLiteralRefused: a literal with Stride 0 over several
// matrices (a forgotten Stride) is refused for a, which trsm only reads,
// with an *ArgError that says how to broadcast; a broadcast B, which trsm
// writes, is refused too. Nothing is written.
func TestStrideZeroLiteralRefused(t *testing.T) {
	const k, count = 4, 3
	one := batchlas.NewIdentity[float64](k, 1)
	b := testmat.Batch[float64](testmat.Rand(5), k, 2, count, 0, 0)
	b0 := testmat.Clone(b)
	lit := batchlas.Batch[float64]{Data: one.Data, Rows: k, Cols: k, LD: k, Count: count}
	bb := batchlas.Broadcast(b, count)
	cases := []struct {
		name, arg, want string
		a, b            batchlas.Batch[float64]
	}{
		{"literal a", "a", "batchlas.Broadcast(m, 3)", lit, b},
		{"broadcast b", "b", "b is a broadcast", batchlas.Broadcast(one, count), bb},
	}
	for _, tc := range cases {
		for _, c := range trsm.Op.Candidates(sel.Float64) {
			ctx := sel.WithPin(context.Background(), "trsm", c.String())
			for what, err := range map[string]error{
				"Trsm": trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, tc.a, tc.b, nil),
				"BufferSize": func() error {
					_, err := trsm.BufferSize(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, tc.a, tc.b)
					return err
				}(),
			} {
				var ae *batchlas.ArgError
				if !errors.As(err, &ae) || ae.Op != "trsm" || ae.Arg != tc.arg || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s %s %s: got %v, want an ArgError from trsm on %s saying %q", tc.name, c, what, err, tc.arg, tc.want)
				}
			}
		}
		if !sameBits(b.Data, b0.Data) {
			t.Fatalf("%s: a refused call wrote b", tc.name)
		}
	}
}
