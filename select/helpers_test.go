package sel

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batchlas-go/batchlas/trace"
)

// The synthetic ops of the tests: families and tables shaped like a real
// op's, kernels that do nothing. syn is the main one; ord, stl and gpo exist
// for borrow order, staleness and the cpu/gpu wall; idn for the tables of
// identities (microarchitectures).
var (
	famTiny    = &Family{Name: "tiny"}
	famCTA     = &Family{Name: "cta", Fields: []string{"warps"}}
	famLpanel  = &Family{Name: "lpanel", Fields: []string{"panel"}}
	famBlocked = &Family{Name: "blocked"}
	famVendor  = &Family{Name: "vendor", Vendor: true}
	famPacked  = &Family{Name: "packed", Fields: []string{"mc", "kc"}}

	synFamilies = []*Family{famTiny, famCTA, famLpanel, famBlocked, famVendor}

	tiny    = famTiny.With()
	lp8     = famLpanel.With(8)
	lp16    = famLpanel.With(16)
	cta4    = famCTA.With(4)
	blocked = famBlocked.With()
	vendor  = famVendor.With()
)

// refused holds spellings the tests make can_run refuse, on top of the
// kernels' own limits. Tests that change it call Reload so no memoised
// decision outlives it.
var refused atomic.Pointer[map[string]bool]

func refuse(t *testing.T, spellings ...string) {
	t.Helper()
	m := map[string]bool{}
	for _, s := range spellings {
		m[s] = true
	}
	refused.Store(&m)
	Reload()
	t.Cleanup(func() { refused.Store(nil); Reload() })
}

func isRefused(c Choice) bool {
	m := refused.Load()
	return m != nil && (*m)[c.String()]
}

func synCanRun(c Choice, k Key, d *Device) bool {
	if isRefused(c) {
		return false
	}
	n := k.Int(1)
	switch c.Family() {
	case famTiny:
		return n <= 32
	case famLpanel:
		return n <= 512
	case famCTA:
		return d.Has("warp")
	case famBlocked:
		return true
	case famVendor:
		return d.Has("vendor:lapack")
	}
	return false
}

var synOp = Register(OpSpec{
	Name:      "syn",
	Revision:  1,
	VendorLib: "lapack",
	Keys:      "uplo:exact n:log:3 batch:log",
	Families:  synFamilies,
	Candidates: map[DType][]Choice{
		Float64: {tiny, lp8, lp16, cta4, blocked, vendor},
		Float32: {tiny, lp8, blocked, vendor},
	},
	CanRun: synCanRun,
})

// aux is a second op, called from inside syn's launch to show nesting.
var auxOp = Register(OpSpec{
	Name:       "aux",
	Revision:   1,
	Keys:       "m:log n:log",
	Families:   []*Family{famPacked},
	Candidates: map[DType][]Choice{Float64: {famPacked.With(64, 256)}},
	CanRun:     func(Choice, Key, *Device) bool { return true },
})

var (
	famA       = &Family{Name: "a"}
	famB       = &Family{Name: "b"}
	abFamilies = []*Family{famA, famB}
	abCands    = map[DType][]Choice{Float64: {famA.With(), famB.With()}}
	canAll     = func(Choice, Key, *Device) bool { return !isRefused(Choice{}) }
)

var ordOp = Register(OpSpec{Name: "ord", Revision: 1, Keys: "n:log", Families: abFamilies, Candidates: abCands, CanRun: canAll})
var stlOp = Register(OpSpec{Name: "stl", Revision: 2, Keys: "n:log", Families: abFamilies, Candidates: abCands, CanRun: canAll})
var idnOp = Register(OpSpec{Name: "idn", Revision: 1, Keys: "n:log", Families: abFamilies, Candidates: abCands, CanRun: canAll})
var gpoOp = Register(OpSpec{Name: "gpo", Revision: 1, Keys: "n:log", Families: abFamilies, Candidates: abCands, CanRun: canAll,
	LastResort: []string{"a"}})

// dev makes a device with the given key and capability flags.
func dev(key string, flags ...string) *Device {
	fam, arch, class, err := ParseDeviceKey(key)
	if err != nil {
		panic(err)
	}
	flags = slices.Sorted(slices.Values(flags))
	return &Device{Key: key, Family: fam, Arch: arch, Class: class, Name: "Test " + key, Flags: flags, Cores: 2}
}

