package sel

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lro has the families of syn and no table at all: every decision is a last
// resort.
var lroOp = Register(OpSpec{
	Name:       "lro",
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:3 batch:log",
	Families:   synFamilies,
	Candidates: map[DType][]Choice{Float64: {tiny, lp8, blocked, vendor}},
	CanRun:     synCanRun,
})

// override writes tables into a fresh BATCHLAS_TUNED_DIR and reloads.
func override(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	setenv(t, "BATCHLAS_TUNED_DIR", dir)
	return dir
}

// tableLabels names the op's tables for dt in borrow order for d by their
// labels: the device key, then the identity of an identity's table
// (x86-64-v4.zen5).
func tableLabels(t *testing.T, o *Op, dt DType, d *Device) []string {
	t.Helper()
	ts, err := o.Tables(dt, d)
	require.NoError(t, err)
	var out []string
	for _, tb := range ts {
		l := tb.Device
		if tb.Identity != "" {
			l += "." + tb.Identity
		}
		out = append(out, l)
	}
	return out
}

// withIdentity is d presented as a microarchitecture.
func withIdentity(t *testing.T, d *Device, id string) *Device {
	t.Helper()
	c, err := d.WithIdentity(id)
	require.NoError(t, err)
	return c
}

// Within one device key: the identity's own table, the level's, the same
// vendor's identities, then the rest by name; keys keep their order.
func TestBorrowOrderByIdentity(t *testing.T) {
	fresh(t)
	for _, tc := range []struct {
		d    *Device
		want []string
	}{
		{withIdentity(t, v4, "zen5"), []string{"x86-64-v4.zen5", "x86-64-v4", "x86-64-v4.zen4", "x86-64-v4.sapphirerapids", "x86-64-v2.zen5", "x86-64-v2"}},
		{withIdentity(t, v4, "zen4"), []string{"x86-64-v4.zen4", "x86-64-v4", "x86-64-v4.zen5", "x86-64-v4.sapphirerapids", "x86-64-v2", "x86-64-v2.zen5"}},
		{withIdentity(t, v4, "graniterapids"), []string{"x86-64-v4", "x86-64-v4.sapphirerapids", "x86-64-v4.zen4", "x86-64-v4.zen5", "x86-64-v2", "x86-64-v2.zen5"}},
		{withIdentity(t, v4, "intel-avx512-l2-2048k"), []string{"x86-64-v4", "x86-64-v4.sapphirerapids", "x86-64-v4.zen4", "x86-64-v4.zen5", "x86-64-v2", "x86-64-v2.zen5"}},
		{v4, []string{"x86-64-v4", "x86-64-v4.sapphirerapids", "x86-64-v4.zen4", "x86-64-v4.zen5", "x86-64-v2", "x86-64-v2.zen5"}},
		{withIdentity(t, v3, "zen5"), []string{"x86-64-v2.zen5", "x86-64-v2", "x86-64-v4.zen5", "x86-64-v4", "x86-64-v4.zen4", "x86-64-v4.sapphirerapids"}},
	} {
		assert.Equal(t, tc.want, tableLabels(t, idnOp, Float64, tc.d), tc.d.Label())
	}
}

// BATCHLAS_TUNED_DIR's table of the level outranks the library's table of
// the identity (an operator's measurement of this machine wins), and its
// table of the identity replaces the built-in one of the same name.
func TestOverridesOfIdentityTables(t *testing.T) {
	fresh(t)
	zen5 := withIdentity(t, v4, "zen5")
	table := func(dev, id string) string {
		return "# op=idn device=" + dev + " identity=" + id + " revision=1\n# keys: n:log\n[float64]\nn=64 | b 1.0 | a 2.0\n"
	}
	override(t, map[string]string{"idn.x86-64-v4.txt": strings.Replace(table("x86-64-v4", ""), " identity=", "", 1)})
	Reload()
	ts, err := idnOp.Tables(Float64, zen5)
	require.NoError(t, err)
	require.NotEmpty(t, ts)
	assert.Equal(t, []string{"x86-64-v4", "x86-64-v4.zen5", "x86-64-v4.zen4", "x86-64-v4.sapphirerapids", "x86-64-v2.zen5", "x86-64-v2"},
		tableLabels(t, idnOp, Float64, zen5))
	assert.Equal(t, OriginOverride, ts[0].Origin)
	c, err := run(bg, idnOp, Float64, MakeKey(Int(64)), zen5)
	require.NoError(t, err)
	assert.Equal(t, famB.With(), c, "the override's ranking decides")

	override(t, map[string]string{"idn.x86-64-v4.zen5.txt": table("x86-64-v4", "zen5")})
	Reload()
	assert.Equal(t, []string{"x86-64-v4.zen5", "x86-64-v4", "x86-64-v4.zen4", "x86-64-v4.sapphirerapids", "x86-64-v2.zen5", "x86-64-v2"},
		tableLabels(t, idnOp, Float64, zen5), "the override replaces the built-in table of the same name")
	ts, err = idnOp.Tables(Float64, zen5)
	require.NoError(t, err)
	assert.Equal(t, OriginOverride, ts[0].Origin)
}

