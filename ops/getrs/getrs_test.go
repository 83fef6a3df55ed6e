package getrs_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// orders straddle the solve's panel (4 columns), the loops' empty cases
// (n 0 and 1) and the trsm leaf sizes nested hands the triangles to (8,
// 16, 32, and blocked recursion above them).
var orders = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 70, 130}

// rhsCounts straddle the panel of four columns and its one-column tail.
func rhsCounts(n int) []int {
	if n > 70 {
		return []int{1, 5, 33}
	}
	return []int{1, 2, 3, 4, 5, 8, 33}
}

func TestConformance(t *testing.T) { eachCandidate(t, conformance[float32], conformance[float64]) }

// conformance: every order and right-hand-side count, both transposes,
// padded (LD > n, gaps between matrices, random values in the padding that
// must stay) and tight by turns, against gonum's Dgetrs and by residual.
func conformance[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	for ti, trans := range transes {
		for _, n := range orders {
			for _, nrhs := range rhsCounts(n) {
				count := 3
				if n > 70 {
					count = 2
				}
				seed := uint64(1000*n + 10*nrhs + ti)
				var a batchlas.Batch[T]
				var ipiv batchlas.Vectors[int32]
				var b batchlas.Batch[T]
				if (n+nrhs+ti)%2 == 0 {
					a, ipiv = factors[T](seed, n, count, n+2, (n+2)*n+3)
					b = rhs[T](seed, n, nrhs, count, n+3, (n+3)*nrhs+5)
				} else {
					a, ipiv = factors[T](seed, n, count, 0, 0)
					b = rhs[T](seed, n, nrhs, count, 0, 0)
				}
				x := solve(t, ctx, trans, a, ipiv, b)
				for i := 0; i < count; i++ {
					forward(t, "conformance", trans, a, ipiv, b, x, i)
					residual(t, "conformance", trans, a, ipiv, b, x, i)
				}
			}
		}
	}
}

func TestLargeBatch(t *testing.T) { eachCandidate(t, largeBatch[float32], largeBatch[float64]) }

// largeBatch: 1500 small systems, spread over every worker, each checked
// where it lands (a kernel that mixed up matrices would fail here).
func largeBatch[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	const count = 1500
	for _, trans := range transes {
		for _, n := range []int{2, 9} {
			a, ipiv := factors[T](uint64(n), n, count, 0, 0)
			b := rhs[T](uint64(n), n, 3, count, 0, 0)
			x := solve(t, ctx, trans, a, ipiv, b)
			for i := 0; i < count; i += 149 {
				forward(t, "large batch", trans, a, ipiv, b, x, i)
			}
			forward(t, "large batch", trans, a, ipiv, b, x, count-1)
		}
	}
}

func TestBroadcast(t *testing.T) { eachCandidate(t, broadcast[float32], broadcast[float64]) }

// broadcast: one factor and one pivot vector (batchlas.Broadcast,
// batchlas.BroadcastVectors) for many B give, bit for bit, the X that
// explicit copies of them give (vendor: against the oracle, as gonum's
// float32 kernels may round with the alignment of the copies), on orders
// of the small paths and nested's blocked trsm, for counts 0, 1 and 37.
func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, trans := range transes {
		for _, n := range []int{3, 9, 40} {
			for _, count := range []int{0, 1, 37} {
				what := fmt.Sprintf("%s %v n=%d count=%d", c, trans, n, count)
				one, piv := factors[T](uint64(n), n, 1, n+2, 0)
				copies := testmat.Batch[T](testmat.Rand(1), n, n, count, n+2, 0)
				pivs := batchlas.NewVectors[int32](n, count)
				for i := range count {
					if err := copies.CopyMatrixIn(i, one.Data, one.LD); err != nil {
						t.Fatal(err)
					}
					copy(pivs.Vector(i), piv.Vector(0))
				}
				b := rhs[T](uint64(n), n, 5, count, n+1, 0)
				got := solve(t, ctx, trans, batchlas.Broadcast(one, count), batchlas.BroadcastVectors(piv, count), b)
				want := solve(t, ctx, trans, copies, pivs, b)
				if c.Vendor() {
					for i := range count {
						forward(t, what, trans, copies, pivs, b, got, i)
					}
					continue
				}
				if i := testmat.SameMatrices(got, want, 0, count); i >= 0 {
					t.Fatalf("%s: matrix %d differs from the solve with explicit copies", what, i)
				}
				if count > 0 {
					forward(t, what, trans, copies, pivs, b, got, count-1)
				}
			}
		}
	}
}

