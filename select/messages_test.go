package sel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongValuesAreCut: a 120 KB pin value, environment or scoped, gives
// an error of at most 1 KiB that quotes it once, cut at 80 bytes with its
// length; so do the other values the core echoes (a pin's op name, a
// device key, BATCHLAS_TUNED_DIR, a spelling's field value), in errors,
// warnings and the trace's switches line.
func TestLongValuesAreCut(t *testing.T) {
	warn, tr := fresh(t)
	k := synKey("L", 64, 1024)
	long := strings.Repeat("x", 120000)
	cut := `"` + strings.Repeat("x", 80) + `..." (120000 bytes)`
	bounded := func(what, msg string) {
		t.Helper()
		assert.LessOrEqual(t, len(msg), 1024, "%s: %d bytes", what, len(msg))
		assert.NotContains(t, msg, strings.Repeat("x", 81), "%s repeats more than 80 bytes of the value", what)
	}

	setenv(t, "BATCHLAS_SYN_ROUTE", long)
	_, err := run(bg, synOp, Float64, k, v4)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "syn: BATCHLAS_SYN_ROUTE="+cut+" does not parse: unknown family "+cut+" (known: "), err.Error())
	bounded("env pin error", err.Error())
	setenv(t, "BATCHLAS_SYN_ROUTE", "")

	for _, pin := range []string{long, "lpanel:" + long, "lpanel:panel=" + long, "lpanel:" + long + "=1"} {
		_, err = run(WithPin(bg, "syn", pin), synOp, Float64, k, v4)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `..." (`)
		bounded("scoped pin error", err.Error())
	}

	WithPin(bg, long, "auto")
	_, _, _, err = ParseDeviceKey(long + "!")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "device key "+cut[:len(cut)-len("120000 bytes)")]+"120001 bytes)")
	bounded("device key error", err.Error())

	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	setenv(t, "BATCHLAS_TUNED_DIR", "/nonexistent/"+long)
	setenv(t, "BATCHLAS_AUX_ROUTE", long)
	_, _ = run(bg, synOp, Float64, k, v4)
	for _, l := range append(warn.lines(), tr.lines()...) {
		bounded("line "+l[:min(len(l), 60)], l)
	}
	assert.Contains(t, strings.Join(warn.lines(), "\n"), `no op named `+cut+` is registered`)
	assert.Contains(t, strings.Join(tr.lines(), "\n"), "BATCHLAS_AUX_ROUTE="+cut)
}

// TestWarningsAreBounded: a warning longer than 1 KiB, whatever it lists,
// is cut to 1 KiB with its length.
func TestWarningsAreBounded(t *testing.T) {
	warn, _ := fresh(t)
	warnOnce("test-long", "batchlas: "+strings.Repeat("w", 5000))
	lines := warn.lines()
	require.Len(t, lines, 1)
	assert.LessOrEqual(t, len(lines[0]), 1024)
	assert.True(t, strings.HasSuffix(lines[0], "... (5010 bytes)"), lines[0][len(lines[0])-40:])
}
