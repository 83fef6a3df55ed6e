//go:build !linux

package sel

import (
	"fmt"
	"os"
)

// memChildMain is not run where RLIMIT_AS cannot be set the same way: the
// 2 GiB test is Linux's.
func memChildMain() int {
	fmt.Fprintln(os.Stderr, "the address-space test runs on Linux only")
	return 2
}
