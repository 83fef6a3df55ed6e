package trace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMS(t *testing.T) {
	for in, want := range map[float64]string{0.302: "0.302", 0.49: "0.49", 0.0123: "0.0123", 0.9999: "1", 14.1: "14.10", 1: "1.00", 0: "0", 1234.5: "1234.50"} {
		assert.Equal(t, want, MS(in), "%v", in)
	}
}

func TestDecisionRunnerUp(t *testing.T) {
	base := Decision{Op: "potrf", DType: "float64", Key: "n=8", Choice: "tiny", Via: ViaTable, Timed: true, Table: "x86-64-v4", Next: "vendor"}
	for _, tc := range []struct {
		ms, next float64
		want     string
	}{
		{1.00, 1.03, "potrf float64 n=8 -> tiny  1.00 ms, tied with vendor 1.03 ms (3%)  [x86-64-v4]"},
		{1.00, 1.04, "potrf float64 n=8 -> tiny  1.00 ms, next vendor 1.04 ms  [x86-64-v4]"},
		{1.03, 1.00, "potrf float64 n=8 -> tiny  1.03 ms, tied with vendor 1.00 ms (3%)  [x86-64-v4]"},
		{0, 0, "potrf float64 n=8 -> tiny  0 ms, tied with vendor 0 ms (0%)  [x86-64-v4]"},
		{0, 0.5, "potrf float64 n=8 -> tiny  0 ms, next vendor 0.5 ms  [x86-64-v4]"},
	} {
		d := base
		d.MS, d.NextMS = tc.ms, tc.next
		assert.Equal(t, tc.want, d.String())
	}
	d := base
	d.Key = ""
	d.Next = ""
	d.Timed = false
	assert.Equal(t, "potrf float64 -> tiny  untimed  [x86-64-v4]", d.String(), "no key fields, untimed")
}

func TestDecisionRow(t *testing.T) {
	base := Decision{Op: "trsm", DType: "float64", Key: "side=L uplo=L ta=N diag=N m=32 n=4 batch=64", Choice: "direct",
		Via: ViaTable, Timed: true, MS: 0.234, Next: "blocked:nb=8", NextMS: 0.5, Table: "x86-64-v4"}
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  0.234 ms, next blocked:nb=8 0.5 ms  [x86-64-v4]",
		base.String(), "an exact match (Row empty) adds nothing")

	d := base
	d.Row, d.Distance = "m=32 n=32 batch=64", 3
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  0.234 ms at row m=32 n=32 batch=64 (d=3.0), next blocked:nb=8 0.5 ms  [x86-64-v4]", d.String())

	d.Row, d.Distance = "side=R m=32 n=32 batch=64", 3.04
	d.NextMS = 0.24
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  0.234 ms at row side=R m=32 n=32 batch=64 (d=3.0), tied with blocked:nb=8 0.24 ms (3%)  [x86-64-v4]", d.String())

	d.Next, d.Via, d.Device = "", ViaBorrowed, "x86-64-v3"
	d.Distance = 0.25
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  0.234 ms at row side=R m=32 n=32 batch=64 (d=0.2)  [x86-64-v4 table, borrowed for x86-64-v3]", d.String())

	d.Timed, d.Via, d.Override, d.Distance = false, ViaOverride, true, 0
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  untimed at row side=R m=32 n=32 batch=64 (d=0.0)  [override x86-64-v4]", d.String(), "untimed rows too")

	d.Via = ViaLastResort
	assert.Equal(t, "trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  [last resort]", d.String(), "no row without a table")
}

// The default writer follows os.Stderr: a line written after a program
// points os.Stderr at another file goes to that file.
func TestStderrFollowsOSStderr(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	require.NoError(t, err)
	defer f.Close()
	old := os.Stderr
	os.Stderr = f
	defer func() { os.Stderr = old }()
	Print(context.Background(), "to the new stderr")
	os.Stderr = old
	got, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Equal(t, "to the new stderr\n", string(got))
}

func TestPrintIndentsByDepth(t *testing.T) {
	var buf bytes.Buffer
	old := SetOutput(&buf)
	defer SetOutput(old)
	assert.Equal(t, Stderr{}, old, "stderr by default")
	ctx := context.Background()
	Print(ctx, "a")
	Print(Nest(ctx), "b")
	Print(Nest(Nest(ctx)), "c")
	Print(nil, "d") //nolint:staticcheck // a nil context is the top level
	assert.Equal(t, "a\n  b\n    c\nd\n", buf.String())
	assert.Equal(t, 0, Depth(nil)) //nolint:staticcheck
	assert.Equal(t, 1, Depth(Nest(nil)))
}

func TestInit(t *testing.T) {
	in := Init{Device: "x86-64-v4", Name: "AMD EPYC 9R14", Cores: 2}
	assert.Equal(t, `batchlas: device x86-64-v4 "AMD EPYC 9R14" cores=2 flags=none vendor=none tables: none`, in.String())
	in.Flags, in.Vendor = []string{"avx2", "fma"}, []string{"blas", "lapack"}
	in.Tables = []OpTables{{"gemm", "builtin"}, {"potrf", "borrowed:x86-64-v3"}}
	assert.Equal(t, `batchlas: device x86-64-v4 "AMD EPYC 9R14" cores=2 flags=avx2,fma vendor=blas,lapack tables: gemm=builtin potrf=borrowed:x86-64-v3`, in.String())
}

func ExampleDecision_String() {
	d := Decision{Op: "potrf", DType: "float64", Key: "n=64 batch=1024", Choice: "lpanel:panel=8",
		Via: ViaBorrowed, Timed: true, MS: 0.302, Next: "vendor", NextMS: 0.49, Table: "x86-64-v4", Device: "x86-64-v3"}
	fmt.Println(d)
	// Output: potrf float64 n=64 batch=1024 -> lpanel:panel=8  0.302 ms, next vendor 0.49 ms  [x86-64-v4 table, borrowed for x86-64-v3]
}

// TestHugeNumbersAreShort: a table time of 1e308 (a table may hold any
// finite time) prints with significant digits, not its 309 digits, and so
// does a huge distance; ordinary times keep their fixed form.
func TestHugeNumbersAreShort(t *testing.T) {
	for in, want := range map[float64]string{999999.99: "999999.99", 1e6: "1e+06", 1234567: "1.235e+06", 1e308: "1e+308", 1.5e-300: "1.5e-300"} {
		assert.Equal(t, want, MS(in), "%v", in)
	}
	d := Decision{Op: "potrf", DType: "float64", Key: "n=8 batch=4", Choice: "tiny", Via: ViaTable, Timed: true, Table: "x86-64-v4",
		MS: 1e308, Next: "unblocked", NextMS: 1e-308, Row: "n=8 batch=4", Distance: 1e300}
	assert.Equal(t, "potrf float64 n=8 batch=4 -> tiny  1e+308 ms at row n=8 batch=4 (d=1e+300), next unblocked 1e-308 ms  [x86-64-v4]", d.String())
	assert.Equal(t, "2.5", number(2.5))
}

// TestInitNameIsCut: a device name (BATCHLAS_DEVICE may give it) is quoted
// and cut at 80 bytes in the init line.
func TestInitNameIsCut(t *testing.T) {
	in := Init{Device: "x86-64-v4", Name: string(bytes.Repeat([]byte("n"), 5000)), Cores: 2}
	line := in.String()
	assert.Contains(t, line, `..." (5000 bytes)`)
	assert.Less(t, len(line), 300)
}
