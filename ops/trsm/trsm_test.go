package trsm_test

import (
	"context"
	"errors"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// sizes straddle the small-triangle path (order <= smallT = 4), the
// register blocks of the substitution kernel (2 rows by 2 columns for Right,
// 1 row by a 4-column panel for Left) and the blocked leaf sizes (8, 16, 32).
var sizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129}

// others are the sizes of the dimension of B that A does not touch: 1 to 5
// by turns, 9 (two 4-column panels and one column left) and 11 (two panels,
// then the two-column and the one-column tails after them).
func others(t int) []int {
	if t > 65 {
		return []int{3}
	}
	return []int{t%5 + 1, 9, 11}
}

// randomInput is a batch of well-conditioned triangles (the other triangle
// holds random values that must not be read) and a random B, both with
// padding between columns and matrices when padded.
func randomInput[T batchlas.Float](seed uint64, v variant, m, n, count int, padded bool) (a, b batchlas.Batch[T]) {
	r := testmat.Rand(seed)
	t := v.order(m, n)
	if padded {
		a = testmat.Batch[T](r, t, t, count, t+2, (t+2)*t+3)
		b = testmat.Batch[T](r, m, n, count, m+3, (m+3)*n+5)
	} else {
		a = testmat.Batch[T](r, t, t, count, 0, 0)
		b = testmat.Batch[T](r, m, n, count, 0, 0)
	}
	testmat.Triangular(r, a, v.uplo)
	return a, b
}

func TestRandom(t *testing.T) { eachCandidate(t, testRandom[float32], testRandom[float64]) }

// testRandom: every variant on sizes straddling the block edges, padded and
// not, against gonum and by residual.
func testRandom[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	for vi, v := range allVariants() {
		for _, k := range sizes {
			for _, o := range others(k) {
				m, n := k, o
				if v.side == batchlas.Right {
					m, n = o, k
				}
				count, padded := 2, (k+o+vi)%2 == 0
				if k > 65 {
					count = 1
				}
				alpha := T(1)
				if vi%3 == 1 {
					alpha = -0.75
				}
				a, b := randomInput[T](uint64(1000*vi+k), v, m, n, count, padded)
				x := solve(t, ctx, v, alpha, a, b)
				for i := 0; i < count; i++ {
					forward(t, "random", v, alpha, a, b, x, i)
					residual(t, "random", v, alpha, a, b, x, i)
				}
			}
		}
	}
}

func TestStructured(t *testing.T) { eachCandidate(t, testStructured[float32], testStructured[float64]) }

// testStructured: identity, diagonal, graded and ill-conditioned triangles,
// with NaN in the triangle that must not be read (and on a unit diagonal).
func testStructured[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	nan := T(math.NaN())
	kinds := []struct {
		name     string
		wellCond bool
		elem     func(r, c, k int) T // referenced triangle, r >= c in lower terms
	}{
		{"identity", true, func(r, c, _ int) T {
			if r == c {
				return 1
			}
			return 0
		}},
		{"diagonal", true, func(r, c, _ int) T {
			if r == c {
				return T(1 + r%3)
			}
			return 0
		}},
		{"graded", true, func(r, c, k int) T {
			if r == c {
				return T(math.Ldexp(1, -(r % 12)))
			}
			return T(math.Ldexp(1, -(r%12)-1)) / T(k)
		}},
		// Unit lower triangle of ones below the diagonal: condition grows
		// like 2^t, so only the residual is bounded.
		{"illcond", false, func(r, c, _ int) T { return 1 }},
	}
	for _, v := range allVariants() {
		for _, kind := range kinds {
			for _, k := range []int{1, 3, 8, 9, 17, 33, 65} {
				m, n := k, 5
				if v.side == batchlas.Right {
					m, n = 5, k
				}
				a, b := randomInput[T](uint64(k), v, m, n, 2, true)
				for i := 0; i < a.Count; i++ {
					for c := 0; c < k; c++ {
						for r := 0; r < k; r++ {
							lr, lc := r, c
							if v.uplo == batchlas.Upper {
								lr, lc = c, r
							}
							switch {
							case r == c && v.diag == batchlas.Unit:
								a.Set(i, r, c, nan)
							case lr >= lc:
								a.Set(i, r, c, kind.elem(lr, lc, k))
							default:
								a.Set(i, r, c, nan)
							}
						}
					}
				}
				x := solve(t, ctx, v, 1, a, b)
				for i := 0; i < a.Count; i++ {
					if kind.wellCond && !(kind.name == "graded" && k > 24) {
						forward(t, kind.name, v, 1, a, b, x, i)
					}
					residual(t, kind.name, v, 1, a, b, x, i)
				}
			}
		}
	}
}

