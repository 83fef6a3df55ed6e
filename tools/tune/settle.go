package main

import (
	"slices"
	"strings"

	sel "github.com/batchlas-go/batchlas/select"
)

// Settled cells: the express profile measures where the prior's rankings
// are decisive and leaves the rest to the cells around them.
//
// A grid cell is deferred when it lies off the coarse lattice (some log key
// at an odd position of its axis, the axis's last value counting as on it)
// and the prior names the same winner there as at the grid cells one
// position away along each log key (the other keys equal). The lattice
// cells and the undeferred ones are measured first. A deferred cell is
// measured too as soon as a measured cell around it (every log key within
// one position, exact keys equal) disagrees with the prior: the
// prior's winner there runs more than settleTolerance slower than this
// machine's fastest, or was not timed. A cell measured that way can
// disagree in turn, so this repeats until no deferred cell has a
// disagreeing neighbour.
//
// What stays deferred is settled: every cell around it that was measured
// confirmed the prior's winner, which is the winner the prior gives the
// settled cell too, so the nearest measured row (a neighbour) decides it
// as the prior would. The table holds no row there, and needs none.
//
// A full run defers nothing: its tables are measured at every grid cell.

// settleTolerance is how much slower than this machine's fastest the
// prior's winner may run at a measured cell and still count as confirmed:
// refinement's tolerance, for the same reason (within it either winner
// serves the cells around).
const settleTolerance = refineTolerance

// settleShare is the plan's guess of the share of deferred cells a run
// ends up measuring (where this machine disagrees with the prior). The
// express run of fifteen ops on a 2-core Zen 5 presented as an identity
// without tables (borrowing the Zen 5's tables, 2026-12-04) measured 746 of
// 5921 (13%); the plan rounds up.
const settleShare = 0.15

// gridLattice knows each grid cell's position along every key's axis.
type gridLattice struct {
	keys []sel.KeySpec
	pos  []map[string]int // key index -> value -> position on its axis
	last []int            // key index -> last position
}

// newGridLattice indexes the axes of op's grid under g.
func newGridLattice(op *sel.Op, g gridFlag) gridLattice {
	keys := op.Keys()
	byKey := map[string]sel.GridAxis{}
	for _, ax := range op.Spec().Grid {
		byKey[ax.Key] = ax
	}
	l := gridLattice{keys: keys, pos: make([]map[string]int, len(keys)), last: make([]int, len(keys))}
	for i, k := range keys {
		l.pos[i] = map[string]int{}
		vs := g.axisValues(byKey[k.Name])
		for j, v := range vs {
			l.pos[i][v] = j
		}
		l.last[i] = len(vs) - 1
	}
	return l
}

// onLattice reports whether c is a lattice cell: every log key at an even
// position of its axis or at its last one.
func (l gridLattice) onLattice(c cell) bool {
	for i, k := range l.keys {
		if k.Kind != sel.Log {
			continue
		}
		p, ok := l.pos[i][c.vals[i]]
		if !ok {
			return true // not a grid value (a custom grid's repeat): measure it
		}
		if p%2 != 0 && p != l.last[i] {
			return false
		}
	}
	return true
}

// around returns the cells of byText (by their text) within one position
// of c along every log key, exact keys equal, c itself left out.
func (l gridLattice) around(c cell, byText map[string]cell) []cell {
	var out []cell
	vals := make([]string, len(c.vals))
	var walk func(i int, moved bool)
	walk = func(i int, moved bool) {
		if i == len(l.keys) {
			if !moved {
				return
			}
			if d, ok := byText[strings.Join(vals, "\x00")]; ok {
				out = append(out, d)
			}
			return
		}
		vals[i] = c.vals[i]
		p, ok := l.pos[i][c.vals[i]]
		if l.keys[i].Kind != sel.Log || !ok {
			walk(i+1, moved)
			return
		}
		for _, v := range l.valuesNear(i, p) {
			vals[i] = v
			walk(i+1, moved || v != c.vals[i])
		}
	}
	walk(0, false)
	return out
}

// alongAxes returns the cells of byText one position from c along one log
// key, every other key equal.
func (l gridLattice) alongAxes(c cell, byText map[string]cell) []cell {
	var out []cell
	vals := slices.Clone(c.vals)
	for i, k := range l.keys {
		p, ok := l.pos[i][c.vals[i]]
		if k.Kind != sel.Log || !ok {
			continue
		}
		for _, v := range l.valuesNear(i, p) {
			if v == c.vals[i] {
				continue
			}
			vals[i] = v
			if d, ok := byText[strings.Join(vals, "\x00")]; ok {
				out = append(out, d)
			}
		}
		vals[i] = c.vals[i]
	}
	return out
}

// valuesNear returns the values of key i at positions p-1, p and p+1 that
// exist.
func (l gridLattice) valuesNear(i, p int) []string {
	var out []string
	for v, q := range l.pos[i] {
		if q >= p-1 && q <= p+1 {
			out = append(out, v)
		}
	}
	return out
}

// cellIndex maps cells by their values, joined as around looks them up.
func cellIndex(cells []cell) map[string]cell {
	m := make(map[string]cell, len(cells))
	for _, c := range cells {
		m[strings.Join(c.vals, "\x00")] = c
	}
	return m
}

// winner is the first candidate of this build in the prior's nearest row
// at c, "" when the prior has none.
func (p prior) winner(dt sel.DType, c cell) string {
	t := p.tables[dt]
	if t == nil {
		return ""
	}
	row, _, err := t.Nearest(dt, c.key())
	if err != nil || row == nil {
		return ""
	}
	for _, e := range row.Entries {
		if !e.Choice.IsZero() && p.op.IsCandidate(dt, e.Choice) {
			return e.Choice.String()
		}
	}
	return ""
}

// deferSettled splits cells into those measured first and those deferred
// (see the top of this file), keeping their order.
func deferSettled(l gridLattice, pr *prior, dt sel.DType, cells []cell) (first, deferred []cell) {
	if pr == nil || pr.tables[dt] == nil {
		return cells, nil
	}
	byText := cellIndex(cells)
	winners := make(map[string]string, len(cells))
	for _, c := range cells {
		winners[c.String()] = pr.winner(dt, c)
	}
	for _, c := range cells {
		w := winners[c.String()]
		settled := w != "" && !l.onLattice(c)
		if settled {
			for _, d := range l.alongAxes(c, byText) {
				if winners[d.String()] != w {
					settled = false
					break
				}
			}
		}
		if settled {
			deferred = append(deferred, c)
		} else {
			first = append(first, c)
		}
	}
	return first, deferred
}

// unsettled returns the deferred cells with a measured cell around them
// that disagrees with the prior, and the ones still deferred.
func unsettled(l gridLattice, pr *prior, dt sel.DType, deferred []cell, measured map[string]cellResult, measuredCells map[string]cell) (now, still []cell) {
	for _, c := range deferred {
		disagree := false
		for _, d := range l.around(c, measuredCells) {
			res, ok := measured[d.String()]
			if !ok {
				continue
			}
			if !(slowdownAt(res, pr.winner(dt, d)) <= settleTolerance) {
				disagree = true
				break
			}
		}
		if disagree {
			now = append(now, c)
		} else {
			still = append(still, c)
		}
	}
	return now, still
}
