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
// with the embedded tuned/ directory; other files there are ignored. Tables
// already loaded are dropped (it reloads the settings).
func RegisterBuiltin(fsys fs.FS) {
	builtin.Lock()
	builtin.fsys = fsys
	builtin.Unlock()
	Reload()
}

func builtinFS() fs.FS {
	builtin.Lock()
	defer builtin.Unlock()
	return builtin.fsys
}
