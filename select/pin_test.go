package sel

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const synCands = "tiny, lpanel:panel=8, lpanel:panel=16, cta:warps=4, blocked, vendor"

func TestBadPins(t *testing.T) {
	fresh(t)
	k := synKey("L", 64, 1024)
	for _, tc := range []struct {
		env, scoped, msg string
	}{
		{env: "lpanel:panel=32", msg: `syn: BATCHLAS_SYN_ROUTE="lpanel:panel=32" is not a compiled float64 candidate; pin one of: ` + synCands},
		{scoped: "lpanel:panel=32", msg: `syn: scoped pin "lpanel:panel=32" is not a compiled float64 candidate; pin one of: ` + synCands},
		{env: "huge", msg: `syn: BATCHLAS_SYN_ROUTE="huge" does not parse: unknown family "huge" (known: tiny, cta, lpanel, blocked, vendor); pin auto, native, vendor or one of: ` + synCands},
		{scoped: "lpanel:x", msg: `syn: scoped pin "lpanel:x" does not parse: field panel must be a non-negative integer, got "x"; pin auto, native, vendor or one of: ` + synCands},
		{scoped: "tiny", msg: `syn: scoped pin "tiny" cannot run float64 uplo=L n=64 batch=1024 on x86-64-v4 (its can_run refuses the call); pin another candidate, or auto`},
		{env: " TINY ", msg: `syn: BATCHLAS_SYN_ROUTE="tiny" cannot run float64 uplo=L n=64 batch=1024 on x86-64-v4 (its can_run refuses the call); pin another candidate, or auto`},
	} {
		ctx := bg
		if tc.scoped != "" {
			ctx = WithPin(bg, "syn", tc.scoped)
		}
		setenv(t, "BATCHLAS_SYN_ROUTE", tc.env)
		launched := false
		err := synOp.Run(ctx, Float64, k, v4, func(contextCtx, Choice) error { launched = true; return nil })
		require.Error(t, err, tc.msg)
		assert.EqualError(t, err, tc.msg)
		var pe *PinError
		require.True(t, errors.As(err, &pe))
		assert.Equal(t, "syn", pe.Op)
		assert.Equal(t, Float64, pe.DType)
		assert.False(t, launched, "a bad pin is never ignored")
		_, perr := synOp.Pick(ctx, Float64, k, v4)
		assert.Equal(t, err, perr, "Pick asks the same question (R5)")
	}
}

func TestPinSpelling(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	setenv(t, "BATCHLAS_SYN_ROUTE", "  LPanel:16 ")
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, lp16, c, "trimmed, lower-cased, positional")
	assert.Equal(t, []string{"syn float64 uplo=L n=64 batch=1024 -> lpanel:panel=16  [pinned]"}, tr.decisions())
	assert.Contains(t, tr.lines(), `batchlas: switches: BATCHLAS_DEVICE="" BATCHLAS_IDENTITY="" BATCHLAS_TUNED_DIR="" BATCHLAS_COVERAGE_OUT="" pins: BATCHLAS_SYN_ROUTE="lpanel:16"`,
		"the startup report names the pin in force")
}

