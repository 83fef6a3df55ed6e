package main

import (
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
// a run by how its candidates rank at the nearest row where they differ,
// which is what the calls between the two rows most likely see.

// orderTwinTies reorders, in each row of one dtype's rows, every run of
// consecutive entries with the same time that holds twins on the row's
// cell: by the members' times at the nearest row (same exact keys, least
// weighted log distance) where at least two of them are timed apart,
// members that row lacks last, otherwise keeping their order. Only entries
// of equal time move, so the row still follows the tie rule (check
// accepts equal times in any order); a run with no such neighbour keeps
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
	for i := range rows {
		es := rows[i].entries
		for lo := 0; lo < len(es); {
			hi := lo + 1
			for hi < len(es) && es[hi].MS == es[lo].MS {
				hi++
			}
			run := es[lo:hi]
			if len(run) > 1 && holdsTwins(run, choices, func(c sel.Choice) string { return twin(c, dt, rows[i].cell.key(), dev) }) {
				if ref := nearestApart(op.Keys(), rows, i, run); ref != nil {
					slices.SortStableFunc(run, func(a, b entry) int {
						return cmpMS(msIn(ref, a.Spelling), msIn(ref, b.Spelling))
					})
				}
			}
			lo = hi
		}
	}
}

// holdsTwins reports whether some entry of run is the twin (twinOf) of
// another entry of run.
func holdsTwins(run []entry, choices map[string]sel.Choice, twinOf func(sel.Choice) string) bool {
	for _, e := range run {
		c, ok := choices[e.Spelling]
		if !ok {
			continue
		}
		if t := twinOf(c); t != "" && t != e.Spelling && slices.ContainsFunc(run, func(o entry) bool { return o.Spelling == t }) {
			return true
		}
	}
	return false
}

// nearestApart is the row nearest rows[i] (its exact keys equal, the least
// weighted log distance, the first of equals) in which at least two of
// run's candidates are timed and their times differ; nil when none is.
func nearestApart(keys []sel.KeySpec, rows []tableRow, i int, run []entry) *tableRow {
	var best *tableRow
	bestD := math.Inf(1)
	for j := range rows {
		if j == i {
			continue
		}
		d, ok := rowDistance(keys, rows[i].cell, rows[j].cell)
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

func cmpMS(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rowDistance is the selection core's distance between two cells (the
// sum over log keys of weight x |log2 a - log2 b|); ok is false when an
// exact key differs or a value is not a number.
func rowDistance(keys []sel.KeySpec, a, b cell) (float64, bool) {
	d := 0.0
	for k, ks := range keys {
		if ks.Kind == sel.Exact {
			if a.vals[k] != b.vals[k] {
				return 0, false
			}
			continue
		}
		x, err1 := strconv.Atoi(a.vals[k])
		y, err2 := strconv.Atoi(b.vals[k])
		if err1 != nil || err2 != nil {
			return 0, false
		}
		d += ks.Weight * math.Abs(math.Log2(float64(max(1, x)))-math.Log2(float64(max(1, y))))
	}
	return d, true
}
