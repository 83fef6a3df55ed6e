package sel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onl is the op of the first-use tuning tests. Its kernels spin for a time
// that depends on the candidate: fast is fastest of the correct ones; wrong
// is faster still but gives a wrong result, so it must never be chosen;
// slow is slowest.
var (
	famSlow  = &Family{Name: "slow"}
	famFast  = &Family{Name: "fast"}
	famWrong = &Family{Name: "wrong"}
	slowC    = famSlow.With()
	fastC    = famFast.With()
	wrongC   = famWrong.With()

	onlOp = Register(OpSpec{Name: "onl", Revision: 1, Keys: "n:log:3 batch:log", Families: []*Family{famSlow, famFast, famWrong},
		Candidates: map[DType][]Choice{Float64: {slowC, fastC, wrongC}}, LastResort: []string{"slow"},
		CanRun: func(Choice, Key, *Device) bool { return true }})
)

// spinFor is each candidate's time per call, a wall-clock spin. slow is
// 20 times fast's: at 4 times, the online tests measured slow the faster
// now and then in the test command's unit pass, whose other test binaries
// and compiles share the two cores and can take most of the CPU from one
// candidate's timings and not from the other's.
var spinFor = map[string]time.Duration{"slow": 200 * time.Microsecond, "fast": 10 * time.Microsecond, "wrong": 2 * time.Microsecond}

func spin(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// onlTrial "computes" one number: the candidate that ran, right or wrong.
type onlTrial struct {
	k   Key
	out float64
}

func (tr *onlTrial) Bind(ctx context.Context) (*Bound, error) {
	c, err := onlOp.Pick(ctx, Float64, tr.k, v4)
	if err != nil {
		return nil, err
	}
	return &Bound{
		Call: func(ctx context.Context, _ int) error {
			return onlOp.Run(ctx, Float64, tr.k, v4, func(_ context.Context, c Choice) error {
				spin(spinFor[c.Family().Name])
				tr.out = 1
				if c == wrongC {
					tr.out = 2
				}
				return nil
			})
		},
		Copies: 1,
		Poison: func() { tr.out = 0 },
		Check: func() error {
			if tr.out != 1 {
				return fmt.Errorf("%v computed %v, want 1", c, tr.out)
			}
			return nil
		},
	}, nil
}

func init() {
	onlOp.SetMeasure(Measure{
		New:   func(dt DType, k Key, seed uint64) (Trial, error) { return &onlTrial{k: k}, nil },
		Flops: func(k Key) float64 { return float64(k.Int(0)) },
		Elems: func(k Key) float64 { return float64(k.Int(0) * k.Int(1)) },
	})
	onlOp.SetKernelsHash("0123abcd")
}

func onlKey(n, batch int) Key { return MakeKey(Int(n), Int(batch)) }

type capKey struct{}

// online gives a test first-use tuning into a fresh cache directory, with
// the process's tuning state forgotten before and after.
func onlineTest(t *testing.T) (dir string, warn, tr *syncBuf) {
	t.Helper()
	warn, tr = fresh(t)
	// Online tuning measures only with every core of the device (2 for
	// the test devices: mayTune); under go test -cpu 1 the test gives the
	// process them back, so that the rules below are what is tested.
	if p := runtime.GOMAXPROCS(0); p < v4.Cores {
		runtime.GOMAXPROCS(v4.Cores)
		t.Cleanup(func() { runtime.GOMAXPROCS(p) })
	}
	resetOnline()
	t.Cleanup(resetOnline)
	dir = t.TempDir()
	t.Setenv("BATCHLAS_TUNE_CACHE", dir)
	// A budget no loaded test machine runs out of: these tests are about
	// the rules, not the budgets (TestOnlineBudgets sets its own).
	t.Setenv("BATCHLAS_TUNE_BUDGET", "call=150ms,process=60s")
	setenv(t, "BATCHLAS_TUNE", "online")
	SetParallelismReader(func(ctx context.Context) int { n, _ := ctx.Value(capKey{}).(int); return n })
	return dir, warn, tr
}

func resetOnline() {
	online.mu.Lock()
	online.spent = 0
	online.closed.Store(false)
	online.measured.Store(0)
	online.mu.Unlock()
	ownCache.Lock()
	ownCache.rows, ownCache.off = nil, false
	ownCache.Unlock()
	writeCacheFile = realWriteCacheFile
}

var realWriteCacheFile = writeCacheFile

// newProcess acts out a later run of the program: the memo and tables
// forgotten, the cache read again, this process's own rows not rewritten.
func newProcess() {
	ownCache.Lock()
	ownCache.rows = nil
	ownCache.Unlock()
	online.measured.Store(0)
	Reload()
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"+CacheSuffix))
	require.NoError(t, err)
	return m
}

func TestOnlineTunesOnceRecordsAndServesLaterProcesses(t *testing.T) {
	dir, warn, tr := onlineTest(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	k := onlKey(48, 100)
	c, err := run(bg, onlOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, fastC, c, "the fastest candidate whose result checks out; wrong is faster but never counts")
	assert.EqualValues(t, 1, Measurements())
	d := tr.decisions()
	require.Len(t, d, 1)
	assert.Contains(t, tr.String(), ` BATCHLAS_TUNE=online cache="`+dir+`" budget=call=150ms,process=1m0s pins:`)
	assert.Regexp(t, `^onl float64 n=48 batch=100 -> fast  [0-9.]+ ms, next slow [0-9.]+ ms  \[tuned now on x86-64-v4: 2 candidates measured in [0-9.]+ ms\]$`, d[0])

	// Same shape again: decided, never measured again.
	c, err = run(bg, onlOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, fastC, c)
	assert.EqualValues(t, 1, Measurements())
	assert.Contains(t, tr.decisions()[1], "[cache x86-64-v4]")

	files := cacheFiles(t, dir)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), "# source=online ")
	assert.Contains(t, string(data), "kernels=0123abcd")
	assert.Contains(t, string(data), "\nn=48 batch=100 | fast ")
	assert.NotContains(t, string(data), "wrong", "a candidate with a wrong result is not recorded")

	// A later process: served by the cache, at the shape and near it.
	newProcess()
	for _, kk := range []Key{k, onlKey(50, 100), onlKey(48, 120)} {
		c, err = run(bg, onlOp, Float64, kk, v4)
		require.NoError(t, err)
		assert.Equal(t, fastC, c)
	}
	assert.EqualValues(t, 0, Measurements(), "the second run makes no measurement")
	// Far from the row: measured.
	_, err = run(bg, onlOp, Float64, onlKey(8, 100), v4)
	require.NoError(t, err)
	assert.EqualValues(t, 1, Measurements())
	assert.Empty(t, warn.String())
}

