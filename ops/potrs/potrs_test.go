package potrs

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// countFor keeps the suite short: large orders run on small batches.
func countFor(n int) int {
	switch {
	case n <= 9:
		return 5
	case n <= 33:
		return 3
	}
	return 2
}

// testRandom solves random systems of every straddling order and number
// of right-hand sides, tight and padded (NaN in every gap of a and b),
// against gonum and by residual; a is not written at all.
func testRandom[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(1)
	for _, n := range orders {
		for j, nrhs := range rhsCounts {
			if n > 65 && j%2 == 1 {
				continue // the large orders with 1, 3 and 33 right-hand sides
			}
			padded := (n+nrhs)%2 == 0
			s := newSystem[T](r, uplo, n, nrhs, countFor(n), padded)
			a0 := testmat.Clone(s.a)
			x := testmat.Clone(s.b)
			what := fmt.Sprintf("%s n=%d nrhs=%d padded=%v", c, n, nrhs, padded)
			require.NoError(t, Potrs(ctx, uplo, s.a, x, nil), what)
			checkSolved(t, what, s, x)
			require.Equal(t, -1, testmat.SameMatrices(s.a, a0, 0, s.a.Count), "%s: a was written", what)
			require.True(t, testmat.Untouched(s.a, s.a.Data, a0.Data), "%s: a's padding was written", what)
		}
	}
}

func TestRandom(t *testing.T) { forEachCandidate(t, testRandom[float32], testRandom[float64]) }

// testBroadcast solves a batch of right-hand sides against one factor
// (batchlas.Broadcast): every X_i is the solution with that factor.
func testBroadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(2)
	for _, tc := range []struct{ n, nrhs, count int }{{3, 2, 300}, {17, 5, 40}, {70, 3, 6}} {
		one := newSystem[T](r, uplo, tc.n, tc.nrhs, 1, true)
		b := testmat.Batch[T](r, tc.n, tc.nrhs, tc.count, tc.n+1, (tc.n+1)*tc.nrhs+2)
		x := testmat.Clone(b)
		what := fmt.Sprintf("%s broadcast n=%d nrhs=%d count=%d", c, tc.n, tc.nrhs, tc.count)
		require.NoError(t, Potrs(ctx, uplo, batchlas.Broadcast(one.a, tc.count), x, nil), what)
		for i := 0; i < tc.count; i += max(1, tc.count/7) {
			// System i as a batch of one: the factor and B_i.
			si := system[T]{uplo: uplo, spd: one.spd, a: one.a, b: matrixOf(b, i)}
			require.Equal(t, "", solvedMessage(si, matrixOf(x, i), 0), "%s: matrix %d", what, i)
		}
		require.True(t, testmat.Untouched(x, x.Data, b.Data), "%s: B's padding changed", what)
	}
}

func TestBroadcast(t *testing.T) { forEachCandidate(t, testBroadcast[float32], testBroadcast[float64]) }

// matrixOf is matrix i of x as a batch of one.
func matrixOf[T batchlas.Float](x batchlas.Batch[T], i int) batchlas.Batch[T] {
	x.Data = x.Data[i*x.Stride:]
	x.Count = 1
	return x
}

// testLargeBatch solves batches of 1000+ small systems (the batch-parallel
// path, several chunks per worker), and a batch of one.
func testLargeBatch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(3)
	for _, tc := range []struct{ n, nrhs, count int }{{1, 1, 1500}, {3, 4, 1200}, {8, 1, 1100}, {5, 2, 1}} {
		s := newSystem[T](r, uplo, tc.n, tc.nrhs, tc.count, tc.n == 3)
		x := testmat.Clone(s.b)
		require.NoError(t, Potrs(ctx, uplo, s.a, x, nil))
		for _, i := range []int{0, tc.count / 2, tc.count - 1} {
			require.Equal(t, "", solvedMessage(s, x, i), "%s n=%d: matrix %d", c, tc.n, i)
		}
	}
}

func TestLargeBatch(t *testing.T) {
	forEachCandidate(t, testLargeBatch[float32], testLargeBatch[float64])
}

