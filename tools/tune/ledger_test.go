package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

func TestLedgerResumes(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, "potrf", "x86-64-v4", 1, "abcd1234")
	require.NoError(t, err)
	c1, c2 := potrfCell("L", "8", "16"), potrfCell("L", "64", "16")
	r1 := cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "abcd1234", DType: sel.Float64, Vals: c1.vals,
		Entries: []entry{{Spelling: "tiny", MS: 0.5}, {Spelling: "unblocked", MS: 0.7}},
		Bad:     []note{{"vendor", "matrix 0: off"}}}
	require.NoError(t, l.record(r1))
	_, ok := l.lookup(sel.Float64, c2)
	assert.False(t, ok)

	// A new process reads it back; a record of other kernels is stale.
	stale := r1
	stale.Kernels, stale.Vals = "ffff0000", c2.vals
	require.NoError(t, l.record(stale))
	l2, err := openLedger(dir, "potrf", "x86-64-v4", 1, "abcd1234")
	require.NoError(t, err)
	got, ok := l2.lookup(sel.Float64, c1)
	require.True(t, ok)
	assert.Equal(t, r1.Entries, got.Entries)
	assert.Equal(t, r1.Bad, got.Bad, "bad results survive a resume, so they are still reported")
	_, ok = l2.lookup(sel.Float32, c1)
	assert.False(t, ok, "dtypes are separate")
	_, ok = l2.lookup(sel.Float64, c2)
	assert.False(t, ok, "a cell measured on other kernel sources is measured again")
	assert.Equal(t, 1, l2.stale)

	// Another revision sees nothing.
	l3, err := openLedger(dir, "potrf", "x86-64-v4", 2, "abcd1234")
	require.NoError(t, err)
	assert.Empty(t, l3.done)
}

func TestLedgerSurvivesATornLine(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, "potrf", "x86-64-v4", 1, "k")
	require.NoError(t, err)
	c1, c2 := potrfCell("L", "8", "16"), potrfCell("L", "64", "16")
	require.NoError(t, l.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c1.vals}))
	// The process dies in the middle of the next record.
	f, err := os.OpenFile(filepath.Join(dir, "potrf.x86-64-v4.ledger.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"op":"potrf","dev`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	l2, err := openLedger(dir, "potrf", "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok := l2.lookup(sel.Float64, c1)
	assert.True(t, ok)
	require.NoError(t, l2.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c2.vals}))

	l3, err := openLedger(dir, "potrf", "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok = l3.lookup(sel.Float64, c2)
	assert.True(t, ok, "the record after a torn line starts on its own line")
}
