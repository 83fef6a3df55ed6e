// Command firstcall measures what the first call of an op costs a
// process: the call that reads the op's tuned tables (docs/select.md,
// "What a table costs"). It starts itself again as a fresh process for
// each measurement, since only a process's first call pays it, and prints
// the median over the runs:
//
//	go run ./examples/firstcall                  # gemm and trsm, 11 processes each
//	go run ./examples/firstcall -runs 21 trsm
//
// Each process times one small call (8x8 float64 matrices, a batch of
// 16: gemm C = A*B, or trsm solving with a lower triangle), then the same
// call again, which the memoised decision serves. The CPU time is the
// process's, all threads, while the first call runs (on Unix systems).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// childVar names the op a child process times.
const childVar = "FIRSTCALL_CHILD"

func main() {
	if op := os.Getenv(childVar); op != "" {
		if err := child(os.Stdout, op); err != nil {
			log.Fatal(err)
		}
		return
	}
	runs := flag.Int("runs", 11, "fresh processes per op")
	flag.Parse()
	ops := flag.Args()
	if len(ops) == 0 {
		ops = []string{"gemm", "trsm"}
	}
	exe, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	if err := report(os.Stdout, exe, ops, *runs); err != nil {
		log.Fatal(err)
	}
}

// report starts exe as a fresh child process runs times per op and
// prints the medians of what the children measured.
func report(w io.Writer, exe string, ops []string, runs int) error {
	for _, op := range ops {
		var first, cpu, second []float64
		for range runs {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), childVar+"="+op)
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("%s: %v", op, err)
			}
			f := strings.Fields(string(out)) // first, its CPU, second: microseconds
			if len(f) != 3 {
				return fmt.Errorf("%s: the child printed %q", op, out)
			}
			for i, dst := range []*[]float64{&first, &cpu, &second} {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return fmt.Errorf("%s: the child printed %q", op, out)
				}
				*dst = append(*dst, v)
			}
		}
		cpuText := "n/a"
		if median(cpu) >= 0 {
			cpuText = fmt.Sprintf("%.2f ms", median(cpu)/1000)
		}
		fmt.Fprintf(w, "%s: first call %.2f ms (median of %d processes, %.2f to %.2f), CPU %s; second call %.0f us\n",
			op, median(first)/1000, runs, slices.Min(first)/1000, slices.Max(first)/1000, cpuText, median(second))
	}
	return nil
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	return s[len(s)/2]
}

// child makes op's call twice in this fresh process and prints the first
// call's time and CPU time (-1 where the system does not say) and the
// second call's time, in microseconds.
func child(w io.Writer, op string) error {
	const n, batch = 8, 16
	a := batchlas.NewBatch[float64](n, n, batch)
	b := batchlas.NewBatch[float64](n, n, batch)
	c := batchlas.NewBatch[float64](n, n, batch)
	for i := 0; i < batch; i++ {
		for r := 0; r < n; r++ {
			a.Set(i, r, r, 2)
			b.Set(i, r, r, 1)
		}
	}
	ctx := context.Background()
	call := func() error {
		switch op {
		case "gemm":
			return gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1.0, a, b, 0.0, c, nil)
		case "trsm":
			return trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1.0, a, b, nil)
		}
		return fmt.Errorf("unknown op %q: want gemm or trsm", op)
	}
	c0, t0 := cpuTime(), time.Now()
	if err := call(); err != nil {
		return err
	}
	first, firstCPU := time.Since(t0), cpuTime()-c0
	if c0 < 0 {
		firstCPU = -time.Microsecond
	}
	t0 = time.Now()
	if err := call(); err != nil {
		return err
	}
	second := time.Since(t0)
	_, err := fmt.Fprintln(w, first.Microseconds(), firstCPU.Microseconds(), second.Microseconds())
	return err
}
