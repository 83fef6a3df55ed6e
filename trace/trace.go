package trace

import (
	"context"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/batchlas-go/batchlas/internal/quote"
)

var out = struct {
	sync.Mutex
	w io.Writer
}{w: Stderr{}}

// Stderr writes to os.Stderr as it is at each write: the default writer of
// trace lines and of the library's warnings. A writer captured when the
// package starts would keep writing to the original stream after a program
// (or a test harness, as `go test -json` does) points os.Stderr elsewhere.
type Stderr struct{}

// Write writes p to os.Stderr.
func (Stderr) Write(p []byte) (int, error) { return os.Stderr.Write(p) }

// SetOutput sends trace lines to w instead of stderr (Stderr) and returns
// the previous writer, so a test can capture lines and restore the old
// writer after.
func SetOutput(w io.Writer) io.Writer {
	out.Lock()
	defer out.Unlock()
	old := out.w
	out.w = w
	return old
}

type depthKey struct{}

// Depth returns the nesting level carried by ctx (0 at the top).
func Depth(ctx context.Context) int {
	if ctx == nil {
		return 0
	}
	d, _ := ctx.Value(depthKey{}).(int)
	return d
}

// Nest returns a context one level deeper than ctx: decisions traced with it
// are indented under the line of the decision that created it.
func Nest(ctx context.Context) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, depthKey{}, Depth(ctx)+1)
}

// Print writes line, indented two spaces per nesting level of ctx, as one
// write: lines from concurrent goroutines never interleave mid-line.
func Print(ctx context.Context, line string) {
	d := Depth(ctx)
	b := make([]byte, 0, 2*d+len(line)+1)
	for i := 0; i < d; i++ {
		b = append(b, ' ', ' ')
	}
	b = append(b, line...)
	b = append(b, '\n')
	out.Lock()
	defer out.Unlock()
	_, _ = out.w.Write(b) // a trace that cannot be written must not fail the call
}

// MS formats a table time in milliseconds: three significant digits below
// 1 ms (0.302, 0.49), two decimals from 1 ms (14.10), and four significant
// digits from 1e6 ms (1.235e+06, 1e+308), where two decimals would print
// every digit of a huge time (a table may hold up to 1.8e308).
func MS(ms float64) string {
	switch {
	case ms < 1:
		return strconv.FormatFloat(ms, 'g', 3, 64)
	case ms < bigNumber:
		return strconv.FormatFloat(ms, 'f', 2, 64)
	}
	return strconv.FormatFloat(ms, 'g', 4, 64)
}

// bigNumber is where a time or distance of the trace goes from fixed
// decimals to significant digits, so that no number takes more than a
// dozen characters.
const bigNumber = 1e6