// The trace names the table that decided by its label, and only another
// identity's table (or another level's) is a borrow.
func TestIdentityTablesInTheTrace(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	for _, tc := range []struct {
		d    *Device
		want string
	}{
		{withIdentity(t, v4, "zen5"), "idn float64 n=64 -> a  1.00 ms, next b 2.00 ms  [x86-64-v4.zen5]"},
		{withIdentity(t, v4, "graniterapids"), "idn float64 n=64 -> a  1.00 ms, next b 2.00 ms  [x86-64-v4]"},
		{withIdentity(t, v3, "zen5"), "idn float64 n=64 -> b  1.00 ms, next a 2.00 ms  [x86-64-v2.zen5 table, borrowed for x86-64-v3.zen5]"},
	} {
		_, err := run(bg, idnOp, Float64, MakeKey(Int(64)), tc.d)
		require.NoError(t, err)
		ds := tr.decisions()
		require.NotEmpty(t, ds)
		assert.Equal(t, tc.want, ds[len(ds)-1], tc.d.Label())
	}
	assert.Equal(t, []string{"batchlas: idn has no float64 table for x86-64-v3.zen5; borrowing x86-64-v2.zen5 (run tools/tune to tune this device)"},
		grep(tr.lines(), "borrowing"), "the level's table is no borrow; another level's is")
}

func TestDeviceWithIdentity(t *testing.T) {
	d, err := v4.WithIdentity("zen5")
	require.NoError(t, err)
	assert.Equal(t, "x86-64-v4.zen5", d.Label())
	assert.Equal(t, "x86-64-v4", v4.Label(), "the original is unchanged")
	for _, bad := range []string{"", "Zen5", "zen.5", "5zen", "zen5-", "zen--5", strings.Repeat("a", 41)} {
		_, err := v4.WithIdentity(bad)
		assert.Error(t, err, bad)
	}
}

func TestBorrowOrder(t *testing.T) {
	fresh(t)
	for _, tc := range []struct {
		d    *Device
		want []string
	}{
		// own; same family at or below, nearest first; above; other
		// families in the fixed order (arm64), then the rest by name.
		{v4, []string{"x86-64-v4", "x86-64-v2", "x86-64-v1", "arm64", "ppc64le"}},
		{v3, []string{"x86-64-v2", "x86-64-v1", "x86-64-v4", "arm64", "ppc64le"}},
		{v1, []string{"x86-64-v1", "x86-64-v2", "x86-64-v4", "arm64", "ppc64le"}},
		// other families, higher architecture first
		{arm, []string{"arm64", "x86-64-v4", "x86-64-v2", "x86-64-v1", "ppc64le"}},
		{riscv, []string{"x86-64-v4", "x86-64-v2", "x86-64-v1", "arm64", "ppc64le"}},
		// gpus never read cpu tables, nor the reverse
		{sm80, []string{"sm_70", "sm_90"}},
		{sm90, []string{"sm_90", "sm_70"}},
		{gfx, []string{"sm_90", "sm_70"}},
	} {
		assert.Equal(t, tc.want, tableLabels(t, ordOp, Float64, tc.d), tc.d.Key)
	}
	assert.Empty(t, tableLabels(t, ordOp, Float32, v4), "tables without rows for the dtype are not in the order")
}

