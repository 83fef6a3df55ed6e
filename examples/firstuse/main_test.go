package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv("FIRSTUSE_CHILD") != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var report = regexp.MustCompile(`^20 shapes, (\d+) tuned now, \d+ ms in all\n$`)

// The promise: a program pays its tuning once. Presented as a CPU
// with no tables of its own, the first run measures its shapes; the second
// run, with the same cache, measures none. Every result is checked either
// way (call).
func TestSecondRunMeasuresNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the program twice")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	tuned := func() int {
		cmd := exec.Command(exe, "-test.run=^$")
		// GOMAXPROCS empty: every core, as first-use tuning measures only
		// with all of them (a GOMAXPROCS=1 environment would turn it off).
		cmd.Env = append(os.Environ(), "GOMAXPROCS=", "FIRSTUSE_CHILD=1", "BATCHLAS_TUNE=online", "BATCHLAS_TUNE_CACHE="+cache,
			"BATCHLAS_IDENTITY=firstuse-test-cpu", "BATCHLAS_TUNE_BUDGET=call=30ms,process=60s", "BATCHLAS_SELECT_TRACE=", "BATCHLAS_TUNED_DIR=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		m := report.FindSubmatch(out)
		if m == nil {
			t.Fatalf("unexpected output %q", out)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if first := tuned(); first == 0 {
		t.Fatal("the first run measured nothing: first-use tuning did not run")
	}
	if second := tuned(); second != 0 {
		t.Errorf("the second run measured %d shapes; want 0 (every row comes from the cache)", second)
	}
}
