package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

const strideSynopsis = "stride [flags]   e.g. stride --case \"gemm float64 ta=N tb=N m=64 n=64 k=64 batch=64 ld=1024\""

// strideCliff is the ratio below which stride marks a row: the call at its
// leading dimension ran at less than this fraction of the GFLOP/s it ran at
// with ld+8.
const strideCliff = 0.9

// stridePad is what stride adds to a case's leading dimension: one 64-byte
// line of float64, which moves each column to other cache sets.
const stridePad = 8

// defaultStrideCases are the calls stride times: big matrices whose tight
// leading dimension is a power of two, and small ones as views of a larger
// array (ld=L). Each is a float64 line; --dtype adds its float32 twin.
var defaultStrideCases = []string{
	"gemm float64 ta=N tb=N m=512 n=512 k=512 batch=1",
	"gemm float64 ta=N tb=N m=1024 n=1024 k=1024 batch=1",
	"gemm float64 ta=N tb=N m=2048 n=2048 k=2048 batch=1",
	"gemm float64 ta=T tb=N m=1024 n=1024 k=1024 batch=1",
	"trsm float64 side=L uplo=L ta=N diag=N m=512 n=512 batch=1",
	"trsm float64 side=L uplo=L ta=N diag=N m=1024 n=1024 batch=1",
	"potrf float64 uplo=L n=512 batch=1",
	"potrf float64 uplo=L n=1024 batch=1",
	"gemm float64 ta=N tb=N m=64 n=64 k=64 batch=64 ld=512",
	"gemm float64 ta=N tb=N m=64 n=64 k=64 batch=64 ld=1024",
	"potrf float64 uplo=L n=64 batch=64 ld=512",
	"potrf float64 uplo=L n=64 batch=64 ld=1024",
	"getrf float64 n=64 batch=64 ld=512",
	"getrf float64 n=64 batch=64 ld=1024",
	"syev float64 jobz=V uplo=L n=64 batch=64 ld=512",
	"syev float64 jobz=V uplo=L n=64 batch=64 ld=1024",
}

// strideCase is one line of stride: a call shape and the layout of its
// operands (ld 0: tight).
type strideCase struct {
	t  *opTuner
	dt sel.DType
	c  cell
	ld int
}

func cmdStride(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("stride", strideSynopsis, stdout, stderr)
	var cases []string
	fs.StringArrayVar(&cases, "case", nil, "time this call instead of the default list, as OP DTYPE key=value... [ld=L] (repeatable; no ld: tight)")
	dtypes := fs.String("dtype", "float64,float32", "dtypes of the default list: float32, float64 or both comma-separated (each line is float64; float32 times its twin)")
	maxBytes := maxBytesFlag(fs)
	settings := protocolFlags(fs, 0)
	fs.check("case", fmt.Sprintf("at most %d calls", maxCases), func() bool { return len(cases) <= maxCases })
	fs.note(func(w io.Writer) {
		fmt.Fprintf(w, "Times each call's automatic choice with its operands at leading dimension ld\n")
		fmt.Fprintf(w, "and at ld+%d, interleaved in one run, and prints the ratio of their GFLOP/s.\n", stridePad)
		fmt.Fprintf(w, "A ratio under %.2f is marked: a stride cliff, where the columns a kernel\n", strideCliff)
		fmt.Fprintln(w, "reads together fall into a few cache sets. ld=L lays every operand out as a")
		fmt.Fprintln(w, "view of an array with L rows; without it the operands are tight (ld = rows).")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "default calls:")
		for _, s := range defaultStrideCases {
			fmt.Fprintf(w, "  %s\n", s)
		}
	})
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	if *maxBytes <= 0 {
		return fs.usageError("--max-cell-bytes must be positive")
	}
	dts, err := selectDTypes(*dtypes)
	if err != nil {
		return fs.usageError("%v", err)
	}
	lines := cases
	if len(cases) == 0 {
		for _, l := range defaultStrideCases {
			for _, dt := range dts {
				lines = append(lines, strings.Replace(l, " float64 ", " "+string(dt)+" ", 1))
			}
		}
	}
	var runs []strideCase
	for _, line := range lines {
		sc, err := parseStrideCase(line)
		if err != nil {
			return fs.usageError("%v", err)
		}
		runs = append(runs, sc)
	}
	ms := settings()
	ms.maxBytes = *maxBytes
	dev := batchlas.Host()
	fmt.Fprintf(stdout, "machine: %s, %s, %d cores (L1D %s, L2 %s)\n\n", dev.Name, dev.Key, dev.Cores, formatBytes(float64(dev.L1D)), formatBytes(float64(dev.L2)))
	fmt.Fprintf(stdout, "%-62s %-8s %6s %10s %10s %7s\n", "call", "choice", "ld", "GFLOP/s", "ld+8", "ratio")
	cliffs := 0
	for _, sc := range runs {
		row, err := strideRow(context.Background(), sc, ms)
		if err != nil {
			return err
		}
		if row.ratio < strideCliff {
			cliffs++
		}
		fmt.Fprintln(stdout, row.line)
	}
	if cliffs > 0 {
		fmt.Fprintf(stdout, "\n%d of %d calls ran at less than %.2f of their speed at ld+%d\n", cliffs, len(runs), strideCliff, stridePad)
	}
	return nil
}

