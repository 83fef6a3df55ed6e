// Command firstuse makes 20 distinct call shapes of six ops, as a program
// between a table's rows would, and reports how many of them first-use
// tuning measured. Run it twice with the same cache:
//
//	BATCHLAS_TUNE=online BATCHLAS_SELECT_TRACE=1 go run ./examples/firstuse
//	BATCHLAS_TUNE=online go run ./examples/firstuse   # measures nothing
//
// Every result is checked, so a kernel chosen by tuning is seen to be right.
package main

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/gesv"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/syev"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// shape is one call the program makes: an op and its sizes.
type shape struct {
	op       string
	n, batch int
}

// Shapes lists the program's calls: sizes between the tuner's grid points.
var Shapes = []shape{
	{"gemm", 24, 200}, {"gemm", 40, 200}, {"gemm", 48, 100}, {"gemm", 80, 50}, {"gemm", 96, 20}, {"gemm", 160, 4},
	{"potrf", 12, 500}, {"potrf", 20, 500}, {"potrf", 40, 200}, {"potrf", 72, 50},
	{"gesv", 6, 1000}, {"gesv", 12, 1000}, {"gesv", 24, 300},
	{"trsm", 12, 500}, {"trsm", 24, 300}, {"trsm", 48, 100},
	{"syev", 5, 1000}, {"syev", 10, 500},
	{"getrf", 20, 500}, {"getrf", 36, 200},
}

func main() {
	start := time.Now()
	for _, s := range Shapes {
		if err := call(context.Background(), s); err != nil {
			log.Fatalf("%s n=%d batch=%d: %v", s.op, s.n, s.batch, err)
		}
	}
	fmt.Printf("%d shapes, %d tuned now, %.0f ms in all\n", len(Shapes), sel.Measurements(), float64(time.Since(start))/1e6)
}

// call makes one call of s on random well-conditioned inputs and checks
// its result.
func call(ctx context.Context, s shape) error {
	r := rand.New(rand.NewPCG(uint64(s.n), uint64(s.batch)))
	n, count := s.n, s.batch
	switch s.op {
	case "gemm":
		a, b, c := random(r, n, n, count), random(r, n, n, count), batchlas.NewBatch[float64](n, n, count)
		if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c, nil); err != nil {
			return err
		}
		return near(c.At(count-1, n-1, 0), dot(a, b, count-1, n-1, 0, n), n)
	case "potrf":
		a := spd(r, n, count)
		orig, err := a.Clone()
		if err != nil {
			return err
		}
		if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil {
			return err
		}
		// (L L^T)[n-1][0] = L[n-1][0] * L[0][0].
		return near(a.At(count-1, n-1, 0)*a.At(count-1, 0, 0), orig.At(count-1, n-1, 0), n)
	case "gesv", "trsm":
		a, x := spd(r, n, count), random(r, n, 1, count)
		if s.op == "trsm" {
			for i := 0; i < count; i++ { // upper triangle zero: A is lower triangular
				for row := 0; row < n; row++ {
					for col := row + 1; col < n; col++ {
						a.Set(i, row, col, 0)
					}
				}
			}
		}
		b := mul(a, x, count)
		var err error
		if s.op == "gesv" {
			err = gesv.Gesv(ctx, a, batchlas.NewVectors[int32](n, count), b, nil)
		} else {
			err = trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1.0, a, b, nil)
		}
		if err != nil {
			return err
		}
		return near(b.At(count-1, n-1, 0), x.At(count-1, n-1, 0), n)
	case "syev":
		a := spd(r, n, count)
		tr := 0.0
		for k := 0; k < n; k++ {
			tr += a.At(count-1, k, k)
		}
		w := batchlas.NewVectors[float64](n, count)
		if err := syev.Syev(ctx, syev.ValuesOnly, batchlas.Lower, a, w, nil); err != nil {
			return err
		}
		sum := 0.0
		for k := 0; k < n; k++ {
			sum += w.Vector(count - 1)[k]
		}
		return near(sum, tr, n) // the eigenvalues sum to the trace
	case "getrf":
		a := spd(r, n, count)
		if err := getrf.Getrf(ctx, a, batchlas.NewVectors[int32](n, count), nil); err != nil {
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown op %s", s.op)
}

func random(r *rand.Rand, rows, cols, count int) batchlas.Batch[float64] {
	b := batchlas.NewBatch[float64](rows, cols, count)
	for i := range b.Data {
		b.Data[i] = r.Float64()*2 - 1
	}
	return b
}

// spd is a symmetric positive definite batch: a random symmetric matrix
// with n added to its diagonal.
func spd(r *rand.Rand, n, count int) batchlas.Batch[float64] {
	a := batchlas.NewBatch[float64](n, n, count)
	for i := 0; i < count; i++ {
		for c := 0; c < n; c++ {
			for row := c; row < n; row++ {
				v := r.Float64()*2 - 1
				if row == c {
					v = math.Abs(v) + float64(n)
				}
				a.Set(i, row, c, v)
				a.Set(i, c, row, v)
			}
		}
	}
	return a
}

func mul(a, x batchlas.Batch[float64], count int) batchlas.Batch[float64] {
	b := batchlas.NewBatch[float64](a.Rows, x.Cols, count)
	for i := 0; i < count; i++ {
		for row := 0; row < a.Rows; row++ {
			b.Set(i, row, 0, dot(a, x, i, row, 0, a.Cols))
		}
	}
	return b
}

func dot(a, b batchlas.Batch[float64], i, row, col, k int) float64 {
	s := 0.0
	for j := 0; j < k; j++ {
		s += a.At(i, row, j) * b.At(i, j, col)
	}
	return s
}

// near checks got against want within a tolerance that grows with n.
func near(got, want float64, n int) error {
	if d := math.Abs(got - want); !(d <= 1e-10*float64(n)*math.Max(1, math.Abs(want))) {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	return nil
}
