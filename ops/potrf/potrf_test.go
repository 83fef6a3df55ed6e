package potrf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// countFor keeps the suite short: big orders run on small batches.
func countFor(n int) int {
	switch {
	case n <= 9:
		return 6
	case n <= 33:
		return 3
	}
	return 1
}

// testRandom factors random SPD batches of every straddling order, tight
// and padded, and checks residual, oracle, other triangle and padding.
func testRandom[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(1)
	for _, n := range straddleSizes {
		count := countFor(n)
		if !runnable(c, uplo, n, count) {
			continue
		}
		for _, padded := range []bool{false, true} {
			a := batchFor[T](r, n, count, padded)
			orig := testmat.Clone(a)
			require.NoError(t, Potrf(ctx, uplo, a, nil), "n=%d padded=%v", n, padded)
			checkFactor(t, uplo, orig, a)
		}
	}
}

func TestRandom(t *testing.T) { forEachCandidate(t, testRandom[float32], testRandom[float64]) }

// testLargeBatch factors batches of 1000+ small matrices (the batch-parallel
// path, several chunks per worker).
func testLargeBatch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(2)
	for _, n := range []int{1, 3, 8} {
		a := batchFor[T](r, n, 1500, n == 3)
		orig := testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, a, nil))
		checkFactor(t, uplo, orig, a)
	}
	a := batchFor[T](r, 1, 1, false) // batch 1
	orig := testmat.Clone(a)
	require.NoError(t, Potrf(ctx, uplo, a, nil))
	checkFactor(t, uplo, orig, a)
}

func TestLargeBatch(t *testing.T) {
	forEachCandidate(t, testLargeBatch[float32], testLargeBatch[float64])
}

// structured overwrites every matrix of a (both triangles) with f(r, c).
func structured[T batchlas.Float](a batchlas.Batch[T], f func(r, c int) float64) {
	for i := 0; i < a.Count; i++ {
		for c := 0; c < a.Cols; c++ {
			for r := 0; r < a.Rows; r++ {
				a.Set(i, r, c, T(f(r, c)))
			}
		}
	}
}

