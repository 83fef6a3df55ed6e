package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The verdict on peaks measured in a quiet phase and in a shared one of
// the same 2-core Zen 5 guest (stop 72), and where there is nothing to
// compare.
func TestSharedCoresWhy(t *testing.T) {
	assert.Empty(t, sharedCoresWhy(113, 212, 2), "two workers at 0.94 of twice one")
	assert.Equal(t, "the FMA peak on 2 workers was 113 GFLOP/s float64, 1.0x one worker's 113: a busy host or another process shares the cores",
		sharedCoresWhy(113, 113, 2))
	assert.NotEmpty(t, sharedCoresWhy(100, 149, 2), "just under 0.75 of twice one")
	assert.Empty(t, sharedCoresWhy(100, 150, 2))
	assert.Empty(t, sharedCoresWhy(113, 60, 1), "one worker: nothing to share")
	assert.Empty(t, sharedCoresWhy(0, 0, 2), "no peak measured")
}

func TestSharedCoresLine(t *testing.T) {
	assert.Empty(t, sharedCoresLine(nil, 3, "why"))
	assert.Equal(t, "cores shared while timing 2 of 5 shapes (why): their times on all workers are a loaded machine's; time them again on a quiet machine: gemm float64 m=8; potrf float32 n=8",
		sharedCoresLine([]string{"gemm float64 m=8", "potrf float32 n=8"}, 5, "why"))
}

// tune run looks at the cores before the first op and after each, and
// names an op measured while they were shared.
func TestRunNamesAnOpMeasuredOnSharedCores(t *testing.T) {
	old := corePeaks
	t.Cleanup(func() { corePeaks = old })
	looks := 0
	corePeaks = func() (float64, float64, int, bool) {
		looks++
		return 100, 100, 2, true // shared at every look
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := mainCode([]string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2,batch=2",
		"--out", out, "--reps", "1", "--target", "20us", "--refine=false"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, 2, looks, "before the op and after it")
	why := sharedCoresWhy(100, 100, 2)
	assert.Contains(t, stderr.String(), "tune run: warning: the cores are shared: "+why+"; what runs on all workers now times as on a loaded machine\n")
	assert.Contains(t, stderr.String(), "tune run: warning: potrf was measured while the cores were shared ("+why+"); its table ranks the candidates as a loaded machine runs them: measure it again on a quiet machine (--op potrf)\n")
	assert.FileExists(t, filepath.Join(out, tableFileName("potrf", batchlas.Host().Label())), "the table is written all the same")
}