func TestIdentityPivots(t *testing.T) {
	eachCandidate(t, identityPivots[float32], identityPivots[float64])
}

// identityPivots: pivots that interchange nothing (ipiv[j] = j) and ones
// that move the last row to the top (ipiv[j] = n-1 for every j, a cyclic
// permutation): small integer factors whose solve is exact, so every
// kernel gives gonum's answer exactly.
func identityPivots[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	const n, nrhs = 6, 3
	for _, trans := range transes {
		for _, cyclic := range []bool{false, true} {
			a := batchlas.NewBatch[T](n, n, 2)
			ipiv := batchlas.NewVectors[int32](n, 2)
			for i := range 2 {
				for c := 0; c < n; c++ {
					for r := 0; r < n; r++ {
						switch {
						case r == c:
							a.Set(i, r, c, 1)
						case r > c && (r+c+i)%3 == 0:
							a.Set(i, r, c, 1)
						case r < c && (r+c)%2 == 1:
							a.Set(i, r, c, -1)
						}
					}
					if cyclic {
						ipiv.Set(i, c, n-1)
					} else {
						ipiv.Set(i, c, int32(c))
					}
				}
			}
			b := batchlas.NewBatch[T](n, nrhs, 2)
			for k := range b.Data {
				b.Data[k] = T(k%7 - 3)
			}
			x := solve(t, ctx, trans, a, ipiv, b)
			for i := range 2 {
				want := oracle(trans, a, ipiv, b, i)
				got := testmat.Dense(x, i)
				for k := range want {
					if got[k] != want[k] {
						t.Fatalf("%v cyclic=%v matrix %d element %d: %v, gonum %v", trans, cyclic, i, k, got[k], want[k])
					}
				}
			}
		}
	}
}

func TestSingularFactor(t *testing.T) {
	eachCandidate(t, singularFactor[float32], singularFactor[float64])
}

// singularFactor: a zero or NaN on U's diagonal is no error for getrs (as
// in LAPACK): the call succeeds, that system's X holds Inf or NaN, and
// the other systems are solved as usual.
func singularFactor[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	for _, trans := range transes {
		for _, bad := range []float64{0, math.NaN()} {
			a, ipiv := factors[T](5, 12, 3, 0, 0)
			a.Set(1, 6, 6, T(bad))
			b := rhs[T](5, 12, 2, 3, 0, 0)
			x := solve(t, ctx, trans, a, ipiv, b)
			finite := true
			for _, v := range testmat.Dense(x, 1) {
				finite = finite && !math.IsInf(v, 0) && !math.IsNaN(v)
			}
			if finite {
				t.Fatalf("%v diagonal %v: the singular system's X is finite", trans, bad)
			}
			forward(t, "singular", trans, a, ipiv, b, x, 0)
			forward(t, "singular", trans, a, ipiv, b, x, 2)
		}
	}
}