// testStructured checks identity (factor exactly I), diagonal (exact square
// roots), graded (entries spanning many binades) and ill-conditioned
// (ones*ones^T + delta*I) inputs.
func testStructured[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(3)
	for _, n := range []int{1, 2, 9, 16, 17, 33, 65} {
		if !runnable(c, uplo, n, 2) {
			continue
		}
		// Identity: the factor is exactly the identity.
		a := testmat.Batch[T](r, n, n, 2, n+1, 0)
		structured(a, func(r, c int) float64 { return b2f(r == c) })
		orig := testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, a, nil))
		for i := 0; i < a.Count; i++ {
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					if inTriangle(uplo, j, k) {
						require.Equal(t, T(b2f(j == k)), a.At(i, j, k), "identity n=%d (%d,%d)", n, j, k)
					}
				}
			}
		}
		checkFactor(t, uplo, orig, a)

		// Diagonal: exact square roots of exact squares.
		a = testmat.Batch[T](r, n, n, 2, 0, 0)
		structured(a, func(r, c int) float64 {
			if r != c {
				return 0
			}
			return float64((r + 1) * (r + 1))
		})
		orig = testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, a, nil))
		for j := 0; j < n; j++ {
			require.Equal(t, T(j+1), a.At(1, j, j), "diagonal n=%d", n)
		}
		checkFactor(t, uplo, orig, a)

		// Graded: D*S*D with D = diag(2^(-j/2)): a wide range of magnitudes.
		a = batchFor[T](r, n, 2, false)
		for i := 0; i < a.Count; i++ {
			for k := 0; k < n; k++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, k, a.At(i, j, k)*T(math.Exp2(-float64(j+k)/4)))
				}
			}
		}
		orig = testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, a, nil))
		for i := 0; i < a.Count; i++ {
			require.LessOrEqual(t, residual(uplo, orig, a, i), float64(residualC), "graded n=%d", n)
		}

		// Ill-conditioned: ones*ones^T + delta*I, condition about n/delta.
		delta := 1e-6
		if testmat.Eps[T]() > 1e-10 {
			delta = 0.1
		}
		a = testmat.Batch[T](r, n, n, 2, 0, 0)
		structured(a, func(r, c int) float64 { return 1 + delta*b2f(r == c) })
		orig = testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, a, nil))
		for i := 0; i < a.Count; i++ {
			require.LessOrEqual(t, residual(uplo, orig, a, i), float64(residualC), "ill-conditioned n=%d", n)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestStructured(t *testing.T) {
	forEachCandidate(t, testStructured[float32], testStructured[float64])
}

// testNotPositiveDefinite spoils matrices in the middle of a batch at known
// leading minors (a negative pivot, a NaN pivot, a NaN below the diagonal,
// -Inf on the diagonal, +Inf off it) and checks each is reported with the
// expected info while every other matrix is factored correctly.
func testNotPositiveDefinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(4)
	for _, n := range []int{1, 5, 16, 26, 40, 70} { // 26: a pivot failing at the second column of a 4-column block
		count := 9
		if !runnable(c, uplo, n, count) {
			continue
		}
		a := batchFor[T](r, n, count, true)
		type spoil struct {
			i, row, col int
			v           float64
			info        int // 0: any failure
		}
		p, q := n/2, n-1 // a pivot in the middle and the last one
		spoils := []spoil{
			{i: 1, row: p, col: p, v: -1, info: p + 1},
			{i: 3, row: q, col: q, v: math.NaN(), info: q + 1},
			{i: 4, row: 0, col: 0, v: math.Inf(-1), info: 1},
		}
		if n > 1 {
			spoils = append(spoils,
				spoil{i: 6, row: q, col: 0, v: math.NaN(), info: q + 1},
				spoil{i: 7, row: q, col: p / 2, v: math.Inf(1)})
		}
		for _, s := range spoils {
			row, col := s.row, s.col
			if uplo == batchlas.Upper {
				row, col = col, row
			}
			a.Set(s.i, row, col, T(s.v))
		}
		orig := testmat.Clone(a)
		err := Potrf(ctx, uplo, a, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, "potrf", ne.Op)
		want := map[int]int{}
		for _, s := range spoils {
			want[s.i] = s.info
		}
		require.Len(t, ne.Index, len(spoils), "n=%d: failed matrices %v", n, ne.Index)
		for j, i := range ne.Index {
			w, ok := want[i]
			require.True(t, ok, "n=%d: matrix %d reported failed (info %d) but is SPD", n, i, ne.Info[j])
			if w != 0 {
				require.Equal(t, w, ne.Info[j], "n=%d: info of matrix %d", n, i)
			} else {
				require.True(t, ne.Info[j] >= 1 && ne.Info[j] <= n, "n=%d: info %d", n, ne.Info[j])
			}
		}
		for i := 0; i < count; i++ {
			if _, bad := want[i]; bad {
				continue
			}
			require.LessOrEqual(t, residual(uplo, orig, a, i), float64(residualC), "n=%d: SPD matrix %d next to failing ones", n, i)
		}
		require.True(t, testmat.Untouched(a, a.Data, orig.Data), "padding changed")
	}
}

func TestNotPositiveDefinite(t *testing.T) {
	forEachCandidate(t, testNotPositiveDefinite[float32], testNotPositiveDefinite[float64])
}

