package lanesinv

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestInverse3AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen3.go", "inv3_amd64.s")
}

func TestInverse3AVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen3_avx2.go", "inv3_avx2_amd64.s")
}

// inverse3Inputs are 3 x 3 matrices (column-major) that take every path
// of the factorisation and the solve: random ones, which pivot on every
// row, the library's edge classes (zero and NaN pivots, Inf, tiny and
// huge scalings, the identity's rows swapped), pivots below small (the
// divided column) and a U whose diagonal is outside [small, 1/small]
// (the divided solve), ties between pivot candidates and a NaN that must
// not win the pivot.
func inverse3Inputs[T batchlas.Float](count int) [][]float64 {
	var ms [][]float64
	for _, e := range testmat.GeneralEdges(3, lanes.Lanes[T]() == 16) {
		ms = append(ms, e.A)
	}
	tiny := float64(lu.SafeMin[T]())
	nan := math.NaN()
	ms = append(ms,
		[]float64{tiny / 4, tiny / 8, 0, tiny / 2, tiny, tiny / 4, 0, tiny / 2, tiny},
		[]float64{1 / tiny, 2, 3, 4, tiny, 6, 7, 8, 9},
		[]float64{2, -2, 2, 1, 3, -1, 5, 4, 4},
		[]float64{1, nan, 3, 2, 1, 1, 0, 4, 1},
		[]float64{0, 0, 0, 1, 2, 3, 4, 5, 6},
		[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9},
		[]float64{math.Inf(-1), 1, 2, 3, math.Inf(1), 4, 5, 6, 7},
	)
	r := testmat.Rand(3)
	for len(ms) < count {
		m := make([]float64, 9)
		for i := range m {
			m[i] = 2*r.Float64() - 1
		}
		ms = append(ms, m)
	}
	return ms
}

// Inverse3's results are lanes.Inverse's, bit for bit, on every matrix
// that has an inverse; its info is the same on every matrix; it writes
// nothing of x between the matrices; whatever the strides, a broadcast a
// included; on each assembly path the machine has (AVX-512, AVX2).
func TestInverse3MatchesLanes(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		defer simdpath.Use(path)()
		t.Run(path+"/float64", testInverse3MatchesLanes[float64])
		t.Run(path+"/float32", testInverse3MatchesLanes[float32])
	})
}

func testInverse3MatchesLanes[T batchlas.Float](t *testing.T) {
	L := lanes.Lanes[T]()
	groups := 80 / L
	ms := inverse3Inputs[T](groups * L)
	small := lu.SafeMin[T]()
	for _, s := range []struct{ sx, sa int }{{9, 9}, {11, 12}, {10, 0}} {
		what := fmt.Sprintf("sx=%d sa=%d", s.sx, s.sa)
		a := testmat.NaNs[T]((groups*L-1)*s.sa + 9)
		for i := range groups * L {
			if s.sa == 0 && i > 0 {
				break
			}
			for e, v := range ms[i] {
				a[i*s.sa+e] = T(v)
			}
		}
		const marker = -7
		x := make([]T, (groups*L-1)*s.sx+9+3)
		for i := range x {
			x[i] = marker
		}
		info := make([]int32, groups*L)
		ran, failed := Inverse3(x, a, s.sx, s.sa, groups, small, info)
		if !ran {
			t.Fatalf("%s: the assembly did not run", what)
		}
		anyFailed := false
		for g := range groups {
			grp := make([]T, 9*L)
			inv := make([]T, 9*L)
			lanes.Gather(grp, a[g*L*s.sa:], s.sa, 3, 3, 3, L, lanes.GroupLD(3))
			want := make([]T, L)
			lanes.Inverse(grp, inv, make([]T, 3*L), 3, lanes.GroupLD(3), small, want)
			for l := range L {
				i := g*L + l
				if info[i] != int32(want[l]) {
					t.Fatalf("%s: matrix %d: info %d, lanes %v", what, i, info[i], want[l])
				}
				if info[i] != 0 {
					anyFailed = true
					continue
				}
				for e := range 9 {
					got, ref := x[i*s.sx+e], inv[e*L+l]
					if math.Float64bits(float64(got)) != math.Float64bits(float64(ref)) {
						t.Fatalf("%s: matrix %d element %d: %v, lanes %v", what, i, e, got, ref)
					}
				}
			}
		}
		if failed != anyFailed {
			t.Fatalf("%s: failed %v, but some info is not 0: %v", what, failed, anyFailed)
		}
		for i, v := range x {
			if (i%s.sx >= 9 || i >= groups*L*s.sx) && v != marker {
				t.Fatalf("%s: x[%d] outside the matrices changed to %v", what, i, v)
			}
		}
	}
}

// Operands too short for the groups panic instead of reaching past them.
func TestInverse3ChecksLengths(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Inverse3(make([]float64, 8*9), make([]float64, 8*9-1), 9, 9, 1, 1e-300, make([]int32, 8))
}
