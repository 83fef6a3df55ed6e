package gemm

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

var (
	transCases = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
	dtypes     = []sel.DType{sel.Float32, sel.Float64}
)

// shape is one gemm problem: sizes, transposes and batch.
type shape struct {
	ta, tb  batchlas.Transpose
	m, n, k int
	batch   int
}

// layout says how the operands lie in memory beyond the tight default.
type layout struct {
	padLD     int  // added to each LD
	padStride int  // added to each Stride
	broadcast bool // a and b are batchlas.Broadcast of one matrix
}

// operands makes A, B and C for s with layout l, random in [-1, 1).
func operands[T batchlas.Float](r *rand.Rand, s shape, l layout) (a, b, c batchlas.Batch[T]) {
	ar, ac := s.m, s.k
	if s.ta == batchlas.Trans {
		ar, ac = ac, ar
	}
	br, bc := s.k, s.n
	if s.tb == batchlas.Trans {
		br, bc = bc, br
	}
	mk := func(rows, cols int, ro bool) batchlas.Batch[T] {
		ld := max(1, rows) + l.padLD
		if ro && l.broadcast {
			return batchlas.Broadcast(testmat.Batch[T](r, rows, cols, 1, ld, 0), s.batch)
		}
		return testmat.Batch[T](r, rows, cols, s.batch, ld, ld*cols+l.padStride)
	}
	return mk(ar, ac, true), mk(br, bc, true), mk(s.m, s.n, false)
}

// pinned returns a context that pins gemm to c.
func pinned(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), opName, c.String())
}

// keyOf is the selection key of s.
func keyOf(s shape) sel.Key {
	return (&problem[float64]{transA: s.ta == batchlas.Trans, transB: s.tb == batchlas.Trans, m: s.m, n: s.n, k: s.k, c: batchlas.Batch[float64]{Count: s.batch}}).key()
}

// forEachCandidate runs f for every compiled candidate of every dtype.
func forEachCandidate(t *testing.T, f func(t *testing.T, dt sel.DType, c sel.Choice)) {
	for _, dt := range dtypes {
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, dt, c) })
		}
	}
}
