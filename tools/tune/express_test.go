package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// keptOf parses a potrf table of the given rows and returns what the
// express profile times at its last row, sorted.
func keptOf(t *testing.T, rows ...string) []string {
	t.Helper()
	src := "# op=potrf device=x86-64-v4 revision=" + strconv.Itoa(potrf.Op.Spec().Revision) + "\n# keys: uplo:exact n:log:4 batch:log\n[float64]\n" + strings.Join(rows, "\n") + "\n"
	tab, err := sel.ParseTable("potrf.x86-64-v4.zen5.txt", []byte(src), potrf.Op)
	require.NoError(t, err)
	p := newPrior(potrf.Op, map[sel.DType]*sel.Table{sel.Float64: tab})
	sec := tab.Sections[sel.Float64]
	keep, _ := p.keep(sel.Float64, rowCell(tab, &sec[len(sec)-1], potrf.Op))
	var out []string
	for s := range keep {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// The prior's row decides what is timed: the entries within 2x of its
// fastest (at least two, at most four), and every candidate it does not
// rank.
func TestExpressKeepsTheTopOfThePrior(t *testing.T) {
	all := potrf.Op.Candidates(sel.Float64)
	var spellings []string
	for _, c := range all {
		spellings = append(spellings, c.String())
	}
	full := func(first ...string) string {
		// A row that ranks every candidate: first in the given order at
		// 1, 1.5, 2.5, ... ms, the rest far behind.
		row := "uplo=L n=8 batch=1024"
		times := []string{"1", "1.5", "2.5", "3", "3.5", "4"}
		for i, s := range first {
			row += " | " + s + " " + times[i]
		}
		for _, s := range spellings {
			if !slices.Contains(first, s) {
				row += " | " + s + " 100"
			}
		}
		return row
	}
	// Within 2x: the first two (1 and 1.5); 2.5 is out, and at least two
	// are kept anyway.
	assert.Equal(t, []string{"lanes", "tiny"}, keptOf(t, full("lanes", "tiny", "unblocked")))
	// A row where everything is within 2x keeps four.
	row := "uplo=L n=8 batch=1024"
	for i, s := range spellings {
		row += " | " + s + " " + []string{"1", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"}[i]
	}
	assert.Len(t, keptOf(t, row), priorKeepMax)
	// A candidate the row does not rank (newer than the table) is timed.
	got := keptOf(t, "uplo=L n=8 batch=1024 | lanes 1 | tiny 3")
	assert.Equal(t, len(all), len(got), "two ranked (lanes, tiny: at least two) plus every unranked one: %v", got)
	// A candidate another row of the table ranks was measured there and
	// dropped here (screened, or a twin): it is not timed at this row. An
	// express table ranks only what it timed, so a prior that is itself an
	// express table would otherwise time almost everything.
	assert.Equal(t, []string{"lanes", "tiny"}, keptOf(t, full("lanes", "tiny"), "uplo=L n=256 batch=64 | lanes 1 | tiny 3"))
	// Spellings this build does not compile are not counted.
	assert.Equal(t, []string{"lanes", "tiny"}, keptOf(t, strings.Replace(full("lanes", "tiny"), "| lanes 1", "| warp:nb=9 0.5 | lanes 1", 1)))
}

// priorTestTable is a one-row potrf table measured on device key, with
// kernels as its kernels= word when it is not "".
func priorTestTable(t *testing.T, name, key, kernels string) *sel.Table {
	header := "# op=potrf device=" + key + " revision=" + strconv.Itoa(potrf.Op.Spec().Revision)
	if kernels != "" {
		header += " kernels=" + kernels
	}
	src := header + "\n# keys: uplo:exact n:log:4 batch:log\n[float64]\nuplo=L n=8 batch=1024 | lanes 1 | tiny 3\n"
	tab, err := sel.ParseTable(name, []byte(src), potrf.Op)
	require.NoError(t, err)
	return tab
}

// priorTestDevice is a device of level key and the given identity.
func priorTestDevice(t *testing.T, key, identity string) *sel.Device {
	fam, arch, class, err := sel.ParseDeviceKey(key)
	require.NoError(t, err)
	return &sel.Device{Class: class, Key: key, Family: fam, Arch: arch, Identity: identity}
}

// The prior is the first table in borrow order that was measured at the
// device's level or below: a higher level's table ranks kernels this
// device runs as Go twins.
func TestExpressPriorSkipsHigherLevels(t *testing.T) {
	table := func(name, key string) *sel.Table { return priorTestTable(t, name, key, "") }
	v4 := table("potrf.x86-64-v4.zen5.txt", "x86-64-v4")
	v3 := table("potrf.x86-64-v3.zen5.txt", "x86-64-v3")
	v2 := table("potrf.x86-64-v2.txt", "x86-64-v2")
	arm := table("potrf.arm64.txt", "arm64")
	dev := func(key string) *sel.Device { return priorTestDevice(t, key, "zen3") }
	assert.Same(t, v3, priorTable([]*sel.Table{v4, v3, v2}, dev("x86-64-v3"), ""))
	assert.Same(t, v2, priorTable([]*sel.Table{v4, v2}, dev("x86-64-v3"), ""))
	assert.Nil(t, priorTable([]*sel.Table{v4}, dev("x86-64-v3"), ""), "only a higher level: time everything")
	assert.Same(t, v4, priorTable([]*sel.Table{v4, v3}, dev("x86-64-v4"), ""))
	assert.Same(t, arm, priorTable([]*sel.Table{v4, arm}, dev("x86-64-v3"), ""), "another family is not above this one")
	assert.Nil(t, priorTable(nil, dev("x86-64-v4"), ""))
}

// Among the tables of the prior's level, one measured on the op's current
// kernels comes before one stale by hash; a fresh table of a lower level
// does not.
func TestExpressPriorPrefersFreshTables(t *testing.T) {
	const now, old = "0123abcd", "99999999"
	staleIntel := priorTestTable(t, "potrf.x86-64-v4.graniterapids.txt", "x86-64-v4", old)
	freshAMD := priorTestTable(t, "potrf.x86-64-v4.zen5.txt", "x86-64-v4", now)
	staleAMD := priorTestTable(t, "potrf.x86-64-v4.zen4.txt", "x86-64-v4", old)
	freshV3 := priorTestTable(t, "potrf.x86-64-v3.zen3.txt", "x86-64-v3", now)
	dev := priorTestDevice(t, "x86-64-v4", "newcpu")
	assert.Same(t, freshAMD, priorTable([]*sel.Table{staleIntel, freshAMD}, dev, now), "a fresh table of the same level first")
	assert.Same(t, staleIntel, priorTable([]*sel.Table{staleIntel, staleAMD}, dev, now), "none fresh: borrow order")
	assert.Same(t, staleIntel, priorTable([]*sel.Table{staleIntel, freshV3}, dev, now), "a fresh lower level is not preferred")
	assert.Same(t, staleIntel, priorTable([]*sel.Table{staleIntel, freshAMD}, dev, ""), "no hash known: borrow order")
}

// An express run times only the kept candidates, writes a complete table
// with profile=express and the prior's file in its header, and keeps its
// ledger apart from a full run's.
func TestExpressRunTimesThePriorsPick(t *testing.T) {
	prior := t.TempDir()
	rev := potrf.Op.Spec().Revision
	dev := batchlas.Host()
	// Measured on today's kernels, so that it is the prior even where
	// a built-in table of the same level is fresh too (priorTable).
	prov := provenance{op: "potrf", device: dev.Key, revision: rev, kernels: potrf.Op.KernelsHash(),
		date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), host: "test", cores: 1, grid: "test"}
	var es []entry
	for i, c := range potrf.Op.Candidates(sel.Float64) {
		es = append(es, entry{c.String(), i, 1 + 10*float64(i)})
	}
	doc := &tableDoc{header: prov.header(), keys: potrf.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: []tableRow{
		{cell: potrfCell("L", "8", "8"), entries: es},
	}}}}
	require.NoError(t, os.WriteFile(filepath.Join(prior, tableFileName("potrf", dev.Key)), doc.bytes(), 0o644))
	t.Cleanup(sel.Reload)
	t.Setenv("BATCHLAS_TUNED_DIR", prior)
	sel.Reload()

	out, led := t.TempDir(), t.TempDir()
	args := []string{"run", "--op", "potrf", "--dtype", "float64", "--profile", "express", "--grid", "uplo=L,n=3:5,batch=2",
		"--out", out, "--ledger", led, "--target", "20us"}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, mainCode(args, &stdout, &stderr), stderr.String())
	data, err := os.ReadFile(filepath.Join(out, tableFileName("potrf", dev.Label())))
	require.NoError(t, err)
	tab, err := sel.ParseTable(tableFileName("potrf", dev.Label()), data, potrf.Op)
	require.NoError(t, err)
	assert.Equal(t, "express", tab.Header["profile"])
	assert.Equal(t, tableFileName("potrf", dev.Key), tab.Header["prior"])
	assert.Equal(t, "2", tab.Header["reps"], "the profile's reps, as no --reps was given")
	assert.Empty(t, tab.Header["partial"], "complete")
	rows := tab.Sections[sel.Float64]
	require.Len(t, rows, 2, "a row at every cell")
	first := potrf.Op.Candidates(sel.Float64)[:priorKeepMin]
	for _, r := range rows {
		var got []string
		for _, e := range r.Entries {
			got = append(got, e.Spelling)
		}
		slices.Sort(got)
		want := []string{first[0].String(), first[1].String()}
		slices.Sort(want)
		assert.Equal(t, want, got, "only the prior's first two (the rest are 11x slower or more) are timed")
	}
	ents, err := os.ReadDir(led)
	require.NoError(t, err)
	require.Len(t, ents, 1)
	assert.Equal(t, "potrf."+dev.Label()+".express.ledger.jsonl", ents[0].Name(), "apart from a full run's ledger")
}