// TestBadPivots: a pivot outside [j, n), in any matrix of the batch or in
// a broadcast pivot vector, is an *ArgError on ipiv from every candidate
// naming the matrix and the position, and nothing is written; the same
// pivots with nothing to solve are not read.
func TestBadPivots(t *testing.T) {
	const n, count = 7, 5
	cases := []struct {
		name   string
		i, j   int
		v      int32
		bcast  bool
		saying string
	}{
		{"below j", 3, 4, 2, false, "ipiv.At(3, 4) = 2: pivot 4 of matrix 3 must be in [4, 7)"},
		{"n", 0, 0, n, false, "ipiv.At(0, 0) = 7: pivot 0 of matrix 0 must be in [0, 7)"},
		{"negative", 4, 6, -1, false, "ipiv.At(4, 6) = -1"},
		{"huge", 2, 1, math.MaxInt32, false, "ipiv.At(2, 1) = 2147483647"},
		{"last position", 1, n - 1, n - 2, false, "ipiv.At(1, 6) = 5"},
		{"broadcast", 0, 2, 1, true, "pivot 2 of every matrix (ipiv is a broadcast)"},
	}
	for _, tc := range cases {
		for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
			for _, c := range getrs.Op.Candidates(dt) {
				for _, trans := range transes {
					what := fmt.Sprintf("%s %s %s %v", tc.name, dt, c, trans)
					ctx := pin(context.Background(), c)
					var err, empty error
					var written bool
					if dt == sel.Float32 {
						err, empty, written = badPivotCall[float32](ctx, trans, n, count, tc.i, tc.j, tc.v, tc.bcast)
					} else {
						err, empty, written = badPivotCall[float64](ctx, trans, n, count, tc.i, tc.j, tc.v, tc.bcast)
					}
					var ae *batchlas.ArgError
					if !errors.As(err, &ae) || ae.Op != "getrs" || ae.Arg != "ipiv" || !strings.Contains(ae.Msg, tc.saying) {
						t.Fatalf("%s: got %v, want an ArgError from getrs on ipiv saying %q", what, err, tc.saying)
					}
					if written {
						t.Fatalf("%s: b was written", what)
					}
					if empty != nil {
						t.Fatalf("%s: nrhs 0 read the pivots: %v", what, empty)
					}
				}
			}
		}
	}
}

// badPivotCall solves with pivot (i, j) set to v and returns the error,
// the error of the same call with nrhs 0, and whether b changed.
func badPivotCall[T batchlas.Float](ctx context.Context, trans batchlas.Transpose, n, count, i, j int, v int32, bcast bool) (err, empty error, written bool) {
	a, ipiv := factors[T](9, n, count, 0, 0)
	if bcast {
		a, ipiv = batchlas.Broadcast(a, count), batchlas.BroadcastVectors(ipiv, count)
	}
	ipiv.Set(i, j, v)
	b := rhs[T](9, n, 3, count, 0, 0)
	b0 := testmat.Clone(b)
	err = getrs.Getrs(ctx, trans, a, ipiv, b, nil)
	none := batchlas.NewBatch[T](n, 0, count)
	empty = getrs.Getrs(ctx, trans, a, ipiv, none, nil)
	return err, empty, !sameBits(b.Data, b0.Data)
}

