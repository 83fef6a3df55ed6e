package posv

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
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

// testRandom factors and solves random SPD systems of every straddling
// order and number of right-hand sides, tight and padded (NaN in the other
// triangle and every gap), against gonum and by residual.
func testRandom[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(1)
	for _, n := range orders {
		for j, nrhs := range rhsCounts {
			if n > 65 && j%2 == 1 {
				continue // the large orders with 1, 3 and 33 right-hand sides
			}
			if !runs(c, uplo, n, nrhs, countFor(n)) {
				continue
			}
			padded := (n+nrhs)%2 == 0
			p := newProblem[T](r, uplo, n, nrhs, countFor(n), padded)
			a, b := p.clone()
			what := fmt.Sprintf("%s n=%d nrhs=%d padded=%v", c, n, nrhs, padded)
			require.NoError(t, Posv(ctx, uplo, a, b, nil), what)
			checkSolved(t, what, p, a, b, nil)
		}
	}
}

func TestRandom(t *testing.T) { forEachCandidate(t, testRandom[float32], testRandom[float64]) }

// testLargeBatch solves batches of 1000+ small systems (the batch-parallel
// path, several chunks per worker), and a batch of one.
func testLargeBatch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(2)
	for _, tc := range []struct{ n, nrhs, count int }{{1, 1, 1500}, {3, 4, 1200}, {8, 1, 1100}, {5, 2, 1}} {
		p := newProblem[T](r, uplo, tc.n, tc.nrhs, tc.count, tc.n == 3)
		a, b := p.clone()
		require.NoError(t, Posv(ctx, uplo, a, b, nil))
		checkSolved(t, fmt.Sprintf("%s n=%d", c, tc.n), p, a, b, []int{0, tc.count / 2, tc.count - 1})
	}
}

func TestLargeBatch(t *testing.T) {
	forEachCandidate(t, testLargeBatch[float32], testLargeBatch[float64])
}

// testNotPositiveDefinite spoils systems in the middle of a batch at known
// leading minors (a negative pivot, a NaN pivot, a NaN below the diagonal,
// -Inf on the diagonal, +Inf off it, an exactly computed -1 pivot): each
// is reported with potrf's info for the same matrix, its B_i is untouched
// bit for bit, and every other system is solved.
func testNotPositiveDefinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(3)
	for _, n := range []int{1, 5, 16, 26, 40, 70} {
		const count = 10
		if !runs(c, uplo, n, 3, count) {
			continue
		}
		p := newProblem[T](r, uplo, n, 3, count, true)
		type spoil struct {
			i, row, col int
			v           float64
		}
		h, q := n/2, n-1
		spoils := []spoil{{1, h, h, -1}, {3, q, q, math.NaN()}, {4, 0, 0, math.Inf(-1)}}
		if n > 1 {
			spoils = append(spoils, spoil{6, q, 0, math.NaN()}, spoil{7, q, h / 2, math.Inf(1)})
		}
		for _, s := range spoils {
			row, col := s.row, s.col
			if uplo == batchlas.Upper {
				row, col = col, row
			}
			p.a.Set(s.i, row, col, T(s.v))
		}
		failAt(p.spd, 8, max(1, n-2))
		for col := 0; col < n; col++ {
			for row := 0; row < n; row++ {
				if inTriangle(uplo, row, col) {
					p.a.Set(8, row, col, p.spd.At(8, row, col))
				}
			}
		}
		// potrf's verdict on the same matrices is the one posv must give.
		f := testmat.Clone(p.a)
		var want *batchlas.NumericalError
		require.ErrorAs(t, potrf.Potrf(context.Background(), uplo, f, nil), &want, "n=%d", n)
		want.Op = opName
		require.Len(t, want.Index, len(spoils)+1, "n=%d: the spoiled matrices fail potrf", n)

		a, b := p.clone()
		err := Posv(ctx, uplo, a, b, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, want, ne, "n=%d: posv reports what potrf does", n)
		var good []int
		for i := 0; i < count; i++ {
			failed := false
			for _, j := range ne.Index {
				failed = failed || i == j
			}
			if failed {
				require.Equal(t, -1, testmat.SameMatrices(b, p.b, i, i+1), "n=%d: B of failed system %d was written", n, i)
			} else {
				good = append(good, i)
			}
		}
		checkSolved(t, fmt.Sprintf("%s n=%d beside failing systems", c, n), p, a, b, good)
	}
}

