package sel

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpellingRoundTrip(t *testing.T) {
	for _, dt := range synOp.DTypes() {
		for _, c := range synOp.Candidates(dt) {
			got, err := synOp.ParseChoice(c.String())
			require.NoError(t, err, c.String())
			assert.Equal(t, c, got, c.String())
		}
	}
	assert.Equal(t, "lpanel:panel=8", lp8.String())
	assert.Equal(t, "tiny", tiny.String())
	assert.Equal(t, "packed:mc=64:kc=256", famPacked.With(64, 256).String())
	assert.Equal(t, "", Choice{}.String())
}

func TestSpellingForms(t *testing.T) {
	fams := []*Family{famLpanel, famPacked, famTiny}
	for _, tc := range []struct {
		in   string
		want Choice
	}{
		{"lpanel:panel=8", lp8},
		{"lpanel:8", lp8},
		{"packed:mc=64:kc=256", famPacked.With(64, 256)},
		{"packed:kc=256:mc=64", famPacked.With(64, 256)}, // named fields in any order
		{"packed:64:256", famPacked.With(64, 256)},
		{"lpanel:0", famLpanel.With(0)},
		{"tiny", tiny},
	} {
		got, err := ParseChoice(tc.in, fams)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.want.String(), got.String(), "formatting always writes the long form")
	}
}

func TestSpellingRejections(t *testing.T) {
	fams := []*Family{famTiny, famLpanel, famPacked}
	for _, tc := range []struct{ in, msg string }{
		{"", `spelling "": empty spelling`},
		{"huge", `spelling "huge": unknown family "huge" (known: tiny, lpanel, packed)`},
		{"lpanel:width=8", `spelling "lpanel:width=8": family lpanel has no field "width" (fields: panel)`},
		{"lpanel", `spelling "lpanel": family lpanel needs a value for field panel`},
		{"lpanel:panel=", `spelling "lpanel:panel=": field panel is missing its value`},
		{"lpanel:", `spelling "lpanel:": field panel is missing its value`},
		{"lpanel:panel=-1", `spelling "lpanel:panel=-1": field panel must be a non-negative integer, got -1`},
		{"lpanel:-8", `spelling "lpanel:-8": field panel must be a non-negative integer, got -8`},
		{"lpanel:panel=8x", `spelling "lpanel:panel=8x": field panel must be a non-negative integer, got "8x"`},
		{"lpanel:panel=99999999999", `spelling "lpanel:panel=99999999999": field panel must be a non-negative integer, got "99999999999"`},
		{"Tiny", `spelling "Tiny": family name must match [a-z][a-z0-9_]*`},
		{"tiny:3", `spelling "tiny:3": family tiny has no fields`},
		{"lpanel:8:9", `spelling "lpanel:8:9": family lpanel has 1 field(s) (panel), got 2 values`},
		{"packed:mc=64:256", `spelling "packed:mc=64:256": mixes positional and named fields`},
		{"packed:mc=64:mc=64", `spelling "packed:mc=64:mc=64": field mc given twice`},
	} {
		_, err := ParseChoice(tc.in, fams)
		require.Error(t, err, tc.in)
		assert.EqualError(t, err, tc.msg)
		var se *SpellingError
		assert.True(t, errors.As(err, &se), "a *SpellingError")
	}
}

func TestChoiceAccessors(t *testing.T) {
	p := famPacked.With(64, 256)
	assert.Equal(t, 256, p.Field("kc"))
	assert.Equal(t, -1, p.Field("nope"))
	assert.Equal(t, 64, p.Value(0))
	assert.True(t, vendor.Vendor())
	assert.False(t, lp8.Vendor())
	assert.True(t, lp8.Is(famLpanel))
	assert.True(t, Choice{}.IsZero())
	assert.Panics(t, func() { famLpanel.With() }, "a wrong declaration fails at init")
	assert.Panics(t, func() { famLpanel.With(-1) })
}
