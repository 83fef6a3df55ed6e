package main

import (
	"os"
	"strings"
	"testing"
)

// The program runs and its answer checks out.
func Example() {
	main()
	// Output:
	// solved 1000 systems of order 32 with 4 right-hand sides
	// largest residual below 1e-8: true
}

// The user's guide shows this program verbatim, from "package main" to the
// end, so what a reader copies is what this package compiles and runs.
func TestGuideShowsThisProgram(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	program := string(src[strings.Index(string(src), "package main"):])
	guide, err := os.ReadFile("../../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```go\n"+program+"```\n") {
		t.Errorf("docs/guide.md does not show examples/factorsolve/main.go verbatim (from \"package main\" on, in a ```go block); copy the file's text into the guide")
	}
}
