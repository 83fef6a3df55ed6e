package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/coverage"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestUnreachedListsLinkedCandidatesNoReachedRowNames(t *testing.T) {
	rows := []coverage.Row{
		{Kind: coverage.Linked, Op: "potrf", DType: "float64", Choice: "tiny", Origin: "native"},
		{Kind: coverage.Linked, Op: "potrf", DType: "float64", Choice: "unblocked", Origin: "native"},
		{Kind: coverage.Linked, Op: "potrf", DType: "float32", Choice: "tiny", Origin: "native"},
		{Kind: coverage.Linked, Op: "potrf", DType: "float64", Choice: "vendor", Origin: "vendor"},
		// Reached on another device and through a pin: still reached.
		{Kind: coverage.Reached, Op: "potrf", DType: "float64", Device: "x86-64-v3", Choice: "tiny", Source: "pinned", Calls: 3},
		// A miss names no choice; a float64 reach does not cover float32.
		{Kind: coverage.Miss, Op: "potrf", DType: "float32"},
		{Kind: coverage.Reached, Op: "potrf", DType: "float64", Choice: "vendor", Calls: 0},
	}
	var got []string
	for _, r := range unreached(coverage.Merge(rows)) {
		got = append(got, r.DType+" "+r.Choice)
	}
	assert.Equal(t, []string{"float32 tiny", "float64 unblocked"}, got)
}

const shardHeader = "kind,op,dtype,device,choice,origin,source,table,calls,key,native_existed,native_supported,vendor_lib\n"

func TestCoverageCommandMergesShardsAndRequiresReached(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "cov.1.csv")
	b := filepath.Join(dir, "cov.2.csv")
	require.NoError(t, os.WriteFile(a, []byte(shardHeader+
		"linked,potrf,float64,x86-64-v4,tiny,native,,,0,,1,-1,lapack\n"+
		"linked,potrf,float64,x86-64-v4,unblocked,native,,,0,,1,-1,lapack\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,pinned,,5,uplo=L n=4 batch=2,1,1,lapack\n"), 0o644))
	require.NoError(t, os.WriteFile(b, []byte(shardHeader+
		"reached,potrf,float64,x86-64-v4,tiny,native,pinned,,7,uplo=L n=4 batch=2,1,1,lapack\n"), 0o644))
	var out, errb bytes.Buffer
	code := mainCode([]string{"coverage", "--require-reached", a, b}, &out, &errb)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "12 calls", "calls of the two shards are summed")
	assert.Contains(t, errb.String(), "potrf float64 unblocked")
	assert.NotContains(t, errb.String(), "float64 tiny")

	require.NoError(t, os.WriteFile(b, []byte(shardHeader+
		"reached,potrf,float64,x86-64-v4,unblocked,native,last resort,,1,uplo=L n=4 batch=2,1,1,lapack\n"), 0o644))
	out.Reset()
	errb.Reset()
	assert.Equal(t, 0, mainCode([]string{"coverage", "--require-reached", a, b}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "every linked candidate was reached")

	assert.Equal(t, 1, mainCode([]string{"coverage", filepath.Join(dir, "missing.csv")}, &out, &errb))
}

func TestSuggestRanksCallsTimesDistance(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "potrf.x86-64-v4.txt"), []byte(regretTable), 0o644))
	t.Cleanup(sel.Reload) // registered first: runs after t.Setenv restores the variable
	t.Setenv("BATCHLAS_TUNED_DIR", dir)
	sel.Reload()
	reached := func(key string, calls int64) coverage.Row {
		return coverage.Row{Kind: coverage.Reached, Op: "potrf", DType: "float64", Device: "x86-64-v4", Choice: "tiny",
			Source: "table", Table: "potrf.x86-64-v4.txt", Calls: calls, Key: key}
	}
	rows := []coverage.Row{
		reached("uplo=L n=2 batch=1", 1000),  // on a row: never suggested
		reached("uplo=L n=64 batch=1", 10),   // 4*log2(64/8) = 12 -> 120
		reached("uplo=L n=16 batch=64", 100), // 4*1 + 6 = 10 -> 1000
		reached("uplo=L n=3 batch=1", 1),     // small
	}
	got := suggestTuning(rows, 2)
	require.Len(t, got, 2)
	assert.Equal(t, "uplo=L n=16 batch=64", got[0].row.Key)
	assert.InDelta(t, 10, got[0].distance, 1e-9)
	assert.Equal(t, "uplo=L n=64 batch=1", got[1].row.Key)
	assert.Equal(t, "uplo=L n=8 batch=1", got[1].nearest)
}
