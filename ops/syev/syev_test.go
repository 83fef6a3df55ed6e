package syev

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

var (
	jobs  = []Job{ValuesOnly, WithVectors}
	uplos = []batchlas.Uplo{batchlas.Lower, batchlas.Upper}
)

// conformanceOrders are every order 1..70 (straddling jacobi's limit, both
// blocked panel widths and several panels) and some larger ones.
func conformanceOrders() []int {
	var out []int
	for n := 1; n <= 70; n++ {
		// The portable pass (-short) keeps every order to 34 (jacobi's,
		// the panels', dc's leaf limits at 16 and 32), every ninth past
		// it, and both sides of 64 (the trailing block, dc's two leaves).
		if testing.Short() && n > 34 && n%9 != 0 && (n < 63 || n > 65) && n != 70 {
			continue
		}
		out = append(out, n)
	}
	out = append(out, 100, 128, 129) // lanes up to 128
	if testing.Short() {
		// The portable pass: no kernel changes path between 129 and
		// lanestri's limit, and these orders were most of its time.
		return out
	}
	return append(out, 200, 256, 257) // lanestri up to 256
}

// costly reports the (candidate, order, combination) runs conformance
// leaves out: the across-matrices kernels run their portable code on a
// CPU without AVX-512, seconds a call at large orders (lanes 4.7 s for two
// float32 matrices of order 128 on an AVX2 Zen 4). lanes has no path of
// its own from 34 to its limit, so it runs there at every ninth order and
// at its limit (refused one past it), and lanestri's largest orders take
// one combination of jobz and uplo. Under -short (the portable pass, where
// lanes runs its Go code at every order) lanes runs past 33 at one order
// and one combination only.
func costly(c sel.Choice, n, k int) bool {
	switch {
	case c.Is(lanesFamily) && n > 33 && testing.Short():
		return n != 45 || k > 0
	case c.Is(lanesFamily) && n > 33:
		return n%9 != 0 && n != lanesMax || n == lanesMax && k > 0
	case c.Is(lanesTriFamily) && n >= 200:
		return k > 0
	}
	return false
}

// TestConformance runs every candidate that can run each order against
// gonum's Dsyev on every kind of test matrix (random, clustered, diagonal,
// zero, identity, spread), tight and padded (NaN in the unread triangle,
// between columns, between matrices and in w's gaps), for float32 and
// float64. Each order takes one combination of jobz and uplo in turn, and
// every combination for the small orders, every ninth and the large ones.
func TestConformance(t *testing.T) {
	t.Run("float32", func(t *testing.T) { conformance[float32](t, sel.Float32) })
	t.Run("float64", func(t *testing.T) { conformance[float64](t, sel.Float64) })
}

func conformance[T batchlas.Float](t *testing.T, dt sel.DType) {
	r := testmat.Rand(1)
	reached := map[string]bool{}
	for _, n := range conformanceOrders() {
		type combo struct {
			jobz Job
			uplo batchlas.Uplo
		}
		var combos []combo
		for _, j := range jobs {
			for _, u := range uplos {
				combos = append(combos, combo{j, u})
			}
		}
		if !(n <= 8 || n%9 == 0 || n >= 100) {
			combos = combos[n%4 : n%4+1]
		}
		count, first := kinds, n%kinds
		if n >= 100 {
			count = 2
		}
		for k, cb := range combos {
			p := newProblem[T](r, cb.jobz, cb.uplo, n, count, first, (n+k)%2 == 0)
			for _, c := range Op.Candidates(dt) {
				if !runs(c, cb.jobz, cb.uplo, n, count) {
					continue
				}
				if costly(c, n, k) {
					continue
				}
				reached[c.String()] = true
				a, w := p.clone()
				what := fmt.Sprintf("%s %s n=%d jobz=%v uplo=%v", dt, c, n, cb.jobz, cb.uplo)
				require.NoError(t, Syev(pin(context.Background(), c), cb.jobz, cb.uplo, a, w, nil), what)
				checkSolved(t, what, p, a, w, nil)
			}
		}
	}
	require.Len(t, reached, len(Op.Candidates(dt)), "every candidate of %s ran", dt)
}

// TestScaledMatrices: matrices with entries near overflow or underflow
// (scaled into range and back by a power of two) give the eigenvalues of
// the unscaled matrix times the scale, for every candidate.
func TestScaledMatrices(t *testing.T) {
	forEachCandidate(t, scaled[float32], scaled[float64])
}

