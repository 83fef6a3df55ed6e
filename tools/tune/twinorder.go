package main

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// Twins in a written row. Candidates the op names as twins on a cell
// (OpSpec.Twin: the same code there, ormqr's blocked:nb=8 and unblocked at
// k <= 8) are timed once and share the time (measureCell), so the tie rule
// ranks them by candidate order. But a row decides the calls around it as
// well, where the twins run different code: ormqr's row at k = 8 named
// unblocked for k = 9 to 15 too, where blocked:nb=8 is 1.5x to 2.7x faster
// (tune validate on the Zen 5 guest, stop 71). orderTwinTies orders such
// a run by what its candidates run just past the row, as the nearest row
// that times them apart ranks that code.

// orderTwinTies reorders, in each row of one dtype's rows, every run of
// consecutive entries with the same time that holds twins on the row's
// cell. It takes the nearest row (same exact keys, least weighted log
// distance) that times at least two of the run's candidates apart, and
// the cell halfway between the two (the calls the row decides on that
// side): each candidate ranks by the time the far row gives the code the
// candidate runs on the halfway cell (its twin there, or its own), the
// least time of the far row's candidates that run that code; members
// whose code the far row lacks go last, ties keep their order. ormqr's
// k = 8 row, with k = 32 the far row: halfway, at k = 16, blocked:nb=16
// and blocked:nb=32 still run unblocked's code, so they rank as
// unblocked does at k = 32, and blocked:nb=8 by its own time there. Only
// entries of equal time move, so the row still follows the tie rule
// (check accepts equal times in any order); a run with no far row keeps
// candidate order. The rows' entries are reordered in place: they must
// not be the measured cells' own (opRun.section copies them).
func orderTwinTies(op *sel.Op, dt sel.DType, rows []tableRow) {
	twin := op.Spec().Twin
	if twin == nil {
		return
	}
	choices := map[string]sel.Choice{}
	for _, c := range op.Candidates(dt) {
		choices[c.String()] = c
	}
	dev := batchlas.Host()
	// codeAt is the candidate whose code s runs on cell c: its twin
	// there, or itself.
	codeAt := func(s string, c cell) string {
		if ch, ok := choices[s]; ok {
			if t := twin(ch, dt, c.key(), dev); t != "" {
				return t
			}
		}
		return s
	}
	keys := op.Keys()
	rowKeys := make([]sel.Key, len(rows))
	for i := range rows {
		rowKeys[i] = rows[i].cell.key()
	}
	for i := range rows {
		es := rows[i].entries
		for lo := 0; lo < len(es); {
			hi := lo + 1
			for hi < len(es) && es[hi].MS == es[lo].MS {
				hi++
			}
			run := es[lo:hi]
			if len(run) > 1 && holdsTwins(run, func(s string) string { return codeAt(s, rows[i].cell) }) {
				if far := nearestApart(keys, rowKeys, rows, i, run); far != nil {
					half := halfway(keys, rows[i].cell, far.cell)
					slices.SortStableFunc(run, func(a, b entry) int {
						return cmp.Compare(codeTime(far, codeAt(a.Spelling, half), codeAt), codeTime(far, codeAt(b.Spelling, half), codeAt))
					})
				}
			}
			lo = hi
		}
	}
}

// codeTime is the least time row r gives a candidate that runs code (a
// candidate's spelling) on r's cell, +Inf where none does.
func codeTime(r *tableRow, code string, codeAt func(string, cell) string) float64 {
	best := math.Inf(1)
	for _, e := range r.entries {
		if codeAt(e.Spelling, r.cell) == code {
			best = min(best, e.MS)
		}
	}
	return best
}

// halfway is the cell between a and b: exact keys a's, each log key the
// rounded geometric mean of the two.
func halfway(keys []sel.KeySpec, a, b cell) cell {
	vals := slices.Clone(a.vals)
	for k, ks := range keys {
		if ks.Kind == sel.Exact {
			continue
		}
		x, err1 := strconv.Atoi(a.vals[k])
		y, err2 := strconv.Atoi(b.vals[k])
		if err1 == nil && err2 == nil {
			vals[k] = strconv.Itoa(max(1, int(math.Round(math.Sqrt(float64(x)*float64(y))))))
		}
	}
	return newCell(keys, vals)
}

// holdsTwins reports whether some entry of run runs another entry's code
// (codeOf: its twin on the row's cell, or itself).
func holdsTwins(run []entry, codeOf func(string) string) bool {
	for _, e := range run {
		if t := codeOf(e.Spelling); t != e.Spelling && slices.ContainsFunc(run, func(o entry) bool { return o.Spelling == t }) {
			return true
		}
	}
	return false
}

// nearestApart is the row nearest rows[i] (its exact keys equal, the least
// lookup distance, sel.KeyDistance, the first of equals) in which at least two of
// run's candidates are timed and their times differ; nil when none is.
// rowKeys are the rows' keys.
func nearestApart(keys []sel.KeySpec, rowKeys []sel.Key, rows []tableRow, i int, run []entry) *tableRow {
	var best *tableRow
	bestD := math.Inf(1)
	for j := range rows {
		if j == i {
			continue
		}
		d, ok := sel.KeyDistance(keys, rowKeys[i], rowKeys[j])
		if !ok || d >= bestD-1e-9 || !timedApart(&rows[j], run) {
			continue
		}
		best, bestD = &rows[j], d
	}
	return best
}

// timedApart reports whether row r times two of run's candidates
// differently.
func timedApart(r *tableRow, run []entry) bool {
	first := math.NaN()
	for _, e := range run {
		ms := msIn(r, e.Spelling)
		switch {
		case math.IsInf(ms, 1):
		case math.IsNaN(first):
			first = ms
		case ms != first:
			return true
		}
	}
	return false
}

// msIn is the time row r gives candidate s, +Inf where r lacks it.
func msIn(r *tableRow, s string) float64 {
	for _, e := range r.entries {
		if e.Spelling == s {
			return e.MS
		}
	}
	return math.Inf(1)
}
