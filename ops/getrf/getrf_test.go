package getrf

import (
	"bytes"
	"context"
	"fmt"
	"github.com/batchlas-go/batchlas/internal/lu"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
	"github.com/batchlas-go/batchlas/trace"
)

// conformanceSizes are every order from 0 to 70, then larger ones that
// straddle the recursive kernel's splits and the batched panels twice more.
func conformanceSizes() []int {
	var out []int
	for n := 0; n <= 70; n++ {
		out = append(out, n)
	}
	return append(out, 127, 130, 200)
}

// countFor keeps the suite short: big orders run on small batches (two
// matrices at least, so a kernel that mixes matrices up shows).
func countFor(n int) int {
	switch {
	case n <= 9:
		return 5
	case n <= 40:
		return 3
	}
	return 2
}

// testRandom factors batches of uniform random matrices of every order,
// tight and padded (padding poisoned with NaN, ipiv with a sentinel), and
// checks the backward error, partial pivoting, untouched padding, and,
// against the reference LU in T arithmetic and against gonum's Dgetrf,
// the pivots and factors: always for float64, and for float32 up to
// n = 16 (above it two float32 kernels that round differently may split a
// near-tie differently, which testGeneral covers with wide margins).
func testRandom[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(1)
	_, f64 := any(T(0)).(float64)
	for _, n := range conformanceSizes() {
		count := countFor(n)
		if !runnable(c, n, count) {
			continue
		}
		for _, pad := range []bool{false, true} {
			what := fmt.Sprintf("%s n=%d padded=%v", c, n, pad)
			a := randomBatch[T](r, n, count, pad)
			orig := testmat.Clone(a)
			ipiv := pivotsFor(n, count, pad)
			require.NoError(t, Getrf(ctx, a, ipiv, nil), what)
			checkLU(t, orig, a, ipiv, what)
			if !f64 && n > 16 {
				continue
			}
			for i := 0; i < count; i++ {
				ref := matrixOf(orig, i)
				piv, info := refLU(ref, n)
				require.Zero(t, info, "%s: the reference finds matrix %d singular", what, i)
				checkAgainst(t, a, ipiv, i, toF64(ref), piv, what+" vs reference")
				if f64 {
					g, gpiv := gonumLU(orig, i)
					checkAgainst(t, a, ipiv, i, g, gpiv, what+" vs gonum")
				}
			}
		}
	}
}

func TestRandom(t *testing.T) { forEachCandidate(t, testRandom[float32], testRandom[float64]) }

// testGeneral factors testmat.General matrices (a dominant entry per
// column in a random row: an interchange at almost every step, each pivot
// chosen by a wide margin), so the pivots of every candidate, float32
// included, must equal the reference's.
func testGeneral[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(2)
	for _, n := range []int{1, 2, 3, 5, 8, 9, 16, 17, 31, 33, 48, 65, 100} {
		count := countFor(n)
		if !runnable(c, n, count) {
			continue
		}
		what := fmt.Sprintf("%s n=%d", c, n)
		a := padded(r, n, count, true, func(b batchlas.Batch[T]) { testmat.General(r, b) })
		orig := testmat.Clone(a)
		ipiv := pivotsFor(n, count, true)
		require.NoError(t, Getrf(ctx, a, ipiv, nil), what)
		checkLU(t, orig, a, ipiv, what)
		swaps := 0
		for i := 0; i < count; i++ {
			ref := matrixOf(orig, i)
			piv, _ := refLU(ref, n)
			checkAgainst(t, a, ipiv, i, toF64(ref), piv, what)
			for j, p := range piv {
				if int(p) != j {
					swaps++
				}
			}
		}
		if n >= 3 {
			require.Positive(t, swaps, "%s: General made no interchange", what)
		}
	}
}

func TestGeneral(t *testing.T) { forEachCandidate(t, testGeneral[float32], testGeneral[float64]) }

// testLargeBatch factors batches of 1000+ small matrices (the
// batch-parallel path, several chunks per worker) and a batch of one.
func testLargeBatch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(3)
	for _, tc := range []struct{ n, count int }{{1, 1500}, {3, 1500}, {8, 1200}, {40, 1}} {
		if !runnable(c, tc.n, tc.count) {
			continue
		}
		what := fmt.Sprintf("%s n=%d count=%d", c, tc.n, tc.count)
		a := randomBatch[T](r, tc.n, tc.count, tc.n == 3)
		orig := testmat.Clone(a)
		ipiv := pivotsFor(tc.n, tc.count, tc.n == 3)
		require.NoError(t, Getrf(ctx, a, ipiv, nil), what)
		checkLU(t, orig, a, ipiv, what)
	}
}