func scaled[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	scales := []float64{0x1p-1000, 0x1p-600, 0x1p+600, 0x1p+1000}
	if testmat.Eps[T]() > 1e-10 {
		scales = []float64{0x1p-120, 0x1p-70, 0x1p+70, 0x1p+120}
	}
	for _, n := range []int{1, 2, 9, 24, 40} {
		for _, jobz := range jobs {
			if !runs(c, jobz, batchlas.Lower, n, 1) {
				continue
			}
			p := newProblem[T](testmat.Rand(2), jobz, batchlas.Lower, n, 1, kindRandom, false)
			a0, w0 := p.clone()
			require.NoError(t, Syev(ctx, jobz, batchlas.Lower, a0, w0, nil))
			for _, s := range scales {
				a, w := p.clone()
				for j := range a.Data {
					a.Data[j] *= T(s) // exact: a power of two, in range
				}
				require.NoError(t, Syev(ctx, jobz, batchlas.Lower, a, w, nil), "scale %g", s)
				for j := 0; j < n; j++ {
					want := float64(w0.At(0, j)) * s
					got := float64(w.At(0, j))
					require.InDelta(t, want, got, 64*float64(n)*testmat.Eps[T]()*math.Abs(s)*float64(n), "%s n=%d scale %g eigenvalue %d", c, n, s, j)
				}
				if jobz == WithVectors {
					for j := range a.Data {
						d := math.Abs(float64(a.Data[j] - a0.Data[j]))
						require.LessOrEqual(t, d, 64*float64(n)*testmat.Eps[T](), "%s n=%d scale %g: vectors differ", c, n, s)
					}
				}
			}
		}
	}
}

// TestNaNAndInf spoils matrices in the middle of a batch (NaN on the
// diagonal, +Inf off it, -Inf at the last diagonal entry, NaN in the
// first entry): each is reported with info n+1 for every candidate, its
// A_i and w_i are untouched bit for bit, and every other matrix is
// solved. The poison in the unread triangle, everywhere, changes nothing.
func TestNaNAndInf(t *testing.T) {
	forEachCandidate(t, nanAndInf[float32], nanAndInf[float64])
}

func nanAndInf[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(3)
	for _, n := range []int{1, 5, 17, 40, 70} {
		for _, jobz := range jobs {
			for _, uplo := range uplos {
				if !runs(c, jobz, uplo, n, 9) {
					continue
				}
				p := newProblem[T](r, jobz, uplo, n, 9, 0, true)
				h, q := n/2, n-1
				type spoil struct {
					i, row, col int
					v           float64
				}
				spoils := []spoil{{1, h, h, math.NaN()}, {3, q, 0, math.Inf(1)}, {5, q, q, math.Inf(-1)}, {7, 0, 0, math.NaN()}}
				for _, s := range spoils {
					row, col := s.row, s.col
					if uplo == batchlas.Upper {
						row, col = col, row
					}
					p.a.Set(s.i, row, col, T(s.v))
				}
				a, w := p.clone()
				err := Syev(ctx, jobz, uplo, a, w, nil)
				want := &batchlas.NumericalError{Op: opName, Index: []int{1, 3, 5, 7}, Info: []int{n + 1, n + 1, n + 1, n + 1}}
				var ne *batchlas.NumericalError
				what := fmt.Sprintf("%s n=%d jobz=%v uplo=%v", c, n, jobz, uplo)
				require.ErrorAs(t, err, &ne, what)
				require.Equal(t, want, ne, what)
				for _, s := range spoils {
					require.Equal(t, -1, testmat.SameMatrices(a, p.a, s.i, s.i+1), "%s: failed matrix %d's A was written", what, s.i)
					require.True(t, sameVectors(w, p.w, s.i, s.i+1), "%s: failed matrix %d's w was written", what, s.i)
				}
				checkSolved(t, what, p, a, w, []int{0, 2, 4, 6, 8})
			}
		}
	}
}

