package gonummat_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/gonummat"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
)

// requireArgError checks that err is an *batchlas.ArgError from op on arg
// whose message contains want.
func requireArgError(t *testing.T, err error, op, arg, want string) {
	t.Helper()
	var ae *batchlas.ArgError
	require.True(t, errors.As(err, &ae), "want *batchlas.ArgError, got %T (%v)", err, err)
	require.Equal(t, op, ae.Op, "error: %v", err)
	require.Equal(t, arg, ae.Arg, "error: %v", err)
	require.Contains(t, err.Error(), want)
	require.True(t, strings.HasPrefix(err.Error(), op+": "), err.Error())
}

// denses are count r x c matrices whose element (i, j) of matrix k is
// k*100 + i*10 + j + 0.1 (0.1 so float32 rounds), each a view into a wider
// parent, so that its row stride is not its column count.
func denses(r, c, count int) []*mat.Dense {
	out := make([]*mat.Dense, count)
	for k := range out {
		parent := mat.NewDense(r+1, c+2, nil)
		for i := range r + 1 {
			for j := range c + 2 {
				parent.Set(i, j, -1)
			}
		}
		m := parent.Slice(1, r+1, 1, c+1).(*mat.Dense)
		for i := range r {
			for j := range c {
				m.Set(i, j, float64(k*100+i*10+j)+0.1)
			}
		}
		out[k] = m
	}
	return out
}

func TestDenseRoundTrip(t *testing.T) {
	ms := denses(3, 4, 5)
	b, err := gonummat.FromDense[float64](ms)
	require.NoError(t, err)
	require.Equal(t, batchlas.Batch[float64]{Data: b.Data, Rows: 3, Cols: 4, LD: 3, Stride: 12, Count: 5}, b, "tight")
	// Column-major: element (i, j) of matrix k at k*12 + j*3 + i.
	require.Equal(t, 412.1, b.Data[4*12+2*3+1])
	for k := range 5 {
		for i := range 3 {
			for j := range 4 {
				require.Equal(t, ms[k].At(i, j), b.At(k, i, j))
			}
		}
	}
	back, err := gonummat.ToDense(b)
	require.NoError(t, err)
	require.Len(t, back, 5)
	for k := range ms {
		require.True(t, mat.Equal(ms[k], back[k]), "matrix %d", k)
	}
	// The batch shares nothing with ms, nor ToDense's matrices with b.
	ms[0].Set(0, 0, 7)
	back[1].Set(0, 0, 7)
	require.Equal(t, 0.1, b.At(0, 0, 0))
	require.Equal(t, 100.1, b.At(1, 0, 0))

	// CopyToDense writes every element of existing matrices, and nothing
	// else of their parents, without allocating.
	dst := denses(3, 4, 5)
	for _, m := range dst {
		m.Zero()
	}
	require.NoError(t, gonummat.CopyToDense(b, dst))
	for k := range dst {
		for i := range 3 {
			for j := range 4 {
				require.Equal(t, b.At(k, i, j), dst[k].At(i, j))
			}
		}
	}
	// Row 0 of the view continues into its parent's last column.
	require.Equal(t, -1.0, dst[2].RawMatrix().Data[4], "a parent's element outside the view")
	allocs := testing.AllocsPerRun(20, func() {
		if err := gonummat.CopyToDense(b, dst); err != nil {
			panic(err)
		}
	})
	require.Zero(t, allocs)

	// CopyFromDense writes every matrix's elements into an existing,
	// padded batch, leaving its padding.
	into := testmat.Batch[float64](testmat.Rand(1), 3, 4, 5, 5, 23)
	before := testmat.Clone(into)
	require.NoError(t, gonummat.CopyFromDense(into, ms))
	require.True(t, testmat.Untouched(into, into.Data, before.Data))
	for k := range 5 {
		for i := range 3 {
			for j := range 4 {
				require.Equal(t, ms[k].At(i, j), into.At(k, i, j))
			}
		}
	}
}

