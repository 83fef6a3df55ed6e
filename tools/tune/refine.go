package main

import (
	"math"

	sel "github.com/batchlas-go/batchlas/select"
	"slices"
	"strconv"
	"strings"
)

// refineRatio is where bisection stops: two neighbouring sizes closer than
// this ratio are left alone (tuner.md: below 1.25).
const refineRatio = 1.25

// refinePoints returns the cells to measure next along axis: for every two
// neighbours along it (same other keys) that disagree and whose sizes are
// at least ratio apart, the cell at the geometric midpoint. Keys in follow
// (gemm's m and k follow n) take the new value too. disagree is called with
// the two cells' texts; tried holds the cells already measured or refused,
// so a midpoint that rounds onto a known size is not proposed again.
func refinePoints(cells []cell, disagree func(lo, hi string) bool, axis string, follow []string, ratio float64, tried map[string]bool) []cell {
	if len(cells) == 0 || keyIndex(cells[0].keys, axis) < 0 {
		return nil
	}
	ax := keyIndex(cells[0].keys, axis)
	skip := map[int]bool{ax: true}
	for _, f := range follow {
		if i := keyIndex(cells[0].keys, f); i >= 0 {
			skip[i] = true
		}
	}
	// Group by every other key.
	groups := map[string][]cell{}
	var order []string
	for _, c := range cells {
		var parts []string
		for i, v := range c.vals {
			if !skip[i] {
				parts = append(parts, v)
			}
		}
		g := strings.Join(parts, "\x00")
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], c)
	}
	var out []cell
	for _, g := range order {
		line := groups[g]
		slices.SortFunc(line, func(a, b cell) int { return a.num(axis) - b.num(axis) })
		for j := 0; j+1 < len(line); j++ {
			lo, hi := line[j], line[j+1]
			if !disagree(lo.String(), hi.String()) {
				continue
			}
			a, b := float64(lo.num(axis)), float64(hi.num(axis))
			if b/a < ratio {
				continue
			}
			mid := int(math.Round(math.Sqrt(a * b)))
			if mid <= lo.num(axis) || mid >= hi.num(axis) {
				continue
			}
			c := lo.with(axis, strconv.Itoa(mid))
			for _, f := range follow {
				c = c.with(f, strconv.Itoa(mid))
			}
			if tried[c.String()] {
				continue
			}
			tried[c.String()] = true
			out = append(out, c)
		}
	}
	sortCells(out)
	return out
}

// disagreeOnWinner is the refinement test for two measured cells: they
// disagree when the winner of one is not within the tie tolerance of the
// fastest at the other. Two cells whose winners differ only inside a tie
// (noise, or kernels that are equally good there) need no row between them:
// either winner serves both.
func disagreeOnWinner(a, b cellResult) bool {
	wa, wb := a.winner(), b.winner()
	if wa == "" || wb == "" || wa == wb {
		return false
	}
	return !tiedAt(a, wb) || !tiedAt(b, wa)
}

// tiedAt reports whether candidate s is within the tie tolerance of the
// fastest entry of r.
func tiedAt(r cellResult, s string) bool {
	fastest := math.Inf(1)
	for _, e := range r.Entries {
		fastest = min(fastest, e.MS)
	}
	for _, e := range r.Entries {
		if e.Spelling == s {
			return e.MS <= fastest*tieTolerance
		}
	}
	return false
}

// refineAxes resolves the key to bisect for an op: the named key, or the key
// it follows when its grid axis copies another (trsm's n follows m, so
// refining "n" bisects m and n together), and the keys that follow it. It
// returns "" when the op has no such key.
func refineAxes(op *sel.Op, name string) (axis string, follow []string) {
	if keyIndex(op.Keys(), name) < 0 {
		return "", nil
	}
	same := sameAxes(op)
	axis = name
	if src, ok := same[name]; ok {
		axis = src
	}
	for _, k := range op.Keys() {
		if same[k.Name] == axis {
			follow = append(follow, k.Name)
		}
	}
	return axis, follow
}