func TestNotPositiveDefinite(t *testing.T) {
	forEachCandidate(t, testNotPositiveDefinite[float32], testNotPositiveDefinite[float64])
}

// testInfoEveryColumn: for every order 1..20, a healthy system, one
// failing at each column 1..n, and another healthy one: each failing
// system reports exactly its column as info and keeps its B; the healthy
// ones on either side are solved.
func testInfoEveryColumn[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(4)
	for n := 1; n <= 20; n++ {
		count := n + 2
		p := newProblem[T](r, uplo, n, 2, count, true)
		want := &batchlas.NumericalError{Op: opName}
		for col := 1; col <= n; col++ {
			failAt(p.spd, col, col)
			for cc := 0; cc < n; cc++ {
				for rr := 0; rr < n; rr++ {
					if inTriangle(uplo, rr, cc) {
						p.a.Set(col, rr, cc, p.spd.At(col, rr, cc))
					}
				}
			}
			want.Index = append(want.Index, col)
			want.Info = append(want.Info, col)
		}
		a, b := p.clone()
		err := Posv(ctx, uplo, a, b, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, want, ne, "n=%d: system i fails at column i", n)
		require.Equal(t, -1, testmat.SameMatrices(b, p.b, 1, count-1), "n=%d: a failed system's B was written", n)
		checkSolved(t, fmt.Sprintf("%s n=%d", c, n), p, a, b, []int{0, count - 1})
	}
}

func TestInfoEveryColumn(t *testing.T) {
	forEachCandidate(t, testInfoEveryColumn[float32], testInfoEveryColumn[float64])
}

// testAllFailAndNoRightHandSides: a batch where every system fails keeps
// all of B; with no right-hand side (nrhs = 0) posv still factors and
// reports.
func testAllFailAndNoRightHandSides[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(5)
	p := newProblem[T](r, uplo, 6, 3, 4, true)
	for i := 0; i < 4; i++ {
		p.a.Set(i, 2, 2, -1)
	}
	a, b := p.clone()
	var ne *batchlas.NumericalError
	require.ErrorAs(t, Posv(ctx, uplo, a, b, nil), &ne)
	require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{0, 1, 2, 3}, Info: []int{3, 3, 3, 3}}, ne)
	require.Equal(t, -1, testmat.SameMatrices(b, p.b, 0, 4), "every system failed: B is untouched")
	require.True(t, testmat.Untouched(b, b.Data, p.b.Data), "B's padding changed")

	q := newProblem[T](r, uplo, 9, 0, 5, true)
	q.a.Set(3, 0, 0, 0)
	a, b = q.clone()
	require.ErrorAs(t, Posv(ctx, uplo, a, b, nil), &ne)
	require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{3}, Info: []int{1}}, ne)
	f := testmat.Clone(q.a)
	_ = potrf.Potrf(context.Background(), uplo, f, nil)
	for _, i := range []int{0, 4} {
		for cc := 0; cc < 9; cc++ {
			for rr := 0; rr < 9; rr++ {
				if inTriangle(uplo, rr, cc) {
					d := math.Abs(float64(a.At(i, rr, cc) - f.At(i, rr, cc)))
					require.LessOrEqual(t, d, 64*9*testmat.Eps[T](), "nrhs=0: matrix %d is factored", i)
				}
			}
		}
	}
	// A B with no column holds no storage, whatever its stride, over more
	// systems than a group of the lanes kernel: nothing indexes it.
	s := newProblem[T](r, uplo, 6, 1, 40, false)
	a, _ = s.clone()
	empty := batchlas.Batch[T]{Rows: 6, Cols: 0, LD: 6, Stride: 7, Count: 40}
	require.NoError(t, Posv(ctx, uplo, a, empty, nil), "%s: nrhs=0 with no storage", c)
}

func TestAllFailAndNoRightHandSides(t *testing.T) {
	forEachCandidate(t, testAllFailAndNoRightHandSides[float32], testAllFailAndNoRightHandSides[float64])
}

