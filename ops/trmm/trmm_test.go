package trmm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for trmm.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "trmm", c.String())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(c), c) })
		}
	}
}

// runs reports whether candidate c can run trmm cf on operands a and b
// (its can_run on their key): swapped runs side Left only.
func runs[T batchlas.Float](c sel.Choice, cf call, a, b batchlas.Batch[T]) bool {
	p, err := check(cf.side, cf.uplo, cf.ta, cf.diag, a, b)
	return err == nil && canRun(c, p.key(), batchlas.Host())
}

// padded is a batch of count rows x cols matrices with ld = rows+3 and
// stride = ld*cols+5, every element outside the matrices NaN.
func padded[T batchlas.Float](rows, cols, count int) batchlas.Batch[T] {
	ld := rows + 3
	stride := ld*max(1, cols) + 5
	b, err := batchlas.WrapStrided(testmat.NaNs[T](stride*count), rows, cols, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return b
}

// call is one configuration of trmm.
type call struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
}

func (c call) String() string {
	return fmt.Sprintf("side=%s uplo=%s ta=%s diag=%s", c.side, c.uplo, c.ta, c.diag)
}

// calls is every configuration.
func calls() []call {
	var cs []call
	for _, s := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		for _, u := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, ta := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
				for _, d := range []batchlas.Diag{batchlas.NonUnit, batchlas.Unit} {
					cs = append(cs, call{s, u, ta, d})
				}
			}
		}
	}
	return cs
}

// triangle is a random t x t triangle for cf (count of them, padded):
// the other triangle NaN, and the diagonal NaN for a unit one, so that a
// kernel reading them shows.
func triangle[T batchlas.Float](r *rand.Rand, cf call, t, count int) batchlas.Batch[T] {
	a := padded[T](t, t, count)
	for i := range count {
		for c := range t {
			for row := range t {
				x := T(r.NormFloat64())
				inside := row == c || (row > c) == (cf.uplo == batchlas.Lower)
				if !inside || (row == c && cf.diag == batchlas.Unit) {
					x = T(math.NaN())
				}
				a.Set(i, row, c, x)
			}
		}
	}
	return a
}

// opAt is op(A_i)(row, col) as the triangle means it, in float64.
func opAt[T batchlas.Float](cf call, a batchlas.Batch[T], i, row, col int) float64 {
	if cf.ta == batchlas.Trans {
		row, col = col, row
	}
	switch {
	case row == col && cf.diag == batchlas.Unit:
		return 1
	case row != col && (row > col) != (cf.uplo == batchlas.Lower):
		return 0
	}
	return float64(a.At(i, row, col))
}

// sizes straddle the tile kernel's block (32) and the vector widths.
var sizes = []int{1, 2, 3, 8, 15, 16, 17, 31, 32, 33, 64, 70}

// TestAgainstReference runs every candidate on every side, triangle,
// transpose and diagonal at sizes on both sides of the block, against a
// float64 reference within (t+2) eps of the product of magnitudes; the
// padding untouched.
func TestAgainstReference(t *testing.T) {
	forEachCandidate(t, againstReference[float32], againstReference[float64])
}

func againstReference[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	for ci, cf := range calls() {
		for si, m := range sizes {
			n := sizes[(si*7+ci)%len(sizes)]
			tt := m
			if cf.side == batchlas.Right {
				tt = n
			}
			alpha := [...]float64{1, -1.5}[si%2]
			a := triangle[T](r, cf, tt, 2)
			b0 := padded[T](m, n, 2)
			for i := range 2 {
				for col := range n {
					for row := range m {
						b0.Set(i, row, col, T(r.NormFloat64()))
					}
				}
			}
			if !runs(c, cf, a, b0) {
				continue
			}
			b := testmat.Clone(b0)
			what := fmt.Sprintf("%s %s m=%d n=%d alpha=%v", c, cf, m, n, alpha)
			require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, T(alpha), a, b, nil), what)
			requireProduct(t, what, cf, alpha, a, b0, b)
		}
	}
}

