package main

import (
	"math"
	"slices"
	"strconv"
	"strings"

	sel "github.com/batchlas-go/batchlas/select"
)

// refineRatio is where bisection stops: two neighbouring sizes closer than
// this ratio are left alone.
const refineRatio = 1.25

// refineTolerance is how much slower the winner of one cell may be at its
// neighbour before the two disagree enough to measure a cell between them.
// Two neighbours whose winners each run within 10% of the other's fastest
// can serve everything between them with either winner; measuring there
// would spend the budget where a wrong choice costs little. It is above the
// tie rule's 3% (a tie is never a disagreement) and below the 1.5 a table
// may lose at its worst shape.
const refineTolerance = 1.10

// refinePoint is a cell refinement proposes, with what is at stake there:
// the larger slowdown of either neighbour's winner at the other neighbour.
type refinePoint struct {
	cell
	stake float64
}

// refinePoints returns the cells to measure next along one log axis: for
// every two neighbours along it (every other key equal) whose values are at
// least ratio apart and whose stake (stake is called with the two cells'
// texts) exceeds refineTolerance, the cell at the geometric midpoint. tried
// holds the cells already measured, proposed or refused, so a midpoint
// that rounds onto a known value is not proposed again.
func refinePoints(cells []cell, stake func(lo, hi string) float64, axis string, ratio float64, tried map[string]bool) []refinePoint {
	if len(cells) == 0 || keyIndex(cells[0].keys, axis) < 0 {
		return nil
	}
	// Group by every other key: each group is one line along the axis.
	groups := map[string][]cell{}
	var order []string
	for _, c := range cells {
		g := lineKey(c, axis)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], c)
	}
	var out []refinePoint
	for _, g := range order {
		line := groups[g]
		slices.SortFunc(line, func(a, b cell) int { return a.num(axis) - b.num(axis) })
		for j := 0; j+1 < len(line); j++ {
			lo, hi := line[j], line[j+1]
			a, b := float64(lo.num(axis)), float64(hi.num(axis))
			if b/a < ratio {
				continue
			}
			st := stake(lo.String(), hi.String())
			if !(st > refineTolerance) {
				continue
			}
			mid := int(math.Round(math.Sqrt(a * b)))
			if mid <= lo.num(axis) || mid >= hi.num(axis) {
				continue
			}
			c := lo.with(axis, strconv.Itoa(mid))
			if tried[c.String()] {
				continue
			}
			tried[c.String()] = true
			out = append(out, refinePoint{c, st})
		}
	}
	return out
}

// extendPoints returns the cells that line a measured cell up with its
// neighbours along one log axis. Bisection adds a cell along one axis
// with the others held (n = 45 between n = 32 and 64, at batch = 1 only),
// and such a cell is then the nearest row for calls at other values of
// the held axes too (n = 44 at batch = 3), where its winner may lose. So
// for every measured cell c, and each value next to c's along axis (the
// nearest below and above among the cells with c's exact keys), the cell
// e = c with that value is proposed when it is not measured yet and c's
// winner disagrees with the winner of a measured neighbour of e along
// another log axis (the nearest cell below or above e on that line): those
// neighbours' winners are what a call near e would get instead of c's.
// The stake is the largest such disagreement. A cell of a full grid has
// its extensions measured already, so this proposes cells only around
// refinement cells, and only where their winner is not the neighbours'.
// results holds every measured cell's timings (by its text); fits says
// which cells may be measured at all (the caps, calls of the op), others
// are not considered.
func extendPoints(cells []cell, results map[string]cellResult, axis string, tried map[string]bool, fits func(cell) bool) []refinePoint {
	if len(cells) == 0 || keyIndex(cells[0].keys, axis) < 0 {
		return nil
	}
	keys := cells[0].keys
	// exact is the text of a cell's exact keys: cells with the same one
	// share a space of sizes.
	exactIdx := exactKeys(keys)
	exact := func(c cell) string {
		parts := make([]string, len(exactIdx))
		for j, i := range exactIdx {
			parts[j] = c.vals[i]
		}
		return strings.Join(parts, "\x00")
	}
	values := map[string][]int{}
	for _, c := range cells {
		e := exact(c)
		if v := c.num(axis); !slices.Contains(values[e], v) {
			values[e] = append(values[e], v)
		}
	}
	for _, vs := range values {
		slices.Sort(vs)
	}
	// lines holds, for each other log key, the values measured on each
	// line along it (every other key equal), sorted.
	lines := map[string]map[string][]int{}
	others := slices.DeleteFunc(logKeys(keys), func(k string) bool { return k == axis })
	for _, other := range others {
		m := map[string][]int{}
		for _, c := range cells {
			m[lineKey(c, other)] = append(m[lineKey(c, other)], c.num(other))
		}
		for _, vs := range m {
			slices.Sort(vs)
		}
		lines[other] = m
	}
	var out []refinePoint
	for _, c := range cells {
		vs := values[exact(c)]
		i, _ := slices.BinarySearch(vs, c.num(axis))
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(vs) {
				continue
			}
			e := c.with(axis, strconv.Itoa(vs[j]))
			if _, measured := results[e.String()]; measured || tried[e.String()] || !fits(e) {
				continue
			}
			st := 1.0
			for _, other := range others {
				for _, w := range lineNeighbours(lines[other][lineKey(e, other)], e.num(other)) {
					d := e.with(other, strconv.Itoa(w))
					st = max(st, winnerStake(results[c.String()], results[d.String()]))
				}
			}
			if !(st > refineTolerance) {
				continue
			}
			tried[e.String()] = true
			out = append(out, refinePoint{e, st})
		}
	}
	return out
}