func TestOnlineNeverTunesPinnedCappedOrOff(t *testing.T) {
	onlineTest(t)
	k := onlKey(48, 100)
	c, err := run(WithPin(bg, "onl", "slow"), onlOp, Float64, k, v4)
	require.NoError(t, err)
	assert.Equal(t, slowC, c)
	_, err = run(WithStrictPin(bg, "onl", "fast"), onlOp, Float64, onlKey(64, 100), v4)
	require.NoError(t, err)
	_, err = run(context.WithValue(bg, capKey{}, 1), onlOp, Float64, onlKey(256, 100), v4)
	require.NoError(t, err)
	assert.EqualValues(t, 0, Measurements(), "pinned, strictly pinned and capped calls never tune")

	setenv(t, "BATCHLAS_TUNE", "off")
	_, err = run(bg, onlOp, Float64, onlKey(1024, 100), v4)
	require.NoError(t, err)
	assert.EqualValues(t, 0, Measurements())
}

// A shape decided once keeps its choice for the life of the process, even
// when a row measured later lies right next to it; a later process uses
// the row.
// A timing that took over twice its part shrinks the next to fit it;
// one within twice its part leaves the count alone; never below one call.
func TestShrunkCalls(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		calls     int
		per, took time.Duration
		want      int
	}{
		{100, 10 * ms, 10 * ms, 100},
		{100, 10 * ms, 20 * ms, 100},
		{100, 10 * ms, 40 * ms, 25},
		{100, 10 * ms, 1000 * ms, 1},
		{1, 10 * ms, 50 * ms, 1},
		{100, 0, 50 * ms, 100},
	} {
		if got := shrunkCalls(c.calls, c.per, c.took); got != c.want {
			t.Errorf("shrunkCalls(%d, %v, %v) = %d, want %d", c.calls, c.per, c.took, got, c.want)
		}
	}
}

