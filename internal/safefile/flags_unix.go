//go:build unix

package safefile

import "syscall"

// Flags added to every open: never block on a FIFO, and (for appends)
// never follow a link planted at the file's name.
const (
	nonBlock = syscall.O_NONBLOCK
	noFollow = syscall.O_NOFOLLOW
)
