package main

import (
	"os"
	"strings"
	"testing"
)

func Example() {
	main()
	// Output: x of the last system: [1.000000 1.000000 1.000000]
}

// The README shows this program verbatim, from "package main" to the end.
func TestReadmeShowsThisProgram(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	program := string(src[strings.Index(string(src), "package main"):])
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+program+"```\n") {
		t.Errorf("README.md does not show examples/quickstart/main.go verbatim (from \"package main\" on, in a ```go block); copy the file's text into the README")
	}
}
