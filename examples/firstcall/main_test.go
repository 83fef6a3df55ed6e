package main

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

func TestMain(m *testing.M) {
	if op := os.Getenv(childVar); op != "" {
		if err := child(os.Stdout, op); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var line = regexp.MustCompile(`^(gemm|trsm): first call \d+\.\d\d ms \(median of 1 processes, \d+\.\d\d to \d+\.\d\d\), CPU (\d+\.\d\d ms|n/a); second call \d+ us\n$`)

// The program measures each op in a fresh process and reports it; how
// long the calls take is not checked (a loaded machine is slow).
func TestReport(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"gemm", "trsm"} {
		var out bytes.Buffer
		if err := report(&out, exe, []string{op}, 1); err != nil {
			t.Fatal(err)
		}
		if !line.MatchString(out.String()) {
			t.Errorf("%s: report %q", op, out.String())
		}
	}
}