func TestOnlineDecisionsNeverChangeInAProcess(t *testing.T) {
	onlineTest(t)
	a, b := onlKey(40, 100), onlKey(41, 100)
	capped := context.WithValue(bg, capKey{}, 1)
	c, err := onlOp.Pick(capped, Float64, a, v4)
	require.NoError(t, err)
	require.Equal(t, slowC, c, "the last resort decides the capped call")
	c, err = run(bg, onlOp, Float64, b, v4)
	require.NoError(t, err)
	require.Equal(t, fastC, c)
	require.EqualValues(t, 1, Measurements())
	c, err = run(bg, onlOp, Float64, a, v4)
	require.NoError(t, err)
	assert.Equal(t, slowC, c, "a's decision (sized by Pick) does not change under the call")
	newProcess()
	c, err = run(bg, onlOp, Float64, a, v4)
	require.NoError(t, err)
	assert.Equal(t, fastC, c, "the next process decides a from b's row")
}

func TestOnlineBudgets(t *testing.T) {
	onlineTest(t)
	setenv(t, "BATCHLAS_TUNE_BUDGET", "call=2ms,process=6ms")
	for n := 1; n <= 50; n++ {
		_, err := run(bg, onlOp, Float64, onlKey(n*1000, 100), v4)
		require.NoError(t, err)
	}
	m := Measurements()
	assert.Greater(t, m, int64(0))
	assert.Less(t, m, int64(50), "once the process budget is spent, calls decide from the tables")
	online.mu.Lock()
	spent := online.spent
	online.mu.Unlock()
	assert.Less(t, spent, 6*time.Millisecond+2*time.Millisecond+50*time.Millisecond, "the process overruns its budget by one call's at most (and the scheduler's slack)")

	for _, bad := range []string{"40ms", "call=0s", "call=-1s", "process=2h", "call=1ms,calls=2ms", "call=abc"} {
		_, _, err := parseTuneBudget(bad)
		assert.Error(t, err, bad)
	}
	call, process, err := parseTuneBudget(" process=3s , call=5ms ")
	require.NoError(t, err)
	assert.Equal(t, 5*time.Millisecond, call)
	assert.Equal(t, 3*time.Second, process)
}

func TestOnlineBadSettingsWarnOnce(t *testing.T) {
	_, warn, _ := onlineTest(t)
	setenv(t, "BATCHLAS_TUNE", "sometimes")
	setenv(t, "BATCHLAS_TUNE_BUDGET", "fast")
	_, err := run(bg, onlOp, Float64, onlKey(48, 100), v4)
	require.NoError(t, err)
	assert.EqualValues(t, 0, Measurements())
	assert.Contains(t, warn.String(), `BATCHLAS_TUNE="sometimes": want off (the default) or online`)
	setenv(t, "BATCHLAS_TUNE", "online")
	_, err = run(bg, onlOp, Float64, onlKey(48, 100), v4)
	require.NoError(t, err)
	assert.Contains(t, warn.String(), `BATCHLAS_TUNE_BUDGET="fast": want call=<duration>`)
	assert.Equal(t, 2, strings.Count(warn.String(), "\n"))
}

// A cache that cannot be written (read-only, full) leaves the program
// working with one warning; its rows still serve the process.
func TestOnlineUnwritableCacheWarnsOnce(t *testing.T) {
	for _, why := range []error{syscall.EROFS, syscall.ENOSPC} {
		t.Run(why.Error(), func(t *testing.T) {
			dir, warn, _ := onlineTest(t)
			writeCacheFile = func(string, []byte) error { return &os.PathError{Op: "write", Path: "x", Err: why} }
			// Which candidate the measurements pick is the timings'
			// business (the other tests hold fast to it; this one once
			// measured slow the faster, in a loaded test command): here
			// what counts is that each shape is measured once and that
			// its row decides the nearby shape after the failed write.
			var first Choice
			for _, n := range []int{48, 480, 4800} {
				c, err := run(bg, onlOp, Float64, onlKey(n, 100), v4)
				require.NoError(t, err)
				assert.NotEqual(t, wrongC, c)
				if n == 48 {
					first = c
				}
			}
			assert.EqualValues(t, 3, Measurements())
			assert.Equal(t, 1, strings.Count(warn.String(), "\n"), warn.String())
			assert.Contains(t, warn.String(), "cannot record tuned rows")
			assert.Empty(t, cacheFiles(t, dir))
			c, err := run(bg, onlOp, Float64, onlKey(50, 100), v4)
			require.NoError(t, err)
			assert.Equal(t, first, c, "the process's rows serve it all the same")
			assert.EqualValues(t, 3, Measurements())
		})
	}
}

