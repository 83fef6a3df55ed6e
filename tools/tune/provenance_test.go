package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernels hash sees code, not comments or spacing: a comment fix or a
// gofmt run leaves it alone, a changed constant or instruction does not.
// (Line breaks where Go reads them as semicolons still count.)
func TestCodeOfIgnoresCommentsAndLayoutOnly(t *testing.T) {
	goA := "package p\n\n// f is one.\nfunc f() int { return 1 }\n"
	goB := "package p\n/* a\n block */\nfunc  f()  int {\treturn 1 } // one\n"
	goC := "package p\n\nfunc f() int { return 2 }\n"
	assert.Equal(t, string(codeOf("x.go", []byte(goA))), string(codeOf("x.go", []byte(goB))))
	assert.NotEqual(t, string(codeOf("x.go", []byte(goA))), string(codeOf("x.go", []byte(goC))))

	asmA := "// f returns.\nTEXT ·f(SB), NOSPLIT, $0-0\n\tRET\n"
	asmB := "TEXT ·f(SB), NOSPLIT, $0-0\n\n   RET   // done\n"
	asmC := "TEXT ·f(SB), NOSPLIT, $0-0\n\tVZEROUPPER\n\tRET\n"
	assert.Equal(t, string(codeOf("x.s", []byte(asmA))), string(codeOf("x.s", []byte(asmB))))
	assert.NotEqual(t, string(codeOf("x.s", []byte(asmA))), string(codeOf("x.s", []byte(asmC))))
}

// The kernels hash changes with any token of code and with build
// constraints and directives, in Go and assembly, and not with comments,
// spacing, or test files.
func TestKernelsHashSeesCodeAndBuildConstraintsNotComments(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"k/a.go":       "//go:build amd64 && !purego\n\npackage k\n\n// f is one.\nfunc f() int { return 1 }\n",
		"k/a_amd64.s":  "//go:build !purego\n\n// f returns.\nTEXT ·f(SB), $0\n\tRET\n",
		"k/b_other.go": "//go:build !amd64 || purego\n\npackage k\n\nfunc f() int { return 1 }\n",
	}
	write := func(name, src string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(src), 0o644))
	}
	for name, src := range files {
		write(name, src)
	}
	globs := []string{"k/*.go", "k/*.s"}
	hash := func() string {
		h, err := kernelsHash(root, globs)
		require.NoError(t, err)
		return h
	}
	base := hash()
	for _, tc := range []struct {
		file, from, to string
		changes        bool
	}{
		{"k/a.go", "// f is one.", "// f returns one.", false},
		{"k/a.go", "func f() int { return 1 }", "func  f()  int {\treturn 1 }", false},
		{"k/a.go", "return 1", "return 2", true},
		{"k/a.go", "//go:build amd64 && !purego", "//go:build amd64", true},
		{"k/a.go", "//go:build amd64 && !purego", "//go:build  amd64  &&  !purego", false},
		{"k/a.go", "// f is one.\n", "// f is one.\n//go:noinline\n", true},
		{"k/a.go", "//go:build amd64 && !purego\n", "//go:build amd64 && !purego\n// +build amd64,!purego\n", true},
		{"k/a_amd64.s", "// f returns.", "// f returns nothing.", false},
		{"k/a_amd64.s", "\tRET", "\tVZEROUPPER\n\tRET", true},
		{"k/a_amd64.s", "//go:build !purego", "//go:build amd64 && !purego", true},
		{"k/b_other.go", "//go:build !amd64 || purego", "//go:build purego", true},
	} {
		src := files[tc.file]
		require.Contains(t, src, tc.from)
		write(tc.file, strings.Replace(src, tc.from, tc.to, 1))
		if tc.changes {
			assert.NotEqual(t, base, hash(), "%s: %q -> %q must change the hash", tc.file, tc.from, tc.to)
		} else {
			assert.Equal(t, base, hash(), "%s: %q -> %q must not change the hash", tc.file, tc.from, tc.to)
		}
		write(tc.file, src)
	}
	write("k/a_test.go", "package k\n\nfunc g() {}\n")
	write("k/doc.go", "// Package k.\npackage k\n")
	assert.Equal(t, base, hash(), "tests and doc.go are not kernels")
	require.NoError(t, os.Rename(filepath.Join(root, "k/b_other.go"), filepath.Join(root, "k/c_other.go")))
	assert.NotEqual(t, base, hash(), "a file's name is part of its build constraints")
}