// number formats a distance (or any ratio) with one decimal, and with
// four significant digits from bigNumber on.
func number(x float64) string {
	if math.Abs(x) < bigNumber {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// How a decision was reached; the words are also the coverage "source".
const (
	ViaTable       = "table"         // the device's own table
	ViaOverride    = "override"      // the device's own table, from BATCHLAS_TUNED_DIR
	ViaBorrowed    = "borrowed"      // another device's table: the device has none of its own
	ViaFallthrough = "fallthrough"   // a later table: earlier ones had nothing runnable
	ViaPinned      = "pinned"        // a pinned spelling
	ViaNative      = "pinned native" // the native class pin
	ViaVendor      = "pinned vendor" // the vendor class pin
	ViaLastResort  = "last resort"   // no table served
	ViaCache       = "cache"         // a row first-use tuning recorded on this machine (BATCHLAS_TUNE=online)
	ViaTuned       = "tuned"         // measured by first-use tuning at this call
)

// TieRatio is the relative gap within which two timings are "tied with"
// rather than "next": the tuner's tie rule uses the same 3%.
const TieRatio = 0.03

// Decision is what one trace line reports.
type Decision struct {
	Op, DType string
	Key       string // "uplo=L n=64 batch=1024"
	Choice    string

	Via string // one of the Via* words

	// Table facts, for the table-backed Via words.
	Timed    bool
	MS       float64
	Next     string // runner-up spelling, "" when none
	NextMS   float64
	Table    string // label of the table that served: its device key, then its identity for an identity's table (x86-64-v4.zen5)
	Override bool   // that table came from BATCHLAS_TUNED_DIR
	Device   string // label of the call's device, key and identity (named by "borrowed for")
	From     string // labels of the tables fallen through, comma-separated

	// The row that decided, when it is not an exact match for the call's
	// key: Row is its key fields as the core spells them ("side=L m=32
	// n=32"), Distance its weighted log2 distance from the call. Row ""
	// means an exact match (or no row): the line says nothing more.
	Row      string
	Distance float64

	// For ViaTuned: how many candidates were measured and what the
	// measurement cost, in milliseconds of wall time.
	Measured int
	CostMS   float64
}

// String returns the line in its fixed format (docs/select.md, "Trace"):
//
//	potrf float64 n=64 batch=1024 -> lpanel:panel=8  0.302 ms, next vendor 0.49 ms  [x86-64-v4]
//
// When the row that decided is not an exact match for the call, the chosen
// kernel's time (or "untimed") is followed by the row and its distance:
//
//	trsm float64 side=L uplo=L ta=N diag=N m=32 n=4 batch=64 -> direct  0.234 ms at row m=32 n=32 batch=64 (d=3.0), next blocked:nb=8 0.5 ms  [x86-64-v4]
func (d Decision) String() string {
	var b strings.Builder
	b.WriteString(d.Op)
	b.WriteByte(' ')
	b.WriteString(d.DType)
	if d.Key != "" {
		b.WriteByte(' ')
		b.WriteString(d.Key)
	}
	b.WriteString(" -> ")
	b.WriteString(d.Choice)
	switch d.Via {
	case ViaPinned, ViaNative, ViaVendor, ViaLastResort:
		b.WriteString("  [")
		b.WriteString(d.Via)
		b.WriteByte(']')
		return b.String()
	}
	if d.Timed {
		b.WriteString("  ")
		b.WriteString(MS(d.MS))
		b.WriteString(" ms")
		d.writeRow(&b)
		if d.Next != "" {
			lo, hi := min(d.MS, d.NextMS), max(d.MS, d.NextMS)
			gap := 0.0
			if lo > 0 {
				gap = (hi - lo) / lo
			} else if hi > 0 {
				gap = 1 // one is free, the other is not: never a tie
			}
			if gap <= TieRatio+1e-12 {
				b.WriteString(", tied with ")
				b.WriteString(d.Next)
				b.WriteByte(' ')
				b.WriteString(MS(d.NextMS))
				b.WriteString(" ms (")
				b.WriteString(strconv.FormatFloat(gap*100, 'f', 0, 64)) // at most 3
				b.WriteString("%)")
			} else {
				b.WriteString(", next ")
				b.WriteString(d.Next)
				b.WriteByte(' ')
				b.WriteString(MS(d.NextMS))
				b.WriteString(" ms")
			}
		}
	} else {
		b.WriteString("  untimed")
		d.writeRow(&b)
	}
	b.WriteString("  [")
	switch {
	case d.Via == ViaTuned:
		b.WriteString("tuned now on ")
		b.WriteString(d.Device)
		b.WriteString(": ")
		b.WriteString(strconv.Itoa(d.Measured))
		b.WriteString(" candidates measured in ")
		b.WriteString(MS(d.CostMS))
		b.WriteString(" ms]")
		return b.String()
	case d.Via == ViaCache:
		b.WriteString("cache ")
	case d.Override:
		b.WriteString("override ")
	}
	b.WriteString(d.Table)
	switch d.Via {
	case ViaBorrowed:
		b.WriteString(" table, borrowed for ")
		b.WriteString(d.Device)
	case ViaFallthrough:
		b.WriteString(" table, fallthrough from ")
		b.WriteString(d.From)
	}
	b.WriteByte(']')
	return b.String()
}

// writeRow writes " at row <row> (d=<distance>)" for a row that is not an
// exact match, nothing otherwise.
func (d Decision) writeRow(b *strings.Builder) {
	if d.Row == "" {
		return
	}
	b.WriteString(" at row ")
	b.WriteString(d.Row)
	b.WriteString(" (d=")
	b.WriteString(number(d.Distance))
	b.WriteString(")")
}

// Init is the one line printed before the first traced decision of a
// process: what the core selected at initialisation.
type Init struct {
	Device   string // device key
	Identity string // microarchitecture, "" when none
	Name     string // marketing name
	Cores    int
	Flags    []string // capability flags that gate kernels (vendor:* excluded)
	Vendor   []string // vendor library groups in the build; empty: none
	Tables   []OpTables
}

// OpTables says where one op's tables come from for the device.
type OpTables struct {
	Op   string
	From string // "builtin", "override", "borrowed:<device>", "none", "error"; "<dtype>/<word>,..." when dtypes differ
}

// String formats the init line:
//
//	batchlas: device x86-64-v4 identity=zen4 "AMD EPYC 9R14" cores=2 flags=avx2,fma,fp64 vendor=blas,lapack tables: gemm=builtin potrf=borrowed:x86-64-v3
func (in Init) String() string {
	var b strings.Builder
	b.WriteString("batchlas: device ")
	b.WriteString(in.Device)
	if in.Identity != "" {
		b.WriteString(" identity=")
		b.WriteString(in.Identity)
	}
	b.WriteString(" ")
	b.WriteString(quote.Q(in.Name)) // cut: a name may come from the environment
	b.WriteString(" cores=")
	b.WriteString(strconv.Itoa(in.Cores))
	b.WriteString(" flags=")
	if len(in.Flags) == 0 {
		b.WriteString("none")
	}
	b.WriteString(strings.Join(in.Flags, ","))
	b.WriteString(" vendor=")
	if len(in.Vendor) == 0 {
		b.WriteString("none")
	}
	b.WriteString(strings.Join(in.Vendor, ","))
	b.WriteString(" tables:")
	if len(in.Tables) == 0 {
		b.WriteString(" none")
	}
	for _, t := range in.Tables {
		b.WriteByte(' ')
		b.WriteString(t.Op)
		b.WriteByte('=')
		b.WriteString(t.From)
	}
	return b.String()
}