// TestNonConvergence makes the kernels give up early (one Jacobi sweep,
// no QL/QR iteration): the matrices that needed more are reported with a
// count of unconverged eigenvalues in 1..n and left untouched; a diagonal
// matrix beside them needs no iteration and is solved. The vendor kernel
// cannot be made to give up and is left out.
func TestNonConvergence(t *testing.T) {
	defer func(s, q int) { jacobiSweeps, qlIterPerOrder = s, q }(jacobiSweeps, qlIterPerOrder)
	jacobiSweeps, qlIterPerOrder = 1, 0
	for _, c := range Op.Candidates(sel.Float64) {
		if c.Vendor() {
			continue
		}
		for _, n := range []int{12, 40} {
			for _, jobz := range jobs {
				if !runs(c, jobz, batchlas.Lower, n, 3) {
					continue
				}
				what := fmt.Sprintf("%s n=%d jobz=%v", c, n, jobz)
				// Kinds random, clustered, diagonal.
				p := newProblem[float64](testmat.Rand(4), jobz, batchlas.Lower, n, 3, kindRandom, true)
				a, w := p.clone()
				err := Syev(pin(context.Background(), c), jobz, batchlas.Lower, a, w, nil)
				var ne *batchlas.NumericalError
				require.ErrorAs(t, err, &ne, what)
				require.Equal(t, []int{0, 1}, ne.Index, what)
				for j, i := range ne.Index {
					require.True(t, ne.Info[j] >= 1 && ne.Info[j] <= n, "%s: info %d outside 1..n", what, ne.Info[j])
					require.Equal(t, -1, testmat.SameMatrices(a, p.a, i, i+1), "%s: failed matrix %d's A was written", what, i)
					require.True(t, sameVectors(w, p.w, i, i+1), "%s: failed matrix %d's w was written", what, i)
				}
				checkSolved(t, what, p, a, w, []int{2})
			}
		}
	}
}

// TestQLIterationCount: the QL/QR limit counts iterations over the whole
// matrix (30*n), and a limit that is just too small reports an info that
// counts the subdiagonal entries not yet zero: between 1 and n-1.
func TestQLIterationCount(t *testing.T) {
	defer func(q int) { qlIterPerOrder = q }(qlIterPerOrder)
	for _, n := range []int{3, 10, 33} {
		r := testmat.Rand(5)
		d, e := make([]float64, n), make([]float64, n-1)
		for j := range d {
			d[j] = 2*r.Float64() - 1
		}
		for j := range e {
			e[j] = 2*r.Float64() - 1
		}
		for _, solver := range []struct {
			name string
			run  func(d, e []float64) int
		}{
			{"steqr", func(d, e []float64) int {
				return steqr(d, e, identity(n), n, n, make([]float64, steqrWork(n)))
			}},
			{"sterf", func(d, e []float64) int { return sterf(d, e, n) }},
		} {
			qlIterPerOrder = 30
			d1, e1 := append([]float64(nil), d...), append([]float64(nil), e...)
			require.Zero(t, solver.run(d1, e1), solver.name)
			qlIterPerOrder = 0
			d2, e2 := append([]float64(nil), d...), append([]float64(nil), e...)
			f := solver.run(d2, e2)
			require.True(t, f >= 1 && f <= n-1, "%s n=%d: info %d", solver.name, n, f)
		}
	}
}

// TestSterfManyIsSterf: sterfMany, which interleaves the sweeps of several
// tridiagonal matrices, gives each exactly what sterf gives it alone (the
// same bits and info), on matrices that split into blocks, hold zeros,
// take the QL and the QR direction, run out of iterations, or have order
// 0 to 2; and sterf's eigenvalues agree with steqr's.
func TestSterfManyIsSterf(t *testing.T) {
	defer func(q int) { qlIterPerOrder = q }(qlIterPerOrder)
	r := testmat.Rand(19)
	for _, limit := range []int{30, 1} {
		qlIterPerOrder = limit
		var sts [maxJoint]sterfState[float64]
		var want, wantD [maxJoint][]float64
		var wantInfo [maxJoint]int
		for l := range maxJoint {
			n := []int{0, 1, 2, 3, 5, 8, 17, 33}[l%8] + l/8
			d, e := make([]float64, n), make([]float64, max(n-1, 0))
			for j := range d {
				d[j] = 2*r.Float64() - 1
				if l%3 == 1 {
					d[j] = float64(n - j) // graded: QR from the larger end
				}
			}
			for j := range e {
				e[j] = 2*r.Float64() - 1
				if (l%4 == 2 && j == n/2) || l%5 == 4 {
					e[j] = 0 // splits
				}
			}
			d1, e1 := append([]float64(nil), d...), append([]float64(nil), e...)
			wantInfo[l] = sterf(d1, e1, n)
			want[l], wantD[l] = d1, d
			if limit == 30 {
				d3, e3 := append([]float64(nil), d...), append([]float64(nil), e...)
				require.Zero(t, steqr(d3, e3, identity(n), n, n, make([]float64, steqrWork(n)+2)))
				slices.Sort(d3)
				got := append([]float64(nil), d1...)
				slices.Sort(got)
				for j := range got {
					require.InDelta(t, d3[j], got[j], 32*float64(n)*testmat.Eps[float64](), "n=%d", n)
				}
			}
			sts[l].start(d, e, n)
		}
		sterfMany(sts[:])
		for l := range maxJoint {
			require.Equal(t, wantInfo[l], sts[l].info, "lane %d", l)
			require.True(t, sameBits(want[l], wantD[l]), "lane %d: sterfMany's eigenvalues differ from sterf's", l)
		}
	}
}

