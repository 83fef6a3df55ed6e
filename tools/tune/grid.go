package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// gridFlag is the parsed --grid: "quick", "full", or explicit axes
// ("n=8:64:512,batch=1:1024"), where axes not named keep their quick values.
type gridFlag struct {
	name   string              // quick, full or custom
	custom map[string][]string // custom only
	text   string              // as given, for the table header
}

func parseGridFlag(s string) (gridFlag, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "quick", "full":
		return gridFlag{name: s, text: s}, nil
	case "":
		return gridFlag{}, fmt.Errorf("--grid: want quick, full or key=v1:v2:... (comma-separated)")
	}
	if len(s) > maxGridFlagLen {
		return gridFlag{}, fmt.Errorf("--grid %s: want at most %d bytes (quick, full or key=v1:v2:..., at most %d values per key)", quote.Q(s), maxGridFlagLen, maxGridValues)
	}
	g := gridFlag{name: "custom", custom: map[string][]string{}, text: s}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(part, "=")
		if !ok || k == "" || v == "" {
			return gridFlag{}, fmt.Errorf("--grid: %s: want key=v1:v2:...", quote.Q(part))
		}
		if _, dup := g.custom[k]; dup {
			return gridFlag{}, fmt.Errorf("--grid: key %s given twice", quote.Q(k))
		}
		vs := strings.Split(v, ":")
		if len(vs) > maxGridValues {
			return gridFlag{}, fmt.Errorf("--grid: key %s has %d values; want at most %d per key", quote.Q(k), len(vs), maxGridValues)
		}
		g.custom[k] = vs
	}
	return g, nil
}

// axisValues returns the values one grid axis takes under g.
func (g gridFlag) axisValues(ax sel.GridAxis) []string {
	if vs, ok := g.custom[ax.Key]; ok {
		return vs
	}
	if g.name == "full" && len(ax.Full) > 0 {
		return ax.Full
	}
	if len(ax.Quick) > 0 {
		return ax.Quick
	}
	return ax.Full
}

// expandGrid returns the coarse cells of op's grid under g, in table row
// order: the product of every key's axis. Each key is its own axis, so the
// cells cover every combination of exact keys and every size on its own;
// the refinement (refine.go) adds cells between coarse values where the
// winner changes.
func expandGrid(op *sel.Op, g gridFlag) ([]cell, error) {
	keys := op.Keys()
	byKey := map[string]sel.GridAxis{}
	for _, ax := range op.Spec().Grid {
		byKey[ax.Key] = ax
	}
	values := make([][]string, len(keys))
	for i, k := range keys {
		ax, ok := byKey[k.Name]
		if !ok {
			return nil, fmt.Errorf("%s: its OpSpec.Grid has no axis for key %s", op.Name(), k.Name)
		}
		vs := g.axisValues(ax)
		if len(vs) == 0 {
			return nil, fmt.Errorf("%s: grid axis %s has no values", op.Name(), k.Name)
		}
		for _, v := range vs {
			if err := checkValue(k, v); err != nil {
				return nil, fmt.Errorf("%s: grid: %v", op.Name(), err)
			}
		}
		values[i] = vs
	}
	// The product is bounded before a cell is made: thousands of values
	// per axis multiply to more cells than memory holds.
	total := 1
	for i, vs := range values {
		if total *= len(vs); total > maxGridCells {
			return nil, fmt.Errorf("%s: grid: the axes up to %s make more than %d cells; want at most %d (fewer values per key in --grid)", op.Name(), keys[i].Name, maxGridCells, maxGridCells)
		}
	}
	var cells []cell
	cur := make([]string, len(keys))
	var walk func(i int)
	walk = func(i int) {
		if i == len(keys) {
			cells = append(cells, newCell(keys, cur))
			return
		}
		for _, v := range values[i] {
			cur[i] = v
			walk(i + 1)
		}
	}
	walk(0)
	sortCells(cells)
	return dedupCells(cells), nil
}

func sortCells(cells []cell) {
	slices.SortStableFunc(cells, func(a, b cell) int {
		switch {
		case a.less(b):
			return -1
		case b.less(a):
			return 1
		}
		return 0
	})
}

// dedupCells drops repeated cells from a sorted list (a custom grid may
// repeat a value).
func dedupCells(cells []cell) []cell {
	return slices.CompactFunc(cells, func(a, b cell) bool { return a.String() == b.String() })
}
