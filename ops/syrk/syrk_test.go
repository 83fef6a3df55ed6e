package syrk

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for syrk.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "syrk", c.String())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list), and the tile family on
// each code path this machine has (simdpath: the triangle kernel's
// AVX-512 and AVX2 assembly, the tiles' Go twin).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			if c.Family() != tile {
				t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(c), c) })
				continue
			}
			for _, path := range simdpath.Paths() {
				t.Run(string(dt)+"/"+c.String()+"/"+path, func(t *testing.T) {
					defer simdpath.Use(path)()
					f(t, pin(c), c)
				})
			}
		}
	}
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

// random fills the matrices of b with standard normal entries.
func random[T batchlas.Float](r *rand.Rand, b batchlas.Batch[T]) {
	for i := range b.Count {
		for c := range b.Cols {
			for row := range b.Rows {
				b.Set(i, row, c, T(r.NormFloat64()))
			}
		}
	}
}

// sizes straddle the tile kernel's block (32 columns) and the vector
// widths.
var sizes = []int{1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 100}

func inTriangle(lower bool, row, col int) bool {
	if lower {
		return row >= col
	}
	return row <= col
}

// operands is A (op(A) n x k) and C (n x n, its other triangle NaN) for
// count matrices.
func operands[T batchlas.Float](r *rand.Rand, trans bool, n, k, count int) (a, c batchlas.Batch[T]) {
	rows, cols := n, k
	if trans {
		rows, cols = k, n
	}
	a = padded[T](rows, cols, count)
	random(r, a)
	c = padded[T](n, n, count)
	random(r, c)
	return a, c
}

// reference is alpha*op(A_i)*op(A_i)^T + beta*C_i (element row, col), in
// float64, and the bound of its rounding: |alpha| |op(A)| |op(A)|^T +
// |beta| |C|.
func reference[T batchlas.Float](trans bool, alpha, beta float64, a, c batchlas.Batch[T], i, row, col int) (want, bound float64) {
	k := a.Cols
	if trans {
		k = a.Rows
	}
	at := func(r, l int) float64 {
		if trans {
			return float64(a.At(i, l, r))
		}
		return float64(a.At(i, r, l))
	}
	var s, sa float64
	for l := range k {
		s += at(row, l) * at(col, l)
		sa += math.Abs(at(row, l) * at(col, l))
	}
	want, bound = alpha*s, math.Abs(alpha)*sa
	if beta != 0 {
		x := float64(c.At(i, row, col))
		want += beta * x
		bound += math.Abs(beta * x)
	}
	return want, bound
}

// TestAgainstReference runs every candidate on every uplo, trans and
// size pair against a float64 reference: the uplo triangle within
// (k+2) eps of the bound, the other triangle and the padding untouched;
// float64 matches gonum's Dsyrk too.
func TestAgainstReference(t *testing.T) {
	forEachCandidate(t, againstReference[float32], againstReference[float64])
}