func TestLargeBatch(t *testing.T) {
	forEachCandidate(t, testLargeBatch[float32], testLargeBatch[float64])
}

// exactBatch is a padded batch holding the exact cases, one per matrix.
func exactBatch[T batchlas.Float](cases []*exactCase, pad bool) (batchlas.Batch[T], batchlas.Vectors[int32]) {
	n := cases[0].n
	a := padded[T](testmat.Rand(99), n, len(cases), pad, nil)
	for i, e := range cases {
		setFrom(a, i, e.a)
	}
	return a, pivotsFor(n, len(cases), pad)
}

// checkExact fails t unless matrix i of a holds exactly e's factors and
// ipiv exactly e's pivots.
func checkExact[T batchlas.Float](t *testing.T, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int, e *exactCase, what string) {
	t.Helper()
	n := e.n
	want := e.factors()
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			if g := a.At(i, r, c); !(g == T(want[c*n+r])) {
				t.Fatalf("%s: matrix %d (n=%d): factor (%d,%d) = %g, exactly %g", what, i, n, r, c, g, want[c*n+r])
			}
		}
	}
	for j := 0; j < n; j++ {
		require.Equal(t, e.ipiv[j], ipiv.At(i, j), "%s: matrix %d (n=%d): ipiv[%d]", what, i, n, j)
	}
}

// testExact factors matrices whose elimination is exact: permuted
// (interchanges at known steps), tied (a candidate equal in |.| to the
// diagonal at every step: the first row wins, so no interchange), and
// singular ones (a zero row of U0 at the start, middle and end, or
// several; the exactly zero matrix). Every candidate must return exactly
// the same factors, pivots and info.
func testExact[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(4)
	for _, n := range []int{1, 2, 3, 4, 7, 8, 9, 16, 17, 24, 33, 40, 65, 70, 130} {
		if !runnable(c, n, 8) {
			continue
		}
		cases := []*exactCase{
			newExact(r, n, nil, false, true),
			newExact(r, n, nil, true, false),
			newExact(r, n, []int{0}, false, false),
			newExact(r, n, []int{n / 2}, true, false),
			newExact(r, n, []int{n - 1}, false, false),
			newExact(r, n, []int{n / 3, n - 1}, false, false),
			newExact(r, n, nil, false, true),
		}
		zero := newExact(r, n, nil, false, false)
		for j := range zero.a {
			zero.a[j], zero.l[j], zero.u[j] = 0, 0, 0
		}
		for j := 0; j < n; j++ {
			zero.l[j*n+j] = 1
		}
		zero.info = 1
		cases = append(cases, zero)
		want := &batchlas.NumericalError{Op: "getrf"}
		for i, e := range cases {
			if e.info > 0 {
				want.Index = append(want.Index, i)
				want.Info = append(want.Info, e.info)
			}
		}
		a, ipiv := exactBatch[T](cases, true)
		orig := testmat.Clone(a)
		err := Getrf(ctx, a, ipiv, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, want, ne, "n=%d", n)
		for i, e := range cases {
			checkExact(t, a, ipiv, i, e, fmt.Sprintf("%s exact", c))
			// The reference agrees (the cases are what the rules say).
			m := matrixOf(orig, i)
			piv, info := refLU(m, n)
			require.Equal(t, e.ipiv, piv, "reference n=%d matrix %d", n, i)
			require.Equal(t, e.info, info, "reference n=%d matrix %d", n, i)
		}
		require.True(t, testmat.Untouched(a, a.Data, orig.Data), "n=%d: padding changed", n)
		require.Equal(t, -1, pivotsUntouched(ipiv, n), "n=%d: ipiv padding written", n)
	}
}

func TestExact(t *testing.T) { forEachCandidate(t, testExact[float32], testExact[float64]) }