// TestWorkspace runs each candidate with exactly BufferSize elements of
// NaN workspace: the result is bitwise the nil-workspace result, and a
// workspace one element short is an ArgError naming ws.
func TestWorkspace(t *testing.T) { forEachCandidate(t, workspace[float32], workspace[float64]) }

func workspace[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := testmat.Rand(6)
	for _, n := range []int{3, 16, 17, 33, 70} {
		for _, jobz := range jobs {
			if !runs(c, jobz, batchlas.Upper, n, 3) {
				continue
			}
			p := newProblem[T](r, jobz, batchlas.Upper, n, 3, 0, true)
			p.a.Set(1, 0, 0, T(math.NaN())) // a failure too
			refA, refW := p.clone()
			var ne *batchlas.NumericalError
			require.ErrorAs(t, Syev(ctx, jobz, batchlas.Upper, refA, refW, nil), &ne)
			size, err := BufferSize(ctx, jobz, batchlas.Upper, p.a, p.w)
			require.NoError(t, err)
			require.Positive(t, size)
			a, w := p.clone()
			ws := testmat.NaNs[T](size)
			require.ErrorAs(t, Syev(ctx, jobz, batchlas.Upper, a, w, ws), &ne, "n=%d ws=%d", n, size)
			require.Equal(t, -1, testmat.SameMatrices(a, refA, 0, 3), "n=%d: a workspace changed A", n)
			require.True(t, sameBits(w.Data, refW.Data), "n=%d: a workspace changed w", n)
			a, w = p.clone()
			err = Syev(ctx, jobz, batchlas.Upper, a, w, ws[:size-1])
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, "ws", ae.Arg)
			require.Equal(t, opName, ae.Op)
			require.True(t, sameBits(w.Data, p.w.Data), "a refused call wrote w")
		}
	}
}

// TestBlockedChunks makes blocked's batch-wide path take a batch in
// chunks of a few matrices: every matrix is solved, the chunk boundary
// straddled, with a failure in the middle of a chunk.
func TestBlockedChunks(t *testing.T) {
	defer func(e int) { blockedChunkElems = e }(blockedChunkElems)
	for _, c := range []sel.Choice{blockedFamily.With(16), blockedFamily.With(32), dcFamily.With()} {
		nb, dc := dcNB, c.Is(dcFamily)
		if !dc {
			nb = c.Field("nb")
		}
		n := 2*nb + 5
		for _, jobz := range jobs {
			withDC := dc && jobz == WithVectors
			blockedChunkElems = 3 * blockedStride[float64](n, nb, withDC) // three matrices per chunk
			require.Equal(t, 3, blockedChunk[float64](n, nb, 100, withDC))
			p := newProblem[float64](testmat.Rand(7), jobz, batchlas.Lower, n, 8, 0, true)
			p.a.Set(4, 1, 1, math.Inf(1))
			a, w := p.clone()
			ctx := pin(context.Background(), c)
			size, err := BufferSize(ctx, jobz, batchlas.Lower, p.a, p.w)
			require.NoError(t, err)
			want := 3 * blockedStride[float64](n, nb, withDC)
			if withDC {
				// and a gemm workspace per matrix phase 3 solves at once
				conc, _, slot := dcGemm[float64](ctx, n, 3)
				want += conc * slot
			}
			require.Equal(t, want, size, "the workspace is one chunk")
			var ne *batchlas.NumericalError
			require.ErrorAs(t, Syev(ctx, jobz, batchlas.Lower, a, w, testmat.NaNs[float64](size)), &ne)
			require.Equal(t, []int{4}, ne.Index)
			checkSolved(t, c.String(), p, a, w, []int{0, 1, 2, 3, 5, 6, 7})
		}
	}
}

