package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// smallCell is a cheap cell of an op's quick grid with its sizes set to n
// and the batch to 3 (first, middle and last matrices differ).
func smallCell(t *testing.T, tu *opTuner, n string) cell {
	cells, err := expandGrid(tu.op, gridFlag{name: "quick"})
	require.NoError(t, err)
	c := cells[0]
	for _, k := range tu.op.Keys() {
		if k.Kind == sel.Log {
			c = c.with(k.Name, n)
		}
	}
	return c.with("batch", "3")
}

// Every candidate of every op passes the spec's verification on straddling
// sizes: the references and bounds accept correct kernels.
func TestSpecsVerifyEveryCandidate(t *testing.T) {
	for _, name := range tunerNames() {
		tu := tuners[name]
		for _, dt := range tu.op.DTypes() {
			for _, n := range []string{"1", "7", "33"} {
				c := smallCell(t, tu, n)
				oc, err := tu.newCase(dt, c, 1)
				require.NoError(t, err)
				for _, ch := range tu.op.Candidates(dt) {
					ctx := sel.WithStrictPin(context.Background(), name, ch.String())
					b, err := oc.Bind(ctx)
					if err != nil {
						continue // refused pin: skipped, as in a run
					}
					assert.NoError(t, b.Verify(ctx), "%s %s %s %s", name, dt, c, ch)
				}
			}
		}
	}
}

// A wrong result is caught: the verification is not vacuous.
func TestSpecsCatchWrongResults(t *testing.T) {
	for _, name := range tunerNames() {
		tu := tuners[name]
		c := smallCell(t, tu, "5")
		oc, err := tu.newCase(sel.Float64, c, 1)
		require.NoError(t, err)
		ctx := context.Background()
		b, err := oc.Bind(ctx)
		require.NoError(t, err)
		require.NoError(t, b.Verify(ctx))
		// Corrupt one element of the last matrix's result after the call.
		call := b.Call
		b.Call = func(ctx context.Context, j int) error {
			if err := call(ctx, j); err != nil {
				return err
			}
			corruptLastOutput(oc)
			return nil
		}
		assert.Error(t, b.Verify(ctx), "%s: a corrupted result must fail verification", name)
	}
}

// outputOf is the result storage of a float64 trial: what its op writes
// and its check reads (trial.Output, which every op's trial implements).
func outputOf(oc sel.Trial) batchlas.Batch[float64] {
	out, ok := oc.(trial.Output[float64])
	if !ok {
		panic(fmt.Sprintf("%T does not implement trial.Output[float64]", oc))
	}
	return out.Output()
}

func corruptLastOutput(oc sel.Trial) {
	out := outputOf(oc)
	i := out.Count - 1
	v := out.At(i, out.Rows-1, out.Cols-1)
	if e, ok := oc.(trial.Estimated); ok {
		// An estimate is only as good as its check allows: move it past
		// the slack.
		out.Set(i, out.Rows-1, out.Cols-1, v*2*e.Slack())
		return
	}
	out.Set(i, out.Rows-1, out.Cols-1, v*1.001+1e-3)
}