// Every op's kernel files cover every package of the module its package
// imports, directly or not, but the selection core and its instruments:
// the host detection (root package), the batch-parallel loop, and the ops
// it calls through their entry points. The imports come from the go tool
// (go list -deps), not from kernelFilesOf's own walk, with every op's
// trial.go and kernelshash.go deleted by an overlay: what only they
// import (internal/trial, getrs's input maker getrf) is no kernel.
func TestKernelFilesCoverTheOpsImports(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	overlay := map[string]string{}
	for _, name := range notKernels {
		matches, err := filepath.Glob(filepath.Join(root, "ops", "*", name))
		require.NoError(t, err)
		for _, m := range matches {
			overlay[m] = "" // deleted
		}
	}
	require.NotEmpty(t, overlay, "the ops declare their measurement in trial.go")
	data, err := json.Marshal(map[string]any{"Replace": overlay})
	require.NoError(t, err)
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	require.NoError(t, os.WriteFile(overlayFile, data, 0o644))
	for _, name := range tunerNames() {
		tu := tuners[name]
		files, err := tu.kernelFiles(root)
		require.NoError(t, err)
		covered, err := kernelSources(root, files)
		require.NoError(t, err)
		cmd := exec.Command(goTool, "list", "-overlay", overlayFile, "-deps", "./ops/"+name)
		cmd.Dir = root
		deps, err := cmd.Output()
		require.NoError(t, err, "go list -deps ./ops/%s", name)
		var want []string
		for _, p := range strings.Fields(string(deps)) {
			dir, ok := ".", p == modulePath
			if !ok {
				dir, ok = strings.CutPrefix(p, modulePath+"/")
			}
			if !ok || slices.Contains(hashExempt, dir) {
				continue
			}
			ents, err := os.ReadDir(filepath.Join(root, dir))
			require.NoError(t, err)
			for _, e := range ents {
				n := e.Name()
				if e.IsDir() || strings.HasSuffix(n, "_test.go") || n == "doc.go" || !(strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".s")) {
					continue
				}
				if _, deleted := overlay[filepath.Join(root, dir, n)]; deleted {
					continue
				}
				want = append(want, filepath.ToSlash(filepath.Join(dir, n)))
			}
		}
		assert.NotContains(t, strings.Fields(string(deps)), modulePath+"/internal/trial", "%s: only the measurement imports internal/trial", name)
		for _, f := range want {
			f = strings.TrimPrefix(f, "./")
			assert.Contains(t, covered, f, "%s: %s is compiled into the op but not part of its kernels hash", name, f)
		}
		for _, f := range []string{"host.go", "internal/parallel/parallel.go", "ops/" + name + "/" + name + ".go"} {
			assert.Contains(t, covered, f, name)
		}
	}
}

// The header records the device facts the kernels decide their paths by,
// as k=v words select.ParseTable keeps.
func TestHeaderRecordsCachesAndFlags(t *testing.T) {
	dev := &sel.Device{Key: "x86-64-v3", Name: "Test CPU", Cores: 8, L1D: 48 << 10, L2: 2 << 20, L3: 32 << 20,
		Flags: []string{"avx", "avx2", "fma", "fp64", "vendor:blas"}}
	prov := provenance{op: "potrf", device: "x86-64-v3", revision: potrf.Op.Spec().Revision, kernels: "12345678",
		date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), grid: "quick"}
	prov.deviceFacts(dev)
	doc := &tableDoc{header: prov.header(), keys: potrf.Op.Keys()}
	data := doc.bytes()
	assert.Contains(t, string(data), `# host="Test CPU" cores=8 l1d=49152 l2=2097152 l3=33554432 flags=avx,avx2,fma,fp64,vendor:blas go=`)
	tab, err := sel.ParseTable("potrf.x86-64-v3.txt", data, potrf.Op)
	require.NoError(t, err, "%s", data)
	assert.Equal(t, "49152", tab.Header["l1d"])
	assert.Equal(t, "2097152", tab.Header["l2"])
	assert.Equal(t, "33554432", tab.Header["l3"])
	assert.Equal(t, "avx,avx2,fma,fp64,vendor:blas", tab.Header["flags"])
	assert.Equal(t, "Test CPU", tab.Header["host"])
}
