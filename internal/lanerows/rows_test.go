package lanerows

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// TestAxpyRowsMatchesGo: the assembly (where it runs) and the Go loop give
// the same bits as y[i] += t[i%L]*x[i] written out, at row counts around
// the assembly's two-row turn, with NaN and Inf among the inputs, and
// write nothing past y.
func TestAxpyRowsMatchesGo(t *testing.T) {
	check[float64](t)
	check[float32](t)
}

func check[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	L := lanes.Lanes[T]()
	for _, path := range simdpath.Paths() {
		restore := simdpath.Use(path)
		for rows := 0; rows <= 7; rows++ {
			y := make([]T, rows*L+L) // one row of guard past the rows given
			x := make([]T, rows*L)
			tt := make([]T, L)
			for i := range y {
				y[i] = T(r.NormFloat64())
			}
			for i := range x {
				x[i] = T(r.NormFloat64() * 1e3)
			}
			for i := range tt {
				tt[i] = T(r.NormFloat64())
			}
			if rows > 1 {
				x[3] = T(math.NaN())
				y[L+1] = T(math.Inf(1))
			}
			want := append([]T(nil), y...)
			for i := range rows * L {
				want[i] += tt[i%L] * x[i]
			}
			AxpyRows(y[:rows*L], x, tt)
			for i := range y {
				if math.Float64bits(float64(y[i])) != math.Float64bits(float64(want[i])) {
					t.Fatalf("%s rows=%d: y[%d] = %v, want %v", path, rows, i, y[i], want[i])
				}
			}
		}
		restore()
	}
}

// TestDotRowsMatchesGo: the assembly and the Go loop give the bits of the
// per-lane partial sums written out row by row, NaN and Inf included.
func TestDotRowsMatchesGo(t *testing.T) {
	checkDot[float64](t)
	checkDot[float32](t)
}

func checkDot[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	L := lanes.Lanes[T]()
	for _, path := range simdpath.Paths() {
		restore := simdpath.Use(path)
		for rows := 0; rows <= 9; rows++ {
			x := make([]T, rows*L)
			y := make([]T, rows*L)
			acc := make([]T, L+1) // one guard element
			for i := range x {
				x[i], y[i] = T(r.NormFloat64()), T(r.NormFloat64()*1e3)
			}
			for i := range acc {
				acc[i] = T(r.NormFloat64())
			}
			if rows > 2 {
				x[L+2] = T(math.NaN())
				y[2*L+5] = T(math.Inf(-1))
			}
			// Row r into partial sum r%4 from zero, then
			// (s0+s1)+(s2+s3), lane by lane; the guard is untouched.
			want := append([]T(nil), acc...)
			for l := range L {
				var s [4]T
				for r := range rows {
					s[r%4] += x[r*L+l] * y[r*L+l]
				}
				want[l] = (s[0] + s[1]) + (s[2] + s[3])
			}
			DotRows(acc[:L], x, y)
			for i := range acc {
				if math.Float64bits(float64(acc[i])) != math.Float64bits(float64(want[i])) {
					t.Fatalf("%s rows=%d: acc[%d] = %v, want %v", path, rows, i, acc[i], want[i])
				}
			}
		}
		restore()
	}
}