// testWorkspace runs each candidate with exactly BufferSize elements of
// NaN workspace: the result is bitwise the nil-workspace result, and a
// workspace one element short is an ArgError naming ws.
func testWorkspace[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(6)
	for _, tc := range []struct{ n, nrhs int }{{3, 1}, {16, 4}, {17, 9}, {70, 2}, {129, 3}} {
		if !runs(c, uplo, tc.n, tc.nrhs, 3) {
			continue
		}
		p := newProblem[T](r, uplo, tc.n, tc.nrhs, 3, true)
		p.a.Set(1, 1, 1, -1) // a failure too, so nested's save and restore run
		refA, refB := p.clone()
		err := Posv(ctx, uplo, refA, refB, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne)
		size, err := BufferSize(ctx, uplo, p.a, p.b)
		require.NoError(t, err)
		if c.Is(fusedFamily) {
			require.Zero(t, size)
		}
		a, b := p.clone()
		ws := testmat.NaNs[T](size)
		require.ErrorAs(t, Posv(ctx, uplo, a, b, ws), &ne, "n=%d ws=%d", tc.n, size)
		require.Equal(t, -1, testmat.SameMatrices(a, refA, 0, 3), "n=%d: a workspace changed the factor", tc.n)
		require.Equal(t, -1, testmat.SameMatrices(b, refB, 0, 3), "n=%d: a workspace changed X", tc.n)
		if size > 0 {
			a, b := p.clone()
			err := Posv(ctx, uplo, a, b, ws[:size-1])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "ws", ae.Arg)
			require.Equal(t, opName, ae.Op)
		}
	}
}

func TestWorkspace(t *testing.T) { forEachCandidate(t, testWorkspace[float32], testWorkspace[float64]) }

// TestNestedSizesForItsCalls: nested's workspace is what potrf and potrs
// need beneath it (potrf's per-matrix kernels factor Upper through a
// transposed copy), so it is positive there, and exactly that serves both.
func TestNestedSizesForItsCalls(t *testing.T) {
	p := newProblem[float64](testmat.Rand(7), batchlas.Upper, 20, 3, 4, false)
	ctx := sel.WithPin(pin(context.Background(), nestedFamily.With()), "potrf", "unblocked")
	size, err := BufferSize(ctx, batchlas.Upper, p.a, p.b)
	require.NoError(t, err)
	want, err := potrf.BufferSize(ctx, batchlas.Upper, p.a)
	require.NoError(t, err)
	require.Positive(t, want)
	require.GreaterOrEqual(t, size, want)
	a, b := p.clone()
	require.NoError(t, Posv(ctx, batchlas.Upper, a, b, testmat.NaNs[float64](size)))
	checkSolved(t, "nested under potrf unblocked", p, a, b, nil)
}

// testCanRunEqualsLaunch: the call succeeds exactly when can_run says so,
// BufferSize agrees, and a refusal is an error, never a panic.
func testCanRunEqualsLaunch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := testmat.Rand(8)
	for _, n := range []int{1, 4, 5, 33} {
		p := newProblem[T](r, uplo, n, 2, 2, false)
		ok := Op.CanRun(c, makeKey(uplo, p.a, p.b), batchlas.Host())
		a, b := p.clone()
		err := Posv(ctx, uplo, a, b, nil)
		require.Equal(t, ok, err == nil, "n=%d: can_run %v, call %v", n, ok, err)
		_, err = BufferSize(ctx, uplo, p.a, p.b)
		require.Equal(t, ok, err == nil, "BufferSize n=%d: %v", n, err)
	}
}

func TestCanRunEqualsLaunch(t *testing.T) {
	forEachCandidate(t, testCanRunEqualsLaunch[float32], testCanRunEqualsLaunch[float64])
	bare := *batchlas.Host()
	bare.Flags = nil
	for _, dev := range []*sel.Device{batchlas.Host(), &bare} {
		for _, c := range Op.Candidates(sel.Float64) {
			p := newProblem[float64](testmat.Rand(9), batchlas.Lower, 6, 2, 2, false)
			k := makeKey(batchlas.Lower, p.a, p.b)
			a, b := p.clone()
			err := launch(context.Background(), c, k, dev, batchlas.Lower, a, b, nil, make([]int32, 2))
			require.Equal(t, canRun(c, k, dev), err == nil, "%s flags=%v: %v", c, dev.Flags, err)
		}
	}
}