// testSingularFactor: a zero on the factor's diagonal is not an error; it
// gives Inf or NaN in X as a division by zero does, and a NaN in the
// factor gives NaN. The other systems of the batch are solved.
func testSingularFactor[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(4)
	for _, n := range []int{1, 5, 40} {
		s := newSystem[T](r, uplo, n, 3, 4, false)
		s.a.Set(1, n/2, n/2, 0)
		s.a.Set(2, n-1, n-1, T(math.NaN()))
		x := testmat.Clone(s.b)
		require.NoError(t, Potrs(ctx, uplo, s.a, x, nil), "%s n=%d: no numerical failure is reported", c, n)
		for _, i := range []int{1, 2} {
			finite := true
			for _, v := range x.Data[i*x.Stride : (i+1)*x.Stride] {
				finite = finite && !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
			}
			require.False(t, finite, "%s n=%d: matrix %d has a zero or NaN pivot, X must show it", c, n, i)
		}
		for _, i := range []int{0, 3} {
			require.Equal(t, "", solvedMessage(s, x, i), "%s n=%d: matrix %d beside singular ones", c, n, i)
		}
	}
}

func TestSingularFactor(t *testing.T) {
	forEachCandidate(t, testSingularFactor[float32], testSingularFactor[float64])
}

// testWorkspace runs each candidate with exactly BufferSize elements of
// NaN workspace: the result is bitwise the nil-workspace result, and a
// workspace one element short is an ArgError naming ws.
func testWorkspace[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(5)
	for _, tc := range []struct{ n, nrhs int }{{3, 1}, {16, 4}, {17, 9}, {70, 2}, {129, 3}} {
		s := newSystem[T](r, uplo, tc.n, tc.nrhs, 3, true)
		ref := testmat.Clone(s.b)
		require.NoError(t, Potrs(ctx, uplo, s.a, ref, nil))
		size, err := BufferSize(ctx, uplo, s.a, s.b)
		require.NoError(t, err)
		switch {
		case c.Is(fusedFamily), c.Is(vendorFamily) && tc.nrhs == 1:
			require.Zero(t, size, "n=%d nrhs=%d", tc.n, tc.nrhs)
		case c.Is(vendorFamily):
			require.Positive(t, size, "n=%d nrhs=%d: a transposed copy of B per worker", tc.n, tc.nrhs)
		}
		x := testmat.Clone(s.b)
		ws := testmat.NaNs[T](size)
		require.NoError(t, Potrs(ctx, uplo, s.a, x, ws), "n=%d ws=%d", tc.n, size)
		require.Equal(t, -1, testmat.SameMatrices(x, ref, 0, x.Count), "n=%d nrhs=%d: a workspace changed the result", tc.n, tc.nrhs)
		if size > 0 {
			err := Potrs(ctx, uplo, s.a, testmat.Clone(s.b), ws[:size-1])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "ws", ae.Arg)
			require.Equal(t, opName, ae.Op)
		}
	}
}

func TestWorkspace(t *testing.T) { forEachCandidate(t, testWorkspace[float32], testWorkspace[float64]) }

// TestNestedSizesForTrsm: nested's workspace is what its trsm calls need
// (trsm's direct kernel packs the triangle per worker), so it is positive
// under a pin of trsm's direct, and exactly that workspace serves both.
func TestNestedSizesForTrsm(t *testing.T) {
	s := newSystem[float64](testmat.Rand(6), batchlas.Lower, 20, 3, 4, false)
	ctx := sel.WithPin(pin(context.Background(), nestedFamily.With()), "trsm", "direct")
	size, err := BufferSize(ctx, batchlas.Lower, s.a, s.b)
	require.NoError(t, err)
	require.Positive(t, size)
	x := testmat.Clone(s.b)
	require.NoError(t, Potrs(ctx, batchlas.Lower, s.a, x, testmat.NaNs[float64](size)))
	checkSolved(t, "nested under trsm direct", s, x)
}

// testCanRunEqualsLaunch: the call succeeds exactly when can_run says so
// (every candidate here runs on the host), BufferSize agrees, and a
// refusal is an error, never a panic.
func testCanRunEqualsLaunch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(7)
	for _, n := range []int{1, 4, 5, 33} {
		s := newSystem[T](r, uplo, n, 2, 2, false)
		ok := Op.CanRun(c, makeKey(uplo, s.a, s.b), batchlas.Host())
		err := Potrs(ctx, uplo, s.a, testmat.Clone(s.b), nil)
		require.Equal(t, ok, err == nil, "n=%d: can_run %v, call %v", n, ok, err)
		_, err = BufferSize(ctx, uplo, s.a, s.b)
		require.Equal(t, ok, err == nil, "BufferSize n=%d: %v", n, err)
	}
}

