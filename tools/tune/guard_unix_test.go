//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/potrf"
)

// within fails the test when f has not returned after d: a regression to
// a blocking open fails instead of hanging the suite.
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

// unusableFiles plants, under name in a fresh directory each, the files
// every reader of the tuner must refuse: a FIFO, links to /dev/zero and
// /dev/urandom, and a 183 MB file (sparse: no disk used). It returns the
// directories with the reason each must be refused for.
func unusableFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	out[dir] = "is a named pipe (FIFO), not a regular file"
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		dir := t.TempDir()
		require.NoError(t, os.Symlink(dev, filepath.Join(dir, name)))
		out[dir] = "is a character device, not a regular file"
	}
	dir = t.TempDir()
	f, err := os.Create(filepath.Join(dir, name))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(183_000_000))
	require.NoError(t, f.Close())
	out[dir] = "has 183000000 bytes;"
	return out
}

func TestCheckDirRefusesUnusableFiles(t *testing.T) {
	for dir, why := range unusableFiles(t, "potrf.x86-64-v4.txt") {
		within(t, 10*time.Second, func() {
			code, _, errs := tune("check", "--dir", dir)
			assert.Equal(t, 1, code, errs)
			assert.Contains(t, errs, filepath.Join(dir, "potrf.x86-64-v4.txt")+":1: ")
			assert.Contains(t, errs, why)
		})
	}
}

func TestPlotDirRefusesUnusableFiles(t *testing.T) {
	for dir, why := range unusableFiles(t, "potrf.x86-64-v4.txt") {
		within(t, 10*time.Second, func() {
			code, _, errs := tune("plot", "--dir", dir, "--out", t.TempDir(), "--op", "potrf")
			assert.Equal(t, 1, code, errs)
			assert.Contains(t, errs, why)
		})
	}
}

func TestCoverageRefusesUnusableFiles(t *testing.T) {
	for dir, why := range unusableFiles(t, "cov.1.csv") {
		within(t, 10*time.Second, func() {
			code, _, errs := tune("coverage", filepath.Join(dir, "cov.1.csv"))
			assert.Equal(t, 1, code, errs)
			assert.Contains(t, errs, why)
		})
	}
}

// A ledger that is not a regular file is refused when the run opens it,
// without blocking; a link planted at its name is not written through.
func TestLedgerRefusesUnusableFiles(t *testing.T) {
	name := "potrf.x86-64-v4.ledger.jsonl"
	for dir, why := range unusableFiles(t, name) {
		if why == "has 183000000 bytes;" {
			continue // under the ledger's bound (256 MiB): read, as a regular file
		}
		within(t, 10*time.Second, func() {
			_, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
			require.Error(t, err)
			assert.Contains(t, err.Error(), why)
		})
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	require.NoError(t, os.WriteFile(target, []byte("keep me\n"), 0o644))
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	err = l.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", Vals: potrfCell("L", "8", "1").vals})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a symbolic link")
	data, _ := os.ReadFile(target)
	assert.Equal(t, "keep me\n", string(data))
}

// A ledger over its bound is refused from its size.
func TestLedgerRefusesOversized(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "potrf.x86-64-v4.ledger.jsonl"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(ledgerLimit.Max+1))
	require.NoError(t, f.Close())
	_, err = openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a ledger may have at most 268435456 (256 MiB)")
}

// --out naming something that is not a regular file is refused and left
// as it is; --out naming an existing directory writes the page into it.
func TestOutTargetsMustBeRegular(t *testing.T) {
	dir, out := writePlotTable(t), t.TempDir()
	fifo := filepath.Join(out, "potrf.x86-64-v4.float64.winners.svg")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	within(t, 10*time.Second, func() {
		code, _, errs := tune("plot", "--dir", dir, "--out", out, "--op", "potrf", "--dtype", "float64")
		assert.Equal(t, 1, code)
		assert.Contains(t, errs, fifo+": is a named pipe (FIFO), not a regular file")
	})
	fi, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeNamedPipe, "the FIFO was replaced")
}