func TestFloat32(t *testing.T) {
	ms := denses(2, 3, 2)
	b, err := gonummat.FromDense[float32](ms)
	require.NoError(t, err)
	require.Equal(t, float32(112.1), b.At(1, 1, 2), "rounded to the nearest float32")
	back, err := gonummat.ToDense(b)
	require.NoError(t, err)
	require.Equal(t, float64(float32(112.1)), back[1].At(1, 2))
	require.NotEqual(t, 112.1, back[1].At(1, 2), "float32 cannot hold 112.1")
	dst := []*mat.Dense{mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil)}
	require.NoError(t, gonummat.CopyToDense(b, dst))
	require.True(t, mat.Equal(back[0], dst[0]))
}

func TestBroadcastToDense(t *testing.T) {
	one, err := gonummat.FromDense[float64](denses(2, 2, 1))
	require.NoError(t, err)
	back, err := gonummat.ToDense(batchlas.Broadcast(one, 3))
	require.NoError(t, err)
	require.Len(t, back, 3)
	for _, m := range back {
		require.True(t, mat.Equal(back[0], m))
	}
	back[0].Set(0, 0, 9)
	require.Equal(t, 0.1, back[2].At(0, 0), "separate copies")
	requireArgError(t, gonummat.CopyFromDense(batchlas.Broadcast(one, 3), back), "gonummat.CopyFromDense", "dst", "dst is a broadcast")
}

// TestSymAndTri: FromSym fills both triangles, potrf factors the batch
// with either uplo, and ToTri reads the factor alone, L*L^T and U^T*U
// giving the matrices back (gonum as the oracle).
func TestSymAndTri(t *testing.T) {
	syms := make([]*mat.SymDense, 4)
	for k := range syms {
		s := mat.NewSymDense(5, nil)
		for i := range 5 {
			for j := i; j < 5; j++ {
				v := 1 / float64(1+i+j+k)
				if i == j {
					v += 5
				}
				s.SetSym(i, j, v)
			}
		}
		syms[k] = s
	}
	b, err := gonummat.FromSym[float64](syms)
	require.NoError(t, err)
	for k := range syms {
		for i := range 5 {
			for j := range 5 {
				require.Equal(t, syms[k].At(i, j), b.At(k, i, j))
			}
		}
	}
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		f, err := b.Clone()
		require.NoError(t, err)
		require.NoError(t, potrf.Potrf(t.Context(), uplo, f, nil))
		tris, err := gonummat.ToTri(f, uplo)
		require.NoError(t, err)
		for k, tr := range tris {
			n, kind := tr.Triangle()
			require.Equal(t, 5, n)
			require.Equal(t, uplo == batchlas.Lower, kind == mat.Lower)
			var prod mat.Dense
			if uplo == batchlas.Lower {
				prod.Mul(tr, tr.T())
			} else {
				prod.Mul(tr.T(), tr)
			}
			require.True(t, mat.EqualApprox(&prod, syms[k], 1e-13), "%v matrix %d", uplo, k)
		}
	}
}