// testInfoEveryColumn makes, for every order 1..20 (and a few past the
// batched panels), a batch of an exact healthy matrix, then one singular
// at each column q (U0's row q zero), then another healthy one: each
// failing matrix reports exactly q+1 (an off-by-one in any kernel's info
// shows), with exact factors, and the healthy ones on either side too.
func testInfoEveryColumn[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(5)
	orders := []int{33, 40, 70}
	for n := 1; n <= 20; n++ {
		orders = append(orders, n)
	}
	for _, n := range orders {
		qs := []int{0, 15, 16, 17, 31, 32, 33, n - 1}
		if n <= 20 {
			qs = nil
			for q := 0; q < n; q++ {
				qs = append(qs, q)
			}
		}
		cases := []*exactCase{newExact(r, n, nil, false, true)}
		want := &batchlas.NumericalError{Op: "getrf"}
		for _, q := range qs {
			if q >= n {
				continue
			}
			want.Index = append(want.Index, len(cases))
			want.Info = append(want.Info, q+1)
			cases = append(cases, newExact(r, n, []int{q}, false, false))
		}
		cases = append(cases, newExact(r, n, nil, false, true))
		if !runnable(c, n, len(cases)) {
			continue
		}
		a, ipiv := exactBatch[T](cases, true)
		err := Getrf(ctx, a, ipiv, nil)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, "n=%d", n)
		require.Equal(t, want, ne, "n=%d: matrix i fails at its zero row", n)
		for i, e := range cases {
			checkExact(t, a, ipiv, i, e, fmt.Sprintf("%s n=%d", c, n))
		}
	}
}

func TestInfoEveryColumn(t *testing.T) {
	forEachCandidate(t, testInfoEveryColumn[float32], testInfoEveryColumn[float64])
}

// spoil is a value put into one matrix of a batch of random matrices, and
// what the rules say must come of it.
type spoil struct {
	i, row, col int
	v           float64
	dominant    bool // make a(0,0) the largest of column 0 first (no interchange at step 0)
	info        int
	piv0        int // the expected ipiv[0], or -1
}

// testNaNAndInf spoils matrices in the middle of a batch of random ones
// with NaN and Inf where the rules decide the outcome whatever the
// rounding: a NaN first in column 0 is the pivot (info 1); a NaN lower in
// column 0 is never chosen, turns its row into NaN and is the pivot when
// it comes first, at its own column (info row+1); a NaN in row 0 of U
// turns its column into NaN below, failing there (info col+1); an Inf in
// column 0 is the pivot, is no failure, and turns the multipliers into
// zeros. Every candidate must report the same info, and the random
// matrices around them must be factored as if alone.
func testNaNAndInf[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(6)
	for _, n := range []int{1, 2, 5, 16, 17, 33, 40, 70} {
		const count = 9
		if !runnable(c, n, count) {
			continue
		}
		what := fmt.Sprintf("%s n=%d", c, n)
		a := randomBatch[T](r, n, count, true)
		spoils := []spoil{{i: 1, row: 0, col: 0, v: math.NaN(), info: 1, piv0: 0}}
		if n > 1 {
			p := n / 2
			spoils = append(spoils,
				spoil{i: 3, row: p, col: 0, v: math.NaN(), info: p + 1, piv0: -1},
				spoil{i: 4, row: 0, col: n - 1, v: math.NaN(), dominant: true, info: n, piv0: 0},
				spoil{i: 6, row: n - 1, col: 0, v: math.Inf(1), info: 0, piv0: n - 1},
				spoil{i: 7, row: p, col: 0, v: math.Inf(-1), info: 0, piv0: p})
		}
		for _, s := range spoils {
			if s.dominant {
				a.Set(s.i, 0, 0, 4)
			}
			a.Set(s.i, s.row, s.col, T(s.v))
		}
		orig := testmat.Clone(a)
		ipiv := pivotsFor(n, count, true)
		err := Getrf(ctx, a, ipiv, nil)
		want := &batchlas.NumericalError{Op: "getrf"}
		spoilt := map[int]bool{}
		for _, s := range spoils {
			spoilt[s.i] = true
		}
		for i := 0; i < count; i++ {
			for _, s := range spoils {
				if s.i == i && s.info > 0 {
					want.Index = append(want.Index, i)
					want.Info = append(want.Info, s.info)
				}
			}
		}
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, what)
		require.Equal(t, want, ne, what)
		for _, s := range spoils {
			checkPivots(t, ipiv, s.i, n, what)
			if s.piv0 >= 0 {
				require.EqualValues(t, s.piv0, ipiv.At(s.i, 0), "%s: matrix %d: ipiv[0]", what, s.i)
			}
			// The reference reaches the same info.
			_, info := refLU(matrixOf(orig, s.i), n)
			require.Equal(t, s.info, info, "%s: reference info of matrix %d", what, s.i)
			if s.info == 1 {
				for row := 1; row < n; row++ {
					require.True(t, math.IsNaN(float64(a.At(s.i, row, 0))), "%s: matrix %d: a NaN pivot makes its multipliers NaN", what, s.i)
				}
			}
			if math.IsInf(s.v, 0) {
				for row := 1; row < n; row++ {
					require.Zero(t, a.At(s.i, row, 0), "%s: matrix %d: an infinite pivot's multipliers are zeros", what, s.i)
				}
			}
		}
		for i := 0; i < count; i++ {
			if spoilt[i] {
				continue
			}
			one, oneOrig, onePiv := single(a, i), single(orig, i), singleVectors(ipiv, i)
			checkLU(t, oneOrig, one, onePiv, fmt.Sprintf("%s: random matrix %d next to spoilt ones", what, i))
		}
		require.True(t, testmat.Untouched(a, a.Data, orig.Data), "%s: padding changed", what)
		require.Equal(t, -1, pivotsUntouched(ipiv, n), "%s: ipiv padding written", what)
	}
}

