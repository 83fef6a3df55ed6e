package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

func TestExplainShowsTheWalk(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "potrf.x86-64-v4.txt"), []byte(regretTable), 0o644))
	t.Cleanup(sel.Reload) // registered first: runs after t.Setenv restores the variable
	t.Setenv("BATCHLAS_TUNED_DIR", dir)
	sel.Reload()
	var out, errb bytes.Buffer
	code := mainCode([]string{"explain", "potrf", "float64", "uplo=L", "n=7", "batch=2", "--device", "x86-64-v4"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	assert.Contains(t, s, "pin:      none (automatic)")
	assert.Contains(t, s, "table 1:  potrf.x86-64-v4.txt (override, own; revision 3)")
	assert.Contains(t, s, "nearest row: line 7, distance 1.771: uplo=L n=8 batch=1")
	assert.Regexp(t, `1\. unblocked +1 ms +can_run  <- chosen`, s)
	assert.Regexp(t, `2\. tiny +1\.2 ms +can_run\n`, s)
	assert.Contains(t, s, "trace:    potrf float64 uplo=L n=7 batch=2 -> unblocked  1.00 ms at row n=8 batch=1 (d=1.8), next tiny 1.20 ms  [override x86-64-v4]")

	// A bad pin is the decision's error, and a non-zero exit.
	t.Setenv("BATCHLAS_POTRF_ROUTE", "lpanel:panel=7")
	sel.Reload()
	out.Reset()
	assert.Equal(t, 1, mainCode([]string{"explain", "potrf", "float64", "uplo=L", "n=7", "batch=2"}, &out, &errb))
	assert.Contains(t, out.String(), "decision: error:")
}