func TestBadArguments(t *testing.T) {
	type args struct {
		trans batchlas.Transpose
		a, b  batchlas.Batch[float64]
		ipiv  batchlas.Vectors[int32]
	}
	good := func() args {
		a, ipiv := factors[float64](1, 4, 3, 0, 0)
		return args{batchlas.NoTrans, a, rhs[float64](1, 4, 2, 3, 0, 0), ipiv}
	}
	cases := []struct {
		name, arg, saying string
		edit              func(x *args)
	}{
		{"bad trans", "trans", "trans 'C'", func(x *args) { x.trans = 'C' }},
		{"a not square", "a", "an LU factor is square", func(x *args) { x.a.Cols = 3 }},
		{"lda too small", "a", "ld 3 < max(1, rows 4)", func(x *args) { x.a.LD = 3 }},
		{"short a", "a", "need", func(x *args) { x.a.Data = x.a.Data[:len(x.a.Data)-1] }},
		{"a literal stride 0", "a", "batchlas.Broadcast", func(x *args) { x.a.Stride = 0 }},
		{"a count", "a", "a.Count 2 != b.Count 3", func(x *args) { x.a.Count = 2 }},
		{"b rows", "b", "b has 5 rows", func(x *args) { x.b = rhs[float64](1, 5, 2, 3, 0, 0) }},
		{"ldb too small", "b", "ld 2 < max(1, rows 4)", func(x *args) { x.b.LD = 2 }},
		{"short b", "b", "need", func(x *args) { x.b.Data = x.b.Data[:len(x.b.Data)-1] }},
		{"overlapping b", "b", "matrices overlap", func(x *args) { x.b.Stride = x.b.LD*x.b.Cols - 1 }},
		{"broadcast b", "b", "b is a broadcast", func(x *args) { x.b = batchlas.Broadcast(x.b, 3) }},
		{"negative count", "b", "count -1 < 0", func(x *args) { x.b.Count = -1 }},
		{"b shares a", "b", "b and a share elements", func(x *args) {
			x.b = x.a
			x.b.Cols = 2
		}},
		{"ipiv count", "ipiv", "ipiv.Count 2 != b.Count 3", func(x *args) { x.ipiv.Count = 2 }},
		{"ipiv len", "ipiv", "ipiv.Len 3 < n 4", func(x *args) { x.ipiv.Len, x.ipiv.Stride = 3, 3 }},
		{"ipiv short", "ipiv", "need", func(x *args) { x.ipiv.Data = x.ipiv.Data[:len(x.ipiv.Data)-1] }},
		{"ipiv literal stride 0", "ipiv", "BroadcastVectors", func(x *args) { x.ipiv.Stride = 0 }},
		{"ipiv negative stride", "ipiv", "stride -1 < 0", func(x *args) { x.ipiv.Stride = -1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := good()
			tc.edit(&x)
			b0 := append([]float64(nil), x.b.Data...)
			for what, err := range map[string]error{
				"Getrs":      getrs.Getrs(context.Background(), x.trans, x.a, x.ipiv, x.b, nil),
				"BufferSize": func() error { _, err := getrs.BufferSize(context.Background(), x.trans, x.a, x.ipiv, x.b); return err }(),
			} {
				var ae *batchlas.ArgError
				if !errors.As(err, &ae) || ae.Op != "getrs" || ae.Arg != tc.arg || !strings.Contains(err.Error(), tc.saying) {
					t.Errorf("%s: got %v, want an ArgError from getrs on %s saying %q", what, err, tc.arg, tc.saying)
				}
			}
			if len(x.b.Data) == len(b0) && !sameBits(x.b.Data, b0) {
				t.Error("a refused call wrote b")
			}
		})
	}
}

// TestBufferSizeDoesNotReadPivots: BufferSize sizes the workspace from the
// shapes alone, so it can be called before getrf has written the pivots
// (here: all zero, invalid past the first position).
func TestBufferSizeDoesNotReadPivots(t *testing.T) {
	a, _ := factors[float64](2, 20, 3, 0, 0)
	ipiv := batchlas.NewVectors[int32](20, 3)
	b := rhs[float64](2, 20, 4, 3, 0, 0)
	for _, c := range getrs.Op.Candidates(sel.Float64) {
		if _, err := getrs.BufferSize(pin(context.Background(), c), batchlas.NoTrans, a, ipiv, b); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
}

// TestCanRunEqualsLaunch pins every candidate on the host and on the host
// without its vendor libraries: the pinned call succeeds exactly when
// can_run says so, and a refused pin is an error.
func TestCanRunEqualsLaunch(t *testing.T) {
	host := batchlas.Host()
	bare := *host
	bare.Flags = nil
	for _, f := range host.Flags {
		if !strings.HasPrefix(f, "vendor:") {
			bare.Flags = append(bare.Flags, f)
		}
	}
	for _, dev := range []*sel.Device{host, &bare} {
		for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
			for _, c := range getrs.Op.Candidates(dt) {
				for _, n := range []int{1, 8, 33} {
					// Strict: the spelling "vendor" is also the class word,
					// whose lenient pin falls back to the automatic choice.
					ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), dev), "getrs", c.String())
					key := sel.MakeKey(sel.Str("N"), sel.Int(n), sel.Int(3), sel.Int(2))
					want := getrs.Op.CanRun(c, key, dev)
					var err error
					if dt == sel.Float32 {
						a, ipiv := factors[float32](1, n, 2, 0, 0)
						err = getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, rhs[float32](1, n, 3, 2, 0, 0), nil)
					} else {
						a, ipiv := factors[float64](1, n, 2, 0, 0)
						err = getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, rhs[float64](1, n, 3, 2, 0, 0), nil)
					}
					if (err == nil) != want {
						t.Errorf("%s %s on %v n=%d: can_run %v but the pinned call returned %v", dt, c, dev.Flags, n, want, err)
					}
				}
			}
		}
	}
}

