package batchlas

import (
	"fmt"
	"math"
)

// Elem is the element types of a Vectors batch: int32 for pivot indices,
// float32 and float64 for values (eigenvalues, log-determinants).
type Elem interface{ int32 | float32 | float64 }

// Vectors is a strided batch of Count vectors of Len elements, the
// per-matrix companion of a Batch (one pivot vector or one set of
// eigenvalues per matrix). Vector i is Data[i*Stride : i*Stride+Len].
// Stride >= Len gives every vector storage of its own.
//
// It keeps Batch's discipline: Stride 0 over more than one vector is a
// broadcast, which only BroadcastVectors makes (a literal that leaves
// Stride out is refused by Check instead of silently sharing vector 0),
// and a broadcast is never an operand an op writes.
type Vectors[E Elem] struct {
	Data   []E
	Len    int
	Stride int
	Count  int

	// bcast is how BroadcastVectors marks its result; see Batch.bcast.
	bcast broadcastMark
}

// NewVectors allocates count zeroed vectors of length elements, stored
// tight (Stride = length). It takes sizes only and, like make, panics when
// a size is negative or the storage is more elements than an int can
// count. To use existing data, see WrapVectors.
func NewVectors[E Elem](length, count int) Vectors[E] {
	switch {
	case length < 0:
		panic(fmt.Sprintf("batchlas.NewVectors: length %d < 0", length))
	case count < 0:
		panic(fmt.Sprintf("batchlas.NewVectors: count %d < 0", count))
	case length > 0 && count > math.MaxInt/length:
		panic(fmt.Sprintf("batchlas.NewVectors: %d vectors of %d elements are more elements than an int can count", count, length))
	}
	return Vectors[E]{Data: make([]E, length*count), Len: length, Stride: length, Count: count}
}

// WrapVectors returns the count vectors of length elements stored one
// after the other in data (Stride = length), sharing data. It returns an
// *ArgError from "WrapVectors" when a size is negative or data is too
// short.
func WrapVectors[E Elem](data []E, length, count int) (Vectors[E], error) {
	const op = "WrapVectors"
	if length > 0 && count > math.MaxInt/length {
		// Check would blame the stride, which WrapVectors takes no
		// argument for.
		return Vectors[E]{}, argf(op, "count", "%d vectors of %d elements are more elements than an int can count", count, length)
	}
	return wrapVectors(op, data, length, length, count)
}

// WrapStridedVectors returns count vectors of length elements in data,
// vector i starting at data[i*stride], sharing data. It returns an
// *ArgError from "WrapStridedVectors" naming the argument when the batch
// would fail Check as a read-only operand: a negative size, a stride below
// length, stride 0 over more than one vector (use BroadcastVectors to
// repeat one), or data too short.
func WrapStridedVectors[E Elem](data []E, length, stride, count int) (Vectors[E], error) {
	return wrapVectors("WrapStridedVectors", data, length, stride, count)
}

func wrapVectors[E Elem](op string, data []E, length, stride, count int) (Vectors[E], error) {
	v := Vectors[E]{Data: data, Len: length, Stride: stride, Count: count}
	if field, msg := v.faultNamed("the batch", "data", false); msg != "" {
		return Vectors[E]{}, &ArgError{Op: op, Arg: field, Msg: msg}
	}
	return v, nil
}

// BroadcastVectors returns a batch of count vectors that are all the first
// vector of v (Stride 0), sharing v's storage, for operands an op only
// reads. Like Broadcast it does not fail: a v with no vector, a negative
// count or a v that fails Check gives a batch that Check refuses with the
// reason.
func BroadcastVectors[E Elem](v Vectors[E], count int) Vectors[E] {
	mark := broadcastOne
	if v.Count < 1 {
		mark = broadcastNone
	}
	v.Stride, v.Count, v.bcast = 0, count, mark
	return v
}

// IsBroadcast reports whether v was made by BroadcastVectors (or is a copy
// or view of such a batch) and its Stride is still 0.
func (v Vectors[E]) IsBroadcast() bool { return v.bcast != notBroadcast && v.Stride == 0 }

// Empty reports whether the batch has no element to touch.
func (v Vectors[E]) Empty() bool { return v.Count == 0 || v.Len == 0 }

// Vector returns vector i. It indexes like a slice: an i outside the batch
// panics as an out-of-range slice index does.
func (v Vectors[E]) Vector(i int) []E {
	off := i * v.Stride
	return v.Data[off : off+v.Len : off+v.Len]
}

// At returns element j of vector i, indexing like a slice.
func (v Vectors[E]) At(i, j int) E { return v.Data[i*v.Stride+j] }

// Set sets element j of vector i, indexing like a slice. Setting an
// element of a broadcast sets it in every vector.
func (v Vectors[E]) Set(i, j int, x E) { v.Data[i*v.Stride+j] = x }

