package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// plotTable has winners tiny, unblocked and blocked; vendor and
// lpanel:panel=8 are ranked in rows but win none. unblocked is the only
// candidate timed at every row: the gain plot's fixed candidate.
const plotTable = `# op=potrf device=x86-64-v4 revision=3
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny 1 | unblocked 2 | vendor 3
uplo=L n=2 batch=16 | tiny 1 | vendor 1.5 | unblocked 2
uplo=L n=8 batch=1 | unblocked 1 | lpanel:panel=8 1.1 | tiny 1.2 | vendor 1.3
uplo=L n=64 batch=256 | unblocked 1 | lpanel:panel=8 1.5 | vendor 2
uplo=U n=64 batch=1 | blocked 1 | unblocked 3 | vendor 4
uplo=U n=128 batch=16 | blocked 2 | unblocked 5
`

// svgTexts parses an SVG as XML (failing the test when it is not) and
// returns the contents of its <text> elements.
func svgTexts(t *testing.T, data []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	root, inText := "", false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	require.Equal(t, "svg", root)
	return texts
}

func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

func writePlotTable(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "potrf.x86-64-v4.txt"), []byte(plotTable), 0o644))
	return dir
}

func TestPlotDrawsWinnersAndGain(t *testing.T) {
	dir, out := writePlotTable(t), t.TempDir()
	code, stdout, stderr := tune("plot", "--dir", dir, "--out", out, "--op", "potrf", "--dtype", "float64")
	require.Equal(t, 0, code, stderr)
	winners := filepath.Join(out, "potrf.x86-64-v4.float64.winners.svg")
	gainFile := filepath.Join(out, "potrf.x86-64-v4.float64.gain.svg")
	assert.Equal(t, "wrote "+winners+"\nwrote "+gainFile+"\n", stdout)

	data, err := os.ReadFile(winners)
	require.NoError(t, err)
	texts := svgTexts(t, data)
	for _, won := range []string{"tiny", "unblocked", "blocked"} {
		assert.Equal(t, 1, count(texts, won), "one legend entry for %s, which wins somewhere", won)
	}
	for _, lost := range []string{"vendor", "lpanel:panel=8"} {
		assert.Zero(t, count(texts, lost), "no legend entry for %s, which wins nowhere", lost)
	}
	assert.Equal(t, 1, count(texts, "measured row"))
	assert.Equal(t, 1, count(texts, "uplo=L"), "a panel per combination of exact keys")
	assert.Equal(t, 1, count(texts, "uplo=U"))

	data, err = os.ReadFile(gainFile)
	require.NoError(t, err)
	joined := strings.Join(svgTexts(t, data), "\n")
	assert.Contains(t, joined, "what the table gains over always calling unblocked")
	assert.Contains(t, joined, "(6 rows; geometric mean")
}

// The winners plot draws what the table decides: the color of a point is
// the first entry of the nearest row, as sel.Table.Nearest finds it.
func TestWinnersFollowTheNearestRow(t *testing.T) {
	tab, err := sel.ParseTable("potrf.x86-64-v4.txt", []byte(plotTable), sel.Lookup("potrf"))
	require.NoError(t, err)
	sl, ok := winnerSlice(tab.Keys)
	require.True(t, ok)
	order := spellingOrder(sel.Lookup("potrf"), tab)
	panels := panelsOf(tab, tab.Sections[sel.Float64])
	require.Len(t, panels, 2)
	xs, ys := []float64{1, 2, 3, 8, 64}, []float64{1, 16, 256}
	win, err := decide(tab, sel.Float64, sl, panels[0], xs, ys, order)
	require.NoError(t, err)
	name := func(i int) string { return order[i] }
	// At batch 1: n=2 is nearest to the row n=2 batch=16 (tiny), n=3 to
	// n=8 batch=1 (unblocked; sizes weigh 4 times batch: 4*log2(8/3) =
	// 5.7 against 4*log2(3/2) + 4 = 6.3), n=64 to n=64 batch=256.
	assert.Equal(t, []string{"tiny", "tiny", "unblocked", "unblocked", "unblocked"}, mapInts(win[0], name))
	assert.Equal(t, []string{"tiny", "tiny", "tiny", "unblocked", "unblocked"}, mapInts(win[2], name))
}

func mapInts(xs []int, f func(int) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func TestMergeRectsCoversEveryCellOnce(t *testing.T) {
	win := [][]int{
		{0, 0, 1, 1},
		{0, 0, 1, -1},
		{2, 0, 1, -1},
	}
	rects := mergeRects(win)
	got := make([][]int, len(win))
	for y := range got {
		got[y] = []int{-1, -1, -1, -1}
	}
	for _, r := range rects {
		for y := r.y0; y <= r.y1; y++ {
			for x := r.x0; x <= r.x1; x++ {
				require.Equal(t, -1, got[y][x], "cell (%d,%d) covered twice", x, y)
				got[y][x] = r.w
			}
		}
	}
	assert.Equal(t, win, got)
	assert.Len(t, rects, 5, "runs merged along rows and extended upwards")
}

func TestPlotsAreDeterministic(t *testing.T) {
	dir := writePlotTable(t)
	for _, from := range [][]string{{"--dir", dir}, {"--op", "potrf"}} { // a small table, then the shipped potrf table
		a, b := t.TempDir(), t.TempDir()
		code, _, stderr := tune(append([]string{"plot", "--out", a}, from...)...)
		require.Equal(t, 0, code, stderr)
		code, _, stderr = tune(append([]string{"plot", "--out", b}, from...)...)
		require.Equal(t, 0, code, stderr)
		ents, err := os.ReadDir(a)
		require.NoError(t, err)
		require.NotEmpty(t, ents)
		for _, e := range ents {
			x, err := os.ReadFile(filepath.Join(a, e.Name()))
			require.NoError(t, err)
			y, err := os.ReadFile(filepath.Join(b, e.Name()))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(x, y), "%s: same tables, same bytes", e.Name())
		}
	}
}

