package posv

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// testLogDet: after Posv, LogDet gives log(det(A_i)) as gonum's factor
// does (twice the sum of the logs of its diagonal), whatever the uplo,
// padding and stride of the output.
func testLogDet[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(41)
	for _, n := range []int{1, 2, 7, 32, 33, 70} {
		if !runs(c, uplo, n, 1, 4) {
			continue
		}
		p := newProblem[T](r, uplo, n, 1, 4, true)
		a, b := p.clone()
		require.NoError(t, Posv(ctx, uplo, a, b, nil))
		out, err := batchlas.WrapStridedVectors(testmat.NaNs[T](3*4), 1, 3, 4)
		require.NoError(t, err)
		before := append([]T(nil), out.Data...)
		require.NoError(t, LogDet(ctx, uplo, a, out))
		for i := 0; i < 4; i++ {
			// From the factor Posv wrote: the formula, to T's rounding.
			own := 0.0
			for j := 0; j < n; j++ {
				own += 2 * math.Log(float64(a.At(i, j, j)))
			}
			got := float64(out.At(i, 0))
			require.InDelta(t, own, got, 2*testmat.Eps[T]()*math.Abs(own), "%s n=%d matrix %d", c, n, i)
			// From gonum's factor: each diagonal entry agrees to about
			// n*eps relatively, so each log to about n*eps absolutely.
			f, _, ok := oracle(p, i)
			require.True(t, ok)
			want := 0.0
			for j := 0; j < n; j++ {
				want += 2 * math.Log(f[j+j*n])
			}
			require.InDelta(t, want, got, 8*float64(n*n)*testmat.Eps[T](), "%s n=%d matrix %d against gonum", c, n, i)
		}
		for j, v := range out.Data {
			if j%3 != 0 {
				require.True(t, math.IsNaN(float64(v)) && math.IsNaN(float64(before[j])), "LogDet wrote out's padding at %d", j)
			}
		}
	}
}

func TestLogDet(t *testing.T) { forEachCandidate(t, testLogDet[float32], testLogDet[float64]) }

// TestLogDetValues: exact values on diagonal factors, what math.Log gives
// for a diagonal that is not positive, a broadcast factor, order 0, and a
// determinant far outside the float range (the logs are summed, never
// multiplied).
func TestLogDetValues(t *testing.T) {
	ctx := context.Background()
	f := batchlas.NewBatch[float64](3, 3, 6)
	diags := [][3]float64{
		{1, 2, 4},           // log det = 2*log 8
		{0.5, 0.5, 0.5},     // 2*log(1/8)
		{1, 0, 3},           // a zero: -Inf
		{1, -2, 3},          // negative: NaN
		{1, math.NaN(), 3},  // NaN
		{1, math.Inf(1), 0}, // +Inf beside a zero: NaN
	}
	for i, d := range diags {
		for j, v := range d {
			f.Set(i, j, j, v)
		}
		f.Set(i, 2, 0, math.NaN()) // off the diagonal: never read
		f.Set(i, 0, 2, math.NaN())
	}
	out := batchlas.NewVectors[float64](1, 6)
	require.NoError(t, LogDet(ctx, batchlas.Lower, f, out))
	require.InDelta(t, 2*math.Log(8), out.At(0, 0), 1e-15)
	require.InDelta(t, -2*math.Log(8), out.At(1, 0), 1e-15)
	require.True(t, math.IsInf(out.At(2, 0), -1), "%v", out.At(2, 0))
	for i := 3; i < 6; i++ {
		require.True(t, math.IsNaN(out.At(i, 0)), "matrix %d: %v", i, out.At(i, 0))
	}
	up := batchlas.NewVectors[float64](1, 6)
	require.NoError(t, LogDet(ctx, batchlas.Upper, f, up))
	require.Equal(t, out.Data[:2], up.Data[:2], "only the diagonal is read")

	// One factor for every matrix: every value is its log-determinant.
	one := batchlas.NewIdentity[float32](2, 1)
	one.Set(0, 1, 1, 3)
	o32 := batchlas.NewVectors[float32](1, 5)
	require.NoError(t, LogDet(ctx, batchlas.Lower, batchlas.Broadcast(one, 5), o32))
	for i := 0; i < 5; i++ {
		require.InDelta(t, 2*math.Log(3), float64(o32.At(i, 0)), 1e-6)
	}

	// Order 0: the empty product, log 1.
	z := batchlas.NewVectors[float64](1, 3)
	z.Data[1] = 7
	require.NoError(t, LogDet(ctx, batchlas.Lower, batchlas.NewBatch[float64](0, 0, 3), z))
	require.Equal(t, []float64{0, 0, 0}, z.Data)

	// 300 diagonal entries of 1e10: det = 1e3000, far past float64.
	big := batchlas.NewIdentity[float64](300, 1)
	for j := 0; j < 300; j++ {
		big.Set(0, j, j, 1e10)
	}
	o := batchlas.NewVectors[float64](1, 1)
	require.NoError(t, LogDet(ctx, batchlas.Upper, big, o))
	require.InDelta(t, 2*300*10*math.Log(10), o.At(0, 0), 1e-9)

	// Nothing to do: no matrix.
	require.NoError(t, LogDet(ctx, batchlas.Lower, batchlas.NewBatch[float64](3, 3, 0), batchlas.NewVectors[float64](1, 0)))
}