// testWorkspace runs each candidate with exactly BufferSize elements of
// NaN-filled workspace and checks the result is bitwise the nil-workspace
// result; a workspace one element short is an ArgError naming ws.
func testWorkspace[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(5)
	for _, n := range []int{3, 16, 17, 70, 129} {
		if !runnable(c, uplo, n, 2) {
			continue
		}
		a := batchFor[T](r, n, 2, true)
		ref := testmat.Clone(a)
		require.NoError(t, Potrf(ctx, uplo, ref, nil))
		size, err := BufferSize(ctx, uplo, a)
		require.NoError(t, err)
		require.GreaterOrEqual(t, size, 0)
		if uplo == batchlas.Upper && (c.Is(unblockedFamily) || c.Is(lpanelFamily)) {
			// These factor Upper through a transposed per-worker copy.
			require.Positive(t, size, "n=%d", n)
		}
		ws := testmat.NaNs[T](size)
		require.NoError(t, Potrf(ctx, uplo, a, ws), "n=%d ws=%d", n, size)
		for j := range a.Data {
			require.True(t, a.Data[j] == ref.Data[j], "n=%d: element %d differs with a workspace: %g vs %g", n, j, a.Data[j], ref.Data[j])
		}
		if size > 0 {
			err := Potrf(ctx, uplo, a, ws[:size-1])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "ws", ae.Arg)
		}
	}
}

func TestWorkspace(t *testing.T) { forEachCandidate(t, testWorkspace[float32], testWorkspace[float64]) }

// testCanRunEqualsLaunch pins each candidate on shapes straddling its
// limits: the call succeeds exactly when can_run says so, and a refusal is
// an error, never a panic.
func testCanRunEqualsLaunch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(6)
	for _, n := range []int{1, 15, 16, 17, 33} {
		a := batchFor[T](r, n, 2, false)
		ok := runnable(c, uplo, n, 2)
		err := Potrf(ctx, uplo, a, nil)
		if ok {
			require.NoError(t, err, "n=%d: can_run says yes", n)
		} else {
			require.Error(t, err, "n=%d: can_run says no", n)
		}
		_, err = BufferSize(ctx, uplo, a)
		require.Equal(t, ok, err == nil, "BufferSize n=%d: %v", n, err)
	}
}

func TestCanRunEqualsLaunch(t *testing.T) {
	forEachCandidate(t, testCanRunEqualsLaunch[float32], testCanRunEqualsLaunch[float64])
	// The launch itself refuses exactly what can_run refuses, on the host and
	// on a device without vendor libraries, for every candidate.
	bare := *batchlas.Host()
	bare.Flags = nil
	for _, dev := range []*sel.Device{batchlas.Host(), &bare} {
		for _, c := range Op.Candidates(sel.Float64) {
			for _, n := range []int{1, 16, 17, 40} {
				a := batchFor[float64](testmat.Rand(7), n, 2, false)
				k := makeKey(batchlas.Lower, a)
				info := make([]int32, a.Count)
				err := launch(context.Background(), c, k, dev, batchlas.Lower, a, nil, info)
				require.Equal(t, canRun(c, k, dev), err == nil, "%s n=%d flags=%v: %v", c, n, dev.Flags, err)
			}
		}
	}
}

