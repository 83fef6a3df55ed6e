package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

const benchSynopsis = "bench OP [DTYPE] key=value... [flags]   e.g. bench potrf float64 uplo=L n=64 batch=4096"

// protocolFlags declares the measurement flags of a command; screen is
// the default of --screen (0 for bench, which shows every candidate
// measured in full).
func protocolFlags(fs *cmdFlags, screen float64) func() measureSettings {
	reps := fs.Int("reps", 5, "timings per candidate per pass (the median is kept)")
	target := fs.Duration("target", time.Millisecond, "least duration of one timing; fast calls are repeated to reach it")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	scr := fs.Float64("screen", screen, "time every candidate once first and keep that time for those more than this many times slower than the fastest (0: measure every candidate in full)")
	repsTargetChecks(fs, reps, target)
	fs.anyValue("seed") // every 64-bit seed is a seed
	fs.check("screen", fmt.Sprintf("0 (off) or a number above 1 up to %g", maxScreen), func() bool {
		return *scr == 0 || (*scr > 1 && *scr <= maxScreen)
	})
	return func() measureSettings {
		p := defaultProtocol()
		p.reps, p.target = *reps, *target
		p.screen = 0
		if *scr > 1 {
			p.screen = *scr
		}
		return measureSettings{proto: p, seed: *seed}
	}
}

// repsTargetChecks declares the ranges of --reps and --target.
func repsTargetChecks(fs *cmdFlags, reps *int, target *time.Duration) {
	fs.intIn("reps", reps, 1, maxReps)
	fs.durationIn("target", target, time.Microsecond, maxTarget, "")
}

// maxLD bounds --ld and --ld-pad: a leading dimension of 2^20 elements
// already puts each column of a float64 matrix 8 MiB apart.
const maxLD = 1 << 20

// layoutFlags declares --ld and --ld-pad, the operands' layout of bench.
func layoutFlags(fs *cmdFlags) *trial.Layout {
	var l trial.Layout
	fs.IntVar(&l.LD, "ld", 0, "leading dimension of every matrix operand, as views of a larger array (0: tight, the operand's rows; an operand with more rows keeps its rows)")
	fs.IntVar(&l.Pad, "ld-pad", 0, "elements added to each operand's leading dimension (with --ld 0: rows+pad); e.g. time --ld 1024 against --ld 1024 --ld-pad 8")
	fs.intIn("ld", &l.LD, 0, maxLD)
	fs.intIn("ld-pad", &l.Pad, 0, maxLD)
	return &l
}

// dtypeFlag declares --dtype for the commands that take one call shape
// (bench, explain), which also take the dtype as a word after the op.
func dtypeFlag(fs *cmdFlags) *string {
	return fs.String("dtype", string(sel.Float64), "dtype of the call (the same as the word after OP; give either)")
}

// callDType resolves the dtype of a call from its two forms: a word right
// after the op (`bench potrf float32 uplo=L ...`) and --dtype. Either may
// be left out (--dtype's default then holds); given both, they must agree.
// It returns the arguments after the dtype word: the call's keys.
func callDType(op *sel.Op, rest []string, fs *cmdFlags, flag string) (sel.DType, []string, error) {
	dt := sel.DType(flag)
	if len(rest) > 0 && !strings.Contains(rest[0], "=") {
		word := sel.DType(rest[0])
		if !slices.Contains(op.DTypes(), word) {
			return "", nil, fs.usageError("%s: %s is neither a dtype of %s (%s) nor a key=value", op.Name(), quote.Q(rest[0]), op.Name(), dtypeList(op))
		}
		if fs.Changed("dtype") && word != dt {
			return "", nil, fs.usageError("the dtype is given twice, as %s and as --dtype %s: give one", word, dt)
		}
		dt, rest = word, rest[1:]
	}
	if len(op.Candidates(dt)) == 0 {
		return "", nil, fmt.Errorf("%s has no %s candidates (dtypes: %s)", op.Name(), dt, dtypeList(op))
	}
	return dt, rest, nil
}

func dtypeList(op *sel.Op) string {
	var out []string
	for _, dt := range op.DTypes() {
		out = append(out, string(dt))
	}
	return strings.Join(out, ", ")
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", benchSynopsis, stdout, stderr)
	dtype := dtypeFlag(fs)
	maxBytes := maxBytesFlag(fs)
	settings := protocolFlags(fs, 0)
	lay := layoutFlags(fs)
	fs.note(keysNote(tunedOps()))
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return fs.usageError("want an op and the call's keys")
	}
	trial.OperandLayout = *lay
	if *maxBytes <= 0 {
		return fs.usageError("--max-cell-bytes must be positive")
	}
	t, ok := tuners[fs.Arg(0)]
	if !ok {
		if _, err := opByName(fs.Arg(0)); err != nil {
			return err
		}
		return fmt.Errorf("the tuner has no measurement for op %s (ops/%s/trial.go)", fs.Arg(0), fs.Arg(0))
	}
	dt, keys, err := callDType(t.op, fs.Args()[1:], fs, *dtype)
	if err != nil {
		return err
	}
	c, err := parseCellArgs(t.op, keys)
	if err != nil {
		return err
	}
	// No work cap: bench times what it is asked to, however long that
	// takes. The memory cap still holds (newCellCase).
	ms := settings()
	ms.maxBytes = *maxBytes
	var status io.Writer // progress lines, only on a terminal
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		status = stderr
	}
	res, err := benchCell(context.Background(), t, dt, c, ms, stdout, status)
	if err != nil {
		return err
	}
	if len(res.Bad) > 0 {
		return exitError{1}
	}
	return nil
}