// --plan counts only the kept candidates under the express profile.
func TestExpressPlanCountsTheKeptCandidates(t *testing.T) {
	full, err := parseRunFlags([]string{"--op", "potrf", "--dtype", "float64", "--out", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	require.NoError(t, err)
	exp, err := parseRunFlags([]string{"--op", "potrf", "--dtype", "float64", "--out", t.TempDir(), "--profile", "express", "--reps", "5", "--target", "1ms"}, &bytes.Buffer{}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, 5, exp.measure.proto.reps, "a flag given wins over the profile")
	assert.Equal(t, time.Millisecond, exp.measure.proto.target)
	c := potrfCell("L", "8", "32768")
	tu := tuners["potrf"]
	keep, _ := exp.priors["potrf"].keep(sel.Float64, c)
	require.NotNil(t, keep, "the built-in potrf table is the prior")
	assert.Less(t, exp.cellCost(tu, sel.Float64, c), full.cellCost(tu, sel.Float64, c), "fewer candidates timed")
	_, err = parseRunFlags([]string{"--op", "potrf", "--out", t.TempDir(), "--profile", "fast"}, &bytes.Buffer{}, &bytes.Buffer{})
	require.ErrorContains(t, err, "--profile")
}

// validate --against scores a second set of tables on the same timings.
func TestValidateAgainstScoresBothOnOneMeasurement(t *testing.T) {
	dev := batchlas.Host()
	write := func(first string) string {
		dir := t.TempDir()
		prov := provenance{op: "potrf", device: dev.Key, identity: dev.Identity, revision: potrf.Op.Spec().Revision, kernels: "00000000",
			date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), host: "test", cores: 1, grid: "test"}
		doc := &tableDoc{header: prov.header(), keys: potrf.Op.Keys(), sections: []tableSection{{dtype: sel.Float64, rows: []tableRow{
			{cell: potrfCell("L", "8", "8"), entries: []entry{{first, 1, 0.5}}},
		}}}}
		require.NoError(t, os.WriteFile(filepath.Join(dir, tableFileName("potrf", dev.Label())), doc.bytes(), 0o644))
		return dir
	}
	a, b := write("unblocked"), write("tiny")
	t.Cleanup(sel.Reload)
	t.Setenv("BATCHLAS_TUNED_DIR", "")
	measured := 0
	fake := func(_ context.Context, ot *opTuner, dt sel.DType, c cell, _ measureSettings) (cellResult, error) {
		measured++
		es := []entry{{"tiny", 0, 0.1}, {"unblocked", 1, 0.3}}
		return cellResult{Op: ot.op.Name(), DType: dt, Vals: c.vals, Entries: rankEntries(es)}, nil
	}
	cells := []cell{potrfCell("L", "9", "7"), potrfCell("L", "7", "9")}
	var out bytes.Buffer
	primary, alt := &tableSet{name: "--dir a", dir: a}, &tableSet{name: "--against b", dir: b}
	primary.use()
	rep, err := validateShapes(context.Background(), tuners["potrf"], sel.Float64, cells, measureSettings{}, fake, &out, primary, alt)
	require.NoError(t, err)
	assert.Equal(t, 4, measured, "one measurement per shape for both sets, and one head-to-head re-timing of each 3x slowdown")
	assert.InDelta(t, 3.0, rep.geomean, 1e-12, "a picks unblocked, 3x the fastest")
	assert.InDelta(t, 1.0, rep.altGeomean, 1e-12, "b picks tiny, the fastest")
	assert.False(t, math.IsNaN(rep.altWorst))
	assert.Contains(t, out.String(), "--against b on the same timings: geomean slowdown 1.000")
	assert.Equal(t, a, os.Getenv("BATCHLAS_TUNED_DIR"), "the primary set is in force after each shape")
}

// A slowdown that a second, head-to-head timing does not confirm is scored
// on the second timing, for both table sets, and the line says so.
func TestValidateRetimesALargeSlowdown(t *testing.T) {
	t.Cleanup(sel.Reload)
	t.Setenv("BATCHLAS_TUNED_DIR", "")
	sel.Reload()
	pick, err := potrf.Op.Pick(context.Background(), sel.Float64, potrfCell("L", "9", "7").key(), batchlas.Host())
	require.NoError(t, err)
	var kept []map[string]bool
	fake := func(_ context.Context, ot *opTuner, dt sel.DType, c cell, ms measureSettings) (cellResult, error) {
		kept = append(kept, ms.keep)
		es := []entry{{"other", 0, 0.1}, {pick.String(), 1, 0.2}} // the pick looks 2x slower
		if ms.keep != nil {
			es = []entry{{"other", 0, 0.1}, {pick.String(), 1, 0.104}} // head to head, it is not
		}
		return cellResult{Op: ot.op.Name(), DType: dt, Vals: c.vals, Entries: rankEntries(es)}, nil
	}
	var out bytes.Buffer
	rep, err := validateShapes(context.Background(), tuners["potrf"], sel.Float64, []cell{potrfCell("L", "9", "7")}, measureSettings{}, fake, &out, nil, nil)
	require.NoError(t, err)
	require.Len(t, kept, 2)
	assert.Equal(t, map[string]bool{"other": true, pick.String(): true}, kept[1], "the pick and the fastest, head to head")
	assert.InDelta(t, 1.04, rep.geomean, 1e-9)
	assert.InDelta(t, 1.04, rep.worst, 1e-9)
	assert.Contains(t, out.String(), "(re-timed)")
}