// TestBroadcastValuesOnly: with ValuesOnly a is only read, so one matrix
// may serve the whole batch; every vector of w is then the same, bit for
// bit, and agrees with a call on the matrix alone. Not bit for bit with
// that call: a batch of 1 and one of 5 may decide the kernels syev's
// blocked path calls (gemm, trsm) differently, and two correct kernels
// round differently.
func TestBroadcastValuesOnly(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		p := newProblem[float64](testmat.Rand(8), ValuesOnly, batchlas.Lower, 20, 1, kindRandom, false)
		w := batchlas.NewVectors[float64](20, 5)
		require.NoError(t, Syev(pin(context.Background(), c), ValuesOnly, batchlas.Lower, batchlas.Broadcast(p.a, 5), w, nil), c.String())
		one, _ := p.clone()
		w1 := batchlas.NewVectors[float64](20, 1)
		require.NoError(t, Syev(pin(context.Background(), c), ValuesOnly, batchlas.Lower, one, w1, nil))
		for i := 0; i < 5; i++ {
			require.Equal(t, w.Vector(0), w.Vector(i), "%s: vector %d", c, i)
			for j, v := range w1.Vector(0) {
				require.InDelta(t, v, w.Vector(i)[j], 1e-12*20*5, "%s: vector %d, eigenvalue %d", c, i, j)
			}
		}
	}
}

// TestCanRunEqualsLaunch: the call succeeds exactly when can_run says so,
// BufferSize agrees, and a refusal is an error, never a panic.
func TestCanRunEqualsLaunch(t *testing.T) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range Op.Candidates(dt) {
			for _, n := range []int{1, 32, 33} {
				p := newProblem[float64](testmat.Rand(9), WithVectors, batchlas.Lower, n, 2, 0, false)
				ok := Op.CanRun(c, makeKey(WithVectors, batchlas.Lower, p.a), batchlas.Host())
				a, w := p.clone()
				err := Syev(pin(context.Background(), c), WithVectors, batchlas.Lower, a, w, nil)
				require.Equal(t, ok, err == nil, "%s n=%d: can_run %v, call %v", c, n, ok, err)
				_, err = BufferSize(pin(context.Background(), c), WithVectors, batchlas.Lower, p.a, p.w)
				require.Equal(t, ok, err == nil, "BufferSize %s n=%d: %v", c, n, err)
			}
		}
	}
	bare := *batchlas.Host()
	bare.Flags = nil
	for _, dev := range []*sel.Device{batchlas.Host(), &bare} {
		for _, c := range Op.Candidates(sel.Float64) {
			for _, n := range []int{6, 40} {
				p := newProblem[float64](testmat.Rand(10), WithVectors, batchlas.Lower, n, 2, 0, false)
				k := makeKey(WithVectors, batchlas.Lower, p.a)
				a, w := p.clone()
				err := launch(context.Background(), c, k, dev, WithVectors, batchlas.Lower, a, w, nil, make([]int32, 2))
				require.Equal(t, canRun(c, k, dev), err == nil, "%s n=%d flags=%v: %v", c, n, dev.Flags, err)
			}
		}
	}
}

// TestTwinIsBitIdentical: blocked on an order up to its nb runs tridiag's
// code, bit for bit, as OpSpec.Twin declares.
func TestTwinIsBitIdentical(t *testing.T) {
	for _, nb := range []int{16, 32} {
		c := blockedFamily.With(nb)
		for _, n := range []int{1, 7, nb} {
			for _, jobz := range jobs {
				p := newProblem[float64](testmat.Rand(11), jobz, batchlas.Upper, n, 4, 0, true)
				require.Equal(t, "tridiag", twin(c, sel.Float64, makeKey(jobz, batchlas.Upper, p.a), batchlas.Host()))
				a1, w1 := p.clone()
				a2, w2 := p.clone()
				require.NoError(t, Syev(pin(context.Background(), c), jobz, batchlas.Upper, a1, w1, nil))
				require.NoError(t, Syev(pin(context.Background(), tridiagFamily.With()), jobz, batchlas.Upper, a2, w2, nil))
				require.True(t, sameBits(a1.Data, a2.Data) && sameBits(w1.Data, w2.Data), "%s n=%d", c, n)
			}
		}
		require.Empty(t, twin(c, sel.Float64, makeKey(WithVectors, batchlas.Upper, batchlas.NewBatch[float64](nb+1, nb+1, 1)), batchlas.Host()))
	}
	// Above nb, the panel width is observed through the results: tridiag,
	// blocked:nb=16 and blocked:nb=32 reduce a matrix of order 40 in
	// different splits, so their rounding differs.
	p := newProblem[float64](testmat.Rand(18), WithVectors, batchlas.Lower, 40, 1, kindRandom, false)
	var got [][]float64
	for _, c := range []sel.Choice{tridiagFamily.With(), blockedFamily.With(16), blockedFamily.With(32)} {
		a, w := p.clone()
		require.NoError(t, Syev(pin(context.Background(), c), WithVectors, batchlas.Lower, a, w, nil))
		checkSolved(t, c.String(), p, a, w, nil)
		got = append(got, a.Data)
	}
	require.False(t, sameBits(got[0], got[1]), "blocked:nb=16 ran tridiag's code at n=40")
	require.False(t, sameBits(got[0], got[2]), "blocked:nb=32 ran tridiag's code at n=40")
	require.False(t, sameBits(got[1], got[2]), "blocked ran the same panels for nb=16 and nb=32")
}