func againstReference[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	eps := 0x1p-52
	if _, ok := any(T(0)).(float32); ok {
		eps = 0x1p-23
	}
	for _, lower := range []bool{true, false} {
		for _, trans := range []bool{false, true} {
			for ni, n := range sizes {
				k := sizes[(ni*5+3)%len(sizes)]
				alpha, beta := 1.5, [...]float64{0, 1, -0.5}[ni%3]
				a, c0 := operands[T](r, trans, n, k, 3)
				// The other triangle is NaN: never read, never written.
				for i := range c0.Count {
					for col := range n {
						for row := range n {
							if !inTriangle(lower, row, col) {
								c0.Set(i, row, col, T(math.NaN()))
							}
						}
					}
				}
				cc := testmat.Clone(c0)
				uplo, tr := batchlas.Upper, batchlas.NoTrans
				if lower {
					uplo = batchlas.Lower
				}
				if trans {
					tr = batchlas.Trans
				}
				what := fmt.Sprintf("%s uplo=%s trans=%s n=%d k=%d beta=%v", c, uplo, tr, n, k, beta)
				require.NoError(t, Syrk(ctx, uplo, tr, T(alpha), a, T(beta), cc, nil), what)
				require.True(t, testmat.Untouched(cc, cc.Data, c0.Data), "%s: padding written", what)
				for i := range cc.Count {
					for col := range n {
						for row := range n {
							if !inTriangle(lower, row, col) {
								require.True(t, math.IsNaN(float64(cc.At(i, row, col))), "%s: C_%d(%d,%d) outside the triangle written", what, i, row, col)
								continue
							}
							want, bound := reference(trans, alpha, beta, a, c0, i, row, col)
							got := float64(cc.At(i, row, col))
							require.LessOrEqual(t, math.Abs(got-want), 2*float64(k+2)*eps*bound+1e-300, "%s: C_%d(%d,%d) = %v, want %v", what, i, row, col, got, want)
						}
					}
				}
				if _, ok := any(T(0)).(float64); ok && beta != 0 {
					// gonum's Dsyrk on the same operands (row-major: the
					// triangle and the transpose flipped).
					for i := range cc.Count {
						g := testmat.Clone(c0)
						ul, tA := blas.Upper, blas.Trans
						if !lower {
							ul = blas.Lower
						}
						if trans {
							tA = blas.NoTrans
						}
						ad, gd := any(a.Data).([]float64), any(g.Data).([]float64)
						gonum.Implementation{}.Dsyrk(ul, tA, n, k, alpha, ad[i*a.Stride:], a.LD, beta, gd[i*g.Stride:], g.LD)
						for col := range n {
							for row := range n {
								if inTriangle(lower, row, col) {
									_, bound := reference(trans, alpha, beta, a, c0, i, row, col)
									require.InDelta(t, g.At(i, row, col), cc.At(i, row, col), 4*float64(k+2)*eps*bound+1e-300, "%s: C_%d(%d,%d) against gonum", what, i, row, col)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestScaleOnly: alpha = 0 or k = 0 reads no A (NaN there is harmless)
// and sets the triangle to beta*C (zero for beta = 0, even over NaN);
// beta = 0 with alpha != 0 does not read C.
func TestScaleOnly(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	for _, beta := range []float64{0, 1, 2} {
		a, c := operands[float64](r, false, 5, 3, 2)
		for i := range a.Data {
			a.Data[i] = math.NaN()
		}
		c.Set(1, 4, 0, math.NaN())
		c0 := testmat.Clone(c)
		require.NoError(t, Syrk(sel.WithPin(ctx, "syrk", "nosuch"), batchlas.Lower, batchlas.NoTrans, 0, a, beta, c, nil), "alpha 0 makes no decision")
		for i := range c.Count {
			for col := range 5 {
				for row := range 5 {
					got, was := c.At(i, row, col), c0.At(i, row, col)
					switch {
					case row < col:
						require.True(t, math.IsNaN(got) == math.IsNaN(was) && (math.IsNaN(got) || got == was), "upper triangle written")
					case beta == 0:
						require.Equal(t, 0.0, got)
					case beta == 1:
						require.True(t, got == was || (math.IsNaN(got) && math.IsNaN(was)))
					default:
						require.True(t, got == beta*was || (math.IsNaN(got) && math.IsNaN(was)))
					}
				}
			}
		}
	}
	// k = 0.
	a, c := batchlas.NewBatch[float64](4, 0, 2), batchlas.NewBatch[float64](4, 4, 2)
	for i := range c.Data {
		c.Data[i] = 3
	}
	require.NoError(t, Syrk(ctx, batchlas.Upper, batchlas.NoTrans, 1, a, 2, c, nil))
	require.Equal(t, 6.0, c.At(1, 0, 3))
	require.Equal(t, 3.0, c.At(1, 3, 0))
	// beta = 0 with NaN in C: not read, whatever the triangle and the
	// transpose (gonum's Dsyrk reads it in one of its four branches).
	for _, cand := range Op.Candidates(sel.Float64) {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, tr := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
				a, c := operands[float64](r, tr == batchlas.Trans, 9, 4, 2)
				for i := range c.Data {
					c.Data[i] = math.NaN()
				}
				require.NoError(t, Syrk(pin(cand), uplo, tr, 1, a, 0, c, nil))
				for i := range c.Count {
					for col := range 9 {
						for row := range 9 {
							if inTriangle(uplo == batchlas.Lower, row, col) {
								require.False(t, math.IsNaN(c.At(i, row, col)), "%s uplo=%s trans=%s: beta 0 read C(%d,%d)", cand, uplo, tr, row, col)
							}
						}
					}
				}
			}
		}
	}
}

// TestArguments: every refusal names syrk and the argument.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "syrk", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	a, c := batchlas.NewBatch[float64](5, 3, 4), batchlas.NewBatch[float64](5, 5, 4)
	argErr(Syrk(ctx, batchlas.Lower, batchlas.Trans, 1, a, 0, c, nil), "a")
	argErr(Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 0, batchlas.NewBatch[float64](5, 4, 4), nil), "c")
	argErr(Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, batchlas.NewBatch[float64](5, 3, 3), 0, c, nil), "a")
	argErr(Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 0, batchlas.Broadcast(batchlas.NewBatch[float64](5, 5, 1), 4), nil), "c")
	argErr(Syrk(ctx, batchlas.Uplo('X'), batchlas.NoTrans, 1, a, 0, c, nil), "uplo")
	argErr(Syrk(ctx, batchlas.Lower, batchlas.Transpose('X'), 1, a, 0, c, nil), "trans")
	// c overlapping a.
	big := batchlas.NewBatch[float64](5, 5, 4)
	argErr(Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, big, 0, big, nil), "c")
	for _, cand := range Op.Candidates(sel.Float64) {
		size, err := BufferSize(pin(cand), batchlas.Lower, batchlas.NoTrans, a, c)
		require.NoError(t, err)
		if size > 0 {
			argErr(Syrk(pin(cand), batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, make([]float64, size-1)), "ws")
		}
	}
	// Nothing to compute: no decision.
	nopin := sel.WithPin(ctx, "syrk", "nosuch")
	require.NoError(t, Syrk(nopin, batchlas.Lower, batchlas.NoTrans, 1, batchlas.NewBatch[float64](5, 3, 0), 0, batchlas.NewBatch[float64](5, 5, 0), nil))
	require.NoError(t, Syrk(nopin, batchlas.Lower, batchlas.NoTrans, 1, batchlas.NewBatch[float64](0, 3, 2), 0, batchlas.NewBatch[float64](0, 0, 2), nil))
	require.Error(t, Syrk(nopin, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, nil))
}

// TestBroadcast: one A for every C_i gives each the same triangle.
func TestBroadcast(t *testing.T) {
	forEachCandidate(t, broadcast[float32], broadcast[float64])
}

func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	a, _ := operands[T](r, false, 20, 7, 1)
	cs := padded[T](20, 20, 4)
	one := padded[T](20, 20, 1)
	require.NoError(t, Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, batchlas.Broadcast(a, 4), 0, cs, nil))
	require.NoError(t, Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 0, one, nil))
	for i := range 4 {
		for col := range 20 {
			for row := col; row < 20; row++ {
				require.Equal(t, one.At(0, row, col), cs.At(i, row, col), "%s matrix %d", c, i)
			}
		}
	}
}

