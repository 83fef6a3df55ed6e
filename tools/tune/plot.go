package main

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const plotSynopsis = "plot [--dir DIR] [--out DIR] [--op gemm,...|all] [--dtype float64,float32]"

func cmdPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plot", plotSynopsis, stdout, stderr)
	dir := fs.String("dir", "", "draw the tables <op>.<device>[.<identity>].txt of this `DIR` (default: the built-in tables, the ones the docs command draws)")
	out := fs.String("out", "out/plots", "directory the SVG files are written to")
	ops := fs.String("op", "all", "ops to draw: comma-separated names, or all")
	dtypes := fs.String("dtype", "float64,float32", "dtypes to draw, comma-separated")
	fs.note(func(w io.Writer) {
		fmt.Fprintln(w, "Per table and dtype it writes <op>.<device>.<dtype>.winners.svg (the candidate the")
		fmt.Fprintln(w, "table picks over size and batch, one panel per combination of exact keys) and")
		fmt.Fprintln(w, "<op>.<device>.<dtype>.gain.svg (per row, the best single fixed candidate's time")
		fmt.Fprintln(w, "over the winner's, sorted). docs/tables.md shows those of the built-in tables.")
	})
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	ts, err := selectTuners(*ops)
	if err != nil {
		return err
	}
	dts, err := selectDTypes(*dtypes)
	if err != nil {
		return err
	}
	fsys, from := opkit.BuiltinTables(), "the built-in tables"
	if *dir != "" {
		if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
			return fmt.Errorf("--dir %s: not a directory (give the directory that holds <op>.<device>.txt)", *dir)
		}
		fsys, from = safefile.DirFS(*dir), *dir
	}
	tables, err := readTables(sel.Ops(), fsys)
	if err != nil {
		return err
	}
	n := 0
	for _, nt := range tables {
		if !slices.ContainsFunc(ts, func(t *opTuner) bool { return t.op == nt.op }) {
			continue
		}
		for _, dt := range sortedDTypes(nt.t) {
			if !slices.Contains(dts, dt) {
				continue
			}
			for _, sp := range planPlots(nt.op, nt.t, dt) {
				data, err := sp.render()
				if err != nil {
					return err
				}
				path := filepath.Join(*out, sp.file)
				if err := safefile.WriteAtomic(path, data); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "wrote %s\n", path)
				n++
			}
		}
	}
	if n == 0 {
		return fmt.Errorf("nothing to draw: %s hold no table of %s with a %s section", from, *ops, *dtypes)
	}
	return nil
}

// namedTable is one table file parsed for its op.
type namedTable struct {
	op *sel.Op
	t  *sel.Table
}

