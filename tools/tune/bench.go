package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

const benchSynopsis = "bench OP [--dtype float64] key=value...   e.g. bench potrf --dtype float64 uplo=L n=64 batch=4096"

// protocolFlags declares the measurement knobs shared by bench and
// validate.
// protocolFlags declares the measurement flags of a command; screen is
// the default of --screen (0 for bench, which shows every candidate
// measured in full).
func protocolFlags(fs *pflag.FlagSet, screen float64) func() measureSettings {
	reps := fs.Int("reps", 5, "timings per candidate per pass (the median is kept)")
	target := fs.Duration("target", time.Millisecond, "least duration of one timing; fast calls are repeated to reach it")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	scr := fs.Float64("screen", screen, "time every candidate once first and keep that time for those more than this many times slower than the fastest (0: measure every candidate in full)")
	return func() measureSettings {
		p := defaultProtocol()
		p.reps, p.target = max(1, *reps), max(time.Microsecond, *target)
		p.screen = 0
		if *scr > 1 {
			p.screen = *scr
		}
		return measureSettings{proto: p, seed: *seed}
	}
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", benchSynopsis, stderr)
	dtype := fs.String("dtype", "float64", "float32 or float64")
	maxBytes := maxBytesFlag(fs)
	settings := protocolFlags(fs, 0)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return usageError(fs, "want an op and the call's keys")
	}
	if *maxBytes <= 0 {
		return usageError(fs, "--max-cell-bytes must be positive")
	}
	t, ok := tuners[fs.Arg(0)]
	if !ok {
		if _, err := opByName(fs.Arg(0)); err != nil {
			return err
		}
		return fmt.Errorf("the tuner has no spec for op %s (tools/tune/%s_spec.go)", fs.Arg(0), fs.Arg(0))
	}
	dt := sel.DType(*dtype)
	if len(t.op.Candidates(dt)) == 0 {
		return fmt.Errorf("%s has no %s candidates (dtypes: %v)", t.op.Name(), dt, t.op.DTypes())
	}
	c, err := parseCellArgs(t.op, fs.Args()[1:])
	if err != nil {
		return err
	}
	// No work cap: bench times what it is asked to, however long that
	// takes. The memory cap still holds (newCellCase).
	ms := settings()
	ms.maxBytes = *maxBytes
	res, err := benchCell(context.Background(), t, dt, c, ms, stdout)
	if err != nil {
		return err
	}
	if len(res.Bad) > 0 {
		return exitError{1}
	}
	return nil
}

// benchCell measures automatic selection and every candidate pinned on one
// call shape and prints the comparison.
func benchCell(ctx context.Context, t *opTuner, dt sel.DType, c cell, ms measureSettings, w io.Writer) (cellResult, error) {
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

	runs, calls, err := prepareCandidates(ctx, t, dt, oc, ms, &res)
	if err != nil {
		return res, err
	}
	// The automatic call, on the same inputs: no pin of the tuner's, so the
	// tables decide (as for any user, BATCHLAS_<OP>_ROUTE still applies).
	auto, err := oc.bind(ctx)
	if err != nil {
		return res, fmt.Errorf("sizing the automatic call: %w", err)
	}
	if err := auto.verify(ctx); err != nil {
		res.Bad = append(res.Bad, note{"auto", err.Error()})
	}
	_, _ = auto.run(ctx, 1)
	one, err := auto.run(ctx, 1)
	if err != nil {
		return res, err
	}
	timers := []timer{func(ctx context.Context, n int) (time.Duration, error) { return auto.run(ctx, n) }}
	allCalls := []int{ms.proto.calibrate(one)}
	for _, r := range runs {
		timers = append(timers, func(_ context.Context, n int) (time.Duration, error) { return r.bound.run(r.ctx, n) })
	}
	allCalls = append(allCalls, calls...)
	got, err := ms.proto.measure(ctx, timers, allCalls)
	if err != nil {
		return res, err
	}
	flops := t.flops(c)
	fastest := -1
	for i := range runs {
		if fastest < 0 || got[i+1].MS < got[fastest+1].MS {
			fastest = i
		}
	}
	fmt.Fprintf(w, "%s %s %s: %.3g flops per call\n\n", t.op.Name(), dt, c, flops)
	fmt.Fprintf(w, "  %-26s %12s %10s %10s\n", "candidate", "ms/call", "GFLOP/s", "vs fastest")
	line := func(name string, m measured, mark string) {
		slow := m.MS / got[fastest+1].MS
		noisy := ""
		if m.Noisy {
			noisy = "  (noisy)"
		}
		fmt.Fprintf(w, "  %-26s %12s %10.2f %10.3f%s%s\n", name, formatMS(m.MS), flops/(m.MS*1e6), slow, mark, noisy)
	}
	line("auto -> "+walk.Choice.String(), got[0], "")
	for i, r := range runs {
		mark := ""
		if r.choice == walk.Choice {
			mark = "  <- auto"
		}
		line(r.choice.String(), got[i+1], mark)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "  %-26s %12s  skipped: %s\n", s.Spelling, "-", s.Why)
	}
	for _, b := range res.Bad {
		fmt.Fprintf(w, "  %-26s %12s  BAD RESULT: %s\n", b.Spelling, "-", b.Why)
	}
	if fastest >= 0 {
		pick := -1
		for i, r := range runs {
			if r.choice == walk.Choice {
				pick = i
			}
		}
		fmt.Fprintln(w)
		if pick >= 0 {
			fmt.Fprintf(w, "auto picked %s (%s): %.3fx the time of the fastest, %s\n",
				walk.Choice, walk.Source, got[pick+1].MS/got[fastest+1].MS, runs[fastest].choice)
		}
	}
	return res, nil
}
