package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
	sel "github.com/batchlas-go/batchlas/select"
)

// cacheFileText is a cache file as first-use tuning writes it for gemm on
// this host and build, with one row.
func cacheFileText(kernels string) (name, text string) {
	d := batchlas.Host()
	label, ident := d.Key, ""
	if d.Identity != "" {
		label, ident = d.Key+"."+d.Identity, " identity="+d.Identity
	}
	b := sel.Build()
	text = fmt.Sprintf("# op=gemm device=%s%s revision=%d kernels=%s date=2026-12-04\n# source=online tags=%q go=%s cores=%d\n# keys: %s\n[float64]\nta=N tb=N m=24 n=24 k=24 batch=10 | simd 0.01 | direct 0.02\n",
		d.Key, ident, gemm.Op.Spec().Revision, kernels, b.Tags, b.Go, runtime.NumCPU(), sel.FormatKeys(gemm.Op.Keys()))
	return "gemm." + label + ".1-a.cache", text
}

func TestCacheListCheckMergeClear(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	name, text := cacheFileText(gemm.Op.KernelsHash())
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	oldName := strings.Replace(name, "1-a", "2-b", 1)
	_, oldText := cacheFileText("00000000")
	require.NoError(t, os.WriteFile(filepath.Join(dir, oldName), []byte(oldText), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))

	code, stdout, stderr := tune("cache", "list", "--dir", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, name+"  op=gemm ")
	assert.Contains(t, stdout, "rows=1 date=2026-12-04  used by this build")
	assert.Contains(t, stdout, oldName+"  op=gemm ")
	assert.Contains(t, stdout, "not used: measured on other kernel code (kernels=00000000")
	assert.Contains(t, stdout, "2 file(s) in "+dir)

	code, _, _ = tune("cache", "check", "--dir", dir)
	assert.Equal(t, 0, code, "a file of another key is not a problem")
	corrupt := strings.Replace(name, "1-a", "3-c", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, corrupt), []byte("not a table"), 0o644))
	code, stdout, stderr = tune("cache", "check", "--dir", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, corrupt+"  unreadable: ")
	assert.Contains(t, stderr, "1 file(s) cannot be read or parsed")

	code, stdout, stderr = tune("cache", "merge", "--dir", dir, "--out", out)
	require.Equal(t, 0, code, stderr)
	table := strings.Replace(name, ".1-a.cache", ".txt", 1)
	assert.Contains(t, stdout, "wrote "+filepath.Join(out, table)+": 1 row(s)")
	merged, err := os.ReadFile(filepath.Join(out, table))
	require.NoError(t, err)
	assert.Contains(t, string(merged), "ta=N tb=N m=24 n=24 k=24 batch=10 | simd 0.01 | direct 0.02")
	assert.NotContains(t, string(merged), "00000000", "rows this build does not use are not merged")
	code, _, stderr = tune("check", "--dir", out)
	assert.Equal(t, 0, code, "the merged table is a valid table: %s", stderr)
	code, _, stderr = tune("cache", "merge", "--dir", dir, "--out", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "exists; pass --force")
	code, _, stderr = tune("cache", "merge", "--dir", dir, "--out", out, "--force")
	assert.Equal(t, 0, code, stderr)
	code, stdout, _ = tune("cache", "merge", "--dir", dir, "--out", out, "--cores", "64")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "nothing written")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "."+name+".tmp-123"), []byte("half"), 0o644))
	code, stdout, _ = tune("cache", "clear", "--dir", dir)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "removed 4 file(s)")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 1)
	assert.Equal(t, "notes.txt", left[0].Name(), "clear removes cache files only")

	code, _, stderr = tune("cache", "--dir", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "want one action")
	code, _, stderr = tune("cache", "wipe", "--dir", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `unknown action "wipe"`)
}