// TestBadArguments: every argument error is an *ArgError naming posv and
// the argument, from Posv and BufferSize alike, and nothing is written;
// empty calls succeed without a decision.
func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewIdentity[float64](4, 3)
	b := batchlas.NewBatch[float64](4, 2, 3)
	with := func(x batchlas.Batch[float64], f func(*batchlas.Batch[float64])) batchlas.Batch[float64] {
		f(&x)
		return x
	}
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
		{"a broadcast", batchlas.Lower, batchlas.Broadcast(batchlas.NewIdentity[float64](4, 1), 3), b, "a"},
		{"a overlapping stride", batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Stride = 8 }), b, "a"},
		{"b rows differ", batchlas.Lower, a, batchlas.NewBatch[float64](5, 2, 3), "b"},
		{"count differs", batchlas.Lower, batchlas.NewIdentity[float64](4, 2), b, "b"},
		{"b broadcast", batchlas.Lower, a, batchlas.Broadcast(batchlas.NewBatch[float64](4, 2, 1), 3), "b"},
		{"b short data", batchlas.Lower, a, with(b, func(x *batchlas.Batch[float64]) { x.Data = x.Data[:20] }), "b"},
		{"b shares a's elements", batchlas.Lower, shared, overlapB, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ae *batchlas.ArgError
			beforeA := append([]float64(nil), tc.a.Data...)
			beforeB := append([]float64(nil), tc.b.Data...)
			err := Posv(ctx, tc.uplo, tc.a, tc.b, nil)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, opName, ae.Op)
			require.Equal(t, tc.arg, ae.Arg, err.Error())
			require.Contains(t, err.Error(), "posv: ")
			require.True(t, sameBits(beforeA, tc.a.Data), "a refused call wrote a")
			require.True(t, sameBits(beforeB, tc.b.Data), "a refused call wrote b")
			_, err = BufferSize(ctx, tc.uplo, tc.a, tc.b)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.arg, ae.Arg)
		})
	}
	// A workspace that shares an element with a or b (nested under potrf's
	// unblocked, which uses one for Upper).
	ctxWS := sel.WithPin(pin(ctx, nestedFamily.With()), "potrf", "unblocked")
	for _, name := range []string{"a", "b"} {
		p := newProblem[float64](testmat.Rand(10), batchlas.Upper, 6, 3, 2, false)
		need, err := BufferSize(ctxWS, batchlas.Upper, p.a, p.b)
		require.NoError(t, err)
		require.Positive(t, need)
		op := p.a
		if name == "b" {
			op = p.b
		}
		ws := append(make([]float64, need-1), op.Data...) // ws's last element is the operand's first
		x := op
		x.Data = ws[need-1:]
		aa, bb := testmat.Clone(p.a), testmat.Clone(p.b)
		if name == "a" {
			aa = x
		} else {
			bb = x
		}
		beforeA, beforeB := append([]float64(nil), aa.Data...), append([]float64(nil), bb.Data...)
		err = Posv(ctxWS, batchlas.Upper, aa, bb, ws[:need])
		var ae *batchlas.ArgError
		require.ErrorAs(t, err, &ae, "ws over %s", name)
		require.Equal(t, "ws", ae.Arg)
		require.Contains(t, ae.Msg, "ws and "+name+" share elements")
		require.True(t, sameBits(beforeA, aa.Data), "nothing is written")
		require.True(t, sameBits(beforeB, bb.Data), "nothing is written")
	}
	// Nothing to do: no matrix, or order 0.
	for _, e := range []struct{ a, b batchlas.Batch[float64] }{
		{batchlas.NewIdentity[float64](4, 0), batchlas.NewBatch[float64](4, 2, 0)},
		{batchlas.NewBatch[float64](0, 0, 5), batchlas.NewBatch[float64](0, 3, 5)},
	} {
		require.NoError(t, Posv(ctx, batchlas.Lower, e.a, e.b, nil))
		size, err := BufferSize(ctx, batchlas.Upper, e.a, e.b)
		require.NoError(t, err)
		require.Zero(t, size)
	}
	// A pin that does not parse or names no candidate is an error.
	p := newProblem[float64](testmat.Rand(11), batchlas.Lower, 4, 1, 2, false)
	for _, pn := range []string{"fused:3", "nosuch", "vendor"} {
		a, b := p.clone()
		err := Posv(sel.WithStrictPin(ctx, opName, pn), batchlas.Lower, a, b, nil)
		require.Error(t, err, pn)
		require.True(t, sameBits(p.b.Data, b.Data), "%s: a refused call wrote b", pn)
	}
}