// TestBadArguments: every argument error is an *ArgError naming syev and
// the argument, from Syev and BufferSize alike, and nothing is written;
// empty calls succeed without a decision.
func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewIdentity[float64](4, 3)
	w := batchlas.NewVectors[float64](4, 3)
	with := func(x batchlas.Batch[float64], f func(*batchlas.Batch[float64])) batchlas.Batch[float64] {
		f(&x)
		return x
	}
	withW := func(x batchlas.Vectors[float64], f func(*batchlas.Vectors[float64])) batchlas.Vectors[float64] {
		f(&x)
		return x
	}
	shared := batchlas.NewIdentity[float64](4, 3)
	overlapW := batchlas.Vectors[float64]{Data: shared.Data[24:], Len: 4, Stride: 4, Count: 2}
	cases := []struct {
		name string
		jobz Job
		uplo batchlas.Uplo
		a    batchlas.Batch[float64]
		w    batchlas.Vectors[float64]
		arg  string
	}{
		{"bad jobz", 'X', batchlas.Lower, a, w, "jobz"},
		{"bad uplo", WithVectors, 'X', a, w, "uplo"},
		{"a negative rows", WithVectors, batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Rows = -1 }), w, "a"},
		{"a not square", WithVectors, batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Cols = 3 }), w, "a"},
		{"a ld too small", ValuesOnly, batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.LD = 3 }), w, "a"},
		{"a short data", WithVectors, batchlas.Upper, with(a, func(x *batchlas.Batch[float64]) { x.Data = x.Data[:40] }), w, "a"},
		{"a broadcast and written", WithVectors, batchlas.Lower, batchlas.Broadcast(batchlas.NewIdentity[float64](4, 1), 3), w, "a"},
		{"a overlapping stride", WithVectors, batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Stride = 8 }), w, "a"},
		{"a stride 0 literal", ValuesOnly, batchlas.Lower, with(a, func(x *batchlas.Batch[float64]) { x.Stride = 0 }), w, "a"},
		{"w count differs", WithVectors, batchlas.Lower, a, batchlas.NewVectors[float64](4, 2), "w"},
		{"w too short a vector", WithVectors, batchlas.Lower, a, batchlas.NewVectors[float64](3, 3), "w"},
		{"w broadcast", ValuesOnly, batchlas.Lower, a, batchlas.BroadcastVectors(batchlas.NewVectors[float64](4, 1), 3), "w"},
		{"w short data", WithVectors, batchlas.Lower, a, withW(w, func(x *batchlas.Vectors[float64]) { x.Data = x.Data[:10] }), "w"},
		{"w overlapping stride", WithVectors, batchlas.Lower, a, withW(w, func(x *batchlas.Vectors[float64]) { x.Stride = 2 }), "w"},
		{"w shares a's elements", ValuesOnly, batchlas.Lower, with(shared, func(x *batchlas.Batch[float64]) { x.Count = 2 }), overlapW, "w"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ae *batchlas.ArgError
			beforeA := append([]float64(nil), tc.a.Data...)
			beforeW := append([]float64(nil), tc.w.Data...)
			err := Syev(ctx, tc.jobz, tc.uplo, tc.a, tc.w, nil)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, opName, ae.Op)
			require.Equal(t, tc.arg, ae.Arg, err.Error())
			require.Contains(t, err.Error(), "syev: ")
			require.True(t, sameBits(beforeA, tc.a.Data), "a refused call wrote a")
			require.True(t, sameBits(beforeW, tc.w.Data), "a refused call wrote w")
			_, err = BufferSize(ctx, tc.jobz, tc.uplo, tc.a, tc.w)
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.arg, ae.Arg)
		})
	}
	// A workspace that shares an element with a or w.
	for _, name := range []string{"a", "w"} {
		ctxT := pin(ctx, tridiagFamily.With())
		p := newProblem[float64](testmat.Rand(12), WithVectors, batchlas.Lower, 6, 2, 0, false)
		need, err := BufferSize(ctxT, WithVectors, batchlas.Lower, p.a, p.w)
		require.NoError(t, err)
		require.Positive(t, need)
		aa, ww := p.clone()
		var opData []float64
		if name == "a" {
			opData = aa.Data
		} else {
			opData = ww.Data
		}
		ws := append(make([]float64, need-1), opData...) // ws's last element is the operand's first
		if name == "a" {
			aa.Data = ws[need-1:]
		} else {
			ww.Data = ws[need-1:]
		}
		beforeA, beforeW := append([]float64(nil), aa.Data...), append([]float64(nil), ww.Data...)
		err = Syev(ctxT, WithVectors, batchlas.Lower, aa, ww, ws[:need])
		var ae *batchlas.ArgError
		require.ErrorAs(t, err, &ae, "ws over %s", name)
		require.Equal(t, "ws", ae.Arg)
		require.Contains(t, ae.Msg, "ws and "+name+" share elements")
		require.True(t, sameBits(beforeA, aa.Data), "nothing is written")
		require.True(t, sameBits(beforeW, ww.Data), "nothing is written")
	}
	// Nothing to do: no matrix, or order 0.
	for _, e := range []struct {
		a batchlas.Batch[float64]
		w batchlas.Vectors[float64]
	}{
		{batchlas.NewIdentity[float64](4, 0), batchlas.NewVectors[float64](4, 0)},
		{batchlas.NewBatch[float64](0, 0, 5), batchlas.NewVectors[float64](0, 5)},
	} {
		require.NoError(t, Syev(ctx, WithVectors, batchlas.Lower, e.a, e.w, nil))
		size, err := BufferSize(ctx, ValuesOnly, batchlas.Upper, e.a, e.w)
		require.NoError(t, err)
		require.Zero(t, size)
	}
	// A pin that does not parse or names no candidate is an error.
	p := newProblem[float64](testmat.Rand(13), WithVectors, batchlas.Lower, 4, 2, 0, false)
	for _, pn := range []string{"tridiag:3", "nosuch", "blocked"} {
		a, w := p.clone()
		err := Syev(sel.WithStrictPin(ctx, opName, pn), WithVectors, batchlas.Lower, a, w, nil)
		require.Error(t, err, pn)
		require.True(t, sameBits(p.w.Data, w.Data), "%s: a refused call wrote w", pn)
		require.Equal(t, -1, testmat.SameMatrices(a, p.a, 0, 2), "%s: a refused call wrote a", pn)
	}
	require.Equal(t, "N", ValuesOnly.String())
	require.Equal(t, "V", WithVectors.String())
	require.Contains(t, Job('X').String(), "X")
}