// readTables parses every table file in the root of fsys whose op is one of
// ops, sorted by file name. `docs` and `plot` read tables through it, so the
// plots show what the generated page lists.
func readTables(ops []*sel.Op, fsys fs.FS) ([]namedTable, error) {
	if fsys == nil {
		return nil, nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if _, _, _, err := sel.SplitTableName(e.Name()); err == nil && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []namedTable
	for _, n := range names {
		opName, _, _, _ := sel.SplitTableName(n)
		i := slices.IndexFunc(ops, func(o *sel.Op) bool { return o.Name() == opName })
		if i < 0 {
			continue
		}
		data, err := safefile.ReadFS(fsys, n, safefile.TableLimit)
		if err != nil {
			return nil, err
		}
		t, err := sel.ParseTable(n, data, ops[i])
		if err != nil {
			return nil, err // <file>:<line>: <reason>
		}
		out = append(out, namedTable{op: ops[i], t: t})
	}
	return out, nil
}

// sectionPlot is one SVG of a table's dtype section: its file name (in the
// plots directory), what docs/tables.md says about it, and how to draw it.
type sectionPlot struct {
	file    string
	alt     string
	caption string
	render  func() ([]byte, error)
}

// batchKey is the key every op names its batch count by; plots put it on
// the vertical axis.
const batchKey = "batch"

// planPlots lists the plots of section dt of t: who wins where, and, when
// a candidate is timed at every row, what the table gains over the best
// fixed one. Only the names and captions are computed here (docs needs
// them for the page); render draws.
func planPlots(op *sel.Op, t *sel.Table, dt sel.DType) []sectionPlot {
	rows := t.Sections[dt]
	if len(rows) == 0 {
		return nil
	}
	base := strings.TrimSuffix(t.File, ".txt") + "." + string(dt)
	var out []sectionPlot
	if sl, ok := winnerSlice(t.Keys); ok {
		panels := ""
		if ex := exactNames(t, exactKeys(t.Keys)); len(ex) > 0 {
			panels = "one panel per combination of " + andList(ex) + "; in each, "
		}
		out = append(out, sectionPlot{
			file: base + ".winners.svg",
			alt:  fmt.Sprintf("%s %s: the candidate the table picks by %s and %s", t.Op, dt, sl.xLabel(t.Keys), batchKey),
			caption: fmt.Sprintf("Who wins where: %sthe color at a point is the candidate the table picks for a call of that shape "+
				"(the first entry of the nearest row), with %s, both on log axes; white dots are the rows measured on that slice.",
				panels, sl.describe(t.Keys)),
			render: recoverRender(base+".winners.svg", func() ([]byte, error) { return winnersPlot(op, t, dt, sl, "svg") }),
		})
	}
	if g, ok := gainOf(op, t, dt); ok {
		out = append(out, sectionPlot{
			file: base + ".gain.svg",
			alt:  fmt.Sprintf("%s %s: time of %s over the time of each row's winner, sorted", t.Op, dt, g.fixed),
			caption: fmt.Sprintf("What the table gains: for every row, the time of `%s` (the best single fixed candidate: least "+
				"geometric-mean slowdown over the rows) over the time of the row's winner, sorted from the largest gain; a point "+
				"(x, y) reads \"on x%% of the rows the table's pick is at least y times faster than always calling %s\" "+
				"(just under 1: a tie the tie rule gave to a simpler kernel).", g.fixed, g.fixed),
			render: recoverRender(base+".gain.svg", func() ([]byte, error) { return gainPlot(t, dt, g, "svg") }),
		})
	}
	return out
}

// slice is the two-dimensional cut of a key space the winners plot draws:
// the size keys x share one value (the horizontal axis), batch is the
// vertical one, and each combination of exact keys gets its own panel.
type slice struct {
	x []int // log keys tied together on the horizontal axis
	y int   // the batch key
}

func winnerSlice(keys []sel.KeySpec) (slice, bool) {
	s := slice{y: -1}
	for i, k := range keys {
		switch {
		case k.Kind != sel.Log:
		case k.Name == batchKey:
			s.y = i
		default:
			s.x = append(s.x, i)
		}
	}
	return s, s.y >= 0 && len(s.x) > 0
}

func (s slice) xLabel(keys []sel.KeySpec) string {
	names := make([]string, len(s.x))
	for j, i := range s.x {
		names[j] = keys[i].Name
	}
	return strings.Join(names, " = ")
}

func (s slice) describe(keys []sel.KeySpec) string {
	if len(s.x) == 1 {
		return fmt.Sprintf("%s across and %s up", keys[s.x[0]].Name, batchKey)
	}
	return fmt.Sprintf("%s across (every size key equal) and %s up", s.xLabel(keys), batchKey)
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// on reports whether row key k lies on the slice: its tied keys are equal.
func (s slice) on(k sel.Key) bool {
	for _, i := range s.x[1:] {
		if k.At(i).N != k.At(s.x[0]).N {
			return false
		}
	}
	return true
}

func exactKeys(keys []sel.KeySpec) []int {
	var out []int
	for i, k := range keys {
		if k.Kind == sel.Exact {
			out = append(out, i)
		}
	}
	return out
}

// spellingOrder is the order candidates get their colors in: the op's
// candidates of every dtype in tie-break order, then spellings of the table
// that are not candidates in this build (a novendor build still reads
// tables that rank vendor, and vendor comes last among candidates anyway).
// So a candidate has the same color in every plot of the op, whatever the
// build.
func spellingOrder(op *sel.Op, t *sel.Table) []string {
	var out []string
	for _, dt := range op.DTypes() {
		for _, c := range op.Candidates(dt) {
			if s := c.String(); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	var extra []string
	for _, dt := range sortedDTypes(t) {
		for _, r := range t.Sections[dt] {
			for _, e := range r.Entries {
				if !slices.Contains(out, e.Spelling) && !slices.Contains(extra, e.Spelling) {
					extra = append(extra, e.Spelling)
				}
			}
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// palette is a set of categorical colors that stay apart for the common
// kinds of color blindness (the first seven: the Okabe-Ito set without its
// black, which the dots use).
var palette = []color.RGBA{
	{0xE6, 0x9F, 0x00, 0xFF}, {0x56, 0xB4, 0xE9, 0xFF}, {0x00, 0x9E, 0x73, 0xFF}, {0xF0, 0xE4, 0x42, 0xFF},
	{0x00, 0x72, 0xB2, 0xFF}, {0xD5, 0x5E, 0x00, 0xFF}, {0xCC, 0x79, 0xA7, 0xFF}, {0x99, 0x99, 0x99, 0xFF},
	{0x88, 0x22, 0x55, 0xFF}, {0x44, 0xAA, 0x99, 0xFF}, {0x33, 0x22, 0x88, 0xFF}, {0xDD, 0xCC, 0x77, 0xFF},
}

// colorOf is the color of the i-th spelling; past the palette, hues a
// golden angle apart.
func colorOf(i int) color.Color {
	if i < len(palette) {
		return palette[i]
	}
	h := math.Mod(float64(i)*137.508, 360) / 60
	x := uint8(255 * (1 - math.Abs(math.Mod(h, 2)-1)))
	switch int(h) {
	case 0:
		return color.RGBA{255, x, 0, 255}
	case 1:
		return color.RGBA{x, 255, 0, 255}
	case 2:
		return color.RGBA{0, 255, x, 255}
	case 3:
		return color.RGBA{0, x, 255, 255}
	case 4:
		return color.RGBA{x, 0, 255, 255}
	}
	return color.RGBA{255, 0, x, 255}
}

// The winners plot samples each panel on a grid of this many log-spaced
// sizes and batches (integers, so fewer where the range is small): enough
// to show every boundary between measured rows at the printed size, few
// enough that `docs --check` stays fast.
const (
	winnerCols = 64
	winnerRows = 40
)

// panel is one combination of exact keys of a section.
type panel struct {
	title string
	rows  []sel.Row
}

func panelsOf(t *sel.Table, rows []sel.Row) []panel {
	ex := exactKeys(t.Keys)
	var out []panel
	at := map[string]int{}
	for _, r := range rows {
		var parts []string
		for _, i := range ex {
			parts = append(parts, t.Keys[i].Name+"="+r.Key.Str(i))
		}
		title := strings.Join(parts, " ")
		j, ok := at[title]
		if !ok {
			j = len(out)
			at[title] = j
			out = append(out, panel{title: title})
		}
		out[j].rows = append(out[j].rows, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].title < out[j].title })
	return out
}

// samples returns the points an axis is sampled at: up to n integers from
// lo to hi, log-spaced, and every value in measured, sorted and distinct.
// The measured values make every row on the slice a sample, so its cell
// shows its own winner however close its neighbours are.
func samples(lo, hi int64, n int, measured []int64) []float64 {
	var out []float64
	for i := 0; i < n; i++ {
		f := float64(lo)
		if n > 1 {
			f = math.Exp(math.Log(float64(lo)) + float64(i)/float64(n-1)*(math.Log(float64(hi))-math.Log(float64(lo))))
		}
		out = append(out, math.Round(f))
	}
	for _, v := range measured {
		out = append(out, float64(v))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// edges returns the cell boundaries of samples v on an axis from lo to hi:
// geometric midpoints between neighbours.
func edges(v []float64, lo, hi float64) []float64 {
	out := make([]float64, len(v)+1)
	out[0], out[len(v)] = lo, hi
	for i := 1; i < len(v); i++ {
		out[i] = math.Sqrt(v[i-1] * v[i])
	}
	return out
}

// axisRange is the range of a log axis over values lo..hi, widened when
// there is only one value so that the axis has a length.
func axisRange(lo, hi float64) (float64, float64) {
	if lo == hi {
		return lo / 2, hi * 2
	}
	return lo, hi
}

// winnerMap is one panel's decisions: rects of sample cells with the same
// winner, and the measured rows on the slice.
type winnerMap struct {
	xe, ye []float64 // cell edges
	rects  []rect
	dots   []vg.Point // data coordinates (size, batch) of measured rows
	colors []color.Color
	xr, yr [2]float64 // axis ranges
}

// rect covers sample columns x0..x1 and rows y0..y1 (inclusive) won by
// spelling index w.
type rect struct{ x0, x1, y0, y1, w int }

// decide samples the panel: at every point of the slice, the first entry of
// the nearest row, the way the selection core finds it (sel.Table.Nearest).
// Only the panel's rows are searched: they are the rows whose exact keys
// match, which Nearest would keep anyway, and searching them alone keeps
// `docs --check` fast. It returns the winners, indexed [row][column] by
// spelling index (-1: no decision), and the spellings seen.
func decide(t *sel.Table, dt sel.DType, sl slice, p panel, xs, ys []float64, order []string) ([][]int, error) {
	sub := *t
	sub.Sections = map[sel.DType][]sel.Row{dt: p.rows}
	proto := p.rows[0].Key
	vals := make([]sel.KeyVal, len(t.Keys))
	out := make([][]int, len(ys))
	for yi, y := range ys {
		out[yi] = make([]int, len(xs))
		for xi, x := range xs {
			for i := range t.Keys {
				vals[i] = proto.At(i)
			}
			for _, i := range sl.x {
				vals[i] = sel.Int(int(x))
			}
			vals[sl.y] = sel.Int(int(y))
			r, _, err := sub.Nearest(dt, sel.MakeKey(vals...))
			if err != nil {
				return nil, err
			}
			out[yi][xi] = -1
			if r != nil && len(r.Entries) > 0 {
				out[yi][xi] = slices.Index(order, r.Entries[0].Spelling)
			}
		}
	}
	return out, nil
}

// mergeRects covers a grid of winners with few rectangles: runs of equal
// winners along each row, a run extended upwards while the next row has
// the same run. Fewer paths make a smaller SVG.
func mergeRects(win [][]int) []rect {
	var out []rect
	open := map[[3]int]int{} // x0, x1, w -> index in out of a rect ending on the previous row
	for yi, row := range win {
		next := map[[3]int]int{}
		for x0 := 0; x0 < len(row); {
			x1 := x0
			for x1+1 < len(row) && row[x1+1] == row[x0] {
				x1++
			}
			if w := row[x0]; w >= 0 {
				k := [3]int{x0, x1, w}
				if j, ok := open[k]; ok {
					out[j].y1 = yi
					next[k] = j
				} else {
					next[k] = len(out)
					out = append(out, rect{x0: x0, x1: x1, y0: yi, y1: yi, w: w})
				}
			}
			x0 = x1 + 1
		}
		open = next
	}
	return out
}

// Plot draws the panel's regions, one path per winner, then the dots.
func (m *winnerMap) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for w, col := range m.colors {
		var path vg.Path
		for _, r := range m.rects {
			if r.w != w {
				continue
			}
			x0, x1 := trX(m.xe[r.x0]), trX(m.xe[r.x1+1])
			y0, y1 := trY(m.ye[r.y0]), trY(m.ye[r.y1+1])
			path.Move(vg.Point{X: x0, Y: y0})
			path.Line(vg.Point{X: x1, Y: y0})
			path.Line(vg.Point{X: x1, Y: y1})
			path.Line(vg.Point{X: x0, Y: y1})
			path.Close()
		}
		if len(path) > 0 {
			c.SetColor(col)
			c.Fill(path)
		}
	}
	// All dots in one path, filled and then stroked: one SVG element each
	// instead of two per dot keeps the file small.
	var dots vg.Path
	for _, d := range m.dots {
		pt := vg.Point{X: trX(float64(d.X)), Y: trY(float64(d.Y))}
		dots.Move(vg.Point{X: pt.X + dotStyle.Radius, Y: pt.Y})
		dots.Arc(pt, dotStyle.Radius, 0, 2*math.Pi)
		dots.Close()
	}
	if len(dots) > 0 {
		c.SetColor(color.White)
		c.Fill(dots)
		c.SetLineStyle(draw.LineStyle{Color: dotStyle.Color, Width: dotRim})
		c.Stroke(dots)
	}
}

// DataRange makes the axes span the panel's sampled range.
func (m *winnerMap) DataRange() (xmin, xmax, ymin, ymax float64) {
	return m.xr[0], m.xr[1], m.yr[0], m.yr[1]
}

// dotStyle marks a measured row: a white dot with a dark rim, visible on
// every fill color.
var dotStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(1.8), Shape: dotGlyph{}}

// dotRim is the width of a dot's rim (draw.RingGlyph's).
const dotRim = vg.Length(0.5)

type dotGlyph struct{}

func (dotGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(color.White) // CircleGlyph fills with the canvas's current color
	draw.CircleGlyph{}.DrawGlyph(c, sty, pt)
	draw.RingGlyph{}.DrawGlyph(c, sty, pt)
}

// swatch is a legend thumbnail: a filled square of one color.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	side := min(c.Max.X-c.Min.X, c.Max.Y-c.Min.Y)
	x0 := c.Min.X + (c.Max.X-c.Min.X-side)/2
	c.FillPolygon(s.c, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0 + side, Y: c.Min.Y}, {X: x0 + side, Y: c.Min.Y + side}, {X: x0, Y: c.Min.Y + side}})
}

// dotThumb is the legend thumbnail of a measured row.
type dotThumb struct{}

func (dotThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(dotStyle, c.Center()) }

// sans is the typeface of every text in the plots (gonum/plot's default is
// serif; sans reads better at small sizes). It comes with gonum/plot, so
// the text metrics, and the SVG bytes, are the same on every machine.
func sans(size vg.Length) font.Font {
	return font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
}

// newPlot is a plot with sans text at sizes fit for small multiples.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(10)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sans(9)
		ax.Tick.Label.Font = sans(8)
	}
	p.Legend.TextStyle.Font = sans(9)
	return p
}

// log2Ticks labels a log axis at powers of two, every second, third, ...
// one so that at most six carry a label; the others are minor ticks.
type log2Ticks struct{}

func (log2Ticks) Ticks(lo, hi float64) []plot.Tick {
	e0, e1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
	step := 1
	for (e1-e0)/step+1 > 6 {
		step++
	}
	var out []plot.Tick
	for e := e0; e <= e1; e++ {
		v := math.Ldexp(1, e)
		t := plot.Tick{Value: v}
		if (e-e0)%step == 0 {
			t.Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		out = append(out, t)
	}
	return out
}

// Layout of the winners plot, in points: panels are smaller when there
// are more than two to a row, so that the whole fits a page's width.
const (
	panelW, panelH         = 230, 165
	widePanelW, widePanelH = 320, 220
	titleH, padding        = 36, 8
)

// winnersPlot draws who wins where over the slice, one panel per
// combination of exact keys, with one legend entry per candidate that wins
// somewhere in the drawing, in one of gonum/plot's formats (the docs use
// svg: text, small, and the same bytes from the same tables).
func winnersPlot(op *sel.Op, t *sel.Table, dt sel.DType, sl slice, format string) ([]byte, error) {
	order := spellingOrder(op, t)
	colors := make([]color.Color, len(order))
	for i := range order {
		colors[i] = colorOf(i)
	}
	panels := panelsOf(t, t.Sections[dt])
	used := make([]bool, len(order))
	var plots []*plot.Plot
	for _, pn := range panels {
		xlo, xhi, ylo, yhi := int64(math.MaxInt64), int64(1), int64(math.MaxInt64), int64(1)
		var xOn, yOn []int64 // the key values of the rows on the slice
		for _, r := range pn.rows {
			for _, i := range sl.x {
				xlo, xhi = min(xlo, r.Key.At(i).N), max(xhi, r.Key.At(i).N)
			}
			ylo, yhi = min(ylo, r.Key.At(sl.y).N), max(yhi, r.Key.At(sl.y).N)
			if sl.on(r.Key) {
				xOn, yOn = append(xOn, r.Key.At(sl.x[0]).N), append(yOn, r.Key.At(sl.y).N)
			}
		}
		xlo, ylo = max(xlo, 1), max(ylo, 1)
		xs, ys := samples(xlo, xhi, winnerCols, xOn), samples(ylo, yhi, winnerRows, yOn)
		win, err := decide(t, dt, sl, pn, xs, ys, order)
		if err != nil {
			return nil, err
		}
		m := &winnerMap{colors: colors, rects: mergeRects(win)}
		m.xr[0], m.xr[1] = axisRange(xs[0], xs[len(xs)-1])
		m.yr[0], m.yr[1] = axisRange(ys[0], ys[len(ys)-1])
		m.xe, m.ye = edges(xs, m.xr[0], m.xr[1]), edges(ys, m.yr[0], m.yr[1])
		for _, r := range m.rects {
			used[r.w] = true
		}
		for i := range xOn {
			m.dots = append(m.dots, vg.Point{X: vg.Length(xOn[i]), Y: vg.Length(yOn[i])})
		}
		p := newPlot(pn.title)
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = log2Ticks{}, log2Ticks{}
		p.X.Label.Text, p.Y.Label.Text = sl.xLabel(t.Keys), batchKey
		p.Add(m)
		plots = append(plots, p)
	}

	legend := plot.NewLegend()
	legend.TextStyle.Font = sans(9)
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(3)
	legend.ThumbnailWidth = vg.Points(12)
	for i, s := range order {
		if used[i] {
			legend.Add(s, swatch{colors[i]})
		}
	}
	legend.Add("measured row", dotThumb{})
	legendW := vg.Length(0)
	for i, s := range order {
		if used[i] {
			legendW = max(legendW, legend.TextStyle.Rectangle(s).Max.X)
		}
	}
	legendW = max(legendW, legend.TextStyle.Rectangle("measured row").Max.X) + legend.ThumbnailWidth + 3*padding

	cols := int(math.Ceil(math.Sqrt(float64(len(plots)))))
	rows := (len(plots) + cols - 1) / cols
	pw, ph := panelW, panelH
	if cols <= 2 {
		pw, ph = widePanelW, widePanelH
	}
	w := vg.Length(cols*pw) + legendW
	h := vg.Length(rows*ph + titleH)
	canvas, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(canvas)
	dc.FillPolygon(color.White, []vg.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}})
	title := text.Style{Color: color.Black, Font: sans(11), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	dc.FillText(title, vg.Point{X: w / 2, Y: h - padding},
		fmt.Sprintf("%s %s, %s: the candidate the table picks by %s and %s", t.Op, dt, t.Device, sl.xLabel(t.Keys), batchKey))

	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for c := range grid[r] {
			if i := r*cols + c; i < len(plots) {
				grid[r][c] = plots[i]
			}
		}
	}
	area := draw.Crop(dc, 0, -legendW, 0, -titleH)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: padding, PadY: padding, PadLeft: padding, PadBottom: padding}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		for c, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}
	legend.Draw(draw.Crop(dc, w-legendW+padding, 0, 0, -titleH-padding))
	return canvasBytes(canvas)
}