// TestWorkersDoNotChangeResults: one worker and all give the same bits.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(7, 8))
	a, c0 := operands[T](r, true, 40, 12, 30)
	one, all := testmat.Clone(c0), testmat.Clone(c0)
	require.NoError(t, Syrk(batchlas.WithParallelism(ctx, 1), batchlas.Upper, batchlas.Trans, 2, a, 1, one, nil))
	require.NoError(t, Syrk(ctx, batchlas.Upper, batchlas.Trans, 2, a, 1, all, nil))
	require.Equal(t, -1, testmat.SameMatrices(one, all, 0, c0.Count), "%s", c)
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
			a, cc := operands[T](r, false, n, 5, 16)
			size, err := BufferSize(ctx, batchlas.Lower, batchlas.NoTrans, a, cc)
			require.NoError(t, err)
			ws := make([]T, size)
			testmat.NoAllocs(t, fmt.Sprintf("%s n=%d workers=%d", c, n, w), func() {
				if err := Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 1, cc, ws); err != nil {
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
	a, c0 := operands[T](r, false, 6, 4, count)
	testmat.InterruptEverywhere(t, c.String(), "syrk", c0, ctx, func(ctx context.Context) (batchlas.Batch[T], error) {
		x := testmat.Clone(c0)
		return x, Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 1, x, nil)
	})
}

func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "tri_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen.go", "tri_avx2_amd64.s")
}