// TestLogDetBadArguments: errors are *ArgErrors from "posv.LogDet" naming
// the argument, and out is not written.
func TestLogDetBadArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewIdentity[float64](4, 3)
	out := batchlas.NewVectors[float64](1, 3)
	// a and, in its first matrix's padding-free storage, an out over it.
	shared := batchlas.NewIdentity[float64](4, 3)
	inside, err := batchlas.WrapStridedVectors(shared.Data[1:], 1, 16, 3)
	require.NoError(t, err)
	wide := batchlas.NewVectors[float64](2, 3)
	cases := []struct {
		name string
		uplo batchlas.Uplo
		a    batchlas.Batch[float64]
		out  batchlas.Vectors[float64]
		arg  string
	}{
		{"bad uplo", 'Q', a, out, "uplo"},
		{"a not square", batchlas.Lower, batchlas.NewBatch[float64](4, 3, 3), out, "a"},
		{"a stride 0 literal", batchlas.Lower, batchlas.Batch[float64]{Data: a.Data, Rows: 4, Cols: 4, LD: 4, Count: 3}, out, "a"},
		{"out Len 2", batchlas.Lower, a, wide, "out"},
		{"out count", batchlas.Lower, a, batchlas.NewVectors[float64](1, 2), "out"},
		{"out broadcast", batchlas.Lower, a, batchlas.BroadcastVectors(batchlas.NewVectors[float64](1, 1), 3), "out"},
		{"out short", batchlas.Lower, a, batchlas.Vectors[float64]{Data: make([]float64, 2), Len: 1, Stride: 1, Count: 3}, "out"},
		{"out overlaps a", batchlas.Lower, shared, inside, "out"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]float64(nil), tc.out.Data...)
			err := LogDet(ctx, tc.uplo, tc.a, tc.out)
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, logDetName, ae.Op)
			require.Equal(t, tc.arg, ae.Arg, err.Error())
			require.Contains(t, err.Error(), "posv.LogDet: ")
			require.Equal(t, before, tc.out.Data, "a refused call wrote out")
		})
	}
}

// TestLogDetInterrupted: a cancelled context stops LogDet before it
// writes, with an *InterruptedError naming it; a nil context is
// Background.
func TestLogDetInterrupted(t *testing.T) {
	a := batchlas.NewIdentity[float64](3, 4)
	out := batchlas.NewVectors[float64](1, 4)
	out.Data[0] = 5
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	err := LogDet(cancelled, batchlas.Lower, a, out)
	var ie *batchlas.InterruptedError
	require.True(t, errors.As(err, &ie), "%v", err)
	require.Equal(t, batchlas.InterruptedError{Op: logDetName, Count: 4, Err: context.Canceled}, *ie)
	require.Equal(t, 5.0, out.Data[0], "nothing written")
	var nilCtx context.Context
	require.NoError(t, LogDet(nilCtx, batchlas.Lower, a, out))
	require.Equal(t, []float64{0, 0, 0, 0}, out.Data)
}