// TestBadArguments checks every argument error names potrf and the
// argument, and that empty batches succeed.
func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	good := batchlas.NewBatch[float64](4, 4, 3)
	cases := []struct {
		name string
		uplo batchlas.Uplo
		a    batchlas.Batch[float64]
		ws   []float64
		arg  string
	}{
		{"bad uplo", 'X', good, nil, "uplo"},
		{"negative rows", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: -1, Cols: 4, LD: 4, Stride: 16, Count: 3}, nil, "a"},
		{"negative count", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 16, Count: -1}, nil, "a"},
		{"not square", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 3, LD: 4, Stride: 16, Count: 3}, nil, "a"},
		{"ld too small", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 3, Stride: 16, Count: 3}, nil, "a"},
		{"short data", batchlas.Upper, batchlas.Batch[float64]{Data: good.Data[:40], Rows: 4, Cols: 4, LD: 4, Stride: 16, Count: 3}, nil, "a"},
		{"overlapping stride", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 8, Count: 3}, nil, "a"},
		{"broadcast written", batchlas.Lower, batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 0, Count: 3}, nil, "a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ae *batchlas.ArgError
			err := Potrf(ctx, tc.uplo, tc.a, tc.ws)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "potrf", ae.Op)
			require.Equal(t, tc.arg, ae.Arg)
			require.Contains(t, err.Error(), "potrf: ")
			_, err = BufferSize(ctx, tc.uplo, tc.a)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.arg, ae.Arg)
		})
	}
	// Empty batches and zero orders succeed without a decision.
	for _, a := range []batchlas.Batch[float64]{batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](0, 0, 5)} {
		require.NoError(t, Potrf(ctx, batchlas.Lower, a, nil))
		size, err := BufferSize(ctx, batchlas.Upper, a)
		require.NoError(t, err)
		require.Zero(t, size)
	}
	// A pin that does not parse, or names no candidate, is an error.
	a := batchFor[float64](testmat.Rand(8), 4, 2, false)
	for _, p := range []string{"lpanel:panel=7", "nosuch", "tiny:3"} {
		require.Error(t, Potrf(sel.WithPin(ctx, "potrf", p), batchlas.Lower, a, nil), p)
	}
}