// A cache path that is not a directory leaves the program working, with
// one warning.
func TestOnlineCacheThatIsAFile(t *testing.T) {
	dir, warn, _ := onlineTest(t)
	file := filepath.Join(dir, "not-a-dir")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	setenv(t, "BATCHLAS_TUNE_CACHE", file)
	for _, n := range []int{48, 480} {
		c, err := run(bg, onlOp, Float64, onlKey(n, 100), v4)
		require.NoError(t, err)
		assert.Equal(t, fastC, c)
	}
	assert.EqualValues(t, 2, Measurements())
	assert.Equal(t, 1, strings.Count(warn.String(), "\n"), warn.String())
	assert.Contains(t, warn.String(), "is not a readable directory")
}

func TestOnlineReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only directories; TestOnlineUnwritableCacheWarnsOnce acts it out")
	}
	dir, warn, _ := onlineTest(t)
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	_, err := run(bg, onlOp, Float64, onlKey(48, 100), v4)
	require.NoError(t, err)
	assert.Contains(t, warn.String(), "cannot record tuned rows")
}

// A corrupt file, and one first-use tuning did not write, are skipped
// with one warning each; a file of another key is skipped silently (the
// trace notes it); all are left in place, and none fails a call.
func TestOnlineCorruptAndForeignFiles(t *testing.T) {
	dir, warn, _ := onlineTest(t)
	corrupt := filepath.Join(dir, "onl.x86-64-v4.1-a"+CacheSuffix)
	require.NoError(t, os.WriteFile(corrupt, []byte("\x00\x01garbage | | |\n[float64\n"), 0o644))
	foreign := filepath.Join(dir, "onl.x86-64-v4.2-b"+CacheSuffix)
	text := string(cacheText(onlOp, "x86-64-v4", "", 2, map[DType][]string{Float64: {"n=48 batch=100 | slow 0.001"}}))
	require.NoError(t, os.WriteFile(foreign, []byte(strings.Replace(text, "kernels=0123abcd", "kernels=ffffffff", 1)), 0o644))
	notOurs := filepath.Join(dir, "onl.x86-64-v4.4-d"+CacheSuffix)
	require.NoError(t, os.WriteFile(notOurs, []byte(strings.Replace(text, "source=online", "source=hand", 1)), 0o644))
	otherCores := filepath.Join(dir, "onl.x86-64-v4.3-c"+CacheSuffix)
	require.NoError(t, os.WriteFile(otherCores, cacheText(onlOp, "x86-64-v4", "", 64, map[DType][]string{Float64: {"n=48 batch=100 | slow 0.001"}}), 0o644))

	c, err := run(bg, onlOp, Float64, onlKey(48, 100), v4)
	require.NoError(t, err)
	assert.Equal(t, fastC, c, "neither the foreign rows nor the 64-core ones serve: the call is measured")
	assert.EqualValues(t, 1, Measurements())
	assert.Equal(t, 2, strings.Count(warn.String(), "\n"), warn.String())
	assert.Contains(t, warn.String(), "tuning cache: skipping "+corrupt)
	assert.Contains(t, warn.String(), "tuning cache: skipping "+notOurs+": its header has no source=online")
	for _, f := range []string{corrupt, foreign, otherCores, notOurs} {
		assert.FileExists(t, f, "never deleted")
	}
	assert.Len(t, cacheFiles(t, dir), 5)
}