func TestErrors(t *testing.T) {
	ms := denses(2, 3, 3)
	fd := func(ms []*mat.Dense) error { _, err := gonummat.FromDense[float64](ms); return err }
	const from = "gonummat.FromDense"
	requireArgError(t, fd(nil), from, "ms", "ms has no matrix")
	requireArgError(t, fd([]*mat.Dense{ms[0], nil}), from, "ms", "ms[1] is nil")
	requireArgError(t, fd([]*mat.Dense{ms[0], {}}), from, "ms", "ms[1] is an empty mat.Dense")
	requireArgError(t, fd([]*mat.Dense{ms[0], ms[1], mat.NewDense(3, 2, nil)}), from, "ms", "ms[2] is 3x2 but ms[0] is 2x3")

	b, err := gonummat.FromDense[float64](ms)
	require.NoError(t, err)
	const to, copyTo, copyFrom = "gonummat.ToDense", "gonummat.CopyToDense", "gonummat.CopyFromDense"
	bad := b
	bad.LD = 1
	_, err = gonummat.ToDense(bad)
	requireArgError(t, err, to, "b", "ld 1 < max(1, rows 2)")
	lit := batchlas.Batch[float64]{Data: b.Data, Rows: 2, Cols: 3, LD: 2, Count: 3}
	_, err = gonummat.ToDense(lit)
	requireArgError(t, err, to, "b", "batchlas.Broadcast(m, 3)")
	_, err = gonummat.ToDense(batchlas.NewBatch[float64](0, 3, 2))
	requireArgError(t, err, to, "b", "b's matrices are 0x3: gonum has no matrix without elements")
	none, err := gonummat.ToDense(batchlas.NewBatch[float64](2, 3, 0))
	require.NoError(t, err)
	require.Empty(t, none)

	dst := []*mat.Dense{mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil)}
	requireArgError(t, gonummat.CopyToDense(b, dst[:2]), copyTo, "dst", "dst has 2 matrices, the batch 3")
	requireArgError(t, gonummat.CopyToDense(b, []*mat.Dense{dst[0], nil, dst[2]}), copyTo, "dst", "dst[1] is nil")
	requireArgError(t, gonummat.CopyToDense(b, []*mat.Dense{dst[0], dst[1], mat.NewDense(3, 2, nil)}), copyTo, "dst", "dst[2] is 3x2, the batch's matrices 2x3")
	requireArgError(t, gonummat.CopyToDense(bad, dst), copyTo, "b", "ld 1")
	for _, d := range dst {
		require.True(t, mat.Equal(d, mat.NewDense(2, 3, nil)), "a refused call wrote dst")
	}

	requireArgError(t, gonummat.CopyFromDense(b, ms[:1]), copyFrom, "ms", "ms has 1 matrices, the batch 3")
	requireArgError(t, gonummat.CopyFromDense(b, []*mat.Dense{ms[0], ms[1], {}}), copyFrom, "ms", "ms[2] is 0x0, the batch's matrices 2x3")
	requireArgError(t, gonummat.CopyFromDense(lit, ms), copyFrom, "dst", "stride 0 with count 3")
	before := append([]float64(nil), b.Data...)
	requireArgError(t, gonummat.CopyFromDense(b, []*mat.Dense{dst[0], dst[1], nil}), copyFrom, "ms", "ms[2] is nil")
	require.Equal(t, before, b.Data, "a refused call wrote nothing, not even the matrices before the bad one")

	const fromSym, toTri = "gonummat.FromSym", "gonummat.ToTri"
	fs := func(ms []*mat.SymDense) error { _, err := gonummat.FromSym[float32](ms); return err }
	s2 := mat.NewSymDense(2, nil)
	requireArgError(t, fs(nil), fromSym, "ms", "ms has no matrix")
	requireArgError(t, fs([]*mat.SymDense{s2, nil}), fromSym, "ms", "ms[1] is nil")
	requireArgError(t, fs([]*mat.SymDense{{}}), fromSym, "ms", "ms[0] is an empty mat.SymDense")
	requireArgError(t, fs([]*mat.SymDense{s2, mat.NewSymDense(3, nil)}), fromSym, "ms", "ms[1] has order 3 but ms[0] has order 2")

	_, err = gonummat.ToTri(b, batchlas.Lower)
	requireArgError(t, err, toTri, "b", "b's matrices are 2x3: a triangular matrix is square")
	_, err = gonummat.ToTri(batchlas.NewBatch[float64](2, 2, 1), 'X')
	requireArgError(t, err, toTri, "uplo", "uplo 'X'")
	_, err = gonummat.ToTri(batchlas.NewBatch[float64](0, 0, 1), batchlas.Upper)
	requireArgError(t, err, toTri, "b", "gonum has no matrix without elements")
	_, err = gonummat.ToTri(lit, batchlas.Upper)
	requireArgError(t, err, toTri, "b", "batchlas.Broadcast(m, 3)")
}