// requireProduct checks b = alpha*op(A)*b0 (Left) or alpha*b0*op(A)
// (Right) against a float64 reference within (t+2) eps of the product of
// magnitudes, and b's padding untouched.
func requireProduct[T batchlas.Float](t *testing.T, what string, cf call, alpha float64, a, b0, b batchlas.Batch[T]) {
	t.Helper()
	eps := 0x1p-52
	if _, ok := any(T(0)).(float32); ok {
		eps = 0x1p-23
	}
	m, n, tt := b.Rows, b.Cols, b.Rows
	if cf.side == batchlas.Right {
		tt = n
	}
	require.True(t, testmat.Untouched(b, b.Data, b0.Data), "%s: padding written", what)
	for i := range b.Count {
		for col := range n {
			for row := range m {
				var want, bound float64
				for l := range tt {
					var p float64
					if cf.side == batchlas.Left {
						p = opAt(cf, a, i, row, l) * float64(b0.At(i, l, col))
					} else {
						p = float64(b0.At(i, row, l)) * opAt(cf, a, i, l, col)
					}
					want += p
					bound += math.Abs(p)
				}
				want *= alpha
				bound *= math.Abs(alpha)
				got := float64(b.At(i, row, col))
				require.LessOrEqual(t, math.Abs(got-want), 2*float64(tt+2)*eps*bound+1e-300, "%s: B_%d(%d,%d) = %v, want %v", what, i, row, col, got, want)
			}
		}
	}
}

// TestGemmPassesAndTileGroups: on a device whose L2 holds a few matrices
// the gemm family computes the batch in passes of uneven sizes
// (gemmPasses), each with its own gemm call, and the tile kernel a small
// triangle's batch in groups (tileGroups) that do not divide a worker's
// share; every matrix, with A per matrix or broadcast, is the product,
// for every configuration.
func TestGemmPassesAndTileGroups(t *testing.T) {
	dev := *batchlas.Host()
	dev.L2 = 4 << 10
	r := rand.New(rand.NewPCG(17, 18))
	const count = 23
	for _, c := range []sel.Choice{viaGemm.With(), tile.With(), swapped.With()} {
		ctx := batchlas.WithDevice(pin(c), &dev)
		for _, cf := range calls() {
			m, n := 5, 7
			switch c.Family() {
			case tile:
				m, n = 3, 4 // tileGroup's quarter of 4 KiB: 9 to 16 matrices
			case swapped:
				m, n = 3, 3 // swappedGroup's quarter of 4 KiB: 8 to 27 matrices
				if cf.side == batchlas.Right {
					continue // side Left only
				}
			}
			tt := m
			if cf.side == batchlas.Right {
				tt = n
			}
			for _, bcast := range []bool{false, true} {
				a := triangle[float64](r, cf, tt, count)
				if bcast {
					a = batchlas.Broadcast(triangle[float64](r, cf, tt, 1), count)
				}
				b0 := padded[float64](m, n, count)
				for i := range count {
					for col := range n {
						for row := range m {
							b0.Set(i, row, col, r.NormFloat64())
						}
					}
				}
				p, err := check(cf.side, cf.uplo, cf.ta, cf.diag, a, b0)
				require.NoError(t, err)
				what := fmt.Sprintf("%s %s broadcast=%v", c, cf, bcast)
				switch c.Family() {
				case swapped:
					group := swappedGroup(&p, &dev)
					require.Greater(t, group, 1, "%s: groups of several matrices", what)
					require.Less(t, group, count/2, "%s: several groups on each worker", what)
				case tile:
					group := tileGroup(&p, &dev)
					require.Greater(t, group, 1, "%s: groups of several matrices", what)
					require.Less(t, group, count/2, "%s: several groups on each worker", what)
				default:
					passes, most := gemmPasses(&p, &dev)
					require.Greater(t, passes, 2, "%s: the device's L2 should take several passes", what)
					require.NotZero(t, count%passes, "%s: the passes should be of two sizes", what)
					require.Less(t, most, count)
				}
				b := testmat.Clone(b0)
				require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, -2, a, b, nil), what)
				requireProduct(t, what, cf, -2, a, b0, b)
			}
		}
	}
}

// TestAlphaZero: alpha = 0 sets B to zero without reading A or B (NaN in
// both) and makes no decision.
func TestAlphaZero(t *testing.T) {
	a, b := padded[float64](4, 4, 2), padded[float64](4, 3, 2)
	for i := range 2 {
		for c := range 3 {
			for row := range 4 {
				b.Set(i, row, c, math.NaN())
			}
		}
	}
	nopin := sel.WithPin(context.Background(), "trmm", "nosuch")
	require.NoError(t, Trmm(nopin, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 0, a, b, nil))
	for i := range 2 {
		for c := range 3 {
			for row := range 4 {
				require.Equal(t, 0.0, b.At(i, row, c))
			}
		}
	}
}