// TestConcurrentCalls runs many goroutines, each solving its own batch
// through a different candidate, dtype and uplo at once, some with failing
// systems.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	// Four workers per call, so a kernel's workers share the process-wide
	// pool with other calls' and a batch runs on several at once (a
	// kernel handing two workers one scratch slot is a race here).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
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
			if !runs(c, uplo, n, 1+g%5, 120) {
				n = 16
			}
			if g%5 == 0 {
				ctx = context.Background() // automatic selection
			}
			p := newProblem[float64](r, uplo, n, 1+g%5, 120, g%2 == 0)
			p.a.Set(7, 0, 0, -1)
			a, b := p.clone()
			err := Posv(ctx, uplo, a, b, nil)
			var ne *batchlas.NumericalError
			if !errors.As(err, &ne) || len(ne.Index) != 1 || ne.Index[0] != 7 {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): %v, want system 7 reported", g, c, n, err)
				return
			}
			if testmat.SameMatrices(b, p.b, 7, 8) != -1 {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): the failed system's B was written", g, c, n)
				return
			}
			for i := 0; i < a.Count; i++ {
				if i == 7 {
					continue
				}
				if msg := solvedMessage(p, a, b, i); msg != "" {
					errs <- fmt.Errorf("goroutine %d (%s n=%d): system %d: %s", g, c, n, i, msg)
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

// TestNilContext: a nil context is context.Background() for Posv and
// BufferSize: no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		p := newProblem[float64](testmat.Rand(12), uplo, 20, 3, 3, false)
		wa, wb := p.clone()
		require.NoError(t, Posv(context.Background(), uplo, wa, wb, nil))
		n, err := BufferSize(nilCtx, uplo, p.a, p.b)
		require.NoError(t, err)
		a, b := p.clone()
		require.NoError(t, Posv(nilCtx, uplo, a, b, make([]float64, n)))
		require.Equal(t, -1, testmat.SameMatrices(a, wa, 0, 3))
		require.Equal(t, -1, testmat.SameMatrices(b, wb, 0, 3))
	}
}

// TestNoKernelIgnoresPin: a call with nothing to do makes no decision, so
// a bad pin (environment or scoped) is not read and the call succeeds; a
// call that factors something under the same pin fails with a
// *sel.PinError, even with no right-hand side.
func TestNoKernelIgnoresPin(t *testing.T) {
	check := func(t *testing.T, ctx context.Context) {
		p := newProblem[float64](testmat.Rand(13), batchlas.Lower, 5, 2, 2, false)
		var pe *sel.PinError
		a, b := p.clone()
		require.ErrorAs(t, Posv(ctx, batchlas.Lower, a, b, nil), &pe)
		require.ErrorAs(t, Posv(ctx, batchlas.Lower, a, batchlas.NewBatch[float64](5, 0, 2), nil), &pe)
		_, err := BufferSize(ctx, batchlas.Lower, p.a, p.b)
		require.ErrorAs(t, err, &pe)
		require.NoError(t, Posv(ctx, batchlas.Upper, batchlas.NewIdentity[float64](0, 2), batchlas.NewBatch[float64](0, 3, 2), nil))
		n, err := BufferSize(ctx, batchlas.Upper, batchlas.NewIdentity[float64](5, 0), batchlas.NewBatch[float64](5, 3, 0))
		require.NoError(t, err)
		require.Zero(t, n)
	}
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_POSV_ROUTE", "nonsense")
		sel.Reload()
		check(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) { check(t, sel.WithPin(context.Background(), opName, "nonsense")) })
}
