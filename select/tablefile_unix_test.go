//go:build unix

package sel

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// within fails the test when f does not return in time (a hang is the
// defect), then calls unblock until f returns, so the test ends and the
// core's state stays consistent.
func within(t *testing.T, d time.Duration, f func(), unblock func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
		return
	case <-time.After(d):
		t.Errorf("still blocked after %v", d)
	}
	for {
		unblock()
		select {
		case <-done:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// A FIFO named like a table must never be opened for reading in a
// blocking way: the call would wait for a writer forever.
func TestTunedDirFIFO(t *testing.T) {
	warn, _ := fresh(t)
	dir := override(t, nil)
	path := filepath.Join(dir, "syn.x86-64-v4.txt")
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	Reload()
	within(t, 5*time.Second, func() { needsTable(t, warn, path, "is a named pipe (FIFO), not a regular file") }, func() {
		// Give the blocked reader a writer, and EOF.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// A symlink to a device named like a table (here /dev/zero, which never
// ends) is refused without reading it.
func TestTunedDirSymlinkToDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	warn, _ := fresh(t)
	dir := override(t, nil)
	path := filepath.Join(dir, "syn.x86-64-v4.txt")
	require.NoError(t, os.Symlink("/dev/zero", path))
	Reload()
	needsTable(t, warn, path, "is a character device, not a regular file")
}

// A symlink to a regular table is followed.
func TestTunedDirSymlinkToTable(t *testing.T) {
	fresh(t)
	dir := override(t, nil)
	target := filepath.Join(t.TempDir(), "elsewhere.txt")
	require.NoError(t, os.WriteFile(target, []byte(synHead+"uplo=L n=64 batch=1024 | blocked 1.00\n"), 0o644))
	require.NoError(t, os.Symlink(target, filepath.Join(dir, "syn.x86-64-v4.txt")))
	Reload()
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c)
}

// A dangling symlink is a table that cannot be read: an error from the
// calls that need it.
func TestTunedDirDanglingSymlink(t *testing.T) {
	fresh(t)
	dir := override(t, nil)
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "syn.x86-64-v4.txt")))
	Reload()
	_, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	assert.ErrorContains(t, err, "syn.x86-64-v4.txt:1: cannot read ")
}