// A whole run on a tiny grid writes a table that check accepts, and a
// second run with the ledger measures nothing again.
func TestRunWritesACheckedTableAndResumes(t *testing.T) {
	out, led := t.TempDir(), t.TempDir()
	args := []string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2:4,batch=2",
		"--out", out, "--ledger", led, "--reps", "1", "--target", "20us", "--refine=false"}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
	name := "potrf." + batchlas.Host().Label() + ".txt"
	data, err := os.ReadFile(filepath.Join(out, name))
	require.NoError(t, err)
	_, _, problems := checkTable(name, data)
	assert.Empty(t, problems, "%s", data)
	assert.Contains(t, string(data), "refine_max=0", "the header records the refinement budget (--refine=false)")
	assert.Contains(t, string(data), "uplo=L n=2 batch=2 |")
	assert.Contains(t, string(data), "uplo=L n=4 batch=2 |")
	assert.Contains(t, stdout.String(), "2 cells measured, 0 from the ledger")
	// The header records the device facts the kernels decided by.
	tab, err := sel.ParseTable(name, data, potrfTunerOp())
	require.NoError(t, err)
	dev := batchlas.Host()
	assert.Equal(t, strconv.Itoa(dev.L1D), tab.Header["l1d"])
	assert.Equal(t, strconv.Itoa(dev.L2), tab.Header["l2"])
	assert.Equal(t, strconv.Itoa(dev.L3), tab.Header["l3"])
	assert.Equal(t, strings.Join(dev.Flags, ","), tab.Header["flags"])

	stdout.Reset()
	require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "0 cells measured, 2 from the ledger")
	again, err := os.ReadFile(filepath.Join(out, name))
	require.NoError(t, err)
	assert.Equal(t, rowsOf(string(data)), rowsOf(string(again)), "a resumed run writes the same rows")
}

func rowsOf(table string) []string {
	var out []string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "uplo=") {
			out = append(out, l)
		}
	}
	return out
}

func TestRunPlanPrintsCellsAndExits(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := t.TempDir()
	code := mainCode([]string{"run", "--op", "all", "--grid", "quick", "--plan", "--out", out}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "potrf float64:")
	assert.Contains(t, stdout.String(), "uplo=L n=512 batch=1")
	assert.Contains(t, stdout.String(), "total:")
	ents, _ := os.ReadDir(out)
	assert.Empty(t, ents, "--plan measures and writes nothing")
}

// Tuning one dtype keeps the other dtype's rows of the table already there.
func TestRunKeepsSectionsOfOtherDTypes(t *testing.T) {
	out := t.TempDir()
	key := batchlas.Host().Label()
	doc := sampleDoc()
	doc.header[0][1].v = batchlas.Host().Key
	name := "potrf." + key + ".txt"
	require.NoError(t, os.WriteFile(filepath.Join(out, name), doc.bytes(), 0o644))
	args := []string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=3,batch=2",
		"--out", out, "--reps", "1", "--target", "20us"}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
	data, err := os.ReadFile(filepath.Join(out, name))
	require.NoError(t, err)
	tab, err := sel.ParseTable(name, data, potrfTunerOp())
	require.NoError(t, err)
	require.Len(t, tab.Sections[sel.Float32], 1, "float32 rows are kept")
	assert.Equal(t, "uplo=L n=8 batch=1024", tab.Sections[sel.Float32][0].Key.Format(tab.Keys))
	require.Len(t, tab.Sections[sel.Float64], 1, "float64 rows are this run's")
	assert.Equal(t, "uplo=L n=3 batch=2", tab.Sections[sel.Float64][0].Key.Format(tab.Keys))
	assert.Equal(t, "float32", tab.Header["kept"])
}

func potrfTunerOp() *sel.Op { return tuners["potrf"].op }

// A budget that runs out stops cleanly: nothing half-measured is written,
// the exit status is zero, and the run says how to resume.
func TestRunBudgetStopsCleanly(t *testing.T) {
	out, led := t.TempDir(), t.TempDir()
	var stdout, stderr bytes.Buffer
	code := mainCode([]string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "n=64,batch=256",
		"--out", out, "--ledger", led, "--budget", "1ns"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "stopped early (--budget spent)")
	assert.Contains(t, stdout.String(), "resume from "+led)
	ents, _ := os.ReadDir(out)
	assert.Empty(t, ents, "no complete cell, no table")
}

