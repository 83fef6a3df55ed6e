package gonummat

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
)

func TestVecsRoundTrip(t *testing.T) {
	for _, n := range []int{1, 3, 17} {
		vs := make([]*mat.VecDense, 4)
		for i := range vs {
			vs[i] = mat.NewVecDense(n, nil)
			for r := range n {
				vs[i].SetVec(r, float64(100*i+r)+0.5)
			}
		}
		b, err := FromVecs[float64](vs)
		require.NoError(t, err)
		require.Equal(t, [3]int{n, 1, 4}, [3]int{b.Rows, b.Cols, b.Count})
		assert.Equal(t, vs[3].AtVec(n-1), b.At(3, n-1, 0))
		back, err := ToVecs(b)
		require.NoError(t, err)
		for i := range vs {
			assert.True(t, mat.Equal(vs[i], back[i]), "n=%d vector %d", n, i)
		}
		b32, err := FromVecs[float32](vs)
		require.NoError(t, err)
		assert.Equal(t, float32(vs[2].AtVec(0)), b32.At(2, 0, 0))
	}
}

func TestVectorsToVecs(t *testing.T) {
	w := batchlas.NewVectors[float64](3, 2)
	for i := range 2 {
		for j := range 3 {
			w.Set(i, j, float64(10*i+j))
		}
	}
	vs, err := VectorsToVecs(w)
	require.NoError(t, err)
	require.Len(t, vs, 2)
	assert.True(t, mat.Equal(mat.NewVecDense(3, []float64{10, 11, 12}), vs[1]))
	none, err := VectorsToVecs(batchlas.NewVectors[float32](3, 0))
	require.NoError(t, err)
	assert.Empty(t, none)
	_, err = VectorsToVecs(batchlas.NewVectors[float64](0, 2))
	assert.ErrorContains(t, err, "gonummat.VectorsToVecs")
}

func TestVecsRefuseBadArguments(t *testing.T) {
	for name, vs := range map[string][]*mat.VecDense{
		"has no vector":             nil,
		"vs[1] is nil":              {mat.NewVecDense(2, nil), nil},
		"vs[0] is an empty":         {{}},
		"vs[1] has length 3 but vs": {mat.NewVecDense(2, nil), mat.NewVecDense(3, nil)},
	} {
		_, err := FromVecs[float64](vs)
		assert.ErrorContains(t, err, "gonummat.FromVecs", name)
		assert.ErrorContains(t, err, name)
	}
	_, err := ToVecs(batchlas.NewBatch[float64](2, 2, 3))
	assert.ErrorContains(t, err, "a vector is one column")
	none, err := ToVecs(batchlas.NewBatch[float64](2, 1, 0))
	require.NoError(t, err)
	assert.Empty(t, none)
}