func TestPlotErrorsSayWhatToDo(t *testing.T) {
	code, _, stderr := tune("plot", "--dir", filepath.Join(t.TempDir(), "none"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "not a directory (give the directory that holds <op>.<device>.txt)")
	code, _, stderr = tune("plot", "--dir", t.TempDir(), "--out", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "nothing to draw:")
}

// docs writes tables.md and its plots; the check names every plot that is
// modified, missing, or no longer drawn.
func TestDocsCheckFindsStalePlots(t *testing.T) {
	files, err := docFiles(sel.Ops(), fstest.MapFS{"potrf.x86-64-v4.txt": {Data: []byte(plotTable)}})
	require.NoError(t, err)
	dir := t.TempDir()
	var svgs []string
	for _, f := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f.rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.rel), f.data, 0o644))
		if strings.HasSuffix(f.rel, ".svg") {
			svgs = append(svgs, filepath.Base(f.rel))
		}
	}
	assert.Equal(t, []string{"potrf.x86-64-v4.float64.winners.svg", "potrf.x86-64-v4.float64.gain.svg"}, svgs)
	doc, err := os.ReadFile(filepath.Join(dir, tablesMD))
	require.NoError(t, err)
	for _, s := range svgs {
		assert.Contains(t, string(doc), "](plots/"+s+")\n\n", "tables.md shows %s", s)
	}
	assert.Empty(t, staleDocFiles(dir, files))

	plot := filepath.Join(dir, plotsDir, svgs[0])
	good, err := os.ReadFile(plot)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(plot, bytes.Replace(good, []byte("#E69F00"), []byte("#E69F01"), 1), 0o644))
	assert.Equal(t, []string{plot + " differs from what the tables give"}, staleDocFiles(dir, files))
	require.NoError(t, os.Remove(plot))
	assert.Equal(t, []string{plot + " is missing"}, staleDocFiles(dir, files))
	require.NoError(t, os.WriteFile(plot, good, 0o644))
	old := filepath.Join(dir, plotsDir, "gemm.x86-64-v3.float64.winners.svg")
	require.NoError(t, os.WriteFile(old, good, 0o644))
	assert.Equal(t, []string{old + " is a plot no table draws any more"}, staleDocFiles(dir, files))
}

// The whole command on the shipped tables: docs writes the page and every
// plot next to it (removing a plot no table draws), and --check fails,
// naming the file, once a plot is edited.
func TestDocsCommandWritesAndChecksPlots(t *testing.T) {
	// One op's plots and no samples: this test is about the command's
	// files; docscheck renders every plot and runs the samples.
	defer func(ops func() []*sel.Op, docs []string) { docsOps, sampleDocs = ops, docs }(docsOps, sampleDocs)
	docsOps, sampleDocs = func() []*sel.Op { return []*sel.Op{sel.Lookup("potrf")} }, nil
	dir := t.TempDir()
	page := filepath.Join(dir, "tables.md")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, plotsDir), 0o755))
	gone := filepath.Join(dir, plotsDir, "gone.x86-64-v1.float64.gain.svg")
	require.NoError(t, os.WriteFile(gone, []byte("<svg/>"), 0o644))
	// --out naming the existing directory writes tables.md in it (a rename
	// of the page over the directory failed with "file exists"). Each run
	// renders every plot of its ops (seconds for all of them), so the test
	// runs the command twice on one op's.
	code, stdout, stderr := tune("docs", "--out", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+page+"\n")
	assert.FileExists(t, page)
	assert.Contains(t, stdout, "removed "+gone)
	assert.NoFileExists(t, gone)
	ents, err := os.ReadDir(filepath.Join(dir, plotsDir))
	require.NoError(t, err)
	require.NotEmpty(t, ents)
	i := slices.IndexFunc(ents, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".winners.svg") })
	require.GreaterOrEqual(t, i, 0)
	edited := filepath.Join(dir, plotsDir, ents[i].Name())
	f, err := os.OpenFile(edited, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("<!-- edited -->\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	code, _, stderr = tune("docs", "--check", "--out", page)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "tune docs: "+edited+" differs from what the tables give\n")
	assert.Contains(t, stderr, "run `make docs`")
}

// gonum/plot is the tool's dependency only: no package of the library
// (anything outside tools/) imports it, so programs using batchlas do not
// build it.
func TestOnlyToolsImportThePlotLibrary(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && (rel == "tools" || strings.HasPrefix(d.Name(), ".")) && rel != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.False(t, p == "gonum.org/v1/plot" || strings.HasPrefix(p, "gonum.org/v1/plot/"), "%s imports %s: only tools/ may", rel, p)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, files, 20, "the walk reached the library's files")
}