func TestCanRunEqualsLaunch(t *testing.T) {
	forEachCandidate(t, testCanRunEqualsLaunch[float32], testCanRunEqualsLaunch[float64])
	// The launch itself refuses exactly what can_run refuses, on the host
	// and on a device without vendor libraries, for every candidate.
	bare := *batchlas.Host()
	bare.Flags = nil
	for _, dev := range []*sel.Device{batchlas.Host(), &bare} {
		for _, c := range Op.Candidates(sel.Float64) {
			s := newSystem[float64](testmat.Rand(8), batchlas.Lower, 6, 2, 2, false)
			k := makeKey(batchlas.Lower, s.a, s.b)
			err := launch(context.Background(), c, k, dev, batchlas.Lower, s.a, s.b, nil)
			require.Equal(t, canRun(c, k, dev), err == nil, "%s flags=%v: %v", c, dev.Flags, err)
		}
	}
}

// TestBadArguments: every argument error is an *ArgError naming potrs and
// the argument, from Potrs and from BufferSize alike, and nothing is
// written; empty calls succeed without a decision.
func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewIdentity[float64](4, 3)
	b := batchlas.NewBatch[float64](4, 2, 3)
	with := func(x batchlas.Batch[float64], f func(*batchlas.Batch[float64])) batchlas.Batch[float64] {
		f(&x)
		return x
	}
	// One storage holding a and, inside its first matrix, b's elements.
	shared := batchlas.NewIdentity[float64](4, 3)
	overlapB := with(shared, func(x *batchlas.Batch[float64]) { x.Cols = 2; x.Data = x.Data[4:] })
	cases := []struct {
		name string
		uplo batchlas.Uplo
		a, b batchlas.Batch[float64]
		arg  string
	}{
		{"bad uplo", 'X', a, b, "uplo"},
		{"a negative rows", batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Rows = -1 }), b, "a"},
		{"a not square", batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Cols = 3 }), b, "a"},
		{"a ld too small", batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.LD = 3 }), b, "a"},
		{"a short data", batchlas.Upper, with(a, func(x *batchlas.Batch[float64]) { x.Data = x.Data[:40] }), b, "a"},
		{"a stride 0 literal", batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Stride = 0 }), b, "a"},
		{"b rows differ", batchlas.Lower, a, batchlas.NewBatch[float64](5, 2, 3), "b"},
		{"count differs", batchlas.Lower, batchlas.NewIdentity[float64](4, 2), b, "a"},
		{"b broadcast", batchlas.Lower, a, batchlas.Broadcast(batchlas.NewBatch[float64](4, 2, 1), 3), "b"},
		{"b overlapping stride", batchlas.Lower, a, with(b, func(x *batchlas.Batch[float64]) { x.Stride = 4 }), "b"},
		{"b negative count", batchlas.Lower, a, with(b, func(x *batchlas.Batch[float64]) { x.Count = -1 }), "b"},
		{"b shares a's elements", batchlas.Lower, shared, overlapB, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ae *batchlas.ArgError
			before := append([]float64(nil), tc.b.Data...)
			err := Potrs(ctx, tc.uplo, tc.a, tc.b, nil)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, opName, ae.Op)
			require.Equal(t, tc.arg, ae.Arg, err.Error())
			require.Contains(t, err.Error(), "potrs: ")
			require.Equal(t, before, tc.b.Data, "a refused call wrote b")
			_, err = BufferSize(ctx, tc.uplo, tc.a, tc.b)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.arg, ae.Arg)
		})
	}
	// A workspace that shares an element with a or b, under every
	// candidate that uses one (nested with trsm's direct, which packs).
	checked := 0
	for _, c := range Op.Candidates(sel.Float64) {
		s := newSystem[float64](testmat.Rand(9), batchlas.Lower, 6, 3, 2, false)
		ctx := sel.WithPin(pin(ctx, c), "trsm", "direct")
		need, err := BufferSize(ctx, batchlas.Lower, s.a, s.b)
		require.NoError(t, err)
		if need == 0 {
			continue
		}
		checked++
		for _, name := range []string{"a", "b"} {
			op := s.a
			if name == "b" {
				op = s.b
			}
			ws := append(make([]float64, need-1), op.Data...) // ws's last element is the operand's first
			x := op
			x.Data = ws[need-1:]
			aa, bb := s.a, s.b
			if name == "a" {
				aa = x
			} else {
				bb = x
			}
			before := append([]float64(nil), bb.Data...)
			err := Potrs(ctx, batchlas.Lower, aa, bb, ws[:need])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae, "%s ws over %s", c, name)
			require.Equal(t, "ws", ae.Arg)
			require.Contains(t, ae.Msg, "ws and "+name+" share elements")
			require.Equal(t, before, bb.Data, "nothing is written")
		}
	}
	require.Positive(t, checked, "no candidate uses a workspace")
	// Nothing to solve: no matrix, order 0, no right-hand side.
	for _, e := range []struct{ a, b batchlas.Batch[float64] }{
		{batchlas.NewIdentity[float64](4, 0), batchlas.NewBatch[float64](4, 2, 0)},
		{batchlas.NewBatch[float64](0, 0, 5), batchlas.NewBatch[float64](0, 3, 5)},
		{batchlas.NewIdentity[float64](4, 5), batchlas.NewBatch[float64](4, 0, 5)},
	} {
		require.NoError(t, Potrs(ctx, batchlas.Lower, e.a, e.b, nil))
		size, err := BufferSize(ctx, batchlas.Upper, e.a, e.b)
		require.NoError(t, err)
		require.Zero(t, size)
	}
	// A pin that does not parse or names no candidate is an error.
	s := newSystem[float64](testmat.Rand(10), batchlas.Lower, 4, 1, 2, false)
	for _, p := range []string{"fused:3", "nosuch", "nested:nb=4"} {
		require.Error(t, Potrs(sel.WithPin(ctx, opName, p), batchlas.Lower, s.a, testmat.Clone(s.b), nil), p)
	}
}