// TestConcurrentCalls runs many goroutines, each solving its own batch
// through a different candidate, jobz and uplo at once, some with failing
// matrices.
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
			uplo := uplos[g%2]
			jobz := jobs[(g/2)%2]
			n := []int{3, 9, 16, 20}[g%4]
			if g%7 == 0 {
				n = 40 // blocked's batch-wide path
			}
			ctx := pin(context.Background(), c)
			if g%5 == 0 || !runs(c, jobz, uplo, n, 60) {
				ctx = context.Background() // automatic selection
			}
			p := newProblem[float64](r, jobz, uplo, n, 60, g, g%2 == 0)
			p.a.Set(7, 0, 0, math.NaN())
			a, w := p.clone()
			err := Syev(ctx, jobz, uplo, a, w, nil)
			var ne *batchlas.NumericalError
			if !errors.As(err, &ne) || len(ne.Index) != 1 || ne.Index[0] != 7 {
				errs <- fmt.Errorf("goroutine %d (%s n=%d): %v, want matrix 7 reported", g, c, n, err)
				return
			}
			for i := 0; i < a.Count; i += 5 {
				if i == 7 {
					continue
				}
				if msg := solvedMessage(p, a, w, i); msg != "" {
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

// TestNilContext: a nil context is context.Background() for Syev and
// BufferSize: no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	for _, uplo := range uplos {
		p := newProblem[float64](testmat.Rand(14), WithVectors, uplo, 20, 3, 0, false)
		wa, ww := p.clone()
		require.NoError(t, Syev(context.Background(), WithVectors, uplo, wa, ww, nil))
		n, err := BufferSize(nilCtx, WithVectors, uplo, p.a, p.w)
		require.NoError(t, err)
		a, w := p.clone()
		require.NoError(t, Syev(nilCtx, WithVectors, uplo, a, w, make([]float64, n)))
		require.Equal(t, -1, testmat.SameMatrices(a, wa, 0, 3))
		require.True(t, sameBits(w.Data, ww.Data))
	}
}

