package main

import (
	"math"
	"slices"
	"strconv"
)

// tieTolerance is the tuner's tie rule: candidates within 3% of the
// fastest are a tie, ordered by candidate order (simpler and native first).
// A tie goes to the simpler kernel because a 3% difference is within what
// a rerun on a quiet machine moves, while simpler kernels are cheaper to
// keep correct.
const tieTolerance = 1.03

// entry is one timed candidate of a row: its spelling, its position in the
// op's candidate list for the dtype, and milliseconds per call.
type entry struct {
	Spelling string  `json:"c"`
	Order    int     `json:"-"`
	MS       float64 `json:"ms"`
}

// rankEntries orders entries by the tie rule: the tie group of the fastest
// first, in candidate order, then the rest fastest first (equal times in
// candidate order). It does not modify its argument.
func rankEntries(es []entry) []entry {
	out := slices.Clone(es)
	if len(out) == 0 {
		return out
	}
	fastest := out[0].MS
	for _, e := range out {
		fastest = min(fastest, e.MS)
	}
	tied := func(e entry) bool { return e.MS <= fastest*tieTolerance }
	slices.SortStableFunc(out, func(a, b entry) int {
		ta, tb := tied(a), tied(b)
		switch {
		case ta && !tb:
			return -1
		case tb && !ta:
			return 1
		case ta && tb:
			return a.Order - b.Order
		case a.MS < b.MS:
			return -1
		case a.MS > b.MS:
			return 1
		}
		return a.Order - b.Order
	})
	return out
}

// roundMS rounds a time to the four significant digits a table keeps. The
// tuner ranks rounded times, so that `check` (which only sees the rounded
// text) agrees with the order written.
func roundMS(ms float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(ms, 'g', 4, 64), 64)
	return r
}

// formatMS writes a rounded time in plain decimal notation (no exponent),
// the way table rows spell it, inside [1e-6, 1e9) ms; outside it (a time
// the loader accepts from a hand-made table, 1e308) with an exponent, so
// that a time is never hundreds of digits.
func formatMS(ms float64) string {
	r := roundMS(ms)
	if a := math.Abs(r); a != 0 && (a < 1e-6 || a >= 1e9) {
		return strconv.FormatFloat(r, 'g', -1, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}