// TestShortWorkspace: a candidate that uses a workspace refuses one
// element less than BufferSize with an ArgError on ws; at least one
// (nested, for its trsm calls) does.
func TestShortWorkspace(t *testing.T) {
	checked := 0
	for _, c := range getrs.Op.Candidates(sel.Float64) {
		ctx := pin(context.Background(), c)
		a, ipiv := factors[float64](3, 40, 2, 0, 0)
		b := rhs[float64](3, 40, 5, 2, 0, 0)
		n, err := getrs.BufferSize(ctx, batchlas.Trans, a, ipiv, b)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			continue
		}
		checked++
		b0 := testmat.Clone(b)
		err = getrs.Getrs(ctx, batchlas.Trans, a, ipiv, b, make([]float64, n-1))
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Arg != "ws" || ae.Op != "getrs" {
			t.Errorf("%s: ws of %d < %d: got %v, want an ArgError on ws", c, n-1, n, err)
		}
		if !sameBits(b.Data, b0.Data) {
			t.Errorf("%s: a refused call wrote b", c)
		}
	}
	if checked == 0 {
		t.Error("no candidate uses a workspace")
	}
}

// TestWorkspaceOverlapRefused: a workspace that shares an element with a
// or b is an ArgError on ws, for the kernels that use one.
func TestWorkspaceOverlapRefused(t *testing.T) {
	checked := 0
	for _, c := range getrs.Op.Candidates(sel.Float64) {
		ctx := pin(context.Background(), c)
		a, ipiv := factors[float64](4, 20, 2, 0, 0)
		b := rhs[float64](4, 20, 5, 2, 0, 0)
		need, err := getrs.BufferSize(ctx, batchlas.NoTrans, a, ipiv, b)
		if err != nil {
			t.Fatal(err)
		}
		if need == 0 {
			continue
		}
		checked++
		for _, tc := range []struct {
			name string
			x    *batchlas.Batch[float64]
		}{{"a", &a}, {"b", &b}} {
			keep := *tc.x
			ws := make([]float64, need+len(keep.Data))
			tc.x.Data = ws[need-1:] // the last element of ws is the first of x
			copy(tc.x.Data, keep.Data)
			err := getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, b, ws)
			var ae *batchlas.ArgError
			if !errors.As(err, &ae) || ae.Arg != "ws" || !strings.Contains(ae.Msg, "ws and "+tc.name+" share elements") {
				t.Errorf("%s, ws meets %s: got %v, want an ArgError on ws", c, tc.name, err)
			}
			*tc.x = keep
		}
	}
	if checked == 0 {
		t.Error("no candidate uses a workspace")
	}
}

