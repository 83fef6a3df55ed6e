package ormqr_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/ormqr"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

var sizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100}

var (
	sides   = []batchlas.Side{batchlas.Left, batchlas.Right}
	transes = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
)

// eachCandidate runs f for every candidate of both dtypes, pinned by its
// spelling (the lists are iterated, never retyped).
func eachCandidate(t *testing.T, f32 func(*testing.T, context.Context, sel.Choice), f64 func(*testing.T, context.Context, sel.Choice)) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range ormqr.Op.Candidates(dt) {
			ctx := sel.WithPin(context.Background(), "ormqr", c.String())
			t.Run(fmt.Sprintf("%v/%s", dt, c), func(t *testing.T) {
				if dt == sel.Float32 {
					f32(t, ctx, c)
				} else {
					f64(t, ctx, c)
				}
			})
		}
	}
}

// factors returns gonum's Dgeqrf of count random nq x r matrices, rounded
// to T, with leading dimension ld (NaN padding and NaN between matrices),
// tau (length min(nq, r)), and the rounded values in float64
// (column-major, leading dimension nq).
func factors[T batchlas.Float](seed uint64, nq, r, count, ld, pad int) (batchlas.Batch[T], batchlas.Vectors[T], [][]float64, [][]float64) {
	rnd := testmat.Rand(seed)
	ld = max(ld, nq, 1)
	stride := ld*r + pad
	data := testmat.NaNs[T](stride * max(count, 1))
	kk := min(nq, r)
	tau := batchlas.NewVectors[T](kk, count)
	fs, ts := make([][]float64, count), make([][]float64, count)
	for i := 0; i < count; i++ {
		rm := make([]float64, nq*r)
		for j := range rm {
			rm[j] = rnd.NormFloat64()
		}
		t := make([]float64, kk)
		work := make([]float64, max(1, r)*64)
		gonum.Implementation{}.Dgeqrf(nq, r, rm, max(1, r), t, work, len(work))
		f := make([]float64, nq*r)
		for row := 0; row < nq; row++ {
			for c := 0; c < r; c++ {
				x := T(rm[row*r+c])
				data[i*stride+row+c*ld] = x
				f[row+c*nq] = float64(x)
			}
		}
		for j := range t {
			tau.Set(i, j, T(t[j]))
			t[j] = float64(T(t[j]))
		}
		fs[i], ts[i] = f, t
	}
	a, err := batchlas.WrapStrided(data, nq, r, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return a, tau, fs, ts
}

// matrices is count random m x n matrices with leading dimension ld and
// NaN padding.
func matrices[T batchlas.Float](seed uint64, m, n, count, ld, pad int) batchlas.Batch[T] {
	rnd := testmat.Rand(seed)
	ld = max(ld, m, 1)
	stride := ld*n + pad
	data := testmat.NaNs[T](stride * max(count, 1))
	for i := 0; i < count; i++ {
		for c := 0; c < n; c++ {
			for r := 0; r < m; r++ {
				data[i*stride+r+c*ld] = T(rnd.NormFloat64())
			}
		}
	}
	b, err := batchlas.WrapStrided(data, m, n, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return b
}

// gonumApply is gonum's Dormqr with the factor f (nq x r column-major)'s
// first k reflectors on c (m x n column-major), column-major.
func gonumApply(side batchlas.Side, trans batchlas.Transpose, m, n, k, r int, f, tau, c []float64) []float64 {
	nq := n
	bs := blas.Right
	if side == batchlas.Left {
		nq, bs = m, blas.Left
	}
	bt := blas.NoTrans
	if trans == batchlas.Trans {
		bt = blas.Trans
	}
	ar := make([]float64, nq*max(k, 1))
	for row := 0; row < nq; row++ {
		for col := 0; col < k; col++ {
			ar[row*k+col] = f[row+col*nq]
		}
	}
	cr := make([]float64, m*n)
	for row := 0; row < m; row++ {
		for col := 0; col < n; col++ {
			cr[row*n+col] = c[row+col*m]
		}
	}
	work := make([]float64, max(m, n, 1)*64+64*65)
	gonum.Implementation{}.Dormqr(bs, bt, m, n, k, ar, max(1, k), tau[:k], cr, max(1, n), work, len(work))
	out := make([]float64, m*n)
	for row := 0; row < m; row++ {
		for col := 0; col < n; col++ {
			out[row+col*m] = cr[row*n+col]
		}
	}
	return out
}

// withLen is tau with each vector's first k elements.
func withLen[T batchlas.Float](tau batchlas.Vectors[T], k int) batchlas.Vectors[T] {
	if tau.Count == 0 || k == tau.Len {
		return tau
	}
	v, err := batchlas.WrapStridedVectors(tau.Data, k, tau.Stride, tau.Count)
	if err != nil {
		panic(err)
	}
	return v
}

func TestAgainstGonum(t *testing.T) {
	eachCandidate(t, againstGonum[float32], againstGonum[float64])
}

func againstGonum[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	eps := testmat.Eps[T]()
	for _, side := range sides {
		for _, trans := range transes {
			for _, m := range sizes {
				for _, n := range sizes {
					if m >= 64 && n >= 64 {
						// Both sides past every panel width: the pairs with
						// one side small straddle the same limits for far
						// less time in the test command.
						continue
					}
					nq := n
					if side == batchlas.Left {
						nq = m
					}
					for _, r := range []int{nq, min(nq, 5)} { // columns of the factored matrix
						const count = 2
						bcast := r < nq
						a, tau, fs, ts := factors[T](uint64(m*1000+n), nq, r, count, nq+2, 3)
						k := min(nq, r)
						if bcast {
							a, tau = batchlas.Broadcast(a, count), batchlas.BroadcastVectors(tau, count)
							a.Count, tau.Count = count, count
						}
						cb := matrices[T](uint64(m+n), m, n, count, m+1, 2)
						c0 := append([]T(nil), cb.Data...)
						a0 := append([]T(nil), a.Data...)
						size, err := ormqr.BufferSize(ctx, side, trans, a, tau, cb)
						require.NoError(t, err)
						what := fmt.Sprintf("%v %v m=%d n=%d k=%d", side, trans, m, n, k)
						require.NoError(t, ormqr.Ormqr(ctx, side, trans, a, tau, cb, testmat.NaNs[T](size)), what)
						require.True(t, testmat.Untouched(cb, cb.Data, c0), "%s: wrote padding", what)
						testmat.SameBits(t, what+": a is only read", a.Data, a0)
						for i := 0; i < count; i++ {
							fi := i
							if bcast {
								fi = 0
							}
							orig := testmat.Dense(matrices[T](uint64(m+n), m, n, count, m+1, 2), i)
							want := gonumApply(side, trans, m, n, k, r, fs[fi], ts[fi], orig)
							got := testmat.Dense(cb, i)
							// |Q C - ref| <= 16 (nq + k) eps max(|C|) sqrt(nq)
							tol := 16 * float64(nq+k+1) * eps * math.Max(testmat.MaxAbs(orig), 1) * math.Sqrt(float64(nq+1))
							// One assertion per failing element, not per element:
							// testify's per-call cost was half this test's time.
							for j := range got {
								if !(math.Abs(got[j]-want[j]) <= tol) {
									t.Fatalf("%s matrix %d element %d: got %v, gonum %v (tolerance %v)", what, i, j, got[j], want[j], tol)
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	a, tau, _, _ := factors[float64](1, 5, 3, 2, 0, 0)
	c := matrices[float64](2, 5, 4, 2, 0, 0)
	long := batchlas.NewVectors[float64](4, 2)
	few := batchlas.NewVectors[float64](3, 1)
	fewC := matrices[float64](2, 5, 4, 1, 0, 0)
	overlap, err := batchlas.WrapStrided(a.Data, 5, 3, 5, a.Stride, 2)
	require.NoError(t, err)
	for _, tc := range []struct {
		side  batchlas.Side
		trans batchlas.Transpose
		a     batchlas.Batch[float64]
		tau   batchlas.Vectors[float64]
		c     batchlas.Batch[float64]
		arg   string
	}{
		{'X', batchlas.NoTrans, a, tau, c, "side"},
		{batchlas.Left, 'C', a, tau, c, "trans"},
		{batchlas.Right, batchlas.NoTrans, a, tau, c, "a"}, // Q of order 4, a has 5 rows
		{batchlas.Left, batchlas.NoTrans, a, long, c, "tau"},
		{batchlas.Left, batchlas.NoTrans, a, few, c, "tau"},
		{batchlas.Left, batchlas.NoTrans, a, tau, fewC, "a"},
		{batchlas.Left, batchlas.NoTrans, a, tau, batchlas.Broadcast(c, 2), "c"},
		{batchlas.Left, batchlas.NoTrans, a, tau, overlap, "c"},
	} {
		err := ormqr.Ormqr(ctx, tc.side, tc.trans, tc.a, tc.tau, tc.c, nil)
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "ormqr", ae.Op)
		require.Equal(t, tc.arg, ae.Arg, ae.Error())
		_, err = ormqr.BufferSize(ctx, tc.side, tc.trans, tc.a, tc.tau, tc.c)
		require.True(t, errors.As(err, &ae), "%v", err)
	}
	ctx = sel.WithPin(ctx, "ormqr", "blocked:nb=8")
	require.Error(t, ormqr.Ormqr(ctx, batchlas.Left, batchlas.NoTrans, a, tau, c, make([]float64, 1)))
}

// TestEmptyMakesNoDecision: nothing to do reads no pin and writes nothing.
func TestEmptyMakesNoDecision(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "ormqr", "nonsense:1")
	a, tau, _, _ := factors[float64](1, 4, 4, 3, 0, 0)
	for _, c := range []batchlas.Batch[float64]{batchlas.NewBatch[float64](4, 0, 3)} {
		require.NoError(t, ormqr.Ormqr(ctx, batchlas.Left, batchlas.NoTrans, a, tau, c, nil))
	}
	c := matrices[float64](2, 4, 3, 3, 0, 0)
	c0 := append([]float64(nil), c.Data...)
	require.NoError(t, ormqr.Ormqr(ctx, batchlas.Left, batchlas.Trans, a, withLen(tau, 0), c, nil))
	require.Equal(t, c0, c.Data)
	n, err := ormqr.BufferSize(ctx, batchlas.Left, batchlas.Trans, a, withLen(tau, 0), c)
	require.NoError(t, err)
	require.Zero(t, n)
	e := batchlas.NewBatch[float64](0, 0, 0)
	require.NoError(t, ormqr.Ormqr(ctx, batchlas.Right, batchlas.Trans, e, batchlas.NewVectors[float64](0, 0), e, nil))
}

// TestNonFinite: NaN and Inf in a, tau or c never panic or hang.
func TestNonFinite(t *testing.T) {
	eachCandidate(t, nonFinite[float32], nonFinite[float64])
}

func nonFinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, side := range sides {
		for _, n := range []int{3, 20, 40} {
			a, tau, _, _ := factors[T](7, n, n, 3, 0, 0)
			a.Set(0, n-1, 0, T(math.NaN()))
			tau.Set(1, 0, T(math.Inf(1)))
			cb := matrices[T](8, n, n, 3, 0, 0)
			cb.Set(2, 0, 0, T(math.NaN()))
			require.NoError(t, ormqr.Ormqr(ctx, side, batchlas.Trans, a, tau, cb, nil))
		}
	}
}

// TestWorkers: the result is the same bit for bit on 1 worker and on many.
func TestWorkers(t *testing.T) {
	eachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	for _, side := range sides {
		a, tau, _, _ := factors[T](9, 40, 33, 64, 0, 0)
		m, n := 40, 7
		if side == batchlas.Right {
			m, n = 7, 40
		}
		x := matrices[T](10, m, n, 64, 0, 0)
		y := testmat.Clone(x)
		require.NoError(t, ormqr.Ormqr(batchlas.WithParallelism(ctx, 1), side, batchlas.NoTrans, a, tau, x, nil))
		require.NoError(t, ormqr.Ormqr(batchlas.WithParallelism(ctx, 8), side, batchlas.NoTrans, a, tau, y, nil))
		require.Equal(t, -1, testmat.SameMatrices(x, y, 0, x.Count))
	}
}

func TestNoAllocationsWithWorkspace(t *testing.T) {
	eachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	for _, side := range sides {
		for _, s := range [][3]int{{1, 1, 1}, {20, 7, 64}, {70, 70, 4}} {
			m, n := s[0], s[1]
			nq := m
			if side == batchlas.Right {
				nq = n
			}
			a, tau, _, _ := factors[T](10, nq, nq, s[2], 0, 0)
			x := matrices[T](11, m, n, s[2], 0, 0)
			size, err := ormqr.BufferSize(ctx, side, batchlas.Trans, a, tau, x)
			require.NoError(t, err)
			ws := make([]T, size)
			testmat.NoAllocs(t, fmt.Sprint(side, s), func() {
				if err := ormqr.Ormqr(ctx, side, batchlas.Trans, a, tau, x, ws); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestInterrupted stops every candidate at chunk boundaries: the completed
// matrices are those of an uninterrupted call, the rest untouched
// (Touched == Completed).
func TestInterrupted(t *testing.T) {
	eachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	const count = 300
	a, tau, _, _ := factors[T](11, 24, 16, 1, 0, 0)
	a, tau = batchlas.Broadcast(a, count), batchlas.BroadcastVectors(tau, count)
	c0 := matrices[T](12, 24, 9, count, 25, 3)
	call := func(stop *testmat.StopAfter) (batchlas.Batch[T], error) {
		x := testmat.Clone(c0)
		return x, ormqr.Ormqr(testmat.WithValues(stop, ctx), batchlas.Left, batchlas.Trans, a, tau, x, nil)
	}
	counter := testmat.NewStopAfter(testmat.Forever)
	ref, err := call(counter)
	require.NoError(t, err)
	total := counter.Calls()
	for _, n := range testmat.StopPoints(total, 32) {
		got, err := call(testmat.NewStopAfter(n))
		ie, bad := testmat.CheckInterrupted("ormqr", count, err)
		require.NoError(t, bad)
		if ie == nil {
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, count))
			continue
		}
		require.Equal(t, ie.Completed, ie.Touched)
		require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed))
		require.Equal(t, -1, testmat.SameMatrices(got, c0, ie.Touched, count))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	late, cancel2 := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel2()
	for _, cc := range []context.Context{cancelled, late} {
		x := testmat.Clone(c0)
		err := ormqr.Ormqr(cc, batchlas.Left, batchlas.Trans, a, tau, x, nil)
		var ie *batchlas.InterruptedError
		require.True(t, errors.As(err, &ie), "%v", err)
		require.Equal(t, "ormqr", ie.Op)
		require.Equal(t, -1, testmat.SameMatrices(x, c0, 0, count))
	}
}
