package orgqr_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/orgqr"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

var sizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100}

// eachCandidate runs f for every candidate of both dtypes, pinned by its
// spelling (the lists are iterated, never retyped).
func eachCandidate(t *testing.T, f32 func(*testing.T, context.Context, sel.Choice), f64 func(*testing.T, context.Context, sel.Choice)) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range orgqr.Op.Candidates(dt) {
			ctx := sel.WithPin(context.Background(), "orgqr", c.String())
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

// factors returns gonum's Dgeqrf of count random m x n matrices, rounded
// to T, as a batch with leading dimension ld (NaN padding, stride ld*n+pad
// with NaN between matrices), tau (length min(m, n)), and the float64
// values of both (the rounded ones) column-major with leading dimension m.
func factors[T batchlas.Float](seed uint64, m, n, count, ld, pad int) (batchlas.Batch[T], batchlas.Vectors[T], [][]float64, [][]float64) {
	r := testmat.Rand(seed)
	ld = max(ld, m, 1)
	stride := ld*n + pad
	data := testmat.NaNs[T](stride * max(count, 1))
	kk := min(m, n)
	tau := batchlas.NewVectors[T](kk, count)
	fs, ts := make([][]float64, count), make([][]float64, count)
	impl := gonum.Implementation{}
	for i := 0; i < count; i++ {
		rm := make([]float64, m*n)
		for j := range rm {
			rm[j] = r.NormFloat64()
		}
		t := make([]float64, kk)
		work := make([]float64, max(1, n)*64)
		impl.Dgeqrf(m, n, rm, max(1, n), t, work, len(work))
		f := make([]float64, m*n)
		for row := 0; row < m; row++ {
			for c := 0; c < n; c++ {
				x := T(rm[row*n+c])
				data[i*stride+row+c*ld] = x
				f[row+c*m] = float64(x)
			}
		}
		for j := range t {
			tau.Set(i, j, T(t[j]))
			t[j] = float64(T(t[j]))
		}
		fs[i], ts[i] = f, t
	}
	a, err := batchlas.WrapStrided(data, m, n, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return a, tau, fs, ts
}

// gonumQ is gonum's Dorgqr on the factor f (column-major, m x n) with k
// reflectors, column-major.
func gonumQ(m, n, k int, f, tau []float64) []float64 {
	rm := make([]float64, m*n)
	for r := 0; r < m; r++ {
		for c := 0; c < n; c++ {
			rm[r*n+c] = f[r+c*m]
		}
	}
	work := make([]float64, max(1, n)*64)
	gonum.Implementation{}.Dorgqr(m, n, k, rm, max(1, n), tau[:k], work, len(work))
	q := make([]float64, m*n)
	for r := 0; r < m; r++ {
		for c := 0; c < n; c++ {
			q[r+c*m] = rm[r*n+c]
		}
	}
	return q
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
	for _, m := range sizes {
		for _, n := range sizes {
			if n > m {
				continue
			}
			for _, k := range []int{n, n / 2} {
				if k < n && n < 3 {
					continue
				}
				const count = 3
				a, tau, fs, ts := factors[T](uint64(m*1000+n), m, n, count, m+3, 5)
				tk := withLen(tau, k)
				orig := append([]T(nil), a.Data...)
				size, err := orgqr.BufferSize(ctx, a, tk)
				what := fmt.Sprintf("m=%d n=%d k=%d", m, n, k)
				if refused(err) {
					// Past the pinned candidate's limits (lanes: m <= 64)
					// the call is refused too, and writes nothing.
					require.ErrorContains(t, orgqr.Orgqr(ctx, a, tk, nil), "can_run refuses", what)
					testmat.SameBits(t, what+": a refused call left a", a.Data, orig)
					continue
				}
				require.NoError(t, err)
				ws := testmat.NaNs[T](size)
				require.NoError(t, orgqr.Orgqr(ctx, a, tk, ws), what)
				require.True(t, testmat.Untouched(a, a.Data, orig), "%s: wrote padding", what)
				for i := 0; i < count; i++ {
					want := gonumQ(m, n, k, fs[i], ts[i])
					got := testmat.Dense(a, i)
					worst := 0.0
					for j := range got {
						worst = max(worst, math.Abs(got[j]-want[j]))
						if math.IsNaN(got[j]) {
							t.Fatalf("%s: NaN in Q", what)
						}
					}
					require.LessOrEqual(t, worst, 16*float64(m+n)*eps, "%s matrix %d: Q vs gonum", what, i)
					// ||Q^T Q - I||_F / (n eps) <= 64
					fro := 0.0
					for p := 0; p < n; p++ {
						for q := 0; q < n; q++ {
							d := 0.0
							for l := 0; l < m; l++ {
								d += got[l+p*m] * got[l+q*m]
							}
							if p == q {
								d--
							}
							fro += d * d
						}
					}
					require.LessOrEqual(t, math.Sqrt(fro)/(float64(max(n, 1))*eps), 64.0, "%s matrix %d: Q^T Q - I", what, i)
				}
			}
		}
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	a, tau, _, _ := factors[float64](1, 5, 3, 2, 0, 0)
	wide, wtau, _, _ := factors[float64](1, 3, 5, 2, 0, 0)
	long := batchlas.NewVectors[float64](4, 2)
	few := batchlas.NewVectors[float64](3, 1)
	overlap, err := batchlas.WrapStridedVectors(a.Data, 3, a.Stride, 2)
	require.NoError(t, err)
	for _, tc := range []struct {
		a   batchlas.Batch[float64]
		tau batchlas.Vectors[float64]
		arg string
	}{
		{wide, wtau, "a"},
		{a, long, "tau"},
		{a, few, "tau"},
		{batchlas.Broadcast(a, 2), tau, "a"},
		{a, overlap, "a"},
	} {
		err := orgqr.Orgqr(ctx, tc.a, tc.tau, nil)
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "orgqr", ae.Op)
		require.Equal(t, tc.arg, ae.Arg, ae.Error())
		_, err = orgqr.BufferSize(ctx, tc.a, tc.tau)
		require.True(t, errors.As(err, &ae), "%v", err)
	}
	// A short workspace is refused.
	ctx = sel.WithPin(ctx, "orgqr", "unblocked")
	require.Error(t, orgqr.Orgqr(ctx, a, tau, make([]float64, 1)))
}

// TestEmptyMakesNoDecision: nothing to form reads no pin (a bad one is no
// error) and writes nothing.
func TestEmptyMakesNoDecision(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "orgqr", "nonsense:1")
	for _, s := range [][3]int{{0, 0, 3}, {5, 0, 3}, {0, 0, 0}, {4, 4, 0}} {
		a := batchlas.NewBatch[float64](s[0], s[1], s[2])
		tau := batchlas.NewVectors[float64](min(s[0], s[1]), s[2])
		require.NoError(t, orgqr.Orgqr(ctx, a, tau, nil))
		n, err := orgqr.BufferSize(ctx, a, tau)
		require.NoError(t, err)
		require.Zero(t, n)
	}
}

// TestNonFinite: NaN and Inf in factors or tau never panic or hang, and a
// broadcast tau is accepted.
func TestNonFinite(t *testing.T) {
	eachCandidate(t, nonFinite[float32], nonFinite[float64])
}

func nonFinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, m := range []int{3, 20, 40} {
		a, tau, _, _ := factors[T](7, m, m, 3, 0, 0)
		a.Set(0, m-1, 0, T(math.NaN()))
		a.Set(1, m/2, 0, T(math.Inf(1)))
		tau.Set(2, 0, T(math.NaN()))
		require.NoError(t, orgqr.Orgqr(ctx, a, tau, nil))
		b, _, _, _ := factors[T](8, m, m, 4, 0, 0)
		require.NoError(t, orgqr.Orgqr(ctx, b, batchlas.BroadcastVectors(tau, 4), nil))
	}
}

