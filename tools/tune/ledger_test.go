package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestLedgerResumes(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "abcd1234")
	require.NoError(t, err)
	c1, c2 := potrfCell("L", "8", "16"), potrfCell("L", "64", "16")
	r1 := cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "abcd1234", DType: sel.Float64, Vals: c1.vals,
		Entries: []entry{{Spelling: "tiny", MS: 0.5}, {Spelling: "unblocked", MS: 0.7}},
		Bad:     []note{{"lpanel:panel=8", "matrix 0: off"}}}
	require.NoError(t, l.record(r1))
	_, ok := l.lookup(sel.Float64, c2)
	assert.False(t, ok)

	// A new process reads it back; a record of other kernels is stale.
	stale := r1
	stale.Kernels, stale.Vals = "ffff0000", c2.vals
	require.NoError(t, l.record(stale))
	l2, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "abcd1234")
	require.NoError(t, err)
	got, ok := l2.lookup(sel.Float64, c1)
	require.True(t, ok)
	assert.Equal(t, r1.Entries, got.Entries)
	assert.Equal(t, r1.Bad, got.Bad, "bad results survive a resume, so they are still reported")
	_, ok = l2.lookup(sel.Float32, c1)
	assert.False(t, ok, "dtypes are separate")
	_, ok = l2.lookup(sel.Float64, c2)
	assert.False(t, ok, "a cell measured on other kernel sources is measured again")
	assert.Equal(t, 1, l2.stale)

	// Another revision sees nothing.
	l3, err := openLedger(dir, potrf.Op, "x86-64-v4", 2, "abcd1234")
	require.NoError(t, err)
	assert.Empty(t, l3.done)
}