// TestNestedCallsTrsm: nested solves through trsm's entry point, so a
// scoped trsm pin reaches it (a bad one is nested's error, a good one runs
// that trsm kernel), while the per-matrix kernels never call trsm.
func TestNestedCallsTrsm(t *testing.T) {
	a, ipiv := factors[float64](6, 20, 4, 0, 0)
	b := rhs[float64](6, 20, 3, 4, 0, 0)
	bad := sel.WithPin(context.Background(), "trsm", "no_such_kernel")
	for _, c := range getrs.Op.Candidates(sel.Float64) {
		err := getrs.Getrs(pin(bad, c), batchlas.NoTrans, a, ipiv, testmat.Clone(b), nil)
		var pe *sel.PinError
		if c.String() == "nested" {
			if !errors.As(err, &pe) {
				t.Errorf("nested under a bad trsm pin: got %v, want trsm's *sel.PinError", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s under a bad trsm pin: %v", c, err)
		}
	}
	for _, tc := range []string{"direct", "blocked:nb=8"} {
		ctx := sel.WithPin(sel.WithPin(context.Background(), "getrs", "nested"), "trsm", tc)
		for _, trans := range transes {
			x := solve(t, ctx, trans, a, ipiv, b)
			for i := range 4 {
				forward(t, "nested over trsm "+tc, trans, a, ipiv, b, x, i)
			}
		}
	}
}

// TestEmpty: no matrix, n == 0 or nrhs == 0 succeeds without touching
// anything, even with an invalid pin (no decision is made) and invalid
// pivots (they are not read).
func TestEmpty(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "getrs", "no_such_kernel")
	for _, s := range []struct{ n, nrhs, count int }{{4, 3, 0}, {0, 3, 2}, {4, 0, 2}} {
		a := batchlas.NewBatch[float64](s.n, s.n, s.count)
		ipiv := batchlas.NewVectors[int32](s.n, s.count)
		for k := range ipiv.Data {
			ipiv.Data[k] = -5
		}
		b := batchlas.NewBatch[float64](s.n, s.nrhs, s.count)
		if err := getrs.Getrs(ctx, batchlas.Trans, a, ipiv, b, nil); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
		if n, err := getrs.BufferSize(ctx, batchlas.Trans, a, ipiv, b); err != nil || n != 0 {
			t.Errorf("%+v: BufferSize = %d, %v; want 0, nil", s, n, err)
		}
	}
	// With something to solve, the same pin is an error.
	a, ipiv := factors[float64](1, 3, 2, 0, 0)
	var pe *sel.PinError
	if err := getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, rhs[float64](1, 3, 1, 2, 0, 0), nil); !errors.As(err, &pe) {
		t.Errorf("a call that runs a kernel under a bad pin returned %v, want a *sel.PinError", err)
	}
}

// TestNilContext: a nil context is context.Background() for Getrs and
// BufferSize: no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	a, ipiv := factors[float64](4, 12, 3, 0, 0)
	b := rhs[float64](4, 12, 5, 3, 0, 0)
	want := testmat.Clone(b)
	if err := getrs.Getrs(context.Background(), batchlas.Trans, a, ipiv, want, nil); err != nil {
		t.Fatal(err)
	}
	n, err := getrs.BufferSize(nilCtx, batchlas.Trans, a, ipiv, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := getrs.Getrs(nilCtx, batchlas.Trans, a, ipiv, b, make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	if !sameBits(b.Data, want.Data) {
		t.Fatal("a nil context gave another result than Background")
	}
}

// TestConcurrent runs every candidate from many goroutines at once, with
// per-matrix and broadcast factors.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		for _, c := range getrs.Op.Candidates(sel.Float64) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := pin(context.Background(), c)
				if g%4 == 3 {
					ctx = context.Background() // the automatic choice
				}
				trans := transes[g%2]
				a, ipiv := factors[float64](uint64(g), 12+g, 40, 0, 0)
				if g%3 == 0 {
					a, ipiv = batchlas.Broadcast(a, 40), batchlas.BroadcastVectors(ipiv, 40)
				}
				b := rhs[float64](uint64(g), 12+g, 3, 40, 0, 0)
				x := testmat.Clone(b)
				if err := getrs.Getrs(ctx, trans, a, ipiv, x, nil); err != nil {
					t.Error(err)
					return
				}
				for i := 0; i < b.Count; i += 13 {
					forward(t, "concurrent", trans, a, ipiv, b, x, i)
				}
			}()
		}
	}
	wg.Wait()
}
