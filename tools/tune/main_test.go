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
	// The commands' look at the cores (sharedCores) measures the FMA peak
	// twice, some 60 ms; the tests of the commands do without it, and
	// TestRunNamesAnOpMeasuredOnSharedCores puts in the verdict it tests.
	corePeaks = func() (float64, float64, int, bool) { return 0, 0, 1, false }
	os.Exit(m.Run())
}
