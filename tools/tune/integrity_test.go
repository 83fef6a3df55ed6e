package main

// Tests that the tuner's own bookkeeping cannot silently go wrong: each one
// fails for a mutant a mutation test found its other tests let through
// (see docs/decisions.md).

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// Each candidate's entry carries the measurement of its own timer, or of
// the twin it is timed as; the noisy and screened marks follow theirs.
func TestEntriesOfGivesEachCandidateItsOwnTime(t *testing.T) {
	cands := potrf.Op.Candidates(sel.Float64)[:6] // the native ones
	var runs []candidateRun
	for i, ch := range cands {
		runs = append(runs, candidateRun{choice: ch, order: i})
	}
	// Five timers; run 5 (blocked) is timed as run 0 (tiny).
	slot := []int{0, 1, 2, 3, 4, 0}
	got := []measured{{MS: 0.9}, {MS: 0.3}, {MS: 2.5, Screened: true}, {MS: 0.6, Noisy: true}, {MS: 1.2}}
	es, noisy, screened := entriesOf(runs, slot, got)
	byName := map[string]float64{}
	for _, e := range es {
		byName[e.Spelling] = e.MS
	}
	for i, ch := range cands {
		assert.Equal(t, got[slot[i]].MS, byName[ch.String()], ch.String())
	}
	assert.Equal(t, []string{cands[3].String()}, noisy)
	assert.Equal(t, []string{cands[2].String()}, screened)
	var order []string
	for _, e := range es {
		order = append(order, e.Spelling)
	}
	assert.Equal(t, []string{"unblocked", "lpanel:panel=16", "tiny", "blocked", "lpanel:panel=32", "lpanel:panel=8"}, order,
		"fastest first; tiny and its twin blocked tie, in candidate order")
}

// spinCase is a stand-in for an op's inputs: the k-th candidate bound
// (candidates are bound in candidate order) spins for (k+1) * unit per
// call, so the candidates are known to differ in speed.
type spinCase struct {
	unit  time.Duration
	bound int
}

func (s *spinCase) Bind(context.Context) (*sel.Bound, error) {
	d := time.Duration(s.bound+1) * s.unit
	s.bound++
	return &sel.Bound{
		Call: func(context.Context, int) error {
			for t0 := time.Now(); time.Since(t0) < d; {
			}
			return nil
		},
		Copies: 1,
		Check:  func() error { return nil },
	}, nil
}

// measureCell end to end: every candidate's time is at least what its
// calls are known to take. A wall-clock time is never below a busy wait,
// so this holds on a loaded machine too; a mix-up of timers and entries
// gives the slow candidates the fast ones' times and breaks it.
func TestMeasureCellTimesEachCandidateOnItsOwn(t *testing.T) {
	const unit = 40 * time.Microsecond
	tu := &opTuner{
		op:    potrf.Op,
		flops: func(cell) float64 { return 1 },
		elems: func(cell) float64 { return 1 },
		newCase: func(sel.DType, cell, uint64) (sel.Trial, error) {
			return &spinCase{unit: unit}, nil
		},
	}
	// No twins at this order (it fits no L2 and exceeds every panel), so
	// every candidate is timed on its own.
	c := potrfCell("L", "4096", "1")
	cands := potrf.Op.Candidates(sel.Float64)
	for _, ch := range cands {
		require.Empty(t, potrf.Op.Spec().Twin(ch, sel.Float64, c.key(), batchlas.Host()), ch.String())
	}
	ms := measureSettings{proto: protocol{reps: 1, target: 20 * time.Microsecond, maxCalls: 4, noise: 0.10}, seed: 1}
	res, err := measureCell(context.Background(), tu, sel.Float64, c, ms)
	require.NoError(t, err)
	require.Len(t, res.Entries, len(cands))
	for k, ch := range cands {
		i := slices.IndexFunc(res.Entries, func(e entry) bool { return e.Spelling == ch.String() })
		require.GreaterOrEqual(t, i, 0, ch.String())
		least := float64(time.Duration(k+1)*unit) / float64(time.Millisecond)
		assert.GreaterOrEqual(t, res.Entries[i].MS, least*0.999, "%s spins %v per call", ch, time.Duration(k+1)*unit)
	}
}

// corruptingCase wraps a float64 potrf trial so that the bad-th candidate
// bound (candidate order) writes a wrong result.
type corruptingCase struct {
	sel.Trial
	bad, bound int
}

func (c *corruptingCase) Bind(ctx context.Context) (*sel.Bound, error) {
	k := c.bound
	c.bound++
	b, err := c.Trial.Bind(ctx)
	if err != nil || k != c.bad {
		return b, err
	}
	call := b.Call
	b.Call = func(ctx context.Context, j int) error {
		if err := call(ctx, j); err != nil {
			return err
		}
		corruptLastOutput(c.Trial)
		return nil
	}
	return b, nil
}