// Borrowing is silent with tracing off: no warning, nothing remembered.
// While tracing, a notice once per (op, dtype, device), in the trace.
func TestBorrowNoticeOncePerOpAndDTypeWhileTracing(t *testing.T) {
	warn, tr := fresh(t)
	c, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "v3 borrows v2 (at or below) before v4")
	assert.Empty(t, warn.lines(), "borrowing is no warning")
	assert.Empty(t, tr.lines())

	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), v3)
	require.NoError(t, err)
	_, err = run(bg, synOp, Float64, synKey("L", 8, 1), v3)
	require.NoError(t, err)
	borrows := func() []string { return grep(tr.lines(), "borrowing") }
	assert.Equal(t, []string{"batchlas: syn has no float64 table for x86-64-v3; borrowing x86-64-v2 (run tools/tune to tune this device)"}, borrows())

	c, err = run(bg, synOp, Float32, synKey("L", 8, 1024), v3)
	require.NoError(t, err)
	assert.Equal(t, tiny, c, "v2 has no float32 rows: v4 serves")
	assert.Equal(t, []string{
		"batchlas: syn has no float64 table for x86-64-v3; borrowing x86-64-v2 (run tools/tune to tune this device)",
		"batchlas: syn has no float32 table for x86-64-v3; borrowing x86-64-v4 (run tools/tune to tune this device)",
	}, borrows())
	assert.Empty(t, warn.lines(), "not a warning while tracing either")
	lines := tr.lines()
	assert.True(t, strings.HasPrefix(lines[0], "batchlas: device x86-64-v3 "), "the startup report comes first: %q", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "batchlas: switches: "), lines[1])
}

func TestWalkFallsThroughWithoutBorrowWarning(t *testing.T) {
	warn, _ := fresh(t)
	refuse(t, "lpanel:panel=8")
	// v4's row for n=64: lpanel:8 refused, vendor absent on this device,
	// tiny too small. The walk goes on to v2.
	w, err := synOp.Explain(bg, Float64, synKey("L", 64, 1024), v4nov)
	require.NoError(t, err)
	assert.Equal(t, blocked, w.Choice)
	assert.Equal(t, "fallthrough", w.Source)
	require.Len(t, w.Steps, 2)
	assert.Equal(t, RoleOwn, w.Steps[0].Role)
	assert.Equal(t, RoleFallthrough, w.Steps[1].Role)
	assert.Equal(t, "x86-64-v2", w.Steps[1].Table.Device)
	var verdicts []bool
	for _, v := range w.Steps[0].Verdicts {
		verdicts = append(verdicts, v.Candidate, v.CanRun)
	}
	assert.Equal(t, []bool{true, false, true, false, true, false}, verdicts)
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), v4nov)
	require.NoError(t, err)
	assert.Empty(t, warn.lines(), "an own table that falls through is not a borrow")
}