func TestLargeBatch(t *testing.T) { eachCandidate(t, testLargeBatch[float32], testLargeBatch[float64]) }

// testLargeBatch: 1500 small matrices, with A per matrix and with one A
// broadcast (batchlas.Broadcast) to all.
func testLargeBatch[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	const count = 1500
	for _, v := range []variant{
		{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit},
		{batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.Unit},
	} {
		for _, k := range []int{2, 9} {
			for _, broadcast := range []bool{false, true} {
				a, b := randomInput[T](uint64(k), v, k, k, count, false)
				if broadcast {
					a = batchlas.Broadcast(a, count)
				}
				x := solve(t, ctx, v, 1, a, b)
				for i := 0; i < count; i += 149 {
					forward(t, "large batch", v, 1, a, b, x, i)
				}
				forward(t, "large batch", v, 1, a, b, x, count-1)
			}
		}
	}
}

func TestSubmatrixViews(t *testing.T) {
	eachCandidate(t, testSubmatrixViews[float32], testSubmatrixViews[float64])
}

// testSubmatrixViews: A and B as views into larger parents (Data at an
// offset, the parent's LD and Stride), as potrf's blocked kernel passes
// them; the rest of the parents must stay untouched.
func testSubmatrixViews[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	const pn, off = 40, 5
	r := testmat.Rand(7)
	pa := testmat.Batch[T](r, pn, pn, 3, 0, 0)
	pb := testmat.Batch[T](r, pn, pn, 3, 0, 0)
	v := variant{batchlas.Right, batchlas.Lower, batchlas.Trans, batchlas.NonUnit}
	k := 17
	a := batchlas.Batch[T]{Data: pa.Data[off+off*pn:], Rows: k, Cols: k, LD: pn, Stride: pn * pn, Count: 3}
	b := batchlas.Batch[T]{Data: pb.Data[off+k+off*pn:], Rows: 11, Cols: k, LD: pn, Stride: pn * pn, Count: 3}
	testmat.Triangular(r, a, v.uplo)
	b0 := testmat.Clone(b)
	parent := append([]T(nil), pb.Data...)
	x := solve(t, ctx, v, 2, a, b)
	for i := 0; i < 3; i++ {
		forward(t, "view", v, 2, a, b0, x, i)
	}
	// solve copied b's slice; copy it back into the parent to check the
	// parent's other elements through Untouched on the parent's layout.
	copy(pb.Data[off+k+off*pn:], x.Data)
	pv := pb
	pv.Data = pb.Data
	inner := batchlas.Batch[T]{Data: pb.Data, Rows: 11 + off + k, Cols: k + off, LD: pn, Stride: pn * pn, Count: 3}
	_ = pv
	for i := 0; i < 3; i++ {
		for c := 0; c < pn; c++ {
			for rr := 0; rr < pn; rr++ {
				inB := c >= off && c < off+k && rr >= off+k && rr < off+k+11
				j := i*pn*pn + c*pn + rr
				if !inB && pb.Data[j] != parent[j] {
					t.Fatalf("element (%d,%d) of parent %d outside the view changed", rr, c, i)
				}
			}
		}
	}
	_ = inner
}

func TestNaNInf(t *testing.T) { eachCandidate(t, testNaNInf[float32], testNaNInf[float64]) }

// testNaNInf: a NaN in B and a zero on the diagonal of A propagate as
// gonum's (IEEE) results do: NaN where gonum has NaN, the same Inf where it
// has Inf.
func testNaNInf[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	for _, v := range allVariants() {
		for _, k := range []int{3, 9, 20} {
			m, n := k, 6
			if v.side == batchlas.Right {
				m, n = 6, k
			}
			a, b := randomInput[T](uint64(k), v, m, n, 3, false)
			b.Set(0, m/2, n/2, T(math.NaN()))
			b.Set(1, 0, 0, T(math.Inf(1)))
			if v.diag == batchlas.NonUnit {
				a.Set(2, k/2, k/2, 0)
			}
			x := solve(t, ctx, v, 1, a, b)
			for i := 0; i < 3; i++ {
				want := oracle(v, 1, a, b, i)
				got := testmat.Dense(x, i)
				for j := range want {
					w, g := want[j], got[j]
					switch {
					case math.IsNaN(w) || math.IsNaN(g):
						if math.IsNaN(w) != math.IsNaN(g) {
							t.Fatalf("%v k=%d matrix %d element %d: got %v, gonum %v", v, k, i, j, g, w)
						}
					case math.IsInf(w, 0) || math.IsInf(g, 0):
						if w != g {
							t.Fatalf("%v k=%d matrix %d element %d: got %v, gonum %v", v, k, i, j, g, w)
						}
					}
				}
			}
		}
	}
}

