package sel

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExplain(t *testing.T) {
	fresh(t)
	setenv(t, "BATCHLAS_SYN_ROUTE", "native")
	w, err := synOp.Explain(bg, Float64, synKey("U", 90, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, "native", w.Pin)
	assert.Equal(t, "BATCHLAS_SYN_ROUTE", w.PinSource)
	assert.Equal(t, lp8, w.Choice)
	assert.Equal(t, "pinned native", w.Source)
	assert.Equal(t, "syn float64 uplo=U n=90 batch=1024 -> lpanel:panel=8  [pinned native]", w.TraceLine)
	require.Len(t, w.Steps, 1)
	st := w.Steps[0]
	assert.Equal(t, "syn.x86-64-v4.txt", st.Table.File)
	assert.Equal(t, "builtin", st.Table.Origin)
	assert.Equal(t, RoleOwn, st.Role)
	assert.Equal(t, 9, st.Row.Line, "the only uplo=U row")
	assert.InDelta(t, 3*(math.Log2(90)-6), st.Distance, 1e-12, "n weighs 3")
	require.Len(t, st.Verdicts, 2)
	assert.Equal(t, Verdict{Entry: Entry{Spelling: "vendor", Choice: vendor, MS: 0.4, Timed: true}}, st.Verdicts[0], "native excludes vendor")
	assert.Equal(t, Verdict{Entry: Entry{Spelling: "lpanel:panel=8", Choice: lp8, MS: 0.5, Timed: true}, Candidate: true, CanRun: true}, st.Verdicts[1])

	w, err = synOp.Explain(WithStrictPin(bg, "syn", "tiny"), Float64, synKey("L", 64, 1), v4)
	var pe *PinError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, err, w.Err)
	assert.Equal(t, "strict scoped pin", w.PinSource)
	assert.Empty(t, w.TraceLine)
	assert.True(t, w.Choice.IsZero())
}

func ExampleParseChoice() {
	lpanel := &Family{Name: "lpanel", Fields: []string{"panel"}}
	tinyF := &Family{Name: "tiny"}
	c, err := ParseChoice("lpanel:8", []*Family{tinyF, lpanel})
	fmt.Println(c, err)
	_, err = ParseChoice("lpanel:panel=-1", []*Family{tinyF, lpanel})
	fmt.Println(err)
	// Output:
	// lpanel:panel=8 <nil>
	// spelling "lpanel:panel=-1": field panel must be a non-negative integer, got -1
}

// Explain reports the errors of a call's arguments like Pick does (found
// by FuzzDecide: it returned no choice and no error).
func TestExplainArgumentErrors(t *testing.T) {
	fresh(t)
	for _, tc := range []struct {
		k Key
		d *Device
	}{{synKey("", 4, 4), v4}, {MakeKey(Str("L"), Int(4)), v4}, {synKey("L", 4, 4), nil}} {
		_, perr := synOp.Pick(bg, Float64, tc.k, tc.d)
		require.Error(t, perr)
		w, err := synOp.Explain(bg, Float64, tc.k, tc.d)
		assert.EqualError(t, err, perr.Error())
		assert.Equal(t, err, w.Err)
	}
}