// TestArguments: every refusal names trmm and the argument.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "trmm", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	a, b := batchlas.NewBatch[float64](5, 5, 3), batchlas.NewBatch[float64](5, 2, 3)
	L, N := batchlas.Lower, batchlas.NoTrans
	argErr(Trmm(ctx, batchlas.Right, L, N, batchlas.NonUnit, 1, a, b, nil), "a")
	argErr(Trmm(ctx, batchlas.Left, L, N, batchlas.NonUnit, 1, batchlas.NewBatch[float64](5, 4, 3), b, nil), "a")
	argErr(Trmm(ctx, batchlas.Left, L, N, batchlas.NonUnit, 1, batchlas.NewBatch[float64](5, 5, 2), b, nil), "a")
	argErr(Trmm(ctx, batchlas.Left, L, N, batchlas.NonUnit, 1, a, batchlas.Broadcast(batchlas.NewBatch[float64](5, 2, 1), 3), nil), "b")
	argErr(Trmm(ctx, batchlas.Side('X'), L, N, batchlas.NonUnit, 1, a, b, nil), "side")
	argErr(Trmm(ctx, batchlas.Left, batchlas.Uplo('X'), N, batchlas.NonUnit, 1, a, b, nil), "uplo")
	argErr(Trmm(ctx, batchlas.Left, L, batchlas.Transpose('X'), batchlas.NonUnit, 1, a, b, nil), "ta")
	argErr(Trmm(ctx, batchlas.Left, L, N, batchlas.Diag('X'), 1, a, b, nil), "diag")
	argErr(Trmm(ctx, batchlas.Left, L, N, batchlas.NonUnit, 1, a, a, nil), "b")
	for _, cand := range Op.Candidates(sel.Float64) {
		size, err := BufferSize(pin(cand), batchlas.Left, L, N, batchlas.NonUnit, a, b)
		require.NoError(t, err)
		if size > 0 {
			argErr(Trmm(pin(cand), batchlas.Left, L, N, batchlas.NonUnit, 1, a, b, make([]float64, size-1)), "ws")
		}
	}
	nopin := sel.WithPin(ctx, "trmm", "nosuch")
	require.NoError(t, Trmm(nopin, batchlas.Left, L, N, batchlas.NonUnit, 1, batchlas.NewBatch[float64](5, 5, 0), batchlas.NewBatch[float64](5, 2, 0), nil))
	require.NoError(t, Trmm(nopin, batchlas.Left, L, N, batchlas.NonUnit, 1, batchlas.NewBatch[float64](5, 5, 3), batchlas.NewBatch[float64](5, 0, 3), nil))
	require.Error(t, Trmm(nopin, batchlas.Left, L, N, batchlas.NonUnit, 1, a, b, nil))
}

// TestBroadcast: one A for every B_i gives what A on each alone gives.
func TestBroadcast(t *testing.T) {
	forEachCandidate(t, broadcast[float32], broadcast[float64])
}

func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	cf := call{batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.NonUnit}
	m, n := 9, 40
	if !runs(c, cf, triangle[T](r, cf, n, 1), padded[T](m, n, 1)) {
		cf.side, m, n = batchlas.Left, 40, 9
	}
	a := triangle[T](r, cf, 40, 1)
	b := padded[T](m, n, 4)
	for i := range b.Data {
		b.Data[i] = T(r.NormFloat64())
	}
	each := testmat.Clone(b)
	require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, batchlas.Broadcast(a, 4), b, nil))
	for i := range 4 {
		one, err := batchlas.WrapStrided(each.Data[i*each.Stride:(i+1)*each.Stride], m, n, each.LD, each.Stride, 1)
		require.NoError(t, err)
		require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, a, one, nil))
	}
	require.Equal(t, -1, testmat.SameMatrices(b, each, 0, 4), "%s", c)
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(7, 8))
	cf := call{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit}
	// Order 37: several blocks, one matrix at a time; order 5 with 2000
	// matrices: tile's groups, cut differently by one worker and two.
	for _, s := range []struct{ t, count int }{{37, 30}, {5, 2000}} {
		a := triangle[T](r, cf, s.t, s.count)
		b := padded[T](s.t, 11, s.count)
		for i := range b.Data {
			b.Data[i] = T(r.NormFloat64())
		}
		one, all := testmat.Clone(b), testmat.Clone(b)
		require.NoError(t, Trmm(batchlas.WithParallelism(ctx, 1), cf.side, cf.uplo, cf.ta, cf.diag, 2, a, one, nil))
		require.NoError(t, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 2, a, all, nil))
		require.Equal(t, -1, testmat.SameMatrices(one, all, 0, b.Count), "%s t=%d", c, s.t)
	}
}