func TestAlphaZero(t *testing.T) { eachCandidate(t, testAlphaZero[float32], testAlphaZero[float64]) }

// testAlphaZero: alpha == 0 sets B to zero without reading A or B, as BLAS.
func testAlphaZero[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	for _, v := range allVariants() {
		a, b := randomInput[T](3, v, 20, 20, 2, true)
		for j := range a.Data {
			a.Data[j] = T(math.NaN())
		}
		b.Set(1, 3, 4, T(math.NaN()))
		x := solve(t, ctx, v, 0, a, b)
		for i := 0; i < 2; i++ {
			if e := testmat.MaxAbs(testmat.Dense(x, i)); e != 0 {
				t.Fatalf("%v: alpha 0 left max |X| = %v, want 0", v, e)
			}
		}
	}
}

// TestCanRunEqualsLaunch pins every candidate on shapes straddling the
// leaf sizes, on the host and on the host without its vendor library:
// the pinned call succeeds exactly when can_run says so, and a refused pin
// is an error (never a panic, never a silent substitute).
func TestCanRunEqualsLaunch(t *testing.T) {
	host := batchlas.Host()
	bare := *host
	bare.Flags = nil
	for _, f := range host.Flags {
		if f != "vendor:blas" && f != "vendor:lapack" {
			bare.Flags = append(bare.Flags, f)
		}
	}
	v := variant{batchlas.Left, batchlas.Upper, batchlas.Trans, batchlas.NonUnit}
	for _, dev := range []*sel.Device{host, &bare} {
		for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
			for _, c := range trsm.Op.Candidates(dt) {
				for _, k := range []int{1, 7, 8, 9, 15, 16, 17, 31, 32, 33} {
					// Strict: the spelling "vendor" is also the class word, whose
					// lenient pin falls back to the automatic choice.
					ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), dev), "trsm", c.String())
					key := sel.MakeKey(sel.Str("L"), sel.Str("U"), sel.Str("T"), sel.Str("N"), sel.Int(k), sel.Int(3), sel.Int(2))
					want := trsm.Op.CanRun(c, key, dev)
					var err error
					if dt == sel.Float32 {
						a, b := randomInput[float32](1, v, k, 3, 2, false)
						err = trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, nil)
					} else {
						a, b := randomInput[float64](1, v, k, 3, 2, false)
						err = trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, nil)
					}
					if (err == nil) != want {
						t.Errorf("%s %s on %v k=%d: can_run %v but the pinned call returned %v", dt, c, dev.Flags, k, want, err)
					}
				}
			}
		}
	}
}

// TestBadPins: a strict vendor pin on a device without gonum, a spelling
// with a field vendor does not have, and an unknown family are errors.
func TestBadPins(t *testing.T) {
	bare := *batchlas.Host()
	bare.Flags = []string{"fp64"}
	v := variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	for _, pin := range []string{"vendor", "vendor:nb=1", "blocked", "blocked:nb=5", "nosuch"} {
		ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), &bare), "trsm", pin)
		a, b := randomInput[float64](1, v, 4, 4, 1, false)
		if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, nil); err == nil {
			t.Errorf("pin %q was accepted", pin)
		}
	}
}

// TestShortWorkspace: every candidate refuses a workspace one element
// shorter than BufferSize with an ArgError naming ws.
func TestShortWorkspace(t *testing.T) {
	v := variant{batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	for _, c := range trsm.Op.Candidates(sel.Float64) {
		ctx := sel.WithPin(context.Background(), "trsm", c.String())
		a, b := randomInput[float64](1, v, 5, 40, 2, false)
		n, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			continue
		}
		err = trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, make([]float64, n-1))
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Arg != "ws" || ae.Op != "trsm" {
			t.Errorf("%s: ws of %d < %d: got %v, want an ArgError on ws", c, n-1, n, err)
		}
	}
}

