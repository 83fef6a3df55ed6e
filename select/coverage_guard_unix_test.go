//go:build unix

package sel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/coverage"
)

// An unusable BATCHLAS_COVERAGE_OUT costs one warning and the instrument,
// never a call: a FIFO at the shard's name (the first call blocked
// forever in the open), a symbolic link there (its target was
// overwritten), and a prefix that is a device or a directory (/dev/full
// created a file in /dev). Each case runs in a child process (this test
// binary again) under a timeout, so a regression that blocks the call
// fails the test instead of hanging it.
func TestUnusableCoverageOutWarnsOnceAndCallsRun(t *testing.T) {
	if plant := os.Getenv("SEL_COVERAGE_GUARD_CHILD"); plant != "" {
		coverageGuardChild(plant)
		return
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	require.NoError(t, os.WriteFile(target, []byte("keep me\n"), 0o644))
	cases := []struct{ plant, prefix, why string }{
		{"fifo", filepath.Join(dir, "fifo"), "is a named pipe (FIFO), not a regular file"},
		{"link:" + target, filepath.Join(dir, "link"), "is a symbolic link"},
		{"none", dir, "is a directory, not a file prefix"},
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		cases = append(cases, struct{ plant, prefix, why string }{"none", "/dev/full", "is a character device, not a file prefix"})
	}
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestUnusableCoverageOutWarnsOnceAndCallsRun$", "-test.count=1")
		// TestMain clears BATCHLAS_ variables: the child sets its own.
		cmd.Env = append(os.Environ(), "SEL_COVERAGE_GUARD_CHILD="+tc.plant, "SEL_COVERAGE_GUARD_PREFIX="+tc.prefix)
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		require.False(t, timedOut, "%s: the child's op calls still blocked after 20s:\n%s", tc.prefix, out)
		require.NoError(t, err, "%s:\n%s", tc.prefix, out)
		text := string(out)
		assert.Contains(t, text, "child: 2 calls returned", tc.prefix)
		assert.Equal(t, 1, strings.Count(text, "batchlas: BATCHLAS_COVERAGE_OUT:"), "%s: one warning:\n%s", tc.prefix, text)
		assert.Contains(t, text, tc.why, tc.prefix)
		assert.Contains(t, text, "coverage is off", tc.prefix)
	}
	data, _ := os.ReadFile(target)
	assert.Equal(t, "keep me\n", string(data), "the link's target was written to")
	ents, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range ents {
		assert.False(t, strings.HasPrefix(e.Name(), filepath.Base(dir)+"."), "a shard %s was created next to the directory prefix", e.Name())
	}
}

// coverageGuardChild plants what the case names at this process's shard
// name, then makes two op calls and says whether they returned.
func coverageGuardChild(plant string) {
	prefix := os.Getenv("SEL_COVERAGE_GUARD_PREFIX")
	if prefix == "" {
		fmt.Println("child: no prefix")
		os.Exit(1)
	}
	os.Setenv("BATCHLAS_COVERAGE_OUT", prefix)
	shard := coverage.ShardName(prefix, os.Getpid())
	switch {
	case plant == "fifo":
		if err := syscall.Mkfifo(shard, 0o644); err != nil {
			fmt.Println("child: mkfifo:", err)
			os.Exit(1)
		}
	case strings.HasPrefix(plant, "link:"):
		if err := os.Symlink(strings.TrimPrefix(plant, "link:"), shard); err != nil {
			fmt.Println("child: symlink:", err)
			os.Exit(1)
		}
	}
	SetWarnOutput(os.Stdout)
	Reload()
	for range 2 {
		if _, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4); err != nil {
			fmt.Println("child: call failed:", err)
			os.Exit(1)
		}
	}
	fmt.Println("child: 2 calls returned")
}
