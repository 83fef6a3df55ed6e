package batchlas

import (
	"embed"
	"io/fs"

	sel "github.com/batchlas-go/batchlas/select"
)

// tuned holds the shipped tables. The whole directory is embedded (not
// tuned/*.txt) so that a checkout with no table yet still builds; the core
// reads only the <op>.<device>.txt files in it.
//
//go:embed tuned
var tuned embed.FS

func init() {
	sub, err := fs.Sub(tuned, "tuned")
	if err != nil {
		panic(err) // unreachable: "tuned" is embedded above
	}
	sel.RegisterBuiltin(sub)
}

// BuiltinTables returns the embedded tuned/ directory (for tools/tune).
func BuiltinTables() fs.FS {
	sub, _ := fs.Sub(tuned, "tuned")
	return sub
}