// parseStrideCase reads OP DTYPE key=value... [ld=L].
func parseStrideCase(line string) (strideCase, error) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return strideCase{}, fmt.Errorf("call %s: want OP DTYPE key=value... [ld=L]", quote.Q(line))
	}
	name, dt := strings.ToLower(f[0]), sel.DType(f[1])
	t, ok := tuners[name]
	if !ok {
		return strideCase{}, fmt.Errorf("call %s: the tuner has no measurement for op %s", quote.Q(line), quote.Q(name))
	}
	if !slices.Contains(t.op.DTypes(), dt) {
		return strideCase{}, fmt.Errorf("call %s: %s has no dtype %s (dtypes: %s)", quote.Q(line), name, quote.Q(string(dt)), dtypeList(t.op))
	}
	sc := strideCase{t: t, dt: dt}
	var keys []string
	for _, kv := range f[2:] {
		v, isLD := strings.CutPrefix(kv, "ld=")
		if !isLD {
			keys = append(keys, kv)
			continue
		}
		ld, err := strconv.Atoi(v)
		if err != nil || ld < 1 || ld > maxLD {
			return strideCase{}, fmt.Errorf("call %s: ld=%s: want an integer from 1 to %d", quote.Q(line), quote.Q(v), maxLD)
		}
		sc.ld = ld
	}
	c, err := parseCellArgs(t.op, keys)
	if err != nil {
		return strideCase{}, fmt.Errorf("call %s: %w", quote.Q(line), err)
	}
	sc.c = c
	return sc, nil
}

// strideResult is one printed row of stride.
type strideResult struct {
	line  string
	ratio float64
}

// strideRow times sc's automatic call at its layout and at ld+stridePad,
// both verified, in one interleaved measurement.
func strideRow(ctx context.Context, sc strideCase, ms measureSettings) (strideResult, error) {
	defer func() { trial.OperandLayout = trial.Layout{} }()
	walk, err := sc.t.op.Explain(ctx, sc.dt, sc.c.key(), batchlas.Host())
	if err != nil {
		return strideResult{}, fmt.Errorf("%s %s %s: the automatic decision fails: %w", sc.t.op.Name(), sc.dt, sc.c, err)
	}
	var timers []timer
	var calls []int
	for _, pad := range []int{0, stridePad} {
		trial.OperandLayout = trial.Layout{LD: sc.ld, Pad: pad}
		oc, err := newCellCase(sc.t, sc.dt, sc.c, ms)
		if err != nil {
			return strideResult{}, err
		}
		b, err := oc.Bind(ctx)
		if err != nil {
			return strideResult{}, err
		}
		if err := b.Verify(ctx); err != nil {
			return strideResult{}, fmt.Errorf("%s %s %s with ld %s: %w", sc.t.op.Name(), sc.dt, sc.c, trial.OperandLayout, err)
		}
		if _, err := b.Run(ctx, 1); err != nil {
			return strideResult{}, err
		}
		one, err := b.Run(ctx, 1)
		if err != nil {
			return strideResult{}, err
		}
		timers = append(timers, func(ctx context.Context, n int) (time.Duration, error) { return b.Run(ctx, n) })
		calls = append(calls, ms.proto.calibrate(one))
	}
	got, err := ms.proto.measure(ctx, timers, calls)
	if err != nil {
		return strideResult{}, err
	}
	flops := sc.t.flops(sc.c)
	at, padded := flops/(got[0].MS*1e6), flops/(got[1].MS*1e6)
	ratio := at / padded
	ld := "tight"
	if sc.ld > 0 {
		ld = strconv.Itoa(sc.ld)
	}
	mark := ""
	if ratio < strideCliff {
		mark = "  <- cliff"
	}
	name := fmt.Sprintf("%s %s %s", sc.t.op.Name(), sc.dt, sc.c)
	line := fmt.Sprintf("%-62s %-8s %6s %10.2f %10.2f %7.3f%s", name, walk.Choice, ld, at, padded, ratio, mark)
	return strideResult{line: line, ratio: ratio}, nil
}