// TestNoKernelIgnoresPin: a call with nothing to do makes no decision, so
// a bad pin (environment or scoped) is not read and the call succeeds; a
// call that computes something under the same pin fails with a
// *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	check := func(t *testing.T, ctx context.Context) {
		p := newProblem[float64](testmat.Rand(15), WithVectors, batchlas.Lower, 5, 2, 0, false)
		var pe *sel.PinError
		a, w := p.clone()
		require.ErrorAs(t, Syev(ctx, WithVectors, batchlas.Lower, a, w, nil), &pe)
		_, err := BufferSize(ctx, ValuesOnly, batchlas.Lower, p.a, p.w)
		require.ErrorAs(t, err, &pe)
		require.NoError(t, Syev(ctx, ValuesOnly, batchlas.Upper, batchlas.NewIdentity[float64](0, 2), batchlas.NewVectors[float64](0, 2), nil))
		n, err := BufferSize(ctx, WithVectors, batchlas.Upper, batchlas.NewIdentity[float64](5, 0), batchlas.NewVectors[float64](5, 0))
		require.NoError(t, err)
		require.Zero(t, n)
	}
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_SYEV_ROUTE", "nonsense")
		sel.Reload()
		check(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) { check(t, sel.WithPin(context.Background(), opName, "nonsense")) })
}

// TestLastResort: without a table for syev the last-resort order decides:
// tridiag, which runs every order.
func TestLastResort(t *testing.T) {
	for _, n := range []int{1, 40, 300} {
		a := batchlas.NewBatch[float64](n, n, 2)
		c, err := Op.Pick(context.Background(), sel.Float64, makeKey(WithVectors, batchlas.Lower, a), batchlas.Host())
		require.NoError(t, err)
		if tabs, _ := Op.Tables(sel.Float64, batchlas.Host()); len(tabs) == 0 {
			require.Equal(t, "tridiag", c.String(), "n=%d", n)
		}
	}
}

// TestDecoupledTinyBlock: a matrix with a decoupled block 2^-700 times
// smaller than the rest (so the QL/QR of each tridiagonal block scales the
// tiny one) gives every candidate the eigenvalues of both blocks to
// within the rounding of the matrix's scale, for both jobz. (gonum's
// Dsterf, beneath the vendor kernel's ValuesOnly, panics on the length
// of such a block's scaling unless given the long slices vendor.go hands
// it.)
func TestDecoupledTinyBlock(t *testing.T) {
	const n, tiny = 8, 0x1p-700
	r := testmat.Rand(16)
	for _, c := range Op.Candidates(sel.Float64) {
		for _, jobz := range jobs {
			if !runs(c, jobz, batchlas.Lower, n, 1) {
				continue
			}
			p := newProblem[float64](r, jobz, batchlas.Lower, n, 1, kindRandom, false)
			for col := 0; col < n; col++ {
				for row := col; row < n; row++ {
					v := p.full.At(0, row, col)
					switch {
					case col < 4 && row >= 4:
						v = 0
					case col >= 4:
						v *= tiny
					}
					p.full.Set(0, row, col, v)
					p.full.Set(0, col, row, v)
					p.a.Set(0, row, col, v)
				}
			}
			a, w := p.clone()
			require.NoError(t, Syev(pin(context.Background(), c), jobz, batchlas.Lower, a, w, nil))
			checkSolved(t, fmt.Sprintf("%s jobz=%v", c, jobz), p, a, w, nil)
		}
	}
}

// TestValuesOnlyMatchesWithVectors: for every candidate, the eigenvalues
// of a call without vectors agree with those of a call with them.
func TestValuesOnlyMatchesWithVectors(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		for _, n := range []int{5, 30, 45} {
			if !runs(c, ValuesOnly, batchlas.Upper, n, 3) || !runs(c, WithVectors, batchlas.Upper, n, 3) {
				continue
			}
			pn := newProblem[float64](testmat.Rand(17), ValuesOnly, batchlas.Upper, n, 3, 0, false)
			pv := pn
			pv.jobz = WithVectors
			an, wn := pn.clone()
			av, wv := pv.clone()
			require.NoError(t, Syev(pin(context.Background(), c), ValuesOnly, batchlas.Upper, an, wn, nil))
			require.NoError(t, Syev(pin(context.Background(), c), WithVectors, batchlas.Upper, av, wv, nil))
			for i := 0; i < 3; i++ {
				for j := 0; j < n; j++ {
					require.InDelta(t, wv.At(i, j), wn.At(i, j), 64*float64(n)*testmat.Eps[float64]()*float64(n), "%s n=%d", c, n)
				}
			}
		}
	}
}
