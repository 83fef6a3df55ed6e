package sel

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const synHead = "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\n"

func TestTunedDirReplacesAndTagsOverride(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"})
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
	lines := tr.lines()
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], " syn=float32/none,float64/override", "the init line says where the tables come from, per dtype when they differ")
	assert.Equal(t, "syn float64 uplo=L n=64 batch=1024 -> blocked  1.00 ms  [override x86-64-v4]", lines[1])
	tabs, err := synOp.Tables(Float64, v4)
	require.NoError(t, err)
	origins := map[string]string{}
	for _, tb := range tabs {
		origins[tb.File] = tb.Origin
	}
	assert.Equal(t, map[string]string{"syn.x86-64-v4.txt": "override", "syn.x86-64-v2.txt": "builtin", "syn.arm64.txt": "builtin"}, origins)
	_, err = synOp.Tables(Float32, v4)
	require.NoError(t, err)
	assert.Empty(t, tableDevices(t, synOp, Float32, v4), "the override replaced the whole file, float32 rows included")
	assert.NotContains(t, warn.String(), "syn", "an override is not a borrow")
}

func TestTunedDirNotADirectory(t *testing.T) {
	warn, _ := fresh(t)
	file := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	setenv(t, "BATCHLAS_TUNED_DIR", file)
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, lp8, c, "the built-in tables serve")
		Reload()
	}
	require.Len(t, warn.lines(), 1, "warns once")
	assert.Equal(t, `batchlas: BATCHLAS_TUNED_DIR="`+file+`" is not a readable directory (not a directory); using the built-in tables`, warn.lines()[0])
}

func TestTunedDirSkipsWrongNames(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, map[string]string{
		"notes.md":             "hello",
		"syn.txt":              "x",
		"syn.x86-64-v4.txt":    synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n",
		"syn.x86.64.v4.txt":    "x",
		"Syn.x86-64-v4.txt":    "x",
		"other.x86-64-v4.txt":  "not parsed: no op named other is linked",
		"syn.x86-64-v4.txt.gz": "x",
	})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	Reload()
	for i := 0; i < 2; i++ {
		c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		require.NoError(t, err)
		assert.Equal(t, blocked, c)
	}
	var want []string
	for _, n := range []string{"Syn.x86-64-v4.txt", "notes.md", "sub", "syn.txt", "syn.x86-64-v4.txt.gz", "syn.x86.64.v4.txt"} {
		want = append(want, "batchlas: BATCHLAS_TUNED_DIR: skipping "+filepath.Join(dir, n)+": want <op>.<device>.txt files (e.g. potrf.x86-64-v4.txt)")
	}
	assert.Equal(t, want, warn.lines())
}

func TestMalformedOverrideIsAnErrorFromTheCall(t *testing.T) {
	warn, _ := fresh(t)
	override(t, map[string]string{
		"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked one\n",
		"syn.sm_90.txt":     "garbage\n",
	})
	var err error
	require.NotPanics(t, func() { _, err = run(bg, synOp, Float64, synKey("L", 64, 1024), v4) })
	require.Error(t, err)
	var te *TableError
	require.True(t, errors.As(err, &te))
	assert.EqualError(t, err, `syn.x86-64-v4.txt:4: entry blocked: time "one" is not a non-negative number of milliseconds`)
	_, err = synOp.Tables(Float64, v4)
	assert.True(t, errors.As(err, &te), "Tables reports it too")

	// A cpu call never needs the broken gpu table...
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "v3 is served by v2 before it would reach v4")
	// ...a gpu call does.
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), sm90)
	assert.EqualError(t, err, "syn.sm_90.txt:1: no revision=N in the header; tables written by tools/tune carry it")
	assert.NotContains(t, warn.String(), "syn.sm_90", "no silent skip, and no warning instead of the error")
}