// TestConcurrentCalls runs many goroutines, each factoring its own batch
// through a different candidate and dtype at once.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := testmat.Rand(uint64(100 + g))
			cands := Op.Candidates(sel.Float64)
			c := cands[g%len(cands)]
			uplo := batchlas.Lower
			if g%3 == 0 {
				uplo = batchlas.Upper
			}
			n := []int{3, 9, 16, 40}[g%4]
			if !runnable(c, uplo, n, 40) {
				n = 9
			}
			ctx := pin(c)
			if g%5 == 0 {
				ctx = context.Background() // automatic selection
			}
			if c.Is(blockedFamily) {
				// The batch-wide path, with its nested trsm and gemm calls.
				ctx = batchlas.WithDevice(ctx, smallCache())
				n = 70
			}
			a := batchFor[float64](r, n, 40, g%2 == 0)
			orig := testmat.Clone(a)
			if err := Potrf(ctx, uplo, a, nil); err != nil {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): %w", g, c, n, err)
				return
			}
			for i := 0; i < a.Count; i++ {
				if res := residual(uplo, orig, a, i); !(res <= residualC) {
					errs <- fmt.Errorf("goroutine %d (%s n=%d): matrix %d residual %g", g, c, n, i, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCancelled checks a cancelled context stops the call with its error.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := batchFor[float64](testmat.Rand(9), 8, 4, false)
	err := Potrf(ctx, batchlas.Lower, a, nil)
	require.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

// failAt overwrites matrix i of a (both triangles) with L*D*L^T, L unit
// lower with small integer entries and D = I except D[col-1] = pivot (-1
// or 0): the leading minor of order col-1 is positive definite and the
// pivot of column col is exactly pivot, computed exactly (every value is
// a small integer) in float32 and float64 alike. For col >= 2 the
// diagonal entry there is positive: only the Schur complement is not.
func failAt[T batchlas.Float](a batchlas.Batch[T], i, col int, pivot float64) {
	n := a.Rows
	l := func(r, c int) float64 {
		switch {
		case r == c:
			return 1
		case r > c:
			return float64(1 + (r+c)%3)
		}
		return 0
	}
	for r := 0; r < n; r++ {
		for c := 0; c <= r; c++ {
			s := 0.0
			for k := 0; k <= c; k++ {
				d := 1.0
				if k == col-1 {
					d = pivot
				}
				s += l(r, k) * d * l(c, k)
			}
			a.Set(i, r, c, T(s))
			a.Set(i, c, r, T(s))
		}
	}
}

// one is matrix i of b as a batch of one, its backing slice running to
// the next matrix (so its padding is checked too).
func one[T batchlas.Float](b batchlas.Batch[T], i int) batchlas.Batch[T] {
	b.Data = b.Data[i*b.Stride : (i+1)*b.Stride]
	b.Count = 1
	return b
}

// testInfoEveryColumn makes, for every order 1..20, a batch of a healthy
// matrix, then one matrix failing at each column 1..n, then another
// healthy one: each failing matrix reports exactly its column as info (an
// off-by-one in any order's failure return shows), and the healthy ones
// on either side are factored correctly. The failing pivot is exactly -1,
// then exactly 0: a test written d < 0 instead of !(d > 0) passes a zero
// pivot, which fails a later column instead (or none, at the last).
func testInfoEveryColumn[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	for _, pivot := range []float64{-1, 0} {
		t.Run(fmt.Sprintf("pivot=%v", pivot), func(t *testing.T) { testInfoEveryColumnWith[T](t, ctx, c, uplo, pivot) })
	}
}

func testInfoEveryColumnWith[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo, pivot float64) {
	r := testmat.Rand(14)
	for n := 1; n <= 20; n++ {
		count := n + 2
		if !runnable(c, uplo, n, count) {
			continue
		}
		a := batchFor[T](r, n, count, true)
		want := &batchlas.NumericalError{Op: "potrf"}
		for col := 1; col <= n; col++ {
			failAt(a, col, col, pivot)
			want.Index = append(want.Index, col)
			want.Info = append(want.Info, col)
		}
		orig := testmat.Clone(a)
		err := Potrf(ctx, uplo, a, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, want, ne, "n=%d: matrix i fails at column i", n)
		for _, i := range []int{0, count - 1} {
			checkFactor(t, uplo, one(orig, i), one(a, i))
		}
		require.True(t, testmat.Untouched(a, a.Data, orig.Data), "n=%d: padding changed", n)
	}
}

func TestInfoEveryColumn(t *testing.T) {
	forEachCandidate(t, testInfoEveryColumn[float32], testInfoEveryColumn[float64])
}

// TestBroadcastWritten: potrf writes a, so a broadcast of several matrices
// is refused, whether batchlas.Broadcast made it or a literal left Stride
// out, before anything is written; a broadcast of one matrix is that
// matrix, factored as a batch of one is under every candidate.
func TestBroadcastWritten(t *testing.T) {
	r := testmat.Rand(31)
	one := batchFor[float64](r, 6, 1, true)
	before := testmat.Clone(one)
	for _, c := range []struct {
		name, want string
		a          batchlas.Batch[float64]
	}{
		{"broadcast", "a is a broadcast (one matrix for all 3) but is written", batchlas.Broadcast(one, 3)},
		{"stride 0 literal", "stride 0 with count 3, and a is written", batchlas.Batch[float64]{Data: one.Data, Rows: 6, Cols: 6, LD: one.LD, Count: 3}},
	} {
		var ae *batchlas.ArgError
		err := Potrf(context.Background(), batchlas.Lower, c.a, nil)
		require.ErrorAs(t, err, &ae, c.name)
		require.Equal(t, "a", ae.Arg, c.name)
		require.Contains(t, err.Error(), "potrf: "+c.want, c.name)
		_, err = BufferSize(context.Background(), batchlas.Lower, c.a)
		require.ErrorAs(t, err, &ae, c.name)
		require.Equal(t, before.Data, one.Data, "%s: a refused call wrote a", c.name)
	}
	for _, c := range Op.Candidates(sel.Float64) {
		ctx := sel.WithPin(context.Background(), "potrf", c.String())
		got, want := testmat.Clone(one), testmat.Clone(one)
		require.NoError(t, Potrf(ctx, batchlas.Upper, batchlas.Broadcast(got, 1), nil), c.String())
		require.NoError(t, Potrf(ctx, batchlas.Upper, want, nil), c.String())
		require.Equal(t, -1, testmat.SameMatrices(got, want, 0, 1), c.String())
		require.NotEqual(t, before.Data, got.Data, "%s: factored", c.String())
	}
}
