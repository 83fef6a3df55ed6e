package testmat

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// CheckGenerated runs the generator gen.go of the test's package directory
// (`go run gen.go -o F`) and fails the test unless file is exactly what it
// writes: the drift check of a package whose assembly is generated. It
// skips under -short, since it builds and runs a program.
func CheckGenerated(t *testing.T, file string) {
	t.Helper()
	CheckGeneratedBy(t, "gen.go", file)
}

// CheckGeneratedBy is CheckGenerated for a package with more than one
// generator: gen writes file.
func CheckGeneratedBy(t *testing.T, gen, file string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), file)
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", gen, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run %s: %v\n%s", gen, err, msg)
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
		t.Fatalf("%s differs from what %s writes: run go generate in this package's directory", file, gen)
	}
}

// SameBits fails the test at the first entry where the assembly's result
// asm and its Go twin's differ in their bits: the check that a generated
// kernel and its twin perform the same operations.
func SameBits[T batchlas.Float](tb testing.TB, what string, asm, twin []T) {
	tb.Helper()
	for i := range asm {
		if math.Float64bits(float64(asm[i])) != math.Float64bits(float64(twin[i])) {
			tb.Fatalf("%s: entry %d: assembly %v, twin %v", what, i, asm[i], twin[i])
		}
	}
}