// tuneChildMain is a program of the concurrency test: it calls onl on five
// shapes and prints how many it measured.
func tuneChildMain() int {
	RegisterBuiltin(os.DirFS("testdata/tuned"))
	Reload()
	for _, n := range []int{6, 24, 96, 384, 1536} {
		c, err := run(bg, onlOp, Float64, onlKey(n, 100), v4)
		if err != nil || c == wrongC {
			fmt.Fprintln(os.Stderr, "got", c, err)
			return 2
		}
	}
	fmt.Println(Measurements())
	return 0
}

// Eight processes sharing one cache, started together: every row recorded,
// no file corrupt, every choice right; the next process measures nothing.
func TestOnlineConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nine processes")
	}
	dir := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	start := func() *exec.Cmd {
		cmd := exec.Command(exe, "-test.run=^$")
		// GOMAXPROCS empty: every core, which online tuning needs.
		cmd.Env = append(os.Environ(), "GOMAXPROCS=", "SEL_TEST_TUNECHILD=1", "BATCHLAS_TUNE=online", "BATCHLAS_TUNE_CACHE="+dir, "BATCHLAS_TUNE_BUDGET=call=150ms,process=60s")
		return cmd
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	outs := make([][]byte, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = start().CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range errs {
		require.NoError(t, errs[i], string(outs[i]))
	}
	seen := map[string]bool{}
	for _, f := range cacheFiles(t, dir) {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		table, _, ok := CacheFileName(filepath.Base(f))
		require.True(t, ok, f)
		tb, err := ParseTable(table, data, onlOp)
		require.NoError(t, err, f)
		for _, r := range tb.Sections[Float64] {
			seen[r.Key.Format(tb.Keys)] = true
		}
	}
	for _, n := range []int{6, 24, 96, 384, 1536} {
		assert.True(t, seen[fmt.Sprintf("n=%d batch=100", n)], "row n=%d recorded", n)
	}
	out, err := start().CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "0", strings.TrimSpace(string(out)), "a later process measures nothing")
}

func TestCacheFileName(t *testing.T) {
	for name, want := range map[string]string{
		"gemm.x86-64-v4.zen5.12-abc.cache": "gemm.x86-64-v4.zen5.txt",
		"gemm.x86-64-v4.12-abc.cache":      "gemm.x86-64-v4.txt",
	} {
		table, proc, ok := CacheFileName(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, table)
		assert.Equal(t, "12-abc", proc)
	}
	for _, name := range []string{"gemm.x86-64-v4.txt", "gemm.cache", ".cache", "gemm.x86-64-v4..cache", "gemm.BAD KEY.1.cache"} {
		_, _, ok := CacheFileName(name)
		assert.False(t, ok, name)
	}
}

// BenchmarkChooseCached is a steady-state decision with first-use tuning on,
// for a shape a cached row decides (from the cache written by a previous
// "process"): the same memo hit as BenchmarkChoosePick. The target is the
// same: well under 100 ns and 0 allocations.
func BenchmarkChooseCached(b *testing.B) {
	fresh(b)
	resetOnline()
	b.Cleanup(resetOnline)
	b.Setenv("BATCHLAS_TUNE_CACHE", b.TempDir())
	setenv(b, "BATCHLAS_TUNE", "online")
	k := onlKey(48, 100)
	if _, err := onlOp.Pick(bg, Float64, k, v4); err != nil {
		b.Fatal(err)
	}
	newProcess()
	b.ReportAllocs()
	for b.Loop() {
		c, err := onlOp.Pick(bg, Float64, k, v4)
		if err != nil || c != fastC {
			b.Fatal(c, err)
		}
	}
	if Measurements() != 0 {
		b.Fatal("the cached shape was measured again")
	}
}

// Goroutines tuning at once: each shape is measured once, every call gets
// a right choice, and the race detector (make race) sees no race.
func TestOnlineConcurrentGoroutines(t *testing.T) {
	onlineTest(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8*5)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range []int{6, 24, 96, 384, 1536} {
				c, err := run(bg, onlOp, Float64, onlKey(n, 100), v4)
				if err == nil && c == wrongC {
					err = fmt.Errorf("n=%d: the wrong kernel won", n)
				}
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 5, Measurements(), "each shape measured once")
}
