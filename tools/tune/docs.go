package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const docsSynopsis = "docs [--check] [--out docs/tables.md]"

// docsOps lists the ops whose tables and plots the docs command writes:
// every op. Tests of the command's file handling narrow it to one op,
// since rendering every plot takes seconds a run (docscheck renders them
// all in the test command).
var docsOps = sel.Ops

func cmdDocs(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("docs", docsSynopsis, stdout, stderr)
	check := fs.Bool("check", false, "do not write: fail when a file differs from what would be written")
	out := fs.String("out", "", "file to write, or an existing directory to write tables.md in (default: docs/tables.md of the checkout); the plots go to plots/ next to it")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	path := *out
	if st, err := os.Stat(path); path != "" && err == nil && st.IsDir() {
		// An existing directory is where the page goes, under its usual
		// name, with plots/ inside it (the rename of a file over a
		// directory failed with "file exists").
		path = filepath.Join(path, tablesMD)
	}
	if path == "" {
		path = filepath.Join(root, "docs", "tables.md")
	}
	files, err := docFiles(docsOps(), opkit.BuiltinTables())
	if err != nil {
		return err
	}
	// The ops' kernels hash files live in the checkout whatever --out says:
	// the ops' packages compile them in.
	hashes, err := kernelsHashFiles(root, sel.Ops())
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	for i := range files {
		if files[i].rel == tablesMD {
			files[i].rel = filepath.Base(path)
		}
	}
	if *check {
		stale := staleDocFiles(dir, files)
		staleHashes := staleKernelsHashFiles(root, hashes)
		staleSamples, err := checkSamples(root, false)
		if err != nil {
			return err
		}
		for _, s := range append(append(stale, staleHashes...), staleSamples...) {
			fmt.Fprintf(stderr, "tune docs: %s\n", s)
		}
		if len(staleSamples) > 0 {
			fmt.Fprintf(stderr, "tune docs: the samples of README.md and docs/guide.md differ from what the program prints: run `go run ./tools/tune docs` to rewrite the plain ones, and fix the timed ones by hand\n")
		}
		if len(stale) > 0 {
			fmt.Fprintf(stderr, "tune docs: the docs are out of date with the candidate lists and tuned/ tables: run `make docs` (go run ./tools/tune docs) and commit %s and %s\n",
				path, filepath.Join(dir, plotsDir))
		}
		if len(staleHashes) > 0 {
			fmt.Fprintf(stderr, "tune docs: the ops' kernels hash files are out of date with their kernel sources: run `go run ./tools/tune docs` and commit ops/*/%s\n", kernelsHashName)
		}
		if len(stale)+len(staleHashes)+len(staleSamples) > 0 {
			return exitError{1}
		}
		fmt.Fprintf(stdout, "%s and its %d plots are up to date, and so are the %d ops' kernels hash files and the samples of %s\n", path, len(files)-1, len(hashes), strings.Join(sampleDocs, " and "))
		return nil
	}
	// A hash file is written only when it changes: the ops' packages
	// compile it, and rewriting the same bytes would only touch them.
	for _, f := range hashes {
		p := filepath.Join(root, f.rel)
		if have, err := safefile.ReadFile(p, sourceLimit); err == nil && bytes.Equal(have, f.data) {
			continue
		}
		if err := safefile.WriteAtomic(p, f.data); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	for _, f := range files {
		p := filepath.Join(dir, f.rel)
		if err := safefile.WriteAtomic(p, f.data); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	for _, old := range extraPlots(dir, files) {
		if err := os.Remove(old); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s (no table draws it any more)\n", old)
	}
	// The samples of the README and the guide: plain ones rewritten, timed
	// ones (recorded output) only reported.
	problems, err := checkSamples(root, true)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "tune docs: %s (fix it by hand)\n", p)
	}
	return nil
}

// docLimit bounds a generated file read back by --check: the page is tens
// of KB and a plot a few hundred.
var docLimit = safefile.Limit{Max: 16 << 20, Noun: "a generated doc or plot", Text: "16 MiB"}

// The files `docs` writes, relative to the docs directory: the page and
// the plots it shows.
const (
	tablesMD = "tables.md"
	plotsDir = "plots"
)

// docFile is one generated file, relative to the docs directory.
type docFile struct {
	rel  string
	data []byte
}