// lineKey is the text of a cell's values but the one of axis: the cells
// with the same one lie on one line along axis.
func lineKey(c cell, axis string) string {
	parts := slices.Clone(c.vals)
	parts[keyIndex(c.keys, axis)] = ""
	return strings.Join(parts, "\x00")
}

// lineNeighbours returns the values of vs (sorted) next to v: the nearest
// below it and the nearest above, those that exist.
func lineNeighbours(vs []int, v int) []int {
	i, found := slices.BinarySearch(vs, v)
	var out []int
	if i > 0 {
		out = append(out, vs[i-1])
	}
	if found {
		i++
	}
	if i < len(vs) {
		out = append(out, vs[i])
	}
	return out
}

// winnerStake is what is at stake between two measured cells: the larger
// slowdown of one cell's winner at the other cell (1 when they agree).
// Above refineTolerance they disagree: winners that differ only within it
// (noise, or kernels about equally good there) need no cell between them,
// either winner serves both. A winner not timed at the other cell cannot
// serve it: +Inf.
func winnerStake(a, b cellResult) float64 {
	wa, wb := a.winner(), b.winner()
	if wa == "" || wb == "" || wa == wb {
		return 1
	}
	return max(slowdownAt(a, wb), slowdownAt(b, wa))
}

// disagreeOnWinner reports whether two cells' winners disagree by more
// than refineTolerance.
func disagreeOnWinner(a, b cellResult) bool { return winnerStake(a, b) > refineTolerance }

// slowdownAt is candidate s's time in r over r's fastest, +Inf when s was
// not timed there.
func slowdownAt(r cellResult, s string) float64 {
	fastest := math.Inf(1)
	for _, e := range r.Entries {
		fastest = min(fastest, e.MS)
	}
	for _, e := range r.Entries {
		if e.Spelling == s && fastest > 0 {
			return e.MS / fastest
		}
	}
	return math.Inf(1)
}

// pickRefinement orders proposed cells by what is at stake, largest first
// (cells in row order on a tie), and keeps at most max of them (max < 0:
// all).
func pickRefinement(ps []refinePoint, max int) []cell {
	slices.SortStableFunc(ps, func(a, b refinePoint) int {
		switch {
		case a.stake > b.stake:
			return -1
		case a.stake < b.stake:
			return 1
		case a.less(b.cell):
			return -1
		case b.less(a.cell):
			return 1
		}
		return 0
	})
	if max >= 0 && len(ps) > max {
		ps = ps[:max]
	}
	out := make([]cell, len(ps))
	for i, p := range ps {
		out[i] = p.cell
	}
	return out
}

// logAxes are the keys refinement bisects: every log key of the op.
func logAxes(op *sel.Op) []string { return logKeys(op.Keys()) }

// logKeys is logAxes from an op's keys.
func logKeys(keys []sel.KeySpec) []string {
	var out []string
	for _, k := range keys {
		if k.Kind == sel.Log {
			out = append(out, k.Name)
		}
	}
	return out
}
