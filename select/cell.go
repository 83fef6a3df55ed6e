package sel

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// The grid cell of a call (docs/select.md, "Nearest row"). A tuned table is
// a coarse grid (the product of the op's OpSpec.Grid axes) plus refinement
// rows the tuner added between two neighbouring grid values of one key,
// where the winner changed along that key. A refinement row says where a
// crossover lies along its own key; it says nothing about the other keys,
// whose values it merely shares with its two parents. Searched over the
// whole table, such a row is the nearest one for calls far along those
// other keys (a row at n=8 and batch 1024 served n=8 at batch 1, where the
// winner is another kernel). So the search is first confined to the call's
// grid cell: on every log key, the rows between the grid values that
// bracket the call's value, bounds included.

// gridValues returns, for each of t's keys, the log2 of the grid values the
// table was measured on (nil for exact keys, and for every key when the
// table does not say which grid it was measured on or the op has no grid
// for a key): the header's grid word is "quick", "full", or the tuner's
// custom axes "key=v1:v2:...,key=..." (other keys at their quick values).
func gridValues(t *Table, spec *OpSpec) [MaxKeys][]float64 {
	var out [MaxKeys][]float64
	name, ok := t.Header["grid"]
	if !ok || spec == nil {
		return out
	}
	custom := map[string][]string{}
	if name != "quick" && name != "full" {
		for part := range strings.SplitSeq(name, ",") {
			k, vs, ok := strings.Cut(part, "=")
			if !ok {
				return out // not a grid this package can read: no cells
			}
			custom[k] = strings.Split(vs, ":")
		}
	}
	axes := map[string]GridAxis{}
	for _, ax := range spec.Grid {
		axes[ax.Key] = ax
	}
	var vals [MaxKeys][]float64
	for i, ks := range t.Keys {
		if ks.Kind != Log {
			continue
		}
		ax := axes[ks.Name]
		vs, ok := custom[ks.Name]
		switch {
		case ok:
		case name == "full" && len(ax.Full) > 0:
			vs = ax.Full
		case len(ax.Quick) > 0:
			vs = ax.Quick
		default:
			vs = ax.Full
		}
		for _, v := range vs {
			n, err := strconv.ParseInt(v, 10, 63)
			if err != nil || n < 1 {
				return out
			}
			vals[i] = append(vals[i], math.Log2(float64(n)))
		}
		if len(vals[i]) == 0 {
			return out
		}
		slices.Sort(vals[i])
	}
	return vals
}

// bracket returns the grid values lo <= x <= hi nearest to x among the
// sorted values vs (both the first or the last value when x lies outside
// them).
func bracket(vs []float64, x float64) (lo, hi float64) {
	i, _ := slices.BinarySearchFunc(vs, x, func(v, x float64) int {
		if v < x-cellSlack {
			return -1
		}
		if v > x+cellSlack {
			return 1
		}
		return 0
	})
	switch {
	case i == len(vs):
		return vs[i-1], vs[i-1]
	case math.Abs(vs[i]-x) <= cellSlack || i == 0:
		return vs[i], vs[i]
	}
	return vs[i-1], vs[i]
}

// cellSlack absorbs the rounding of log2 when key values are compared.
const cellSlack = 1e-9
