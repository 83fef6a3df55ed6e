package main

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

func TestTablesDocIsDeterministic(t *testing.T) {
	fsys := fstest.MapFS{
		"potrf.x86-64-v4.txt": {Data: []byte(regretTable)},
		"README.md":           {Data: []byte("not a table")},
	}
	first, err := tablesDoc(sel.Ops(), fsys)
	require.NoError(t, err)
	for i := 0; i < 5; i++ { // map iteration order changes between runs
		again, err := tablesDoc(sel.Ops(), fsys)
		require.NoError(t, err)
		require.Equal(t, string(first), string(again))
	}
	doc := string(first)
	for _, want := range []string{
		"## gemm", "## potrf", "## trsm",
		"- keys: `uplo:exact n:log:4 batch:log`",
		"- vendor library: lapack",
		"- last-resort order: blocked, vendor",
		"| `lpanel` | panel | native |",
		"`lpanel:panel=8`",
		"### potrf.x86-64-v4.txt",
		"float64: 4 rows",
		"| `tiny` | 2 | 1..2 | 1 |",
		"| `unblocked` | 2 | 4..8 | 1 |",
	} {
		assert.Contains(t, doc, want)
	}
	assert.NotContains(t, doc, "README")
}

func TestTablesDocWinMap(t *testing.T) {
	table := `# op=potrf device=x86-64-v4 revision=3 date=2026-11-29
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny 1
uplo=L n=1 batch=16 | tiny 1
uplo=L n=64 batch=1 | unblocked 1
uplo=L n=64 batch=16 | lpanel:panel=8 1
`
	doc, err := tablesDoc(sel.Ops(), fstest.MapFS{"potrf.x86-64-v4.txt": {Data: []byte(table)}})
	require.NoError(t, err)
	assert.Contains(t, string(doc), "| n \\ batch | 1 | 16 |\n|---|---|---|\n| 1 | tiny | tiny |\n| 64 | unblocked | lpanel:panel=8 |\n")
	assert.NotContains(t, string(doc), "Rows won per uplo", "one combination of exact keys: nothing to break down")
	assert.Contains(t, string(doc), "Provenance: `op=potrf device=x86-64-v4 revision=3 date=2026-11-29`")
}

func TestTablesDocWinsPerExactCombination(t *testing.T) {
	table := `# op=potrf device=x86-64-v4 revision=3 date=2026-11-29
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny 1
uplo=L n=64 batch=1 | unblocked 1
uplo=L n=64 batch=16 | unblocked 1
uplo=U n=1 batch=1 | tiny 1
uplo=U n=64 batch=16 | vendor 1
`
	doc, err := tablesDoc(sel.Ops(), fstest.MapFS{"potrf.x86-64-v4.txt": {Data: []byte(table)}})
	require.NoError(t, err)
	assert.Contains(t, string(doc), "Rows won per uplo:\n\n| uplo | `tiny` | `unblocked` | `vendor` |\n|---|---|---|---|\n| L | 1 | 2 | |\n| U | 1 | | 1 |\n")
}