// benchCell measures automatic selection and every candidate pinned on one
// call shape and prints the comparison. status, when not nil (a terminal),
// gets a line saying what is being done while it is done, erased after.
func benchCell(ctx context.Context, t *opTuner, dt sel.DType, c cell, ms measureSettings, w, status io.Writer) (cellResult, error) {
	say := func(format string, args ...any) {
		if status != nil {
			fmt.Fprintf(status, "\r\033[K"+format, args...)
		}
	}
	defer say("")
	res := cellResult{Op: t.op.Name(), DType: dt, Vals: c.vals}
	oc, err := newCellCase(t, dt, c, ms)
	if err != nil {
		return res, err
	}
	dev := batchlas.Host()
	walk, err := t.op.Explain(ctx, dt, c.key(), dev)
	if err != nil {
		return res, fmt.Errorf("the automatic decision fails: %w", err)
	}
	fmt.Fprintf(w, "trace: %s\n\n", walk.TraceLine)

	say("bench: checking and warming up %d candidates of %s %s %s ...", len(t.op.Candidates(dt)), t.op.Name(), dt, c)
	runs, calls, err := prepareCandidates(ctx, t, dt, oc, ms, &res)
	if err != nil {
		return res, err
	}
	// The automatic call, on the same inputs: no pin of the tuner's, so the
	// tables decide (as for any user, BATCHLAS_<OP>_ROUTE still applies).
	auto, err := oc.Bind(ctx)
	if err != nil {
		return res, fmt.Errorf("sizing the automatic call: %w", err)
	}
	if err := auto.Verify(ctx); err != nil {
		res.Bad = append(res.Bad, note{"auto", err.Error()})
	}
	_, _ = auto.Run(ctx, 1)
	one, err := auto.Run(ctx, 1)
	if err != nil {
		return res, err
	}
	timers := []timer{func(ctx context.Context, n int) (time.Duration, error) { return auto.Run(ctx, n) }}
	allCalls := []int{ms.proto.calibrate(one)}
	for _, r := range runs {
		timers = append(timers, func(_ context.Context, n int) (time.Duration, error) { return r.bound.Run(r.ctx, n) })
	}
	allCalls = append(allCalls, calls...)
	say("bench: timing the automatic call and %d candidates, %d timings each ...", len(runs), ms.proto.reps)
	got, err := ms.proto.measure(ctx, timers, allCalls)
	if err != nil {
		return res, err
	}
	pinned := make([]benchRow, len(runs))
	for i, r := range runs {
		pinned[i] = benchRow{choice: r.choice, m: got[i+1]}
	}
	printBench(w, t.op.Name(), dt, c, t.flops(c), walk, got[0], pinned, res)
	return res, nil
}

// benchRow is one pinned candidate's measurement.
type benchRow struct {
	choice sel.Choice
	m      measured
}

// printBench prints bench's comparison: the automatic call as measured,
// every candidate pinned, the ones skipped or bad, and a summary of the
// automatic call against the fastest pinned candidate.
func printBench(w io.Writer, op string, dt sel.DType, c cell, flops float64, walk *sel.Walk, auto measured, pinned []benchRow, res cellResult) {
	fastest := -1
	for i := range pinned {
		if fastest < 0 || pinned[i].m.MS < pinned[fastest].m.MS {
			fastest = i
		}
	}
	fmt.Fprintf(w, "%s %s %s: %.3g flops per call\n\n", op, dt, c, flops)
	fmt.Fprintf(w, "  %-26s %12s %10s %10s\n", "candidate", "ms/call", "GFLOP/s", "vs fastest")
	base := auto.MS // with no candidate pinned, the ratios are to the automatic call
	if fastest >= 0 {
		base = pinned[fastest].m.MS
	}
	line := func(name string, m measured, mark string) {
		slow := m.MS / base
		noisy := ""
		if m.Noisy {
			noisy = "  (noisy)"
		}
		fmt.Fprintf(w, "  %-26s %12s %10.2f %10.3f%s%s\n", name, formatMS(m.MS), flops/(m.MS*1e6), slow, mark, noisy)
	}
	line("auto -> "+walk.Choice.String(), auto, "")
	for _, r := range pinned {
		mark := ""
		if r.choice == walk.Choice {
			mark = "  <- auto"
		}
		line(r.choice.String(), r.m, mark)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "  %-26s %12s  skipped: %s\n", s.Spelling, "-", s.Why)
	}
	for _, b := range res.Bad {
		fmt.Fprintf(w, "  %-26s %12s  BAD RESULT: %s\n", b.Spelling, "-", b.Why)
	}
	if fastest < 0 {
		return
	}
	// The summary reads the automatic call's own row: that is what a
	// program gets, dispatch included, and it is measured in the same
	// passes as the pinned candidates. The pinned pick's time would hide
	// a decision or dispatch that costs time of its own.
	fmt.Fprintf(w, "\nauto picked %s (%s): the automatic call took %.3fx the time of the fastest, %s\n",
		walk.Choice, walk.Source, auto.MS/pinned[fastest].m.MS, pinned[fastest].choice)
}