func TestLedgerSurvivesATornLine(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	c1, c2 := potrfCell("L", "8", "16"), potrfCell("L", "64", "16")
	require.NoError(t, l.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c1.vals}))
	// The process dies in the middle of the next record.
	f, err := os.OpenFile(filepath.Join(dir, "potrf.x86-64-v4.ledger.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"op":"potrf","dev`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	l2, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok := l2.lookup(sel.Float64, c1)
	assert.True(t, ok)
	require.NoError(t, l2.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c2.vals}))

	l3, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok = l3.lookup(sel.Float64, c2)
	assert.True(t, ok, "the record after a torn line starts on its own line")
}

// A record of the right op, device, revision and kernels that does not
// hold up is not used: its cell is measured again, and the warning names
// the ledger's own file and line. Records that do hold up around it are
// used.
func TestLedgerRefusesInvalidRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "potrf.x86-64-v4.ledger.jsonl")
	rec := func(vals string, entries string, extra string) string {
		return `{"op":"potrf","device":"x86-64-v4","revision":1,"kernels":"k","dtype":"float64","vals":` + vals + `,"entries":` + entries + extra + "}\n"
	}
	lines := []string{
		rec(`["L","8","16"]`, `[{"c":"tiny","ms":0.5},{"c":"unblocked","ms":0.7}]`, ""),       // 1: valid
		rec(`["L","9","16"]`, `[{"c":"tiny","ms":0.5},{"c":"fast:nb=3","ms":0.1}]`, ""),       // 2: not a candidate
		rec(`["L","10","16"]`, `[{"c":"tiny","ms":-0.5}]`, ""),                                // 3: negative time
		rec(`["L","11","16"]`, `[{"c":"tiny","ms":1e999}]`, ""),                               // 4: infinite: not even JSON Go reads
		rec(`["L","12","16"]`, `[{"c":"tiny","ms":NaN}]`, ""),                                 // 5: NaN: not JSON
		rec(`["L","13"]`, `[{"c":"tiny","ms":0.5}]`, ""),                                      // 6: a key missing
		rec(`["L","14","16"]`, `[{"c":"tiny","ms":0.5},{"c":"tiny","ms":0.6}]`, ""),           // 7: twice
		rec(`["L","15","16"]`, `[{"c":"tiny","ms":0.5}]`, `,"noisy":["bogus"]`),               // 8: noisy non-candidate
		rec(`["L","16","16"]`, `[{"c":"tiny","ms":0.5}]`, `,"bad":[{"c":"bogus","why":"x"}]`), // 9: bad non-candidate
		rec(`["L","17","16"]`, `[{"c":"unblocked","ms":0}]`, ""),                              // 10: valid (a zero time is a time)
		rec(`["L","8","16"]`, `[{"c":"vendor:x=1","ms":0.5}]`, ""),                            // 11: supersedes line 1, invalid
	}
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644))
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	_, ok := l.lookup(sel.Float64, potrfCell("L", "17", "16"))
	assert.True(t, ok, "line 10 is valid")
	for _, n := range []string{"8", "9", "10", "11", "12", "14", "15", "16"} {
		_, ok := l.lookup(sel.Float64, potrfCell("L", n, "16"))
		assert.False(t, ok, "n=%s is measured again", n)
	}
	want := map[int]string{
		2:  `potrf float64 uplo=L n=9 batch=16: entry "fast:nb=3" is not a float64 candidate of potrf`,
		3:  `potrf float64 uplo=L n=10 batch=16: entry "tiny": time -0.5 ms is not a finite, non-negative number`,
		4:  "not a valid record",
		5:  "not a valid record",
		6:  `potrf float64 ["L","13"]: 2 key values, want 3`,
		7:  `entry "tiny" is listed twice`,
		8:  `noisy or screened "bogus" is not a float64 candidate`,
		9:  `skipped or bad "bogus" is not a float64 candidate`,
		11: `potrf float64 uplo=L n=8 batch=16: entry "vendor:x=1" is not a float64 candidate`,
	}
	require.Len(t, l.invalid, len(want), "%q", l.invalid)
	for i, line := range []int{2, 3, 4, 5, 6, 7, 8, 9, 11} {
		prefix := path + ":" + strconv.Itoa(line) + ": "
		assert.True(t, strings.HasPrefix(l.invalid[i], prefix), "%q should start with %q", l.invalid[i], prefix)
		assert.Contains(t, l.invalid[i], want[line])
	}
}

// NaN and infinite times cannot come through JSON, but a record is
// checked for them all the same.
func TestValidRecordRefusesNonFiniteTimes(t *testing.T) {
	r := cellResult{Op: "potrf", DType: sel.Float64, Vals: []string{"L", "8", "16"}, Entries: []entry{{Spelling: "tiny", MS: 0.5}}}
	require.NoError(t, validRecord(potrf.Op, r))
	for _, ms := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1e-9} {
		r.Entries = []entry{{Spelling: "tiny", MS: ms}}
		assert.ErrorContains(t, validRecord(potrf.Op, r), "not a finite, non-negative number", "%v", ms)
	}
	r.Entries, r.DType = []entry{{Spelling: "tiny", MS: 1}}, "float16"
	assert.ErrorContains(t, validRecord(potrf.Op, r), `potrf has no "float16" candidates`)
}

// A ledger line is read whatever its length: a 17 MB record (a long
// verification message) used to stop every resume with "token too long".
func TestLedgerReadsLongLines(t *testing.T) {
	dir := t.TempDir()
	l, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	c1, c2 := potrfCell("L", "8", "16"), potrfCell("L", "64", "16")
	long := strings.Repeat("x", 17<<20)
	require.NoError(t, l.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c1.vals,
		Entries: []entry{{Spelling: "unblocked", MS: 0.5}}, Bad: []note{{"tiny", long}}}))
	require.NoError(t, l.record(cellResult{Op: "potrf", Device: "x86-64-v4", Revision: 1, Kernels: "k", DType: sel.Float64, Vals: c2.vals,
		Entries: []entry{{Spelling: "unblocked", MS: 0.7}}}))
	l2, err := openLedger(dir, potrf.Op, "x86-64-v4", 1, "k")
	require.NoError(t, err)
	got, ok := l2.lookup(sel.Float64, c1)
	require.True(t, ok)
	assert.Len(t, got.Bad[0].Why, len(long))
	_, ok = l2.lookup(sel.Float64, c2)
	assert.True(t, ok, "the record after the long one")
	assert.Empty(t, l2.invalid)
}

// run end to end: a ledger record of the grid's cell that names a
// non-candidate is reported with the ledger's file and line, the cell is
// measured again, and the spelling never reaches the table.
func TestRunMeasuresInvalidLedgerRecordsAgain(t *testing.T) {
	out, led := t.TempDir(), t.TempDir()
	root, err := moduleRoot()
	require.NoError(t, err)
	kernels, err := opKernelsHash(root, tuners["potrf"])
	require.NoError(t, err)
	key := batchlas.Host().Label()
	bogus := cellResult{Op: "potrf", Device: key, Revision: potrf.Op.Spec().Revision, Kernels: kernels, DType: sel.Float64,
		Vals: []string{"L", "2", "2"}, Entries: []entry{{Spelling: "warp:nb=9", MS: 1e-6}, {Spelling: "tiny", MS: 0.5}}}
	line, err := json.Marshal(bogus)
	require.NoError(t, err)
	path := filepath.Join(led, "potrf."+key+".ledger.jsonl")
	require.NoError(t, os.WriteFile(path, append(line, '\n'), 0o644))

	var stdout, stderr bytes.Buffer
	code := mainCode([]string{"run", "--op", "potrf", "--dtype", "float64", "--grid", "uplo=L,n=2,batch=2",
		"--out", out, "--ledger", led, "--reps", "1", "--target", "20us", "--refine=false"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stderr.String(), "tune run: warning: "+path+":1: potrf float64 uplo=L n=2 batch=2: entry \"warp:nb=9\" is not a float64 candidate of potrf")
	assert.Contains(t, stdout.String(), "1 cells measured, 0 from the ledger")
	data, err := os.ReadFile(filepath.Join(out, "potrf."+key+".txt"))
	require.NoError(t, err)
	assert.NotContains(t, string(data), "warp")
	_, _, problems := checkTable("potrf."+key+".txt", data)
	assert.Empty(t, problems)
}