// Sub returns vectors [lo, hi) of v sharing v's storage; a broadcast stays
// a broadcast. It returns an *ArgError from "Vectors.Sub" unless v passes
// Check as a read-only operand and 0 <= lo <= hi <= v.Count.
func (v Vectors[E]) Sub(lo, hi int) (Vectors[E], error) {
	const op = "Vectors.Sub"
	if err := v.Check(op, "v", false); err != nil {
		return Vectors[E]{}, err
	}
	switch {
	case lo < 0 || lo > v.Count:
		return Vectors[E]{}, argf(op, "lo", "lo %d outside [0, count %d]", lo, v.Count)
	case hi < lo || hi > v.Count:
		return Vectors[E]{}, argf(op, "hi", "hi %d outside [lo %d, count %d]", hi, lo, v.Count)
	}
	s := v
	s.Count = hi - lo
	if lo == hi || v.Empty() {
		s.Data = v.Data[len(v.Data):]
	} else {
		s.Data = v.Data[lo*v.Stride:]
	}
	return s, nil
}

// Clone returns a copy of v in new, tight storage that shares nothing with
// v; a broadcast clones to a broadcast of one stored vector. It returns an
// *ArgError from "Vectors.Clone" when v fails Check as a read-only operand.
func (v Vectors[E]) Clone() (Vectors[E], error) {
	if err := v.Check("Vectors.Clone", "v", false); err != nil {
		return Vectors[E]{}, err
	}
	if v.Empty() {
		c := v
		c.Data = []E{}
		return c, nil
	}
	if v.IsBroadcast() {
		one := NewVectors[E](v.Len, 1)
		copy(one.Data, v.Vector(0))
		return BroadcastVectors(one, v.Count), nil
	}
	c := NewVectors[E](v.Len, v.Count)
	for i := range v.Count {
		copy(c.Vector(i), v.Vector(i))
	}
	return c, nil
}

// Check validates v as argument name of op and returns an *ArgError naming
// them, or nil. written says the op writes it, which forbids a broadcast
// over more than one vector and strides that make vectors overlap.
func (v Vectors[E]) Check(op, name string, written bool) error {
	if _, msg := v.faultNamed(name, "data", written); msg != "" {
		return &ArgError{Op: op, Arg: name, Msg: msg}
	}
	return nil
}

// faultNamed is Check's verdict: the field at fault ("len", "count",
// "stride" or "data") and the message, or "" when v is valid.
func (v Vectors[E]) faultNamed(name, data string, written bool) (field, msg string) {
	switch {
	case v.Len < 0:
		return "len", fmt.Sprintf("len %d < 0", v.Len)
	case v.Count < 0:
		return "count", fmt.Sprintf("count %d < 0", v.Count)
	case v.Stride < 0:
		return "stride", fmt.Sprintf("stride %d < 0", v.Stride)
	case v.bcast == broadcastNone && v.Stride == 0 && v.Count > 0:
		return "count", fmt.Sprintf("%s was made by BroadcastVectors from a batch with no vector (Count < 1): give it a batch that holds the vector to repeat", name)
	}
	if v.Empty() {
		return "", ""
	}
	if v.Stride != 0 && v.Count-1 > (math.MaxInt-v.Len)/v.Stride {
		return "stride", fmt.Sprintf("stride %d and count %d describe more elements than an int can count", v.Stride, v.Count)
	}
	if v.Stride != 0 && v.Stride < v.Len {
		return "stride", fmt.Sprintf("stride %d < len %d (vectors overlap): use len or more, or batchlas.BroadcastVectors to repeat one vector of a read-only operand", v.Stride, v.Len)
	}
	if v.Stride == 0 && v.Count > 1 {
		switch {
		case written && v.IsBroadcast():
			return "stride", fmt.Sprintf("%s is a broadcast (one vector for all %d) but is written: give each vector its own storage (Stride len = %d or more)", name, v.Count, v.Len)
		case written:
			return "stride", fmt.Sprintf("stride 0 with count %d, and %s is written: give each vector its own storage, Stride len = %d or more", v.Count, name, v.Len)
		case !v.IsBroadcast():
			return "stride", fmt.Sprintf("stride 0 with count %d: set Stride to len = %d (or more) for %d vectors of their own, or repeat one vector with batchlas.BroadcastVectors(v, %d)", v.Count, v.Len, v.Count, v.Count)
		}
	}
	if need := (v.Count-1)*v.Stride + v.Len; len(v.Data) < need {
		return "data", fmt.Sprintf("%s has %d elements, need %d for %d vectors of length %d with stride %d", data, len(v.Data), need, v.Count, v.Len, v.Stride)
	}
	return "", ""
}

// VectorsAsBatch returns v as a batch of Len x 1 matrices over the same
// storage (a broadcast stays one), so that Overlap, and the ops' checks
// that a written operand shares no element with another, apply between
// vectors and matrices of one element type.
func VectorsAsBatch[T Float](v Vectors[T]) Batch[T] {
	return Batch[T]{Data: v.Data, Rows: v.Len, Cols: 1, LD: max(1, v.Len), Stride: v.Stride, Count: v.Count, bcast: v.bcast}
}
