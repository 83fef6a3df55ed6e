package bound

import (
	"slices"
	"testing"
)

type recordGroups struct{ firsts []int }

func (r *recordGroups) Group(buf []float64, first int) {
	r.firsts = append(r.firsts, first)
	buf[0] = float64(first) // the worker's slot, not another's
}

type recordChunks struct{ calls [][3]int }

func (r *recordChunks) Chunk(w, lo, hi int) { r.calls = append(r.calls, [3]int{w, lo, hi}) }

// Run hands a lanes kernel each group of its range with the worker's
// slot, and a per-matrix kernel the range itself; an unbound kernel and
// an empty range do nothing.
func TestRun(t *testing.T) {
	g := &recordGroups{}
	ws := make([]float64, 2*5)
	k := Groups[float64](2, g, ws, 5)
	if k.Group() != 8 || k.Workers() != 2 {
		t.Fatalf("groups: Group %d Workers %d, want 8 and 2", k.Group(), k.Workers())
	}
	k.Run(1, 16, 37)
	k.Run(0, 8, 8)
	if want := []int{16, 24, 32}; !slices.Equal(g.firsts, want) {
		t.Errorf("groups run %v, want %v", g.firsts, want)
	}
	if ws[5] != 32 || ws[0] != 0 {
		t.Errorf("worker 1's slot holds %v, worker 0's %v: want 32 and 0", ws[5], ws[0])
	}
	c := &recordChunks{}
	k = PerMatrix[float64](3, c)
	k.Run(2, 5, 9)
	k.Run(0, 4, 4)
	if k.Group() != 1 || k.Workers() != 3 || !slices.Equal(c.calls, [][3]int{{2, 5, 9}}) {
		t.Errorf("per matrix: Group %d Workers %d calls %v", k.Group(), k.Workers(), c.calls)
	}
	var none Kernel[float32]
	none.Run(0, 0, 16)
	if none.Group() != 1 || none.Workers() != 1 {
		t.Errorf("unbound: Group %d Workers %d, want 1 and 1", none.Group(), none.Workers())
	}
}
