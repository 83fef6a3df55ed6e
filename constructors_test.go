package batchlas

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// panicMessage is what f panics with, "" when it does not.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestConstructorMessages: each bad size of each constructor gets a
// message that names what is wrong. WrapBatch(nil, 0, 5, MaxInt) was told
// its 0x5 matrices are "more elements than an int can count": matrices
// without elements take no storage, so it is a valid empty batch.
func TestConstructorMessages(t *testing.T) {
	const big = math.MaxInt
	for _, tc := range []struct {
		rows, cols, count int
		arg, want         string // "" arg: valid
	}{
		{0, 5, big, "", ""},
		{5, 0, big, "", ""},
		{0, big, 2, "", ""},
		{0, 0, big, "", ""},
		{-1, 5, 3, "rows", "rows -1 < 0"},
		{5, -1, 3, "cols", "cols -1 < 0"},
		{5, 5, -1, "count", "count -1 < 0"},
		{1 << 32, 1 << 32, 1, "cols", "a matrix of 4294967296x4294967296 is more elements than an int can count"},
		{1 << 32, 1 << 32, 0, "cols", "a matrix of 4294967296x4294967296 is more elements than an int can count"},
		{2, 3, big, "count", fmt.Sprintf("%d matrices of 2x3 are more elements than an int can count", big)},
		{2, 3, 4, "data", "data has 0 elements, need 24 for 4 matrices of 2x3 with ld 2 and stride 6"},
	} {
		name := fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.count)
		b, err := WrapBatch[float64](nil, tc.rows, tc.cols, tc.count)
		msg := panicMessage(func() { NewBatch[float64](tc.rows, tc.cols, tc.count) })
		if tc.arg == "" {
			require.NoError(t, err, name)
			require.True(t, b.Empty(), name)
			require.Empty(t, msg, name)
			continue
		}
		requireArgError(t, err, "WrapBatch", tc.arg, tc.want)
		if tc.arg != "data" {
			require.Equal(t, "batchlas.NewBatch: "+tc.want, msg, name)
		}
	}

	require.Equal(t, "batchlas.NewIdentity: n -2 < 0", panicMessage(func() { NewIdentity[float32](-2, 1) }))
	require.Equal(t, "batchlas.NewIdentity: count -1 < 0", panicMessage(func() { NewIdentity[float32](2, -1) }))
	require.Equal(t, "batchlas.NewIdentity: a matrix of 4294967296x4294967296 is more elements than an int can count", panicMessage(func() { NewIdentity[float32](1<<32, 1) }))
	require.Empty(t, panicMessage(func() { NewIdentity[float32](0, big) }))

	_, err := WrapStrided[float64](nil, 2, 3, 1, 6, 1)
	requireArgError(t, err, "WrapStrided", "ld", "ld 1 < max(1, rows 2)")
	_, err = WrapStrided[float64](nil, 2, 3, 2, 5, 2)
	requireArgError(t, err, "WrapStrided", "stride", "stride 5 < ld*cols 6 (matrices overlap)")
	_, err = WrapStrided[float64](nil, 2, 3, 2, 0, 2)
	requireArgError(t, err, "WrapStrided", "stride", "stride 0 with count 2")
	_, err = WrapStrided[float64](nil, 2, 3, big, 1, 1)
	requireArgError(t, err, "WrapStrided", "ld", "describe more elements than an int can count")
	_, err = WrapStrided[float64](nil, 2, 3, 2, big/2, 3)
	requireArgError(t, err, "WrapStrided", "stride", "describe more elements than an int can count")
	_, err = WrapStrided[float64](nil, 0, 3, 1, 0, big)
	require.NoError(t, err, "matrices without elements need no stride")
}

// TestVectorsConstructorMessages is TestConstructorMessages for vectors.
func TestVectorsConstructorMessages(t *testing.T) {
	const big = math.MaxInt
	for _, tc := range []struct {
		length, count int
		arg, want     string
		panics        string
	}{
		{0, big, "", "", ""},
		{-1, 2, "len", "len -1 < 0", "batchlas.NewVectors: length -1 < 0"},
		{2, -1, "count", "count -1 < 0", "batchlas.NewVectors: count -1 < 0"},
		{2, big, "count", fmt.Sprintf("%d vectors of 2 elements are more elements than an int can count", big), fmt.Sprintf("batchlas.NewVectors: %d vectors of 2 elements are more elements than an int can count", big)},
		{3, 2, "data", "data has 0 elements, need 6 for 2 vectors of length 3 with stride 3", ""},
	} {
		_, err := WrapVectors[int32](nil, tc.length, tc.count)
		if tc.arg == "" {
			require.NoError(t, err)
		} else {
			requireArgError(t, err, "WrapVectors", tc.arg, tc.want)
		}
		if tc.length >= 0 && tc.count >= 0 && tc.panics == "" {
			continue // NewVectors makes it
		}
		require.Equal(t, tc.panics, panicMessage(func() { NewVectors[int32](tc.length, tc.count) }))
	}
	_, err := WrapStridedVectors[int32](nil, 3, 2, 2)
	requireArgError(t, err, "WrapStridedVectors", "stride", "stride 2 < len 3 (vectors overlap)")
	_, err = WrapStridedVectors[int32](nil, 3, big/2, 3)
	requireArgError(t, err, "WrapStridedVectors", "stride", "describe more elements than an int can count")
}

// TestVectorsSubBounds: Vectors.Sub takes 0 <= lo <= hi <= Count, hi =
// Count included, and refuses lo < 0, lo > hi, hi > Count (Count+1 too),
// naming the bound.
func TestVectorsSubBounds(t *testing.T) {
	v := NewVectors[float64](2, 4)
	for i := range v.Data {
		v.Data[i] = float64(i)
	}
	for _, lohi := range [][2]int{{0, 4}, {4, 4}, {1, 4}, {0, 0}, {2, 3}} {
		s, err := v.Sub(lohi[0], lohi[1])
		require.NoError(t, err, "%v", lohi)
		require.Equal(t, lohi[1]-lohi[0], s.Count)
		if s.Count > 0 {
			require.Equal(t, float64(2*lohi[0]), s.At(0, 0))
			require.Equal(t, float64(2*lohi[1]-1), s.At(s.Count-1, 1), "the last vector of the view is v's vector hi-1")
		}
	}
	for _, tc := range []struct {
		lo, hi    int
		arg, want string
	}{
		{-1, 2, "lo", "lo -1 outside [0, count 4]"},
		{5, 5, "lo", "lo 5 outside [0, count 4]"},
		{3, 2, "hi", "hi 2 outside [lo 3, count 4]"},
		{0, 5, "hi", "hi 5 outside [lo 0, count 4]"},
		{4, 5, "hi", "hi 5 outside [lo 4, count 4]"},
	} {
		_, err := v.Sub(tc.lo, tc.hi)
		requireArgError(t, err, "Vectors.Sub", tc.arg, tc.want)
	}
	b := NewBatch[float64](2, 2, 4)
	_, err := b.Sub(4, 4)
	require.NoError(t, err)
	_, err = b.Sub(3, 5)
	requireArgError(t, err, "Batch.Sub", "hi", "hi 5 outside [lo 3, count 4]")
}