// An in-place op's calls each run on a working copy restored since its
// last call, and the restores are outside the timed calls.
func TestRunRestoresEveryWorkingCopyBeforeItsCall(t *testing.T) {
	const copies = 4
	fresh := make([]bool, copies)
	calls, restores := 0, 0
	b := &sel.Bound{
		Copies: copies,
		Restore: func(k int) {
			restores++
			for j := range k {
				fresh[j] = true
			}
		},
		Call: func(_ context.Context, j int) error {
			if !fresh[j] {
				return fmt.Errorf("call %d ran on working copy %d without a restore", calls, j)
			}
			fresh[j] = false
			calls++
			return nil
		},
	}
	_, err := b.Run(context.Background(), 10)
	require.NoError(t, err)
	assert.Equal(t, 10, calls)
	assert.Equal(t, 3, restores, "4 + 4 + 2 calls")
}

// What a spec declares the same computation is: the two pinned candidates
// write bit-identical results from the same inputs, on orders that
// straddle every blocked leaf size and path, and on each size key alone
// straddling 128 with the others small (gemm's packed:kc=256 runs
// packed:kc=128's code up to k = 128, and its own from k = 129).
func TestSameComputationIsBitIdentical(t *testing.T) {
	for _, name := range tunerNames() {
		tu := tuners[name]
		twin := tu.op.Spec().Twin
		if twin == nil {
			continue
		}
		var cells []cell
		for _, n := range []string{"1", "7", "8", "9", "12", "13", "16", "17", "32", "33", "64", "65"} {
			cells = append(cells, smallCell(t, tu, n))
		}
		for _, k := range tu.op.Keys() {
			if k.Kind != sel.Log || k.Name == "batch" {
				continue
			}
			for _, v := range []string{"127", "128", "129"} {
				cells = append(cells, smallCell(t, tu, "7").with(k.Name, v))
			}
		}
		declared := 0
		for _, c := range cells {
			if tu.problem(c) != nil {
				continue // no call of the op (orgqr's n > m, ormqr's k > the order of Q)
			}
			oc, err := tu.newCase(sel.Float64, c, 1)
			require.NoError(t, err)
			outputOf := func(pin string) []float64 {
				ctx := sel.WithStrictPin(context.Background(), name, pin)
				b, err := oc.Bind(ctx)
				require.NoError(t, err)
				require.NoError(t, b.Verify(ctx))
				return append([]float64(nil), outputOf(oc).Data...)
			}
			for _, ch := range tu.op.Candidates(sel.Float64) {
				if same := twin(ch, sel.Float64, c.key(), batchlas.Host()); same != "" {
					declared++
					assert.Equal(t, outputOf(same), outputOf(ch.String()), "%s %s: %s declared the same computation as %s", name, c, ch, same)
				}
			}
		}
		assert.Positive(t, declared, "%s: Twin declares nothing on these cells", name)
	}
}

// The tuner times a declared twin once: its entry carries the time of the
// candidate it names, and the tie rule ranks the named (earlier) one first.
func TestMeasureCellTimesTwinsOnce(t *testing.T) {
	tu := tuners["trsm"]
	c := smallCell(t, tu, "8").with("batch", "1")
	ms := measureSettings{proto: protocol{reps: 1, target: 20 * time.Microsecond, maxCalls: 100, noise: 0.10}, seed: 1}
	res, err := measureCell(context.Background(), tu, sel.Float64, c, ms)
	require.NoError(t, err)
	ms8 := map[string]float64{}
	for _, e := range res.Entries {
		ms8[e.Spelling] = e.MS
	}
	for _, twin := range []string{"blocked:nb=8", "blocked:nb=16", "blocked:nb=32"} {
		assert.Equal(t, ms8["direct"], ms8[twin], twin)
	}
	// Equal times tie, and a tie goes by candidate order: the twins follow
	// direct. vendor, simd and vector, timed on their own, may land before
	// or after them.
	var order []string
	for _, e := range res.Entries {
		if e.Spelling != "vendor" && e.Spelling != "simd" && e.Spelling != "vector" {
			order = append(order, e.Spelling)
		}
	}
	assert.Equal(t, []string{"direct", "blocked:nb=8", "blocked:nb=16", "blocked:nb=32"}, order)
}
