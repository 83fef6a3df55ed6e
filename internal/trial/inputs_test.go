package trial

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// Working copies fill the cache budget for small operands and are one
// copy for large ones; the checked result is copy 0's.
func TestInPlaceCopies(t *testing.T) {
	small := NewInPlace(batchlas.NewBatch[float64](4, 4, 2))
	assert.Len(t, small.Work, maxCopies)
	large := NewInPlace(batchlas.NewBatch[float32](512, 512, 2))
	assert.Len(t, large.Work, 1)
	small.Orig.Data[0] = 7
	small.Restore(2)
	assert.Equal(t, 7.0, small.Work[1].Data[0])
	assert.Equal(t, 0.0, small.Work[2].Data[0], "only the first k copies are restored")
	// 256 KiB of copies: 8 of 4096 float64s, 16 of 4096 float32s.
	assert.Equal(t, 8, CopiesOf[float64](4096))
	assert.Equal(t, 16, CopiesOf[float32](4096))
}

// A tiled batch repeats DistinctMatrices matrices; under a layout with a
// leading dimension of its own the padding rows are NaN and the matrices
// the same.
func TestTiledBatchAndLayout(t *testing.T) {
	tight := TiledBatch[float64](matgen.Rand(1), 3, 2, 10, nil)
	require.Equal(t, 3, tight.LD)
	for i := range tight.Count {
		assert.Equal(t, DenseOf(tight, i%DistinctMatrices).V, DenseOf(tight, i).V, "matrix %d", i)
	}
	OperandLayout = Layout{LD: 8, Pad: 1}
	t.Cleanup(func() { OperandLayout = Layout{} })
	assert.Equal(t, "9", OperandLayout.String())
	laid := TiledBatch[float64](matgen.Rand(1), 3, 2, 10, nil)
	require.Equal(t, 9, laid.LD)
	for i := range laid.Count {
		assert.Equal(t, DenseOf(tight, i).V, DenseOf(laid, i).V, "matrix %d", i)
	}
	assert.True(t, math.IsNaN(laid.Data[3]), "the rows past the matrix are NaN")
	assert.Equal(t, "rows+2", Layout{Pad: 2}.String())
	assert.Equal(t, "tight", Layout{}.String())
}

// The bound check fails on NaN and names the worst element.
func TestWithinBound(t *testing.T) {
	want := Dense{R: 2, C: 1, V: []float64{1, 2}}
	scale := Dense{R: 2, C: 1, V: []float64{1, 1}}
	require.NoError(t, WithinBound("m", Dense{R: 2, C: 1, V: []float64{1.05, 2}}, want, scale, 0.1))
	assert.EqualError(t, WithinBound("m", Dense{R: 2, C: 1, V: []float64{1.05, 3}}, want, scale, 0.1),
		"m: element (1,0) is off by 10 times the bound (got 3, want 2)")
	assert.ErrorContains(t, WithinBound("m", Dense{R: 2, C: 1, V: []float64{math.NaN(), 2}}, want, scale, 0.1), "element (0,0)")
}