// TestWorkers: the result is the same bit for bit on 1 worker and on many.
func TestWorkers(t *testing.T) {
	eachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	a, tau, _, _ := factors[T](9, 40, 33, 64, 0, 0)
	b := testmat.Clone(a)
	require.NoError(t, orgqr.Orgqr(batchlas.WithParallelism(ctx, 1), a, tau, nil))
	require.NoError(t, orgqr.Orgqr(batchlas.WithParallelism(ctx, 8), b, tau, nil))
	require.Equal(t, -1, testmat.SameMatrices(a, b, 0, a.Count))
}

// refused reports whether err is a pinned candidate's refusal of a shape
// past its limits (its can_run).
func refused(err error) bool {
	return err != nil && strings.Contains(err.Error(), "can_run refuses")
}

func TestNoAllocationsWithWorkspace(t *testing.T) {
	eachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	for _, s := range [][3]int{{1, 1, 1}, {20, 7, 64}, {70, 70, 4}} {
		a, tau, _, _ := factors[T](10, s[0], s[1], s[2], 0, 0)
		size, err := orgqr.BufferSize(ctx, a, tau)
		if refused(err) {
			continue
		}
		require.NoError(t, err)
		ws := make([]T, size)
		orig := append([]T(nil), a.Data...)
		testmat.NoAllocs(t, fmt.Sprint(s), func() {
			copy(a.Data, orig)
			if err := orgqr.Orgqr(ctx, a, tau, ws); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestInterrupted stops every candidate at chunk boundaries: the
// completed matrices are those of an uninterrupted call, the rest
// untouched (Touched == Completed).
func TestInterrupted(t *testing.T) {
	eachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	const count = 300
	a0, tau, _, _ := factors[T](11, 24, 16, count, 25, 3)
	call := func(stop *testmat.StopAfter) (batchlas.Batch[T], error) {
		a := testmat.Clone(a0)
		return a, orgqr.Orgqr(testmat.WithValues(stop, ctx), a, tau, nil)
	}
	counter := testmat.NewStopAfter(testmat.Forever)
	ref, err := call(counter)
	require.NoError(t, err)
	total := counter.Calls()
	for _, n := range testmat.StopPoints(total, 32) {
		got, err := call(testmat.NewStopAfter(n))
		ie, bad := testmat.CheckInterrupted("orgqr", count, err)
		require.NoError(t, bad)
		if ie == nil {
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, count))
			continue
		}
		require.Equal(t, ie.Completed, ie.Touched)
		require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed))
		require.Equal(t, -1, testmat.SameMatrices(got, a0, ie.Touched, count))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	late, cancel2 := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel2()
	for _, cc := range []context.Context{cancelled, late} {
		a := testmat.Clone(a0)
		err := orgqr.Orgqr(cc, a, tau, nil)
		var ie *batchlas.InterruptedError
		require.True(t, errors.As(err, &ie), "%v", err)
		require.Equal(t, "orgqr", ie.Op)
	}
}