func TestBadArguments(t *testing.T) {
	L, U, N, R := batchlas.Left, batchlas.Upper, batchlas.NoTrans, batchlas.Right
	good := func() (batchlas.Batch[float64], batchlas.Batch[float64]) {
		return batchlas.NewBatch[float64](4, 4, 3), batchlas.NewBatch[float64](4, 5, 3)
	}
	cases := []struct {
		name string
		arg  string
		edit func(a, b *batchlas.Batch[float64], side *batchlas.Side, uplo *batchlas.Uplo, ta *batchlas.Transpose, diag *batchlas.Diag)
	}{
		{"bad side", "side", func(_, _ *batchlas.Batch[float64], s *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			*s = 'X'
		}},
		{"bad uplo", "uplo", func(_, _ *batchlas.Batch[float64], _ *batchlas.Side, u *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			*u = 'l'
		}},
		{"bad ta", "ta", func(_, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, ta *batchlas.Transpose, _ *batchlas.Diag) {
			*ta = 'C'
		}},
		{"bad diag", "diag", func(_, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, d *batchlas.Diag) {
			*d = 0
		}},
		{"negative rows", "b", func(_, b *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			b.Rows = -1
		}},
		{"negative count", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			a.Count = -1
		}},
		{"lda too small", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			a.LD = 3
		}},
		{"ldb too small", "b", func(_, b *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			b.LD = 2
		}},
		{"short a", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			a.Data = a.Data[:len(a.Data)-1]
		}},
		{"short b", "b", func(_, b *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			b.Data = b.Data[:len(b.Data)-1]
		}},
		{"overlapping b", "b", func(_, b *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			b.Stride = b.LD*b.Cols - 1
		}},
		{"broadcast b", "b", func(_, b *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			b.Stride = 0
		}},
		{"a not square", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			a.Cols = 3
		}},
		{"a order != m", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			*a = batchlas.NewBatch[float64](5, 5, 3)
		}},
		{"a order != n (right)", "a", func(_, _ *batchlas.Batch[float64], s *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			*s = R
		}},
		{"count mismatch", "a", func(a, _ *batchlas.Batch[float64], _ *batchlas.Side, _ *batchlas.Uplo, _ *batchlas.Transpose, _ *batchlas.Diag) {
			a.Count = 2
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := good()
			side, uplo, ta, diag := L, U, N, batchlas.NonUnit
			tc.edit(&a, &b, &side, &uplo, &ta, &diag)
			for what, err := range map[string]error{
				"Trsm":       trsm.Trsm(context.Background(), side, uplo, ta, diag, 1, a, b, nil),
				"BufferSize": func() error { _, err := trsm.BufferSize(context.Background(), side, uplo, ta, diag, a, b); return err }(),
			} {
				var ae *batchlas.ArgError
				if !errors.As(err, &ae) || ae.Op != "trsm" || ae.Arg != tc.arg {
					t.Errorf("%s: got %v, want an ArgError from trsm on %s", what, err, tc.arg)
				}
			}
		})
	}
}

// TestEmpty: zero matrices or a zero dimension succeed without touching
// anything, even with an invalid pin (no decision is made).
func TestEmpty(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "trsm", "no_such_kernel")
	for _, s := range []struct{ t, r, count int }{{4, 3, 0}, {0, 3, 2}, {4, 0, 2}} {
		a := batchlas.NewBatch[float64](s.t, s.t, s.count)
		b := batchlas.NewBatch[float64](s.t, s.r, s.count)
		if err := trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, b, nil); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
		if n, err := trsm.BufferSize(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, a, b); err != nil || n != 0 {
			t.Errorf("%+v: BufferSize = %d, %v; want 0, nil", s, n, err)
		}
	}
}

// TestCancelled: a cancelled context stops the call with its error.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v := variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	for _, c := range trsm.Op.Candidates(sel.Float64) {
		a, b := randomInput[float64](1, v, 40, 40, 64, false)
		err := trsm.Trsm(sel.WithPin(ctx, "trsm", c.String()), v.side, v.uplo, v.ta, v.diag, 1, a, b, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", c, err)
		}
	}
}

// TestConcurrent runs every candidate from many goroutines at once: shared
// per-call workspace must not leak between calls.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrent(t *testing.T) {
	v := variant{batchlas.Right, batchlas.Upper, batchlas.NoTrans, batchlas.NonUnit}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		for _, c := range trsm.Op.Candidates(sel.Float64) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := sel.WithPin(context.Background(), "trsm", c.String())
				a, b := randomInput[float64](uint64(g), v, 6, 20, 40, g%2 == 0)
				x := testmat.Clone(b)
				if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, x, nil); err != nil {
					t.Error(err)
					return
				}
				for i := 0; i < b.Count; i += 13 {
					forward(t, "concurrent", v, 1, a, b, x, i)
				}
			}()
		}
	}
	wg.Wait()
}
