package main

import (
	"math"
	"slices"

	sel "github.com/batchlas-go/batchlas/select"
)

// rowRegret is the leave-one-out outcome at one row: the choice the other
// rows of the table would make at this row's key, and its time there
// against the fastest time there.
type rowRegret struct {
	row      *sel.Row
	from     *sel.Row // the nearest other row, which stood in; nil if none
	chosen   string   // "" when the other rows offer nothing that can run
	fastest  string   // the fastest entry of the row
	slowdown float64  // ms(chosen) / ms(fastest) at this row; NaN when chosen is not timed here
}

// regretReport summarises a section's leave-one-out regret and compares
// automatic selection with the best single fixed candidate.
type regretReport struct {
	rows    []rowRegret
	scored  int     // rows with a slowdown
	geomean float64 // of the slowdowns
	worst   rowRegret
	// fixed is the candidate that, used everywhere, is fastest in
	// geometric mean over the rows (only candidates timed at every row
	// qualify); fixedGeomean is its geometric-mean slowdown and
	// fixedSpeedup the geometric-mean ratio of its time to the
	// leave-one-out automatic choice's.
	fixed        string
	fixedGeomean float64
	fixedSpeedup float64
	// inSampleSpeedup compares the same fixed candidate with the choice the
	// whole table makes at its own rows (the row's first runnable entry).
	inSampleSpeedup float64
}

// leaveOneOut computes the regret of section dt of t: for every row, the
// choice the remaining rows would make there (nearest remaining row, its
// first entry that is a candidate and passes can_run for this row's key on
// dev), timed at this row. Untimed sections give an empty report.
func leaveOneOut(t *sel.Table, dt sel.DType, op *sel.Op, dev *sel.Device) regretReport {
	rows := t.Sections[dt]
	var rep regretReport
	logSum := 0.0
	for i := range rows {
		r := &rows[i]
		if !timedRow(r) {
			return regretReport{}
		}
		others := *t
		rest := make([]sel.Row, 0, len(rows)-1)
		rest = append(append(rest, rows[:i]...), rows[i+1:]...)
		others.Sections = map[sel.DType][]sel.Row{dt: rest}
		rr := rowRegret{row: r, slowdown: math.NaN()}
		fastest := fastestEntry(r)
		rr.fastest = fastest.Spelling
		if near, _, err := others.Nearest(dt, r.Key); err == nil && near != nil {
			rr.from = near
			rr.chosen = firstRunnable(near, dt, r.Key, op, dev)
		}
		for _, e := range r.Entries {
			if e.Spelling == rr.chosen && fastest.MS > 0 {
				rr.slowdown = e.MS / fastest.MS
			}
		}
		if !math.IsNaN(rr.slowdown) {
			rep.scored++
			logSum += math.Log(rr.slowdown)
			if rep.worst.row == nil || rr.slowdown > rep.worst.slowdown {
				rep.worst = rr
			}
		}
		rep.rows = append(rep.rows, rr)
	}
	if rep.scored == 0 {
		return rep
	}
	rep.geomean = math.Exp(logSum / float64(rep.scored))
	rep.fixed, rep.fixedGeomean, rep.fixedSpeedup = bestFixed(rep.rows, spellings(op.Candidates(dt)))
	if rep.fixed != "" {
		logSum, n := 0.0, 0
		for _, rr := range rep.rows {
			own := firstRunnable(rr.row, dt, rr.row.Key, op, dev)
			fixedMS, ownMS := entryMS(rr.row, rep.fixed), entryMS(rr.row, own)
			if fixedMS > 0 && ownMS > 0 {
				logSum += math.Log(fixedMS / ownMS)
				n++
			}
		}
		if n > 0 {
			rep.inSampleSpeedup = math.Exp(logSum / float64(n))
		}
	}
	return rep
}

func timedRow(r *sel.Row) bool {
	return len(r.Entries) > 0 && r.Entries[0].Timed
}

// fastestEntry is the row's entry with the least time (the first one on a
// tie, which the tie rule put first).
func fastestEntry(r *sel.Row) sel.Entry {
	best := r.Entries[0]
	for _, e := range r.Entries[1:] {
		if e.MS < best.MS {
			best = e
		}
	}
	return best
}

// firstRunnable is what the walk takes from a row: its first entry that is a
// candidate for dt and that can run the call.
func firstRunnable(r *sel.Row, dt sel.DType, k sel.Key, op *sel.Op, dev *sel.Device) string {
	for _, e := range r.Entries {
		if !e.Choice.IsZero() && op.IsCandidate(dt, e.Choice) && op.CanRun(e.Choice, k, dev) {
			return e.Spelling
		}
	}
	return ""
}

// bestFixed finds the single candidate with the least geometric-mean
// slowdown over the scored rows, and how much slower than the automatic
// (leave-one-out) choice it is there.
func bestFixed(rows []rowRegret, cands []string) (string, float64, float64) {
	best, bestG, bestS := "", math.Inf(1), math.NaN()
	for _, sp := range cands {
		logFixed, logRatio, n := 0.0, 0.0, 0
		ok := true
		for _, rr := range rows {
			if math.IsNaN(rr.slowdown) {
				continue
			}
			i := slices.IndexFunc(rr.row.Entries, func(e sel.Entry) bool { return e.Spelling == sp })
			if i < 0 {
				ok = false
				break
			}
			f := fastestEntry(rr.row).MS
			if !(f > 0) {
				continue
			}
			s := rr.row.Entries[i].MS / f
			logFixed += math.Log(s)
			logRatio += math.Log(s / rr.slowdown)
			n++
		}
		if !ok || n == 0 {
			continue
		}
		if g := math.Exp(logFixed / float64(n)); g < bestG {
			best, bestG, bestS = sp, g, math.Exp(logRatio/float64(n))
		}
	}
	if best == "" {
		return "", math.NaN(), math.NaN()
	}
	return best, bestG, bestS
}

func spellings(cs []sel.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// entryMS is the time of spelling s in row r, or 0 when the row lacks it.
func entryMS(r *sel.Row, s string) float64 {
	for _, e := range r.Entries {
		if e.Spelling == s {
			return e.MS
		}
	}
	return 0
}
