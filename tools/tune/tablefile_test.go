package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

func potrfCell(vals ...string) cell { return newCell(potrf.Op.Keys(), vals) }

func sampleDoc() *tableDoc {
	prov := provenance{op: "potrf", device: "x86-64-v4", revision: potrf.Op.Spec().Revision, kernels: "3f9a1c2e",
		date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), host: `AMD "EPYC" 9R14`, cores: 2, grid: "n=8:64,batch=1024"}
	prov.extra = []headerWord{{"reps", "3"}}
	return &tableDoc{
		header: prov.header(),
		keys:   potrf.Op.Keys(),
		sections: []tableSection{
			{dtype: sel.Float32, rows: []tableRow{
				{cell: potrfCell("L", "8", "1024"), entries: []entry{{"tiny", 0, 0.0101}, {"unblocked", 1, 0.018}}},
			}},
			{dtype: sel.Float64, rows: []tableRow{
				{cell: potrfCell("L", "8", "1024"), entries: []entry{{"tiny", 0, 0.0123}, {"lpanel:panel=8", 2, 0.015}, {"unblocked", 1, 0.201}}},
				{cell: potrfCell("L", "64", "1024"), entries: []entry{{"lpanel:panel=8", 2, 0.302}, {"unblocked", 1, 0.53}}, comment: "noisy: unblocked"},
			}},
		},
	}
}

func TestTableRoundTripsThroughParseTable(t *testing.T) {
	data := sampleDoc().bytes()
	tab, err := sel.ParseTable("potrf.x86-64-v4.txt", data, potrf.Op)
	require.NoError(t, err, "%s", data)
	assert.Equal(t, potrf.Op.Spec().Revision, tab.Revision)
	assert.Equal(t, "3f9a1c2e", tab.Header["kernels"])
	assert.Equal(t, "2026-11-29", tab.Header["date"])
	assert.Equal(t, "AMD 'EPYC' 9R14", tab.Header["host"], "quotes in a value are replaced, the value is quoted")
	assert.Equal(t, "n=8:64,batch=1024", tab.Header["grid"])
	assert.Equal(t, "tools/tune", tab.Header["tool"])
	assert.Equal(t, "3", tab.Header["reps"])
	assert.Equal(t, sel.FormatKeys(potrf.Op.Keys()), sel.FormatKeys(tab.Keys))
	require.Len(t, tab.Sections[sel.Float64], 2)
	require.Len(t, tab.Sections[sel.Float32], 1)
	r := tab.Sections[sel.Float64][1]
	assert.Equal(t, "uplo=L n=64 batch=1024", r.Key.Format(tab.Keys))
	require.Len(t, r.Entries, 2)
	assert.Equal(t, "lpanel:panel=8", r.Entries[0].Spelling)
	assert.Equal(t, 0.302, r.Entries[0].MS)
	assert.True(t, r.Entries[0].Timed)
	assert.False(t, r.Entries[0].Choice.IsZero(), "spellings parse against the op's families")

	_, _, problems := checkTable("potrf.x86-64-v4.txt", data)
	assert.Empty(t, problems, "a table the tuner writes passes check")
}

func TestCheckTableFindsEveryFailure(t *testing.T) {
	good := string(sampleDoc().bytes())
	cases := []struct {
		name, from, to, want string
	}{
		{"not a candidate", "lpanel:panel=8 0.302", "lpanel:panel=7 0.302", `"lpanel:panel=7" is not a float64 candidate`},
		{"tie order", "tiny 0.0123 | lpanel:panel=8 0.015", "lpanel:panel=8 0.0123 | tiny 0.0124", "not in tie-rule order"},
		{"slower first", "| tiny 0.0101 | unblocked 0.018", "| unblocked 0.0101 | tiny 0.0099", "not in tie-rule order"},
		{"revision", "revision=3", "revision=7", "revision 7, but potrf is at revision 3"},
		{"keys", "# keys: uplo:exact n:log:4 batch:log", "# keys: uplo:exact n:log batch:log", "differ from potrf's key names"},
		{"parse", "uplo=L n=64 batch=1024 |", "uplo=L n=64 |", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, good, c.from)
			_, _, problems := checkTable("potrf.x86-64-v4.txt", []byte(strings.Replace(good, c.from, c.to, 1)))
			require.NotEmpty(t, problems)
			assert.Regexp(t, `^potrf\.x86-64-v4\.txt:\d+: `, problems[0], "problems are <file>:<line>: <reason>")
			assert.Contains(t, problems[0], c.want)
		})
	}
	_, _, problems := checkTable("nosuchop.x86-64-v4.txt", []byte(good))
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "no op")
}
