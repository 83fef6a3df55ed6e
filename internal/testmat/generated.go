package testmat

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// CheckGenerated runs the generator gen.go of the test's package directory
// (`go run gen.go -o F`) and fails the test unless file is exactly what it
// writes: the drift check of a package whose assembly is generated. It
// skips under -short, since it builds and runs a program.
func CheckGenerated(t *testing.T, file string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), file)
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "gen.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from what gen.go writes: run go generate in this package's directory", file)
	}
}
