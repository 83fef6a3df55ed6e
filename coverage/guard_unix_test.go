//go:build unix

package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// within fails the test when f has not returned after d, so a regression
// to a blocking open fails instead of hanging the suite.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v (an open that waits on a FIFO?)", d)
	}
}

// A FIFO at the shard's name is refused at once: the open never waits for
// a reader.
func TestOpenRefusesFIFOShard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cov")
	if err := syscall.Mkfifo(ShardName(path, os.Getpid()), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	within(t, 5*time.Second, func() {
		r, err := Open(path)
		assert.Nil(t, r)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is a named pipe (FIFO), not a regular file")
	})
}

// A symbolic link planted at the shard's name is refused, and its target
// keeps its bytes.
func TestOpenDoesNotFollowPlantedSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	require.NoError(t, os.WriteFile(target, []byte("keep me\n"), 0o644))
	path := filepath.Join(dir, "cov")
	require.NoError(t, os.Symlink(target, ShardName(path, os.Getpid())))
	r, err := Open(path)
	if r != nil {
		r.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a symbolic link")
	data, _ := os.ReadFile(target)
	assert.Equal(t, "keep me\n", string(data), "the link's target was written to")
}

// BATCHLAS_COVERAGE_OUT=/dev/full: a prefix that is an existing device is
// refused, and nothing is created next to it. A temporary FIFO and
// directory stand in for /dev/full where /dev is not ours to check.
func TestOpenRefusesNonRegularPrefix(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for path, kind := range map[string]string{"/dev/full": "a character device", fifo: "a named pipe (FIFO)", dir: "a directory"} {
		if _, err := os.Stat(path); err != nil {
			continue // no /dev/full here
		}
		r, err := Open(path)
		assert.Nil(t, r, path)
		if assert.Error(t, err, path) {
			assert.Contains(t, err.Error(), "is "+kind+", not a file prefix", path)
		}
		_, statErr := os.Lstat(ShardName(path, os.Getpid()))
		assert.ErrorIs(t, statErr, os.ErrNotExist, "%s: a shard was created next to it", path)
	}
}

// A shard left by an earlier process with the same pid is appended to, and
// the counts of both processes are kept: ReadFiles returns the segments
// side by side and Merge sums them.
func TestOpenAppendsToSamePidShard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cov")
	for range 2 {
		r, err := Open(path)
		require.NoError(t, err)
		c := r.Counter(reached("tiny", "n=8"))
		c.Add()
		c.Add()
		require.NoError(t, r.Close())
	}
	rows, err := ReadFiles(ShardName(path, os.Getpid()))
	require.NoError(t, err)
	merged := Merge(rows)
	require.Len(t, merged, 1)
	assert.Equal(t, int64(4), merged[0].Calls, "two processes of 2 calls each")
}

func TestReadFilesRefusesDeviceLinkAndOversized(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.csv")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	within(t, 5*time.Second, func() {
		_, err := ReadFiles(zero)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is a character device, not a regular file")
	})
	big := filepath.Join(dir, "big.csv")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(183_000_000)) // sparse: no disk used
	f.Close()
	_, err = ReadFiles(big)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has 183000000 bytes; a coverage shard may have at most 67108864 (64 MiB)")
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		within(t, 5*time.Second, func() {
			_, err := ReadFiles(fifo)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "is a named pipe (FIFO)")
		})
	}
}

// Many shards are bounded together too: 9 sparse shards of 60 MB pass
// 512 MiB and are refused before the last is parsed.
func TestReadFilesBoundsTheTotal(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 9 {
		p := filepath.Join(dir, fmt.Sprintf("cov.%d.csv", i))
		f, err := os.Create(p)
		require.NoError(t, err)
		_, err = f.WriteString(Header + "\n")
		require.NoError(t, err)
		require.NoError(t, f.Truncate(60_000_000))
		require.NoError(t, f.Close())
		paths = append(paths, p)
	}
	_, err := ReadFiles(paths...)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "merge fewer at a time")
}