func TestNativePin(t *testing.T) {
	warn, _ := fresh(t)
	k := synKey("U", 64, 1024) // the table row ranks vendor first
	c, err := run(bg, synOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, vendor, c)
	ctx := WithPin(bg, "syn", "native")
	c, err = run(ctx, synOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, lp8, c, "native skips the vendor entry")

	// Nothing native can run: one warning, then the automatic choice.
	refuse(t, "tiny", "lpanel:panel=8", "lpanel:panel=16", "blocked")
	for i := 0; i < 2; i++ {
		c, err = run(ctx, synOp, Float64, synKey("U", 64+i, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, vendor, c)
	}
	assert.Equal(t, []string{`batchlas: syn float64: pin "native" from scoped pin: no native candidate can run uplo=U n=64 batch=1024 on x86-64-v4; using the automatic choice`}, warn.lines())

	_, err = run(WithStrictPin(bg, "syn", "native"), synOp, Float64, k, v4)
	assert.EqualError(t, err, `syn: scoped pin "native" cannot be honoured: no native float64 candidate can run uplo=U n=64 batch=1024 on x86-64-v4`)
	var pe *PinError
	assert.True(t, errors.As(err, &pe))
}

func TestVendorPin(t *testing.T) {
	warn, _ := fresh(t)
	k := synKey("L", 64, 1024) // the table ranks lpanel:8 first
	c, err := run(WithPin(bg, "syn", "vendor"), synOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, vendor, c, "vendor ignores the tables")

	setenv(t, "BATCHLAS_SYN_ROUTE", "vendor")
	c, err = run(bg, synOp, Float64, k, v4nov)
	require.NoError(t, err)
	assert.Equal(t, lp8, c, "no vendor on this device: the automatic choice")
	_, err = run(bg, synOp, Float64, synKey("L", 8, 1024), v4nov)
	require.NoError(t, err)
	assert.Equal(t, []string{`batchlas: syn float64: pin "vendor" from BATCHLAS_SYN_ROUTE: no vendor candidate can run uplo=L n=64 batch=1024 on x86-64-v4 (the device lacks vendor:lapack or can_run refuses it); using the automatic choice`}, warn.lines(), "once")

	_, err = run(WithStrictPin(bg, "syn", "vendor"), synOp, Float64, k, v4nov)
	assert.EqualError(t, err, `syn: scoped pin "vendor" cannot be honoured: no vendor candidate can run float64 uplo=L n=64 batch=1024 on x86-64-v4 (the device lacks vendor:lapack or can_run refuses it)`)
	_, err = run(WithStrictPin(bg, "aux", "vendor"), auxOp, Float64, MakeKey(Int(4), Int(4)), v4)
	assert.EqualError(t, err, `aux: scoped pin "vendor" cannot be honoured: no vendor candidate can run float64 m=4 n=4 on x86-64-v4 (this build compiles no vendor float64 candidate)`)
}

func TestScopedPinsNestRestoreAndArePerOp(t *testing.T) {
	fresh(t)
	k := synKey("L", 8, 1024)
	outer := WithPin(bg, "syn", "lpanel:8")
	inner := WithPin(outer, "syn", "blocked")
	other := WithPin(inner, "aux", "packed:64:256")
	for _, tc := range []struct {
		ctx  contextCtx
		want Choice
	}{
		{bg, tiny}, {outer, lp8}, {inner, blocked}, {other, blocked}, {outer, lp8}, {bg, tiny},
	} {
		c, err := run(tc.ctx, synOp, Float64, k, v4)
		require.NoError(t, err)
		assert.Equal(t, tc.want, c)
	}
}

func TestEnvPinSnapshotAndReload(t *testing.T) {
	fresh(t)
	k := synKey("L", 8, 1024)
	pick := func(ctx contextCtx) Choice {
		c, err := synOp.Pick(ctx, Float64, k, v4)
		require.NoError(t, err)
		return c
	}
	assert.Equal(t, tiny, pick(bg))
	require.NoError(t, os.Setenv("BATCHLAS_SYN_ROUTE", "blocked"))
	t.Cleanup(func() { os.Unsetenv("BATCHLAS_SYN_ROUTE") })
	assert.Equal(t, tiny, pick(bg), "the environment is read into a snapshot")
	Reload()
	assert.Equal(t, blocked, pick(bg), "reload picks up the change")
	assert.Equal(t, lp8, pick(WithPin(bg, "syn", "lpanel:8")), "a scoped pin beats the environment")
	assert.Equal(t, tiny, pick(WithPin(bg, "syn", "auto")), "even a scoped auto")
	assert.Equal(t, blocked, pick(WithPin(bg, "aux", "auto")), "a scoped pin of another op does not")
	require.NoError(t, os.Setenv("BATCHLAS_SYN_ROUTE", "auto"))
	Reload()
	assert.Equal(t, tiny, pick(bg))
}

type contextCtx = context.Context

func TestScopedPinOpNameIgnoresCase(t *testing.T) {
	warn, _ := fresh(t)
	k := synKey("L", 64, 1024)
	for _, op := range []string{"SYN", " Syn ", "syn"} {
		c, err := run(WithPin(bg, op, "lpanel:16"), synOp, Float64, k, v4)
		require.NoError(t, err, op)
		assert.Equal(t, lp16, c, op)
		_, err = run(WithPin(bg, op, "garbage"), synOp, Float64, k, v4)
		var pe *PinError
		assert.True(t, errors.As(err, &pe), "a bad pin value is an error from the call: %v", err)
		_, err = run(WithStrictPin(bg, op, "vendor"), synOp, Float64, k, v4nov)
		assert.True(t, errors.As(err, &pe), "strict too: %v", err)
	}
	assert.Empty(t, warn.lines())
}

func TestScopedPinUnknownOpWarnsOnce(t *testing.T) {
	warn, _ := fresh(t)
	k := synKey("L", 64, 1024)
	for i := 0; i < 2; i++ {
		c, err := run(WithPin(bg, "sny", "tiny"), synOp, Float64, k, v4)
		require.NoError(t, err, "it pins nothing, and cannot fail a call")
		assert.Equal(t, lp8, c)
		_ = WithStrictPin(bg, "SNY", "garbage")
	}
	_ = WithStrictPin(bg, "potfr", "garbage")
	assert.Equal(t, []string{
		`batchlas: WithPin: no op named "sny" is registered in this program (registered: ` + registeredList() + "); the pin applies to no call",
		`batchlas: WithStrictPin: no op named "potfr" is registered in this program (registered: ` + registeredList() + "); the pin applies to no call",
	}, warn.lines())
}

func TestEnvPinUnknownOpWarnsOnce(t *testing.T) {
	warn, _ := fresh(t)
	setenv(t, "BATCHLAS_SNY_ROUTE", "tiny")
	k := synKey("L", 64, 1024)
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, k, v4)
		require.NoError(t, err)
		assert.Equal(t, lp8, c)
		Reload()
	}
	assert.Equal(t, []string{
		"batchlas: BATCHLAS_SNY_ROUTE: no op named sny is registered in this program (registered: " + registeredList() + "); the variable pins no call",
	}, warn.lines())
}