func TestNaNAndInf(t *testing.T) { forEachCandidate(t, testNaNAndInf[float32], testNaNAndInf[float64]) }

// single is matrix i of b as a batch of one, its backing slice running to
// the next matrix (so its padding is checked too).
func single[T batchlas.Float](b batchlas.Batch[T], i int) batchlas.Batch[T] {
	b.Data = b.Data[i*b.Stride : (i+1)*b.Stride]
	b.Count = 1
	return b
}

// singleVectors is vector i of v as a batch of one, with its padding.
func singleVectors(v batchlas.Vectors[int32], i int) batchlas.Vectors[int32] {
	s, err := v.Sub(i, i+1)
	if err != nil {
		panic(err)
	}
	s.Data = s.Data[:v.Stride]
	return s
}

// testTies: in column 0 of random matrices, the largest |a| is shared by
// rows 2 and 4 (-1 and 1) or by the diagonal and a lower row: the first
// row wins, as i?amax. The rest of each matrix is random.
func testTies[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(7)
	for _, n := range []int{5, 9, 17, 40} {
		if !runnable(c, n, 2) {
			continue
		}
		a := randomBatch[T](r, n, 2, false)
		for i := 0; i < 2; i++ {
			for row := 0; row < n; row++ {
				a.Set(i, row, 0, a.At(i, row, 0)/4)
			}
		}
		a.Set(0, 2, 0, -1)
		a.Set(0, 4, 0, 1)
		a.Set(1, 0, 0, -1)
		a.Set(1, 3, 0, 1)
		orig := testmat.Clone(a)
		ipiv := pivotsFor(n, 2, false)
		require.NoError(t, Getrf(ctx, a, ipiv, nil))
		require.EqualValues(t, 2, ipiv.At(0, 0), "n=%d: the first of the tied rows", n)
		require.EqualValues(t, 0, ipiv.At(1, 0), "n=%d: the diagonal ties and comes first", n)
		checkLU(t, orig, a, ipiv, fmt.Sprintf("%s ties n=%d", c, n))
	}
}

func TestTies(t *testing.T) { forEachCandidate(t, testTies[float32], testTies[float64]) }