// docFiles renders everything `docs` writes: docs/tables.md and every plot
// it links to (plots/*.svg). Like the page, the plots depend only on the
// candidate lists and the tables, so `docs --check` can compare bytes.
func docFiles(ops []*sel.Op, builtin fs.FS) ([]docFile, error) {
	doc, err := tablesDoc(ops, builtin)
	if err != nil {
		return nil, err
	}
	files := []docFile{{rel: tablesMD, data: doc}}
	tables, err := readTables(ops, builtin)
	if err != nil {
		return nil, err
	}
	for _, nt := range tables {
		for _, dt := range sortedDTypes(nt.t) {
			for _, sp := range planPlots(nt.op, nt.t, dt) {
				data, err := sp.render()
				if err != nil {
					return nil, fmt.Errorf("docs: drawing %s: %w", sp.file, err)
				}
				files = append(files, docFile{rel: filepath.Join(plotsDir, sp.file), data: data})
			}
		}
	}
	return files, nil
}

// staleDocFiles compares the generated files with those under dir: one
// line per file that differs, is missing, or is a plot no table draws.
func staleDocFiles(dir string, files []docFile) []string {
	var out []string
	for _, f := range files {
		p := filepath.Join(dir, f.rel)
		have, err := safefile.ReadFile(p, docLimit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, fmt.Sprintf("%s is missing", p))
		case err != nil:
			out = append(out, fmt.Sprintf("%s cannot be compared: %v", p, err))
		case !bytes.Equal(have, f.data):
			out = append(out, fmt.Sprintf("%s differs from what the tables give", p))
		}
	}
	for _, p := range extraPlots(dir, files) {
		out = append(out, fmt.Sprintf("%s is a plot no table draws any more", p))
	}
	return out
}

// extraPlots lists the SVG files of dir/plots that files does not hold:
// plots of a table or dtype that is gone.
func extraPlots(dir string, files []docFile) []string {
	ents, err := os.ReadDir(filepath.Join(dir, plotsDir))
	if err != nil {
		return nil // no plots directory: nothing extra
	}
	var out []string
	for _, e := range ents {
		rel := filepath.Join(plotsDir, e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".svg") || slices.ContainsFunc(files, func(f docFile) bool { return f.rel == rel }) {
			continue
		}
		out = append(out, filepath.Join(dir, rel))
	}
	return out
}

// tablesDoc renders docs/tables.md: per op its vocabulary, and per shipped
// table its provenance, where each candidate wins and the plots of it. The
// output depends only on the candidate lists and the tables (no clock, no
// map order), so `docs --check` is meaningful.
func tablesDoc(ops []*sel.Op, builtin fs.FS) ([]byte, error) {
	ops = slices.Clone(ops)
	sort.Slice(ops, func(i, j int) bool { return ops[i].Name() < ops[j].Name() })
	var b bytes.Buffer
	b.WriteString("# Ops, candidates and shipped tables\n\n")
	b.WriteString("Generated by `go run ./tools/tune docs` (`make docs`) from each op's `choice.go` and the\n")
	b.WriteString("tables embedded from `tuned/`, with the plots in `plots/` (drawn by the same code as\n")
	b.WriteString("`go run ./tools/tune plot`). Do not edit by hand: the test command fails when this file\n")
	b.WriteString("or a plot is out of date. How the tables are used: docs/select.md; how to make one: docs/tuning.md.\n")
	tables, err := readTables(ops, builtin)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		writeOpDoc(&b, op)
		shipped := 0
		for _, nt := range tables {
			if nt.op == op {
				writeTableDoc(&b, op, nt.t)
				shipped++
			}
		}
		if shipped == 0 {
			b.WriteString("\nNo shipped table: every call takes the last-resort order until one is tuned.\n")
		}
	}
	return b.Bytes(), nil
}