// TestConcurrentCalls runs many goroutines, each solving its own batch
// through a different candidate, dtype and uplo at once;
// some share one broadcast factor, which is only read.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	// Four workers per call, so a kernel's workers share the process-wide
	// pool with other calls' and a batch runs on several at once (a
	// kernel handing two workers one scratch slot is a race here).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	shared := newSystem[float64](testmat.Rand(11), batchlas.Lower, 9, 1, 1, false)
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
			ctx := pin(context.Background(), c)
			if g%5 == 0 {
				ctx = context.Background() // automatic selection
			}
			var s system[float64]
			if g%4 == 1 {
				// One factor for all, read by every goroutine at once.
				b := testmat.Batch[float64](r, 9, 2, 120, 0, 0)
				s = system[float64]{uplo: batchlas.Lower, spd: shared.spd, a: batchlas.Broadcast(shared.a, 120), b: b}
			} else {
				s = newSystem[float64](r, uplo, n, 1+g%5, 120, g%2 == 0)
			}
			x := testmat.Clone(s.b)
			if err := Potrs(ctx, s.uplo, s.a, x, nil); err != nil {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): %w", g, c, s.b.Rows, err)
				return
			}
			for i := 0; i < x.Count; i++ {
				si := s
				if s.a.IsBroadcast() {
					si = system[float64]{uplo: s.uplo, spd: shared.spd, a: shared.a, b: matrixOf(s.b, i)}
					if msg := solvedMessage(si, matrixOf(x, i), 0); msg != "" {
						errs <- fmt.Errorf("goroutine %d (%s broadcast): matrix %d: %s", g, c, i, msg)
						return
					}
					continue
				}
				if msg := solvedMessage(si, x, i); msg != "" {
					errs <- fmt.Errorf("goroutine %d (%s n=%d): matrix %d: %s", g, c, n, i, msg)
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

// TestNilContext: a nil context is context.Background() for Potrs and
// BufferSize: no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		s := newSystem[float64](testmat.Rand(12), uplo, 20, 3, 3, false)
		want := testmat.Clone(s.b)
		require.NoError(t, Potrs(context.Background(), uplo, s.a, want, nil))
		n, err := BufferSize(nilCtx, uplo, s.a, s.b)
		require.NoError(t, err)
		x := testmat.Clone(s.b)
		require.NoError(t, Potrs(nilCtx, uplo, s.a, x, make([]float64, n)))
		require.Equal(t, want.Data, x.Data)
	}
}

// TestNoKernelIgnoresPin: a call with nothing to solve makes no decision,
// so a bad pin (environment or scoped) is not read and the call succeeds;
// a call that solves something under the same pin fails with a
// *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	check := func(t *testing.T, ctx context.Context) {
		s := newSystem[float64](testmat.Rand(13), batchlas.Lower, 5, 2, 2, false)
		var pe *sel.PinError
		require.ErrorAs(t, Potrs(ctx, batchlas.Lower, s.a, testmat.Clone(s.b), nil), &pe)
		_, err := BufferSize(ctx, batchlas.Lower, s.a, s.b)
		require.ErrorAs(t, err, &pe)
		require.NoError(t, Potrs(ctx, batchlas.Upper, s.a, batchlas.NewBatch[float64](5, 0, 2), nil))
		n, err := BufferSize(ctx, batchlas.Upper, batchlas.NewIdentity[float64](0, 2), batchlas.NewBatch[float64](0, 3, 2))
		require.NoError(t, err)
		require.Zero(t, n)
	}
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_POTRS_ROUTE", "nonsense")
		sel.Reload()
		check(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) { check(t, sel.WithPin(context.Background(), opName, "nonsense")) })
}