var (
	v4     = dev("x86-64-v4", "avx2", "fma", "fp64", "vendor:lapack")
	v4nov  = dev("x86-64-v4", "avx2", "fma", "fp64")
	v3     = dev("x86-64-v3", "avx2", "fma", "fp64", "vendor:lapack")
	v1     = dev("x86-64-v1", "fp64")
	arm    = dev("arm64", "asimd", "fp64", "vendor:lapack")
	sm80   = dev("sm_80", "fp64", "warp")
	sm90   = dev("sm_90", "fp64", "warp")
	gfx    = dev("gfx90a", "fp64", "warp")
	riscv  = dev("riscv64", "fp64")
	bg     = context.Background()
	lockMu sync.Mutex
)

func synKey(uplo string, n, batch int) Key { return MakeKey(Str(uplo), Int(n), Int(batch)) }

// syncBuf is a bytes.Buffer safe for the concurrent writes of a test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// decisions returns the decision lines written so far: every line but the
// startup report and the notices, which start with "batchlas: ".
func (s *syncBuf) decisions() []string {
	var out []string
	for _, l := range s.lines() {
		if !strings.HasPrefix(l, "batchlas: ") {
			out = append(out, l)
		}
	}
	return out
}

// lines returns the non-empty lines written so far.
func (s *syncBuf) lines() []string {
	var out []string
	for _, l := range strings.Split(s.String(), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// fresh gives a test a clean core: no BATCHLAS_* variable, the testdata
// tables, warnings and trace captured, once-only state forgotten. Tests
// that use it do not run in parallel (they share process-wide settings).
func fresh(t testing.TB) (warn, tr *syncBuf) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "BATCHLAS_") {
			t.Setenv(k, "") // restored after the test
			os.Unsetenv(k)
		}
	}
	warn, tr = &syncBuf{}, &syncBuf{}
	oldW := SetWarnOutput(warn)
	oldT := trace.SetOutput(tr)
	forget()
	Reload()
	t.Cleanup(func() {
		SetWarnOutput(oldW)
		trace.SetOutput(oldT)
		forget()
		Reload()
	})
	return warn, tr
}

// setenv sets a variable for the test and reloads the settings.
func setenv(t testing.TB, k, v string) {
	t.Helper()
	t.Setenv(k, v)
	Reload()
}

// forget clears the once-only state (warnings, notices, the startup report)
// between tests.
func forget() {
	warnings.Lock()
	warnings.seen = map[string]bool{}
	warnings.Unlock()
	notices.Lock()
	notices.pending = nil
	notices.n.Store(0)
	notices.Unlock()
	initShown.Store(false)
}

// builtinTables makes fsys the built-in tables for the rest of the test;
// the testdata tables come back after it.
func builtinTables(t testing.TB, fsys fs.FS) {
	t.Helper()
	RegisterBuiltin(fsys)
	t.Cleanup(func() { RegisterBuiltin(os.DirFS("testdata/tuned")) })
}

// run decides and launches syn, returning the choice it launched.
func run(ctx context.Context, o *Op, dt DType, k Key, d *Device) (Choice, error) {
	var got Choice
	err := o.Run(ctx, dt, k, d, func(_ context.Context, c Choice) error { got = c; return nil })
	return got, err
}

func TestMain(m *testing.M) {
	if os.Getenv("SEL_TEST_CHILD") != "" {
		os.Exit(childMain())
	}
	if os.Getenv("SEL_TEST_TUNECHILD") != "" {
		os.Exit(tuneChildMain())
	}
	if os.Getenv("SEL_TEST_MEMCHILD") != "" {
		os.Exit(memChildMain())
	}
	// Hermetic: no variable of the caller's environment leaks in, and the
	// synthetic ops never write to a coverage shard of the real suite.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "BATCHLAS_") {
			os.Unsetenv(k)
		}
	}
	SetWarnOutput(io.Discard)
	RegisterBuiltin(os.DirFS("testdata/tuned"))
	code := m.Run()
	if err := Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}
