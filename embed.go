package batchlas

import (
	"embed"
	"io/fs"

	"github.com/batchlas-go/batchlas/internal/rootlink"
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
	// For tools/tune and the tests, through internal/opkit.BuiltinTables.
	rootlink.SetTables(sub)
}