// testWorkspace runs each candidate with exactly BufferSize elements of
// NaN-filled workspace and checks the result is bitwise the nil-workspace
// result; a workspace one element short is an ArgError naming ws.
func testWorkspace[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(8)
	for _, n := range []int{3, 16, 17, 70, 129} {
		if !runnable(c, n, 2) {
			continue
		}
		a := randomBatch[T](r, n, 2, true)
		ref := testmat.Clone(a)
		refPiv := pivotsFor(n, 2, true)
		require.NoError(t, Getrf(ctx, ref, refPiv, nil))
		ipiv := pivotsFor(n, 2, true)
		size, err := BufferSize(ctx, a, ipiv)
		require.NoError(t, err)
		require.GreaterOrEqual(t, size, 0)
		if c.Is(vendorFamily) {
			require.Positive(t, size, "n=%d: vendor factors a transposed copy", n)
		}
		ws := testmat.NaNs[T](size)
		require.NoError(t, Getrf(ctx, a, ipiv, ws), "n=%d ws=%d", n, size)
		require.Equal(t, -1, testmat.SameMatrices(a, ref, 0, 2), "n=%d: a workspace changed the factors", n)
		require.Equal(t, refPiv.Data, ipiv.Data, "n=%d: a workspace changed the pivots", n)
		if size > 0 {
			err := Getrf(ctx, a, ipiv, ws[:size-1])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "ws", ae.Arg)
			require.Equal(t, "getrf", ae.Op)
		}
	}
}

func TestWorkspace(t *testing.T) { forEachCandidate(t, testWorkspace[float32], testWorkspace[float64]) }

// testCanRunEqualsLaunch pins each candidate on orders straddling its
// limits: the call succeeds exactly when can_run says so, and a refusal is
// an error, never a panic.
func testCanRunEqualsLaunch[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(9)
	for _, n := range []int{1, 15, 16, 17, 33} {
		a := randomBatch[T](r, n, 2, false)
		ipiv := pivotsFor(n, 2, false)
		ok := runnable(c, n, 2)
		err := Getrf(ctx, a, ipiv, nil)
		if ok {
			require.NoError(t, err, "n=%d: can_run says yes", n)
		} else {
			require.Error(t, err, "n=%d: can_run says no", n)
		}
		_, err = BufferSize(ctx, a, ipiv)
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
				a := randomBatch[float64](testmat.Rand(10), n, 2, false)
				k := makeKey(a)
				info := make([]int32, a.Count)
				err := launch(context.Background(), c, k, dev, a, pivotsFor(n, 2, false), nil, info)
				require.Equal(t, canRun(c, k, dev), err == nil, "%s n=%d flags=%v: %v", c, n, dev.Flags, err)
			}
		}
	}
	// A batched panel narrower than one column cannot run.
	require.False(t, canRun(batchedFamily.With(0), sel.MakeKey(sel.Int(4), sel.Int(1)), batchlas.Host()))
}

// TestBadArguments checks every argument error names getrf and the
// argument, says what is expected, and writes nothing; empty batches
// succeed.
func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	good := batchlas.NewBatch[float64](4, 4, 3)
	piv := pivotsFor(4, 3, false)
	short := pivotsFor(3, 3, false)
	two := pivotsFor(4, 2, false)
	overlapping, err := batchlas.WrapStridedVectors(make([]int32, 12), 4, 4, 3)
	require.NoError(t, err)
	overlapping.Stride = 2
	cases := []struct {
		name string
		a    batchlas.Batch[float64]
		ipiv batchlas.Vectors[int32]
		arg  string
		msg  string
	}{
		{"negative rows", batchlas.Batch[float64]{Data: good.Data, Rows: -1, Cols: 4, LD: 4, Stride: 16, Count: 3}, piv, "a", "rows -1 < 0"},
		{"negative count", batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 16, Count: -1}, piv, "a", "count -1 < 0"},
		{"not square", batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 3, LD: 4, Stride: 16, Count: 3}, piv, "a", "getrf factors square matrices"},
		{"ld too small", batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 3, Stride: 16, Count: 3}, piv, "a", "ld 3 < max(1, rows 4)"},
		{"short data", batchlas.Batch[float64]{Data: good.Data[:40], Rows: 4, Cols: 4, LD: 4, Stride: 16, Count: 3}, piv, "a", "need 48"},
		{"overlapping stride", batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 8, Count: 3}, piv, "a", "matrices overlap"},
		{"stride 0 written", batchlas.Batch[float64]{Data: good.Data, Rows: 4, Cols: 4, LD: 4, Stride: 0, Count: 3}, piv, "a", "and a is written"},
		{"broadcast a", batchlas.Broadcast(good, 3), piv, "a", "a is a broadcast (one matrix for all 3) but is written"},
		{"ipiv too short", good, short, "ipiv", "ipiv.Len 3 < n 4"},
		{"ipiv count", good, two, "ipiv", "ipiv.Count 2 != a.Count 3"},
		{"ipiv broadcast", good, batchlas.BroadcastVectors(pivotsFor(4, 1, false), 3), "ipiv", "ipiv is a broadcast (one vector for all 3) but is written"},
		{"ipiv overlapping", good, overlapping, "ipiv", "vectors overlap"},
		{"ipiv short data", good, batchlas.Vectors[int32]{Data: make([]int32, 5), Len: 4, Stride: 4, Count: 3}, "ipiv", "need 12"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(good.Data)
			var ae *batchlas.ArgError
			err := Getrf(ctx, tc.a, tc.ipiv, nil)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "getrf", ae.Op)
			require.Equal(t, tc.arg, ae.Arg)
			require.Contains(t, err.Error(), "getrf: ")
			require.Contains(t, err.Error(), tc.msg)
			_, err = BufferSize(ctx, tc.a, tc.ipiv)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.arg, ae.Arg)
			require.Equal(t, before, good.Data, "a refused call wrote a")
		})
	}
	// Empty batches and zero orders succeed without a decision; ipiv is
	// still checked against them.
	for _, a := range []batchlas.Batch[float64]{batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](0, 0, 5)} {
		v := pivotsFor(a.Rows, a.Count, false)
		require.NoError(t, Getrf(ctx, a, v, nil))
		size, err := BufferSize(ctx, a, v)
		require.NoError(t, err)
		require.Zero(t, size)
	}
	var ae *batchlas.ArgError
	require.ErrorAs(t, Getrf(ctx, batchlas.NewBatch[float64](0, 0, 5), pivotsFor(0, 4, false), nil), &ae)
	require.Equal(t, "ipiv", ae.Arg)
	// A pin that does not parse, or names no candidate, is an error.
	a := randomBatch[float64](testmat.Rand(11), 4, 2, false)
	for _, p := range []string{"batched:nb=7", "nosuch", "tiny:3", "blocked"} {
		require.Error(t, Getrf(sel.WithPin(ctx, "getrf", p), a, pivotsFor(4, 2, false), nil), p)
	}
}

