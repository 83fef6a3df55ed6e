package allops_test

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	_ "github.com/batchlas-go/batchlas/internal/allops"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestShippedTables fails the suite when a table embedded from tuned/ does
// not parse, is stale (R9), or names a spelling that is not a candidate of
// its op, and when a table names an op that does not exist. It lives here,
// with every op linked, rather than beside the embedding in the root
// package: a test there that links every op makes go test compile each of
// them again against the root package's test build.
func TestShippedTables(t *testing.T) {
	require.NoError(t, sel.CheckBuiltin())
	ents, err := fs.ReadDir(opkit.BuiltinTables(), ".")
	require.NoError(t, err)
	for _, e := range ents {
		if e.Name() == "README.md" {
			continue
		}
		op, _, _, err := sel.SplitTableName(e.Name())
		require.NoError(t, err, "tuned/ holds only <op>.<device>.txt tables and its README")
		require.NotNil(t, sel.Lookup(op), "tuned/%s is a table of an op that is not linked", e.Name())
	}
}
