package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// flagCheck is the accepted range of one flag: ok reports whether the
// parsed value is in it, want says what it is for the message. Every
// numeric flag of every command declares one (TestEveryNumericFlagIsChecked
// enforces it), so no value that means nothing (a NaN, a negative count,
// zero repetitions) reaches a measurement.
type flagCheck struct {
	name, want string
	ok         func() bool
}

// check declares the accepted range of flag name.
func (f *cmdFlags) check(name, want string, ok func() bool) {
	if f.Lookup(name) == nil {
		panic("tune: check of undeclared flag --" + name) // a programming error, caught by the tests
	}
	f.checks = append(f.checks, flagCheck{name: name, want: want, ok: ok})
}

// intIn, int64In, floatIn and durationIn declare the common ranges:
// lo <= v <= hi. NaN is never in a range (every comparison with it is
// false).
func (f *cmdFlags) intIn(name string, p *int, lo, hi int) {
	f.check(name, fmt.Sprintf("an integer from %d to %d", lo, hi), func() bool { return *p >= lo && *p <= hi })
}

func (f *cmdFlags) int64In(name string, p *int64, lo, hi int64, unit string) {
	f.check(name, fmt.Sprintf("an integer from %d to %d%s", lo, hi, unit), func() bool { return *p >= lo && *p <= hi })
}

func (f *cmdFlags) floatIn(name string, p *float64, lo, hi float64) {
	f.check(name, fmt.Sprintf("a number from %g to %g", lo, hi), func() bool { return *p >= lo && *p <= hi })
}

func (f *cmdFlags) durationIn(name string, p *time.Duration, lo, hi time.Duration, zero string) {
	want := fmt.Sprintf("a duration from %v to %v", lo, hi)
	if zero != "" {
		want = fmt.Sprintf("0 (%s) or a duration from %v to %v", zero, lo, hi)
	}
	f.check(name, want, func() bool { return (zero != "" && *p == 0) || (*p >= lo && *p <= hi) })
}

// anyValue declares a numeric flag for which every value the parser
// accepts means something (a seed).
func (f *cmdFlags) anyValue(name string) {
	f.check(name, "any value", func() bool { return true })
}

// checkFlags runs the checks of the flags given on the command line (a
// default is in range by construction, and one that depends on the host,
// such as the memory cap, must not fail a command that does not set it).
// The message names the flag, its value (quoted, cut at 80 bytes) and the
// accepted range.
func (f *cmdFlags) checkFlags() error {
	for _, c := range f.checks {
		if f.Changed(c.name) && !c.ok() {
			return f.usageError("--%s %s: want %s", c.name, quote.Q(f.Lookup(c.name).Value.String()), c.want)
		}
	}
	return nil
}

// quoteList writes values as %q writes a []string, ["a" "b"], each
// value cut at 80 bytes and at most 8 of them listed.
func quoteList(vs []string) string {
	const most = 8
	parts := make([]string, 0, min(len(vs), most)+1)
	for i, v := range vs {
		if i == most {
			parts = append(parts, fmt.Sprintf("... (%d values)", len(vs)))
			break
		}
		parts = append(parts, quote.Q(v))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Bounds of the tuner's counts: each is far above any useful value and
// keeps one invocation's time and memory finite.
const (
	maxReps       = 1000
	maxTarget     = time.Minute
	maxBudget     = 30 * 24 * time.Hour
	maxScreen     = 1000.0
	maxRefineMax  = 1e6
	maxPlanGFlops = 1e7
	maxCellFlops  = 1e300
	maxShapes     = 10000
	maxListed     = 10000 // --worst, --suggest
	maxGeomean    = 1e6
	maxThreads    = 4096
	maxCases      = 1000
	maxGridValues = 64 // values of one --grid axis
	// cells of one op's grid: a table holds every dtype's cells (two),
	// within the library's cap on a table's rows
	maxGridCells   = sel.MaxTableRows / 2
	maxGridFlagLen = 4096 // bytes of --grid
)
