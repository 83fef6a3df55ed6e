package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flagSets returns every command's flag set, as its --help parses it.
func flagSets(t *testing.T) map[string]*cmdFlags {
	t.Helper()
	out := map[string]*cmdFlags{}
	flagSetHook = func(f *cmdFlags) { out[f.name] = f }
	defer func() { flagSetHook = nil }()
	for _, c := range commands() {
		code, _, errs := tune(c.name, "--help")
		require.Equal(t, 0, code, "%s --help: %s", c.name, errs)
	}
	require.Len(t, out, len(commands()))
	return out
}

// numericTypes are the pflag value types that take a number.
var numericTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true,
	"duration": true, "intSlice": true, "int32Slice": true, "int64Slice": true, "uintSlice": true,
	"float32Slice": true, "float64Slice": true, "durationSlice": true, "count": true}

// badFlagValues are values each numeric flag must refuse, wherever it is
// declared: NaN and infinities for the numbers, negative and zero counts,
// and values past the bounds.
var badFlagValues = map[string][]string{
	"reps":           {"0", "-3", "1001"},
	"target":         {"0s", "-1ms", "2h"},
	"screen":         {"NaN", "-1", "0.5", "1", "+Inf", "1e308"},
	"max-cell-flops": {"0", "-1", "NaN", "+Inf", "1e308"},
	"max-cell-bytes": {"0", "-5", "9223372036854775807"},
	"budget":         {"-1s", "-1ns", "999999h"},
	"refine-max":     {"NaN", "+Inf", "-Inf", "1e300"},
	"plan-gflops":    {"0", "-4", "NaN", "+Inf"},
	"shapes":         {"-1", "0", "1000000000"},
	"max-geomean":    {"NaN", "-1", "0.5", "+Inf"},
	"worst":          {"-5", "10001"},
	"suggest":        {"-1", "10001"},
	"ld":             {"-1", "1048577"},
	"ld-pad":         {"-8", "1048577"},
	"cores":          {"0", "-1", "65537"},
}

// anyValueFlags are numeric flags for which every parsed value means
// something.
var anyValueFlags = map[string]bool{"seed": true}

// Every numeric flag of every command has a declared range, and a list of
// bad values here to test it with.
func TestEveryNumericFlagIsChecked(t *testing.T) {
	for name, f := range flagSets(t) {
		checked := map[string]bool{}
		for _, c := range f.checks {
			checked[c.name] = true
		}
		f.VisitAll(func(fl *pflag.Flag) {
			if !numericTypes[fl.Value.Type()] {
				return
			}
			assert.True(t, checked[fl.Name], "%s --%s (%s) has no accepted range (cmdFlags.check)", name, fl.Name, fl.Value.Type())
			if !anyValueFlags[fl.Name] {
				assert.NotEmpty(t, badFlagValues[fl.Name], "%s --%s: no bad values to test it with", name, fl.Name)
			}
		})
	}
}

// Each command refuses each bad value of each of its numeric flags, with
// exit status 1 and a message naming the flag, the value and the range,
// under 1 KiB. The invocations lack what the commands need past the flags
// (an op, files), so a regression fails on that instead of measuring.
func TestBadFlagValuesAreRefused(t *testing.T) {
	for name, f := range flagSets(t) {
		f.VisitAll(func(fl *pflag.Flag) {
			if !numericTypes[fl.Value.Type()] {
				return // peers --shapes is a list name
			}
			for _, v := range badFlagValues[fl.Name] {
				args := []string{name, "--" + fl.Name + "=" + v}
				if name == "peers" {
					args = append(args, "--dtype=nosuch") // fails right after the flags
				}
				code, out, errs := tune(args...)
				assert.Equal(t, 1, code, "%q", args)
				assert.Empty(t, out, "%q", args)
				last := lastLine(errs)
				assert.Contains(t, last, "tune "+name+": --"+fl.Name+" ", "%q: %s", args, last)
				assert.Contains(t, last, ": want ", "%q: the message says what is accepted: %s", args, last)
				assert.LessOrEqual(t, len(last), 1024, "%q", args)
			}
		})
	}
}

// The defaults pass their own checks (a default outside its range would
// make every explicit spelling of it fail).
func TestFlagDefaultsAreInRange(t *testing.T) {
	for name, f := range flagSets(t) {
		for _, c := range f.checks {
			if c.name == "max-cell-bytes" {
				continue // depends on this host's memory; checked only when given
			}
			assert.True(t, c.ok(), "%s --%s default %s is outside its range (%s)", name, c.name, f.Lookup(c.name).Value, c.want)
		}
	}
}

// A bad value of any length is cut at 80 bytes in the message.
func TestFlagMessagesAreBounded(t *testing.T) {
	long := strings.Repeat("7", 120000)
	for _, args := range [][]string{{"run", "--reps=" + long}, {"validate", "--max-geomean=" + long}, {"run", "--grid=" + long, "--op=potrf"}} {
		code, _, errs := tune(args...)
		assert.Equal(t, 1, code)
		last := lastLine(errs)
		assert.LessOrEqual(t, len(last), 1024, "%.200s", last)
		assert.Contains(t, last, "(120000 bytes)", "%.200s", last)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// The memory cap is bounded by the smallest of the cgroup limit and
// MemAvailable.
func TestMemoryLimit(t *testing.T) {
	fsys := fstest.MapFS{
		"proc/self/cgroup": {Data: []byte("4:memory:/job\n0::/\n")},
		"sys/fs/cgroup/memory/job/memory.limit_in_bytes": {Data: []byte("1073741824\n")},
		"sys/fs/cgroup/memory.max":                       {Data: []byte("max\n")},
		"proc/meminfo":                                   {Data: []byte("MemTotal: 8000000 kB\nMemAvailable:    2097152 kB\n")},
	}
	limit, what, ok := memoryLimit(fsys)
	require.True(t, ok)
	assert.Equal(t, int64(1<<30), limit)
	assert.Contains(t, what, "cgroup memory limit")
	fsys["sys/fs/cgroup/memory/job/memory.limit_in_bytes"] = &fstest.MapFile{Data: []byte("9223372036854771712\n")} // v1: no limit
	fsys["sys/fs/cgroup/memory.max"] = &fstest.MapFile{Data: []byte("536870912\n")}
	limit, what, _ = memoryLimit(fsys)
	assert.Equal(t, int64(512<<20), limit, what)
	delete(fsys, "sys/fs/cgroup/memory.max")
	limit, what, _ = memoryLimit(fsys)
	assert.Equal(t, int64(2<<30), limit)
	assert.Contains(t, what, "MemAvailable")
	_, _, ok = memoryLimit(fstest.MapFS{})
	assert.False(t, ok)

	// A cap over the limit is refused, naming the flag and the limit.
	old := hostFS
	hostFS = fstest.MapFS{"proc/meminfo": {Data: []byte("MemAvailable: 1048576 kB\n")}}
	defer func() { hostFS = old }()
	code, _, errs := tune("bench", "--max-cell-bytes=100000000000")
	assert.Equal(t, 1, code)
	assert.Contains(t, lastLine(errs), `--max-cell-bytes "100000000000": want a number of bytes from 1 to 1073741824 (1 GiB, MemAvailable of /proc/meminfo)`)
}
