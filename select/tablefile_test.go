package sel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Table files are read only when they are regular files of at most
// maxTableBytes: nothing named like a table crashes or hangs a call.

// needsTable asserts that a call that reaches the override's table gets a
// *TableError whose text contains want, and that one warning naming the
// file says the same.
func needsTable(t *testing.T, warn *syncBuf, path, want string) {
	t.Helper()
	for i := 0; i < 2; i++ {
		_, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
		var te *TableError
		require.True(t, errors.As(err, &te), "want a *TableError, got %v", err)
		assert.Equal(t, filepath.Base(path), te.File)
		assert.Contains(t, err.Error(), want)
		_, err = run(bg, synOp, Float32, synKey("L", 8, 1024), v4)
		assert.True(t, errors.As(err, &te), "every dtype of the device needs it: %v", err)
		Reload()
	}
	// A call that never reaches it is served as before.
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "v3 is served by v2 before it would reach v4")
	lines := grep(warn.lines(), path)
	require.Len(t, lines, 1, "one warning: %q", warn.lines())
	assert.Contains(t, lines[0], want)
	assert.Contains(t, lines[0], "batchlas: BATCHLAS_TUNED_DIR: cannot use "+path+": ")
}

func TestTunedDirOversizeTable(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, nil)
	path := filepath.Join(dir, "syn.x86-64-v4.txt")
	f, err := os.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString(synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n")
	require.NoError(t, err)
	require.NoError(t, f.Truncate(maxTableBytes+1)) // sparse: nothing is written
	require.NoError(t, f.Close())
	needsTable(t, warn, path, "has 16777217 bytes; a table may have at most 16777216 (16 MiB)")
}

func TestTunedDirTableAtTheCapIsRead(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a 16 MiB table")
	}
	fresh(t)
	dir := override(t, nil)
	src := synHead + "uplo=L n=64 batch=1024 | blocked 1.00\n"
	pad := maxTableBytes - len(src)
	comment := "#" + strings.Repeat("x", 1022) + "\n"
	src += strings.Repeat(comment, pad/len(comment)) + strings.Repeat("\n", pad%len(comment))
	require.Len(t, src, maxTableBytes)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "syn.x86-64-v4.txt"), []byte(src), 0o644))
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
}

func TestTunedDirDirectoryNamedLikeATable(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, nil)
	path := filepath.Join(dir, "syn.x86-64-v4.txt")
	require.NoError(t, os.Mkdir(path, 0o755))
	Reload()
	needsTable(t, warn, path, "is a directory, not a regular file")
}

// The built-in tables get the same checks (RegisterBuiltin takes any fs.FS).
func TestBuiltinTableNotARegularFile(t *testing.T) {
	fresh(t)
	builtinTables(t, fstest.MapFS{
		"ord.x86-64-v4.txt": {Data: []byte("# revision=1\n# keys: n:log\n[float64]\nn=64 | b 1\n"), Mode: os.ModeNamedPipe},
		"ord.x86-64-v2.txt": {Data: []byte("# revision=1\n# keys: n:log\n[float64]\nn=64 | a 1\n")},
	})
	_, err := run(bg, ordOp, Float64, MakeKey(Int(64)), v4)
	var te *TableError
	require.True(t, errors.As(err, &te), "%v", err)
	assert.EqualError(t, err, "ord.x86-64-v4.txt:1: the built-in table is a named pipe (FIFO), not a regular file")
	c, err := run(bg, ordOp, Float64, MakeKey(Int(64)), v3)
	require.NoError(t, err)
	assert.Equal(t, famA.With(), c)
}