// run end to end with a candidate whose results are wrong: it is left
// out of the row, listed as failing verification, and the run exits
// non-zero. A resumed run still reports it.
func TestRunExcludesAndReportsWrongResults(t *testing.T) {
	real := tuners["potrf"]
	fake := *real
	fake.newCase = func(dt sel.DType, c cell, seed uint64) (sel.Trial, error) {
		oc, err := real.newCase(dt, c, seed)
		if err != nil {
			return nil, err
		}
		return &corruptingCase{Trial: oc, bad: 1}, nil // unblocked
	}
	tuners["potrf"] = &fake
	t.Cleanup(func() { tuners["potrf"] = real })
	require.Equal(t, "unblocked", potrf.Op.Candidates(sel.Float64)[1].String())

	out, led := t.TempDir(), t.TempDir()
	args := []string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=5,batch=3",
		"--out", out, "--ledger", led, "--reps", "1", "--target", "20us", "--refine=false"}
	for _, pass := range []string{"measured", "resumed"} {
		var stdout, stderr bytes.Buffer
		code := mainCode(args, &stdout, &stderr)
		assert.Equal(t, 1, code, "%s: a bad result fails the run\n%s", pass, stderr.String())
		assert.Contains(t, stderr.String(), "tune run: 1 candidate result(s) failed verification (never ranked):", pass)
		assert.Contains(t, stderr.String(), "  potrf float64 uplo=L n=5 batch=3: unblocked: matrix 2", pass)
		data, err := os.ReadFile(filepath.Join(out, "potrf."+batchlas.Host().Label()+".txt"))
		require.NoError(t, err, pass)
		row := rowsOf(string(data))
		require.Len(t, row, 1, pass)
		assert.NotContains(t, row[0], "| unblocked ", pass)
		assert.Contains(t, row[0], "| tiny ", pass)
	}
}

// validate's slowdown is the time of the candidate automatic selection
// picks over the fastest one's. A table in BATCHLAS_TUNED_DIR makes the
// pick unblocked; the stand-in measurement makes unblocked 3x slower than
// tiny at the first shape and the fastest at the second.
func TestValidateSlowdownIsPickOverFastest(t *testing.T) {
	dir := t.TempDir()
	key := batchlas.Host().Label()
	prov := provenance{op: "potrf", device: batchlas.Host().Key, identity: batchlas.Host().Identity, revision: potrf.Op.Spec().Revision, kernels: "00000000",
		date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), host: "test", cores: 1, grid: "test"}
	doc := &tableDoc{header: prov.header(), keys: potrf.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: []tableRow{
		{cell: potrfCell("L", "8", "8"), entries: []entry{{"unblocked", 1, 0.5}}},
	}}}}
	require.NoError(t, os.WriteFile(filepath.Join(dir, tableFileName("potrf", key)), doc.bytes(), 0o644))
	t.Cleanup(sel.Reload) // registered first: runs after the variable is restored
	t.Setenv("BATCHLAS_TUNED_DIR", dir)
	sel.Reload()

	tu := tuners["potrf"]
	slowAt := potrfCell("L", "9", "7")
	cells := []cell{slowAt, potrfCell("L", "7", "9")}
	for _, c := range cells {
		pick, err := tu.op.Pick(context.Background(), sel.Float64, c.key(), batchlas.Host())
		require.NoError(t, err)
		require.Equal(t, "unblocked", pick.String(), "the injected table decides")
	}
	fake := func(_ context.Context, ot *opTuner, dt sel.DType, c cell, _ measureSettings) (cellResult, error) {
		es := []entry{{"tiny", 0, 0.1}, {"unblocked", 1, 0.3}, {"blocked", 5, 0.2}}
		if c.String() != slowAt.String() {
			es = []entry{{"tiny", 0, 0.4}, {"unblocked", 1, 0.2}, {"blocked", 5, 0.25}}
		}
		return cellResult{Op: ot.op.Name(), DType: dt, Vals: c.vals, Entries: rankEntries(es)}, nil
	}
	var out bytes.Buffer
	rep, err := validateShapes(context.Background(), tu, sel.Float64, cells, measureSettings{}, fake, &out, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, rep.shapes)
	assert.InDelta(t, 3.0, rep.worst, 1e-12)
	assert.Equal(t, slowAt.String(), rep.worstShape)
	assert.InDelta(t, math.Sqrt(3), rep.geomean, 1e-12)
	assert.Regexp(t, `uplo=L n=9 batch=7 +unblocked +tiny +3\.000`, out.String())
	assert.Regexp(t, `uplo=L n=7 batch=9 +unblocked +unblocked +1\.000`, out.String())
	// The best fixed candidate: tiny (1x and 2x, geomean sqrt(2)), before
	// blocked (2x and 1.25x) and unblocked (3x and 1x).
	assert.Equal(t, "tiny", rep.fixed)
	assert.InDelta(t, math.Sqrt(2), rep.fixedGeomean, 1e-12)
}

// The tie rule's tolerance is 3%: 1.029 times the fastest ties (candidate
// order decides), 1.031 does not (the faster first).
func TestRankEntriesTieBoundary(t *testing.T) {
	tied := rankEntries([]entry{{"fast", 1, 1.0}, {"simple", 0, 1.029}})
	assert.Equal(t, []string{"simple", "fast"}, []string{tied[0].Spelling, tied[1].Spelling})
	apart := rankEntries([]entry{{"fast", 1, 1.0}, {"simple", 0, 1.031}})
	assert.Equal(t, []string{"fast", "simple"}, []string{apart[0].Spelling, apart[1].Spelling})
	// Relative, not absolute: the same at another scale.
	tied = rankEntries([]entry{{"fast", 1, 2e-4}, {"simple", 0, 2.058e-4}})
	assert.Equal(t, "simple", tied[0].Spelling)
	apart = rankEntries([]entry{{"fast", 1, 2e-4}, {"simple", 0, 2.062e-4}})
	assert.Equal(t, "fast", apart[0].Spelling)
}
