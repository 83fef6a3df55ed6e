package batchlas

import (
	"os/exec"
	"strings"
	"testing"
)

// goCommand is the go command on PATH; without one the test is skipped.
func goCommand(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the library's dependencies with: the dependency rule is not checked here")
	}
	return p
}

// deps lists the packages the library (this package, every op and the
// one-call layer linalg) imports, directly or not, under the build tags.
func deps(t *testing.T, tags string) []string {
	t.Helper()
	args := []string{"list", "-deps"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, ".", "./ops/...", "./linalg")
	cmd := exec.Command(goCommand(t), args...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.Fields(string(out))
}

// TestLibraryDeps: with -tags novendor the library links no gonum package
// (gonum is then only the tests' oracle and the gonummat package's
// business), and in no build does it link gonummat, which a program
// imports only if it wants the conversions, nor package testing: the
// ops' measurements (trial.go, linked for first-use tuning) make their
// inputs with internal/matgen, not with the tests' internal/testmat.
func TestLibraryDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, tags := range []string{"novendor", "novendor,purego", ""} {
		list := deps(t, tags)
		if len(list) < 10 {
			t.Fatalf("tags %q: go list -deps gave %d packages, too few to be the library's: %v", tags, len(list), list)
		}
		for _, p := range list {
			if strings.Contains(tags, "novendor") && strings.HasPrefix(p, "gonum.org/") {
				t.Errorf("tags %q: the library depends on %s", tags, p)
			}
			if strings.HasSuffix(p, "/gonummat") || p == "testing" || strings.HasSuffix(p, "/internal/testmat") {
				t.Errorf("tags %q: the library depends on %s", tags, p)
			}
		}
	}
}