// TestBroadcastOfOne: a broadcast of one matrix (and of one pivot vector)
// is that matrix, factored as a batch of one is under every candidate.
func TestBroadcastOfOne(t *testing.T) {
	r := testmat.Rand(12)
	for _, c := range Op.Candidates(sel.Float64) {
		one := randomBatch[float64](r, 6, 1, false)
		got, want := testmat.Clone(one), testmat.Clone(one)
		gotPiv, wantPiv := pivotsFor(6, 1, false), pivotsFor(6, 1, false)
		require.NoError(t, Getrf(pin(c), batchlas.Broadcast(got, 1), batchlas.BroadcastVectors(gotPiv, 1), nil), c.String())
		require.NoError(t, Getrf(pin(c), want, wantPiv, nil), c.String())
		require.Equal(t, -1, testmat.SameMatrices(got, want, 0, 1), c.String())
		require.Equal(t, wantPiv.Data, gotPiv.Data, c.String())
		require.NotEqual(t, one.Data, got.Data, "%s: factored", c.String())
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
			n := []int{3, 9, 16, 40}[g%4]
			if c.Is(batchedFamily) {
				n = 70 // the batch-wide path, with its nested trsm and gemm calls
			}
			if !runnable(c, n, 40) {
				n = 9
			}
			ctx := pin(c)
			if g%5 == 0 {
				ctx = context.Background() // automatic selection
			}
			a := randomBatch[float64](r, n, 40, g%2 == 0)
			orig := testmat.Clone(a)
			ipiv := pivotsFor(n, 40, g%2 == 0)
			if err := Getrf(ctx, a, ipiv, nil); err != nil {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): %w", g, c, n, err)
				return
			}
			for i := 0; i < a.Count; i++ {
				if res := residual(orig, a, ipiv, i); !(res <= residualC) {
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

// TestTwins: batched on an order up to its nb, and recursive up to its
// leaf, run the unblocked kernel's code (the tuner times them once); above,
// their own. TestBatchedNests checks the batch-wide path is really taken.
func TestTwins(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		if !c.Is(batchedFamily) {
			continue
		}
		nb := c.Field("nb")
		require.Equal(t, "unblocked", twin(c, sel.Float64, sel.MakeKey(sel.Int(nb), sel.Int(3)), batchlas.Host()))
		require.Empty(t, twin(c, sel.Float64, sel.MakeKey(sel.Int(nb+1), sel.Int(3)), batchlas.Host()))
	}
	require.Equal(t, "unblocked", twin(recursiveFamily.With(), sel.Float64, sel.MakeKey(sel.Int(recursiveLeaf), sel.Int(3)), batchlas.Host()))
	require.Empty(t, twin(recursiveFamily.With(), sel.Float64, sel.MakeKey(sel.Int(recursiveLeaf+1), sel.Int(3)), batchlas.Host()))
	require.Empty(t, twin(tinyFamily.With(), sel.Float64, sel.MakeKey(sel.Int(4), sel.Int(3)), batchlas.Host()))
}

// TestBatchedNests: above its nb, batched solves and updates through the
// trsm and gemm ops, whose decisions are traced nested under getrf's (one
// of each per step but the last); at or below nb it makes none.
func TestBatchedNests(t *testing.T) {
	var buf bytes.Buffer
	defer trace.SetOutput(trace.SetOutput(&buf))
	t.Cleanup(sel.Reload) // after t.Setenv restores the variable
	t.Setenv("BATCHLAS_SELECT_TRACE", "1")
	sel.Reload()
	for _, c := range Op.Candidates(sel.Float64) {
		if !c.Is(batchedFamily) {
			continue
		}
		nb := c.Field("nb")
		for _, n := range []int{nb, 3*nb + 1} {
			buf.Reset()
			a := randomBatch[float64](testmat.Rand(13), n, 3, false)
			require.NoError(t, Getrf(pin(c), a, pivotsFor(n, 3, false), nil))
			steps := (n+nb-1)/nb - 1
			out := buf.String()
			require.Contains(t, out, "getrf float64 n="+strconv.Itoa(n)+" batch=3 -> "+c.String())
			require.Equal(t, steps, strings.Count(out, "\n  trsm float64 side=L uplo=L ta=N diag=U"), "%s n=%d:\n%s", c, n, out)
			require.Equal(t, steps, strings.Count(out, "\n  gemm float64 ta=N tb=N"), "%s n=%d:\n%s", c, n, out)
		}
	}
}

// testSubnormalPivot: a column of subnormal numbers (k_i times the
// smallest one, the largest k being 8 on the diagonal) has a pivot whose
// reciprocal overflows, so its entries are divided by it, as LAPACK and
// gonum do: the multipliers are exactly k_i/8, not Inf. The rest of the
// matrix is random and factored normally.
func testSubnormalPivot[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(14)
	tiny := math.SmallestNonzeroFloat64
	if _, f32 := any(T(0)).(float32); f32 {
		tiny = math.SmallestNonzeroFloat32
	}
	for _, n := range []int{2, 5, 16, 17, 40} {
		if !runnable(c, n, 2) {
			continue
		}
		a := randomBatch[T](r, n, 2, true)
		k := make([]float64, n)
		for i := 0; i < 2; i++ {
			for row := 0; row < n; row++ {
				k[row] = float64(1 + r.IntN(7))
				if row == 0 {
					k[row] = 8
				}
				a.Set(i, row, 0, T(k[row]*tiny))
			}
		}
		require.Less(t, float64(a.At(1, 0, 0)), float64(lu.SafeMin[T]()), "the pivot is below the safe minimum")
		orig := testmat.Clone(a)
		ipiv := pivotsFor(n, 2, true)
		require.NoError(t, Getrf(ctx, a, ipiv, nil), "n=%d", n)
		// Later interchanges permute the rows of L too.
		for j := 1; j < n; j++ {
			p := ipiv.At(1, j)
			k[j], k[p] = k[p], k[j]
		}
		for row := 1; row < n; row++ {
			require.Equal(t, T(k[row]/8), a.At(1, row, 0), "n=%d: multiplier %d", n, row)
		}
		require.EqualValues(t, 0, ipiv.At(1, 0), "n=%d", n)
		ref := matrixOf(orig, 1)
		piv, _ := refLU(ref, n)
		checkAgainst(t, a, ipiv, 1, toF64(ref), piv, fmt.Sprintf("%s subnormal n=%d", c, n))
	}
}

func TestSubnormalPivot(t *testing.T) {
	forEachCandidate(t, testSubnormalPivot[float32], testSubnormalPivot[float64])
}
