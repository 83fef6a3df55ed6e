package batchlas

import (
	"errors"
	"strings"
	"testing"
)

func TestVectorsCheck(t *testing.T) {
	data := make([]int32, 20)
	cases := []struct {
		name    string
		v       Vectors[int32]
		written bool
		field   string // "" when valid
		msg     string
	}{
		{"tight", Vectors[int32]{Data: data, Len: 4, Stride: 4, Count: 5}, true, "", ""},
		{"gaps", Vectors[int32]{Data: data, Len: 3, Stride: 5, Count: 4}, true, "", ""},
		{"one stride 0", Vectors[int32]{Data: data, Len: 4, Count: 1}, true, "", ""},
		{"empty count", Vectors[int32]{Len: 4, Count: 0}, true, "", ""},
		{"empty len", Vectors[int32]{Len: 0, Count: 9}, true, "", ""},
		{"negative len", Vectors[int32]{Data: data, Len: -1, Stride: 4, Count: 1}, false, "len", "len -1 < 0"},
		{"negative count", Vectors[int32]{Data: data, Len: 1, Stride: 4, Count: -1}, false, "count", "count -1 < 0"},
		{"negative stride", Vectors[int32]{Data: data, Len: 1, Stride: -4, Count: 2}, false, "stride", "stride -4 < 0"},
		{"overlap", Vectors[int32]{Data: data, Len: 4, Stride: 3, Count: 2}, false, "stride", "vectors overlap"},
		{"forgotten stride", Vectors[int32]{Data: data, Len: 4, Count: 3}, false, "stride", "BroadcastVectors(v, 3)"},
		{"short", Vectors[int32]{Data: data, Len: 4, Stride: 4, Count: 6}, false, "data", "need 24"},
		{"overflow", Vectors[int32]{Data: data, Len: 4, Stride: 1 << 62, Count: 3}, false, "stride", "more elements than an int"},
		{"broadcast read", BroadcastVectors(Vectors[int32]{Data: data, Len: 4, Stride: 4, Count: 1}, 7), false, "", ""},
		{"broadcast written", BroadcastVectors(Vectors[int32]{Data: data, Len: 4, Stride: 4, Count: 1}, 7), true, "stride", "is written"},
		{"broadcast of nothing", BroadcastVectors(Vectors[int32]{Data: data, Len: 4, Stride: 4, Count: 0}, 2), false, "count", "no vector"},
	}
	for _, c := range cases {
		err := c.v.Check("op", "ipiv", c.written)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Op != "op" || ae.Arg != "ipiv" || !strings.Contains(ae.Msg, c.msg) {
			t.Errorf("%s: got %v, want an ArgError on ipiv containing %q", c.name, err, c.msg)
		}
		// The wrappers name the field at fault instead of the batch.
		if _, err := WrapStridedVectors(c.v.Data, c.v.Len, c.v.Stride, c.v.Count); !c.v.IsBroadcast() && !c.written && (err == nil || !errors.As(err, &ae) || ae.Arg != c.field) {
			t.Errorf("%s: WrapStridedVectors: got %v, want an ArgError on %s", c.name, err, c.field)
		}
	}
}

func TestVectorsHelpers(t *testing.T) {
	v := NewVectors[float64](3, 4)
	if len(v.Data) != 12 || v.Stride != 3 {
		t.Fatalf("NewVectors: %+v", v)
	}
	for i := range 4 {
		for j := range 3 {
			v.Set(i, j, float64(10*i+j))
		}
	}
	if got := v.Vector(2); len(got) != 3 || got[0] != 20 || got[2] != 22 || cap(got) != 3 {
		t.Errorf("Vector(2) = %v (cap %d)", got, cap(got))
	}
	s, err := v.Sub(1, 3)
	if err != nil || s.Count != 2 || s.At(0, 1) != 11 || s.At(1, 2) != 22 {
		t.Errorf("Sub(1, 3) = %+v, %v", s, err)
	}
	if _, err := v.Sub(3, 2); err == nil {
		t.Error("Sub(3, 2): no error")
	}
	c, err := v.Clone()
	if err != nil {
		t.Fatal(err)
	}
	c.Set(0, 0, -1)
	if v.At(0, 0) != 0 || c.At(3, 2) != 32 {
		t.Errorf("Clone shares storage or lost values: %v / %v", v.Data, c.Data)
	}
	b := BroadcastVectors(v, 5)
	if !b.IsBroadcast() || b.At(4, 1) != 1 {
		t.Errorf("BroadcastVectors: %+v", b)
	}
	bc, err := b.Clone()
	if err != nil || !bc.IsBroadcast() || len(bc.Data) != 3 || bc.At(3, 2) != 2 {
		t.Errorf("Clone of a broadcast = %+v, %v", bc, err)
	}
	if _, err := WrapVectors(make([]int32, 5), 3, 2); err == nil {
		t.Error("WrapVectors of a short slice: no error")
	}
	w, err := WrapVectors(make([]int32, 6), 3, 2)
	if err != nil || w.Stride != 3 || w.Count != 2 {
		t.Errorf("WrapVectors = %+v, %v", w, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewVectors(-1, 2) did not panic")
		}
	}()
	NewVectors[int32](-1, 2)
}

// Vectors and matrices of one element type share storage only where they
// share elements: VectorsAsBatch makes the overlap checks apply.
func TestVectorsAsBatchOverlap(t *testing.T) {
	data := make([]float64, 40)
	a := Batch[float64]{Data: data, Rows: 2, Cols: 2, LD: 4, Stride: 8, Count: 5} // rows 0-1 of each 4-row column
	w := Vectors[float64]{Data: data[2:], Len: 2, Stride: 8, Count: 5}            // rows 2-3 of column 0
	if Overlap(a, VectorsAsBatch(w)) {
		t.Error("disjoint vectors and matrices reported as overlapping")
	}
	w2 := Vectors[float64]{Data: data[1:], Len: 2, Stride: 8, Count: 5}
	if !Overlap(a, VectorsAsBatch(w2)) {
		t.Error("vectors sharing element 1 with a: no overlap")
	}
	if !VectorsAsBatch(BroadcastVectors(w, 3)).IsBroadcast() {
		t.Error("a broadcast lost its mark as a batch")
	}
}