func writeOpDoc(b *bytes.Buffer, op *sel.Op) {
	spec := op.Spec()
	fmt.Fprintf(b, "\n## %s\n\n", op.Name())
	fmt.Fprintf(b, "- revision: %d\n", spec.Revision)
	fmt.Fprintf(b, "- keys: `%s`\n", sel.FormatKeys(op.Keys()))
	vendor := spec.VendorLib
	if vendor == "" {
		vendor = "none"
	}
	fmt.Fprintf(b, "- vendor library: %s\n", vendor)
	lr := spec.LastResort
	if lr == nil {
		lr = []string{"blocked", "vendor"}
	}
	fmt.Fprintf(b, "- last-resort order: %s, then the other candidates in candidate order\n", strings.Join(lr, ", "))
	b.WriteString("\n| family | fields | kind |\n|---|---|---|\n")
	for _, f := range spec.Families {
		fields := "-"
		if len(f.Fields) > 0 {
			fields = strings.Join(f.Fields, ", ")
		}
		kind := "native"
		if f.Vendor {
			kind = "vendor"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", f.Name, fields, kind)
	}
	b.WriteString("\nCandidates, in tie-break order:\n\n| dtype | candidates |\n|---|---|\n")
	for _, dt := range op.DTypes() {
		var cs []string
		for _, c := range op.Candidates(dt) {
			cs = append(cs, "`"+c.String()+"`")
		}
		fmt.Fprintf(b, "| %s | %s |\n", dt, strings.Join(cs, " ")) // space-separated: spellings contain no spaces
	}
	if len(spec.Grid) > 0 {
		b.WriteString("\nTuner grid (`tools/tune run --grid quick|full`):\n\n| key | quick | full |\n|---|---|---|\n")
		for _, ax := range spec.Grid {
			full := ax.Full
			if len(full) == 0 {
				full = ax.Quick
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", ax.Key, strings.Join(ax.Quick, " "), strings.Join(full, " "))
		}
	}
}

// headerOrder is the order provenance words are listed in; others follow
// alphabetically.
var headerOrder = []string{"op", "device", "revision", "kernels", "date", "host", "cores", "go", "tool", "grid"}

func writeTableDoc(b *bytes.Buffer, op *sel.Op, t *sel.Table) {
	fmt.Fprintf(b, "\n### %s\n\n", t.File)
	var words []string
	for _, k := range headerOrder {
		if v, ok := t.Header[k]; ok {
			words = append(words, k+"="+quoteValue(v))
		}
	}
	var rest []string
	for k := range t.Header {
		if !slices.Contains(headerOrder, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		words = append(words, k+"="+quoteValue(t.Header[k]))
	}
	fmt.Fprintf(b, "Provenance: `%s`\n", strings.Join(words, " "))
	for _, dt := range sortedDTypes(t) {
		rows := t.Sections[dt]
		fmt.Fprintf(b, "\n%s: %d rows. Wins (first entry of a row):\n\n", dt, len(rows))
		writeWins(b, t, rows)
		writeExactWins(b, t, rows)
		writeWinMaps(b, t, rows)
		writePlotLinks(b, op, t, dt)
	}
}

// writePlotLinks shows the section's plots, each with how to read it.
func writePlotLinks(b *bytes.Buffer, op *sel.Op, t *sel.Table, dt sel.DType) {
	for _, sp := range planPlots(op, t, dt) {
		fmt.Fprintf(b, "\n![%s](%s/%s)\n\n%s\n", sp.alt, plotsDir, sp.file, sp.caption)
	}
}

// writeWins lists, per candidate that wins somewhere, how many rows it wins
// and the range of each log key over those rows.
func writeWins(b *bytes.Buffer, t *sel.Table, rows []sel.Row) {
	type win struct {
		rows   int
		lo, hi []int64
	}
	wins := map[string]*win{}
	var order []string
	for _, r := range rows {
		if len(r.Entries) == 0 {
			continue
		}
		s := r.Entries[0].Spelling
		w := wins[s]
		if w == nil {
			w = &win{lo: make([]int64, len(t.Keys)), hi: make([]int64, len(t.Keys))}
			for i := range t.Keys {
				w.lo[i], w.hi[i] = r.Key.At(i).N, r.Key.At(i).N
			}
			wins[s] = w
			order = append(order, s)
		}
		w.rows++
		for i := range t.Keys {
			w.lo[i], w.hi[i] = min(w.lo[i], r.Key.At(i).N), max(w.hi[i], r.Key.At(i).N)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return wins[order[i]].rows > wins[order[j]].rows })
	b.WriteString("| candidate | rows won |")
	var logKeys []int
	for i, k := range t.Keys {
		if k.Kind == sel.Log {
			logKeys = append(logKeys, i)
			fmt.Fprintf(b, " %s |", k.Name)
		}
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(logKeys)) + "\n")
	for _, s := range order {
		w := wins[s]
		fmt.Fprintf(b, "| `%s` | %d |", s, w.rows)
		for _, i := range logKeys {
			if w.lo[i] == w.hi[i] {
				fmt.Fprintf(b, " %d |", w.lo[i])
			} else {
				fmt.Fprintf(b, " %d..%d |", w.lo[i], w.hi[i])
			}
		}
		b.WriteByte('\n')
	}
}

// writeExactWins counts, per combination of exact keys (trsm's side, uplo,
// ta and diag), the rows each winning candidate wins: which kernel serves
// which variant. Sections with a single combination get nothing.
func writeExactWins(b *bytes.Buffer, t *sel.Table, rows []sel.Row) {
	var exact []int
	for i, k := range t.Keys {
		if k.Kind == sel.Exact {
			exact = append(exact, i)
		}
	}
	counts := map[string]map[string]int{}
	var combos, winners []string
	for _, r := range rows {
		if len(r.Entries) == 0 {
			continue
		}
		var parts []string
		for _, i := range exact {
			parts = append(parts, r.Key.Str(i))
		}
		combo := strings.Join(parts, " | ")
		if counts[combo] == nil {
			counts[combo] = map[string]int{}
			combos = append(combos, combo)
		}
		w := r.Entries[0].Spelling
		if !slices.Contains(winners, w) {
			winners = append(winners, w)
		}
		counts[combo][w]++
	}
	if len(exact) == 0 || len(combos) < 2 {
		return
	}
	sort.Strings(combos)
	b.WriteString("\nRows won per ")
	b.WriteString(strings.Join(exactNames(t, exact), ", "))
	b.WriteString(":\n\n|")
	for _, i := range exact {
		fmt.Fprintf(b, " %s |", t.Keys[i].Name)
	}
	for _, w := range winners {
		fmt.Fprintf(b, " `%s` |", w)
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(exact)+len(winners)) + "\n")
	for _, c := range combos {
		fmt.Fprintf(b, "| %s |", c)
		for _, w := range winners {
			if n := counts[c][w]; n > 0 {
				fmt.Fprintf(b, " %d |", n)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteByte('\n')
	}
}

func exactNames(t *sel.Table, idx []int) []string {
	out := make([]string, len(idx))
	for j, i := range idx {
		out[j] = t.Keys[i].Name
	}
	return out
}

// writeWinMaps draws, for each combination of exact keys, the winner of
// every row on a grid of the two log keys that vary independently (potrf's
// n and batch). Sections with more size keys (gemm, trsm) get the wins
// tables only.
func writeWinMaps(b *bytes.Buffer, t *sel.Table, rows []sel.Row) {
	groups := map[string][]sel.Row{}
	var gorder []string
	for _, r := range rows {
		var ex []string
		for i, k := range t.Keys {
			if k.Kind == sel.Exact {
				ex = append(ex, k.Name+"="+r.Key.Str(i))
			}
		}
		g := strings.Join(ex, " ")
		if _, ok := groups[g]; !ok {
			gorder = append(gorder, g)
		}
		groups[g] = append(groups[g], r)
	}
	sort.Strings(gorder)
	for _, g := range gorder {
		rs := groups[g]
		axes := independentLogKeys(t.Keys, rs)
		if len(axes) != 2 {
			continue
		}
		ra, ca := axes[0], axes[1]
		rowVals, colVals := distinctVals(rs, ra), distinctVals(rs, ca)
		cellWin := map[[2]int64]string{}
		for _, r := range rs {
			if len(r.Entries) > 0 {
				cellWin[[2]int64{r.Key.At(ra).N, r.Key.At(ca).N}] = r.Entries[0].Spelling
			}
		}
		title := g
		if title == "" {
			title = "all rows"
		}
		fmt.Fprintf(b, "\n%s, winner by %s (down) and %s (across):\n\n", title, t.Keys[ra].Name, t.Keys[ca].Name)
		fmt.Fprintf(b, "| %s \\ %s |", t.Keys[ra].Name, t.Keys[ca].Name)
		for _, c := range colVals {
			fmt.Fprintf(b, " %d |", c)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(colVals)) + "\n")
		for _, rv := range rowVals {
			fmt.Fprintf(b, "| %d |", rv)
			for _, cv := range colVals {
				if s, ok := cellWin[[2]int64{rv, cv}]; ok {
					fmt.Fprintf(b, " %s |", s)
				} else {
					b.WriteString(" |")
				}
			}
			b.WriteByte('\n')
		}
	}
}

// independentLogKeys returns the log keys whose values over rows are not a
// copy of an earlier log key's values.
func independentLogKeys(keys []sel.KeySpec, rows []sel.Row) []int {
	var out []int
	seen := map[string]bool{}
	for i, k := range keys {
		if k.Kind != sel.Log {
			continue
		}
		var sig strings.Builder
		for _, r := range rows {
			sig.WriteString(strconv.FormatInt(r.Key.At(i).N, 10))
			sig.WriteByte(',')
		}
		if seen[sig.String()] {
			continue
		}
		seen[sig.String()] = true
		if len(distinctVals(rows, i)) > 1 {
			out = append(out, i)
		}
	}
	return out
}

func distinctVals(rows []sel.Row, i int) []int64 {
	var out []int64
	for _, r := range rows {
		out = append(out, r.Key.At(i).N)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
