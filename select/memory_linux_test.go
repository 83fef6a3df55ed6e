package sel

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// addressSpaceLimit is the limit under which any accepted table must load:
// a process of 2 GiB of address space (docs/select.md, "What a table
// costs").
const addressSpaceLimit = 2 << 30

// TestLargestTablesLoadUnder2GiB loads each of the costliest table shapes
// (largestTable) in a child process limited to 2 GiB of address space
// (RLIMIT_AS, set by the child before it loads anything): an override
// table read through the first call of its op, which must succeed. Before
// the caps on rows and entries, the largest accepted table took 600-780 MB
// resident, and such a process died.
func TestLargestTablesLoadUnder2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("loads three 16 MiB tables in child processes")
	}
	for _, shape := range []string{"rows", "entries", "values"} {
		t.Run(shape, func(t *testing.T) {
			dir := t.TempDir()
			data := largestTable(shape)
			require.LessOrEqual(t, len(data), maxTableBytes)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "wid.x86-64-v4.txt"), []byte(data), 0o644))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "SEL_TEST_MEMCHILD="+shape, "GOGC=100", "GOMEMLIMIT=off", "BATCHLAS_TUNED_DIR="+dir)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "child loading the %q table (%d bytes) under a 2 GiB address space:\n%s", shape, len(data), out)
			t.Logf("%s, %d bytes: %s", shape, len(data), strings.TrimSpace(string(out)))
		})
	}
}

// memChildMain is the test binary re-executed by
// TestLargestTablesLoadUnder2GiB: it limits its address space, then makes
// the first call of wid, which loads the table in BATCHLAS_TUNED_DIR.
func memChildMain() int {
	lim := syscall.Rlimit{Cur: addressSpaceLimit, Max: addressSpaceLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		return 2
	}
	SetWarnOutput(os.Stderr)
	wid := Register(widOp.spec) // in this process only: the suite's lists of ops do not have it
	Reload()
	c, err := run(bg, wid, Float64, synKey("L", 64, 1), v4)
	if err != nil {
		fmt.Fprintln(os.Stderr, "first call:", err)
		return 2
	}
	if c != blocked {
		fmt.Fprintf(os.Stderr, "first call chose %v, want blocked\n", c)
		return 2
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	peak := ""
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for l := range strings.Lines(string(st)) {
			if strings.HasPrefix(l, "VmPeak") || strings.HasPrefix(l, "VmHWM") {
				peak += " " + strings.Join(strings.Fields(l), " ")
			}
		}
	}
	fmt.Printf("heap in use %d MB, from the OS %d MB;%s\n", ms.HeapInuse>>20, ms.Sys>>20, peak)
	return 0
}
