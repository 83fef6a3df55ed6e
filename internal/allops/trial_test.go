package allops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// internal/trial's tests that need an op. They live here, where every op
// is linked anyway: in internal/trial's own test binary an op would be
// compiled a second time, with everything it imports, against the test
// build of package trial.

// A shape reads a key by the op's key names: exact keys as words, log keys
// as numbers (and as their decimal text), absent names as "" and 0.
func TestShapeReadsKeysByName(t *testing.T) {
	require.Equal(t, "uplo:exact n:log:4 batch:log", sel.FormatKeys(potrf.Op.Keys()))
	s := trial.ShapeOf(potrf.Op, sel.MakeKey(sel.Str("U"), sel.Int(64), sel.Int(4096)))
	assert.Equal(t, "U", s.Get("uplo"))
	assert.Equal(t, 64, s.Num("n"))
	assert.Equal(t, "64", s.Get("n"))
	assert.Equal(t, 4096, s.Num("batch"))
	assert.Equal(t, "", s.Get("nrhs"))
	assert.Equal(t, 0, s.Num("nrhs"))
	assert.Equal(t, 0, s.Num("uplo"), "a word is no number")
	assert.Equal(t, "uplo=U n=64 batch=4096", s.String())

	short := trial.ShapeOf(potrf.Op, sel.MakeKey(sel.Str("L")))
	assert.Equal(t, 0, short.Num("n"), "a key shorter than the op's keys has no value for the rest")
	assert.Equal(t, "", short.Get("batch"))
}

// Linking an op links its measurement, and with it the reader of a call's
// worker cap that first-use tuning needs.
func TestOpsDeclareTheirMeasurement(t *testing.T) {
	m := potrf.Op.Measurement()
	require.NotNil(t, m)
	k := sel.MakeKey(sel.Str("L"), sel.Int(3), sel.Int(5))
	assert.Equal(t, (9.0+4.5+0.5)*5, m.Flops(k))
	assert.Equal(t, 2*9.0*5, m.Elems(k))
	tr, err := m.New(sel.Float64, k, 1)
	require.NoError(t, err)
	b, err := tr.Bind(sel.WithStrictPin(t.Context(), "potrf", "unblocked"))
	require.NoError(t, err)
	require.NoError(t, b.Verify(t.Context()))
	_, err = m.New(sel.Float64, sel.MakeKey(sel.Str("X"), sel.Int(3), sel.Int(5)), 1)
	assert.EqualError(t, err, `uplo "X": want L or U`)
}