func TestWalkSkipsNonCandidates(t *testing.T) {
	fresh(t)
	override(t, map[string]string{"syn.x86-64-v4.txt": "# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float32]\n" +
		"uplo=L n=8 batch=1024 | lpanel:panel=16 0.01 | warp9 0.02 | cta:warps=4 0.03 | tiny 0.05\n"})
	w, err := synOp.Explain(bg, Float32, synKey("L", 8, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, tiny, w.Choice)
	require.Len(t, w.Steps, 1)
	var cands []bool
	for _, v := range w.Steps[0].Verdicts {
		cands = append(cands, v.Candidate)
	}
	assert.Equal(t, []bool{false, false, false, true}, cands, "lpanel:16 and cta are not float32 candidates; warp9 does not parse")
}

func TestCPUNeverReadsGPUTables(t *testing.T) {
	fresh(t)
	c, err := run(bg, gpoOp, Float64, MakeKey(Int(64)), v4)
	require.NoError(t, err)
	assert.Equal(t, famA.With(), c, "the op's last-resort order, not the gpu table")
	c, err = run(bg, gpoOp, Float64, MakeKey(Int(64)), sm80)
	require.NoError(t, err)
	assert.Equal(t, famB.With(), c, "a gpu borrows the gpu table")
}

func TestLastResortOrderThenNoRoute(t *testing.T) {
	fresh(t)
	k := synKey("L", 64, 1024)
	pick := func(d *Device) (Choice, error) {
		Reload()
		return run(bg, lroOp, Float64, k, d)
	}
	c, err := pick(v4)
	require.NoError(t, err)
	assert.Equal(t, blocked, c, "blocked first")
	refused.Store(&map[string]bool{"blocked": true})
	t.Cleanup(func() { refused.Store(nil) })
	c, err = pick(v4)
	require.NoError(t, err)
	assert.Equal(t, vendor, c, "then vendor")
	c, err = pick(v4nov)
	require.NoError(t, err)
	assert.Equal(t, lp8, c, "then the candidates in order: tiny cannot run n=64")
	refused.Store(&map[string]bool{"blocked": true, "lpanel:panel=8": true})
	launched := false
	err = func() error {
		Reload()
		return lroOp.Run(bg, Float64, k, v4nov, func(ctx context.Context, c Choice) error { launched = true; return nil })
	}()
	require.Error(t, err)
	var nr *NoRouteError
	require.True(t, errors.As(err, &nr))
	assert.Equal(t, NoRouteError{Op: "lro", DType: Float64, Key: "uplo=L n=64 batch=1024", Device: "x86-64-v4"}, *nr)
	assert.EqualError(t, err, "lro: no float64 kernel can run uplo=L n=64 batch=1024 on x86-64-v4: every candidate's can_run refuses it (check the arguments; a build or device with the op's vendor library may serve it)")
	assert.False(t, launched)
	_, err = lroOp.Pick(bg, Float32, k, v4)
	assert.True(t, errors.As(err, &nr), "a dtype without candidates has no route")
}

func TestStaleTableSkippedWithOneNotice(t *testing.T) {
	warn, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	for i := 0; i < 3; i++ {
		c, err := run(bg, stlOp, Float64, MakeKey(Int(64+i)), v4)
		require.NoError(t, err)
		assert.Equal(t, famB.With(), c, "served by the current v2 table")
	}
	assert.Equal(t, []string{
		"batchlas: skipping builtin stl table stl.x86-64-v4.txt: written for stl revision 1, the op is at revision 2 (run tools/tune to re-tune this device)",
		"batchlas: stl has no float64 table for x86-64-v4; borrowing x86-64-v2 (run tools/tune to tune this device)",
	}, grep(tr.lines(), " stl "), "the notices; the decision lines start with stl")
	assert.Empty(t, warn.lines(), "a stale built-in table is not the user's to fix")
	assert.Equal(t, []string{"x86-64-v2"}, tableLabels(t, stlOp, Float64, v4))
}

func TestMemo(t *testing.T) {
	fresh(t)
	k := synKey("L", 64, 1024)
	c, err := synOp.Pick(bg, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, lp8, c)
	// can_run is not consulted again until the memo is dropped.
	refused.Store(&map[string]bool{"lpanel:panel=8": true})
	t.Cleanup(func() { refused.Store(nil); Reload() })
	c, _ = synOp.Pick(bg, Float64, k, v4)
	assert.Equal(t, lp8, c, "a memo hit")
	Reload()
	c, _ = synOp.Pick(bg, Float64, k, v4)
	assert.Equal(t, vendor, c, "reload drops the memo")

	for n := 1; n <= memoMax+10; n++ {
		_, err := synOp.Pick(bg, Float64, synKey("L", n, 1), v4)
		require.NoError(t, err)
	}
	memo.RLock()
	size := memo.n
	memo.RUnlock()
	assert.LessOrEqual(t, size, memoMax, "the memo is bounded")
	assert.Positive(t, size)
}

func TestDecisionArgumentErrors(t *testing.T) {
	fresh(t)
	_, err := synOp.Pick(bg, Float64, MakeKey(Str("L"), Int(4)), v4)
	assert.EqualError(t, err, "syn: the key has 2 value(s) but the op declares 3 (uplo:exact n:log:3 batch:log); build it with every key, in that order")
	_, err = synOp.Pick(bg, Float64, synKey("", 4, 4), v4)
	assert.EqualError(t, err, "syn: key uplo has no value; the op must supply every key")
	_, err = synOp.Pick(bg, Float64, synKey("L", 4, 4), nil)
	assert.EqualError(t, err, "syn: no device given; pass the device the call runs on (the one batchlas.WithDevice set on its context, else batchlas.Host())")
	assert.Error(t, synOp.Run(nil, Float64, synKey("L", 4, 4), v4, nil), "no launch function") //nolint:staticcheck // a nil context must not panic
	c, err := synOp.Pick(nil, Float64, synKey("L", 4, 4), v4)                                  //nolint:staticcheck
	assert.NoError(t, err)
	assert.Equal(t, tiny, c)
}

func TestDeviceHasUnsortedFlags(t *testing.T) {
	d := &Device{Key: "x86-64-v4", Flags: []string{"vendor:lapack", "avx2", "fma"}}
	assert.True(t, d.Has("avx2"))
	assert.True(t, d.Has("vendor:lapack"))
	assert.False(t, d.Has("avx512f"))
}