// TestNoAllocationsWithWorkspace: with the BufferSize workspace every
// candidate's call allocates nothing, on one worker and on all.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{1, 0} {
		ctx := ctx
		if w > 0 {
			ctx = batchlas.WithParallelism(ctx, w)
		}
		for _, n := range []int{1, 9, 33} {
			cf := call{batchlas.Left, batchlas.Upper, batchlas.NoTrans, batchlas.NonUnit}
			a := triangle[T](r, cf, n, 16)
			b := padded[T](n, 5, 16)
			for i := range b.Data {
				b.Data[i] = 1
			}
			size, err := BufferSize(ctx, cf.side, cf.uplo, cf.ta, cf.diag, a, b)
			require.NoError(t, err)
			ws := make([]T, size)
			testmat.NoAllocs(t, fmt.Sprintf("%s n=%d workers=%d", c, n, w), func() {
				if err := Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, a, b, ws); err != nil {
					panic(err)
				}
			})
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: the
// completed matrices are bit for bit an uninterrupted call's, every later
// one untouched (Touched == Completed).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(11, 12))
	const count = 300
	cf := call{batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	m, n := 4, 6
	if !runs(c, cf, triangle[T](r, cf, n, 1), padded[T](m, n, 1)) {
		cf.side, m, n = batchlas.Left, 6, 4
	}
	a := triangle[T](r, cf, 6, count)
	b0 := padded[T](m, n, count)
	for i := range b0.Data {
		b0.Data[i] = T(r.NormFloat64())
	}
	testmat.InterruptEverywhere(t, c.String(), "trmm", b0, ctx, func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(b0)
		return x, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, a, x, nil)
	})
}

// TestGemmInterruptedWhileCopying: the gemm family copies each pass of the
// batch (gemmPasses) before its gemm call writes B. A batch whose passes
// take several copy chunks each is stopped at every check: a stop while a
// pass copies reports the passes before it completed and nothing of that
// pass touched (B is only read there), never the chunks the copying had
// done. On the host (1 MiB of L2) the batch takes 3 or 4 passes, on the
// small-L2 device 24 to 31.
func TestGemmInterruptedWhileCopying(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const count = 6000 // matrices of 4 x 6
	small := *batchlas.Host()
	small.L2 = 128 << 10 // passes of about 200 matrices
	for _, cf := range []call{{batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}, {batchlas.Left, batchlas.Upper, batchlas.Trans, batchlas.Unit}} {
		for _, dev := range []*sel.Device{batchlas.Host(), &small} {
			t.Run(fmt.Sprintf("%s l2=%d", cf, dev.L2), func(t *testing.T) {
				tr := 6
				if cf.side == batchlas.Left {
					tr = 4
				}
				a := triangle[float64](r, cf, tr, count)
				b0 := padded[float64](4, 6, count)
				for i := range b0.Data {
					b0.Data[i] = r.NormFloat64()
				}
				ctx := batchlas.WithDevice(pin(viaGemm.With()), dev)
				testmat.InterruptEverywhere(t, "gemm", "trmm", b0, ctx, func(ctx context.Context) (batchlas.Batch[float64], error) {
					x := testmat.Clone(b0)
					return x, Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, a, x, nil)
				})
			})
		}
	}
}

// TestWorkspaceSharingAnOperand: a workspace that shares elements with a
// or b is refused by every candidate that uses one, with trmm's error
// (gemm asks the gemm op its size through views of the workspace: the
// refusal must be trmm's, not the nested op's).
func TestWorkspaceSharingAnOperand(t *testing.T) {
	cf := call{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	for _, c := range Op.Candidates(sel.Float64) {
		ctx := pin(c)
		for _, shared := range []string{"a", "b"} {
			r := rand.New(rand.NewPCG(15, 16))
			a := triangle[float64](r, cf, 5, 40)
			b := padded[float64](5, 7, 40)
			size, err := BufferSize(ctx, cf.side, cf.uplo, cf.ta, cf.diag, a, b)
			require.NoError(t, err)
			if size == 0 {
				continue
			}
			// The operand at the start of a buffer that is the workspace.
			op := &b
			if shared == "a" {
				op = &a
			}
			buf := make([]float64, len(op.Data)+size)
			copy(buf, op.Data)
			op.Data = buf[:len(op.Data)]
			err = Trmm(ctx, cf.side, cf.uplo, cf.ta, cf.diag, 1, a, b, buf)
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae, "%s: ws sharing %s", c, shared)
			require.Equal(t, "trmm", ae.Op, "%s: ws sharing %s: %v", c, shared, err)
			require.Equal(t, "ws", ae.Arg, "%s: ws sharing %s: %v", c, shared, err)
		}
	}
}