// canvasBytes is the drawing's file. In SVG, a font-family of Liberation
// Sans alone (what gonum/plot writes) falls back to the viewer's default,
// often a serif, where Liberation Sans is not installed; Arial and
// Helvetica have the same metrics, so the text still fits its place.
func canvasBytes(c io.WriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")), nil
}

// gain is what the gain plot draws: the best single fixed candidate of a
// section and, per row, its time over the time of the row's winner.
type gain struct {
	fixed   string
	ratios  []float64 // sorted, largest first
	geomean float64
}

// gainOf computes the gain of section dt of t over its best single fixed
// candidate (bestFixed: the least geometric-mean slowdown over the rows,
// among candidates timed at every row), or false when the section is
// untimed or no candidate is timed at every row. The
// winner of a row is its first entry, what the table picks there; can_run
// is not consulted (the table's rows list only candidates that ran), so
// the plot is the same on every machine.
func gainOf(op *sel.Op, t *sel.Table, dt sel.DType) (gain, bool) {
	rows := t.Sections[dt]
	rrs := make([]rowRegret, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		if !timedRow(r) {
			return gain{}, false
		}
		f := fastestEntry(r).MS
		if !(f > 0) {
			continue
		}
		rrs = append(rrs, rowRegret{row: r, slowdown: r.Entries[0].MS / f})
	}
	fixed, _, geo := bestFixed(rrs, spellingOrder(op, t))
	if fixed == "" {
		return gain{}, false
	}
	g := gain{fixed: fixed, geomean: clampRatio(geo)}
	for _, rr := range rrs {
		if w := rr.row.Entries[0].MS; w > 0 {
			if r := clampRatio(entryMS(rr.row, fixed) / w); !math.IsNaN(r) {
				g.ratios = append(g.ratios, r)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(g.ratios)))
	return g, len(g.ratios) > 0
}

// The gain axis spans at most [minGainRatio, maxGainRatio]: a ratio past
// it is drawn at the edge. Any time the loader accepts is a ratio, and
// 1e-308 over 1e308 underflows to 0, which a log axis cannot place (the
// plot library panicked: "Values must be greater than 0 for a log scale").
const (
	minGainRatio = 1e-6
	maxGainRatio = 1e6
)

// clampRatio puts a ratio inside the gain axis; NaN stays NaN for the
// caller to drop.
func clampRatio(r float64) float64 {
	if math.IsNaN(r) {
		return r
	}
	return min(max(r, minGainRatio), maxGainRatio)
}

// recoverRender turns a panic of the plot library into an error, so that
// a table the library loads can fail a plot but never crash the tuner.
func recoverRender(file string, f func() ([]byte, error)) func() ([]byte, error) {
	return func() (data []byte, err error) {
		defer func() {
			if r := recover(); r != nil {
				data, err = nil, fmt.Errorf("drawing %s: the plot library failed: %v", file, r)
			}
		}()
		return f()
	}
}

// gainPoints is the most points the gain curve is drawn with: more rows
// are sampled evenly (first and last kept), which the eye cannot tell
// apart at the printed width and which keeps the SVG small.
const gainPoints = 400

// gainTicks labels the ratio axis at round ratios inside its range, each
// at least a fifteenth of the axis above the last (labels never overlap).
type gainTicks struct{}

func (gainTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	last := 0.0
	for _, v := range []float64{0.5, 0.8, 0.9, 1, 1.05, 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000} {
		if v < lo*(1-1e-9) || v > hi*(1+1e-9) || (last > 0 && math.Log(v/last) < math.Log(hi/lo)/15) {
			continue
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		last = v
	}
	return out
}

// gainPlot draws the sorted curve of a section's gain over its best fixed
// candidate, with the lines of no gain and of the geometric mean.
func gainPlot(t *sel.Table, dt sel.DType, g gain, format string) ([]byte, error) {
	n := len(g.ratios)
	var pts plotter.XYs
	for j := 0; j < min(n, gainPoints); j++ {
		i := j
		if n > gainPoints {
			i = int(math.Round(float64(j) * float64(n-1) / float64(gainPoints-1)))
		}
		pts = append(pts, plotter.XY{X: 100 * float64(i+1) / float64(n), Y: g.ratios[i]})
	}
	p := newPlot(fmt.Sprintf("%s %s, %s: what the table gains over always calling %s\n(%d rows; geometric mean %.2fx)",
		t.Op, dt, t.Device, g.fixed, n, g.geomean))
	p.Title.TextStyle.Font = sans(11)
	p.X.Label.Text = "rows of the table, largest gain first (%)"
	p.Y.Label.Text = fmt.Sprintf("time of %s / time of the row's winner", g.fixed)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = gainTicks{}
	p.X.Min, p.X.Max = 0, 100
	lo, hi := min(g.ratios[n-1], 1)/1.02, max(g.ratios[0], 1.1)*1.02
	p.Y.Min, p.Y.Max = lo, hi
	curve, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	curve.Color = palette[4]
	curve.Width = vg.Points(1.5)
	level := func(y float64, c color.Color, dashed bool) (*plotter.Line, error) {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: y}, {X: 100, Y: y}})
		if err != nil {
			return nil, err
		}
		l.Color = c
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		return l, nil
	}
	one, err := level(1, color.Gray{0x80}, false)
	if err != nil {
		return nil, err
	}
	geo, err := level(g.geomean, palette[5], true)
	if err != nil {
		return nil, err
	}
	p.Add(one, geo, curve)
	p.Legend.Top = true
	p.Legend.Add("per row, sorted", curve)
	p.Legend.Add(fmt.Sprintf("geometric mean %.2fx", g.geomean), geo)
	p.Legend.Add("1: no gain", one)
	wt, err := p.WriterTo(vg.Points(520), vg.Points(300), format)
	if err != nil {
		return nil, err
	}
	return canvasBytes(wt)
}
