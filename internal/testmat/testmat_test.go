package testmat

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// recorder is a testing.TB that keeps what NoAllocs reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

var allocSink []byte

// NoAllocs reports a call that allocates every time, on every worker
// whether or not -short thins it to that one measurement, and nothing for
// a call that does not allocate.
func TestNoAllocsReportsAnAllocation(t *testing.T) {
	if RaceEnabled {
		t.Skip("NoAllocs checks nothing under the race detector")
	}
	var r recorder
	NoAllocs(&r, "allocating", func() { allocSink = make([]byte, 64+len(allocSink)%2) })
	if len(r.errs) == 0 || !strings.Contains(r.errs[len(r.errs)-1], "workers, want 0") {
		t.Fatalf("an allocating call reported %q", r.errs)
	}
	if !testing.Short() && !strings.Contains(r.errs[0], "one worker") {
		t.Fatalf("without -short the one-worker run reports too: %q", r.errs)
	}
	r.errs = nil
	x := 0
	NoAllocs(&r, "quiet", func() { x++ })
	if len(r.errs) != 0 {
		t.Fatalf("a call that allocates nothing reported %q", r.errs)
	}
}

// StopPoints start at 0, end at the total (which must not stop the call),
// rise, and are at most about as many as asked (12 under -short), with
// the last calls before the total among them.
func TestStopPoints(t *testing.T) {
	for _, c := range []struct {
		total int64
		most  int
	}{{0, 50}, {5, 50}, {49, 50}, {1000, 50}, {1 << 40, 50}, {1000, 8}} {
		p := StopPoints(c.total, c.most)
		most := c.most
		if testing.Short() {
			most = min(most, 12)
		}
		if p[0] != 0 || p[len(p)-1] != c.total || !slices.IsSorted(p) || len(p) > max(most, 16+8)+2 {
			t.Errorf("StopPoints(%d, %d) = %v", c.total, c.most, p)
		}
		if c.total < int64(most) && len(p) != int(c.total)+1 {
			t.Errorf("StopPoints(%d, %d) = %v, want every call", c.total, c.most, p)
		}
		if c.total >= int64(most) && p[len(p)-2] != c.total-1 {
			t.Errorf("StopPoints(%d, %d) = %v, want the last calls before the total", c.total, c.most, p)
		}
	}
}

// CheckArgError accepts the ArgError asked for and names what differs in
// any other error.
func TestCheckArgError(t *testing.T) {
	err := &batchlas.ArgError{Op: "gemm", Arg: "lda", Msg: "lda 3 < m 4"}
	if bad := CheckArgError(fmt.Errorf("wrapped: %w", err), "gemm", "lda", "lda 3 < m 4"); bad != nil {
		t.Fatal(bad)
	}
	for _, c := range []struct {
		err               error
		op, arg, want, in string
	}{
		{errors.New("plain"), "gemm", "lda", "", "want *batchlas.ArgError"},
		{nil, "gemm", "lda", "", "want *batchlas.ArgError"},
		{err, "trsm", "lda", "", `Op "gemm", want "trsm"`},
		{err, "gemm", "ldb", "", `Arg "lda", want "ldb"`},
		{err, "gemm", "lda", "ldb", `does not contain "ldb"`},
	} {
		bad := CheckArgError(c.err, c.op, c.arg, c.want)
		if bad == nil || !strings.Contains(bad.Error(), c.in) {
			t.Errorf("CheckArgError(%v, %s, %s, %q) = %v, want one saying %q", c.err, c.op, c.arg, c.want, bad, c.in)
		}
	}
}

// DriverCheck skips float32 exactly under -short and never skips float64.
func TestDriverCheck(t *testing.T) {
	var skipped32, skipped64 bool
	t.Run("float32", func(t *testing.T) {
		defer func() { skipped32 = t.Skipped() }()
		DriverCheck[float32](t)
	})
	t.Run("float64", func(t *testing.T) {
		defer func() { skipped64 = t.Skipped() }()
		DriverCheck[float64](t)
	})
	if skipped32 != testing.Short() || skipped64 {
		t.Errorf("skipped: float32 %v, float64 %v under -short=%v; want float32 skipped exactly under -short, float64 never", skipped32, skipped64, testing.Short())
	}
}
