package overlap

import "testing"

// The property tests over random layouts are the root package's
// (TestOverlapMatchesBruteForce, through batchlas.Overlap); these pin the
// package's own edges.
func TestSharedEdges(t *testing.T) {
	data := make([]float64, 64)
	col := Layout{Rows: 4, Cols: 1, LD: 4, Count: 1}
	if _, _, ok := Shared(data, col, make([]float64, 64), col); ok {
		t.Error("slices of different arrays share an element")
	}
	if _, _, ok := Shared(data, Layout{Rows: 0, Cols: 3, LD: 1, Count: 2}, data, col); ok {
		t.Error("an empty layout shares an element")
	}
	ex, ey, ok := Shared(data, col, data[3:], col)
	if !ok || ex != 3 || ey != 0 {
		t.Errorf("Shared = %d, %d, %v, want 3, 0, true", ex, ey, ok)
	}
	if _, _, ok := Shared(data, col, data[4:], col); ok {
		t.Error("adjacent columns share an element")
	}
	// Offsets are in elements of the slices' own type.
	f32 := make([]float32, 64)
	ex, ey, ok = Shared(f32[:8], Layout{Rows: 4, Cols: 1, LD: 4, Count: 1}, f32[1:], Layout{Rows: 2, Cols: 1, LD: 2, Count: 1})
	if !ok || ex != 1 || ey != 0 {
		t.Errorf("float32: Shared = %d, %d, %v, want 1, 0, true", ex, ey, ok)
	}
}

func TestWhere(t *testing.T) {
	l := Layout{Rows: 2, Cols: 3, LD: 4, Stride: 16, Count: 3}
	for _, c := range []struct {
		e    int
		want string
	}{
		{0, "a[0](0,0)"}, {5, "a[0](1,1)"}, {16 + 9, "a[1](1,2)"}, {32 + 4, "a[2](0,1)"},
	} {
		if got := Where("a", l, c.e); got != c.want {
			t.Errorf("Where(%d) = %s, want %s", c.e, got, c.want)
		}
	}
	// A broadcast (Stride 0) is its one matrix.
	if got := Where("b", Layout{Rows: 2, Cols: 2, LD: 2, Count: 5}, 3); got != "b[0](1,1)" {
		t.Errorf("broadcast: %s", got)
	}
}
