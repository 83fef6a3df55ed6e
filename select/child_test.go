package sel

import (
	"fmt"
	"os"
)

// childMain is the test binary re-executed as a separate process (see
// TestCoverageTwoProcesses): it makes a few decisions with coverage on and
// exits, flushing only when SEL_TEST_CHILD=flush. Without the flush, every
// distinct row must still be on disk.
func childMain() int {
	RegisterBuiltin(os.DirFS("testdata/tuned"))
	Reload()
	k := synKey("L", 64, 1024)
	for i := 0; i < 3; i++ {
		if _, err := run(bg, synOp, Float64, k, v4); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	if _, err := run(bg, synOp, Float64, synKey("L", 8, 1024), v4); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	refused.Store(&map[string]bool{"blocked": true, "lpanel:panel=8": true})
	if _, err := run(bg, lroOp, Float64, k, v4nov); err == nil {
		fmt.Fprintln(os.Stderr, "want a NoRouteError")
		return 2
	}
	if os.Getenv("SEL_TEST_CHILD") == "flush" {
		if err := Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	return 0
}
