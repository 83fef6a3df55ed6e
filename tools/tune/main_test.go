package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for the tool: `tune docs` reruns
// the docs' samples as child processes of itself (samples.go), and under
// `go test` itself is this binary.
func TestMain(m *testing.M) {
	if os.Getenv("TUNE_AS_TOOL") != "" {
		os.Exit(mainCode(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
