package batchlas_test

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// stdoutOf runs f and returns what it printed on os.Stdout.
func stdoutOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stdout = old }()
	f()
	w.Close()
	return <-done
}

// TestRowMajorExampleIsRight: the output Example_rowMajor prints
// (go test checks it against the example's Output comment) is what gonum
// computes on the same row-major matrices directly: the products, the
// Cholesky factors and the solutions, so the example's recipe (operands
// swapped, uplo flipped, side and uplo flipped) is right, not just
// repeatable.
func TestRowMajorExampleIsRight(t *testing.T) {
	// exact rounds away gonum's own rounding: the example's inputs have
	// integer results, which it prints exactly.
	exact := func(v float64) float64 { return math.Round(v*1e9) / 1e9 }
	a := []float64{1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0}
	b := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	s := []float64{4, 2, 2, 2, 10, 7, 2, 7, 21, 1, 2, 3, 2, 5, 10, 3, 10, 50}
	x := []float64{20, 28, 67, 86, 128, 158, 4, 5, 12, 15, 53, 60}

	var want strings.Builder
	var c []float64
	for k := range 2 {
		var p mat.Dense
		p.Mul(mat.NewDense(2, 3, a[k*6:k*6+6]), mat.NewDense(3, 2, b[k*6:k*6+6]))
		for i := range 2 {
			for j := range 2 {
				c = append(c, exact(p.At(i, j)))
			}
		}
	}
	fmt.Fprintln(&want, "C = A*B:", c)
	var z []float64
	for k := range 2 {
		var ch mat.Cholesky
		if !ch.Factorize(mat.NewSymDense(3, append([]float64(nil), s[k*9:k*9+9]...))) {
			t.Fatalf("S%d is not positive definite", k)
		}
		var l mat.TriDense
		ch.LTo(&l)
		e := func(i, j int) float64 { return exact(l.At(i, j)) }
		fmt.Fprintf(&want, "L%d = [%g 0 0; %g %g 0; %g %g %g]\n", k, e(0, 0), e(1, 0), e(1, 1), e(2, 0), e(2, 1), e(2, 2))
		var sol mat.Dense
		if err := ch.SolveTo(&sol, mat.NewDense(3, 2, x[k*6:k*6+6])); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			for j := range 2 {
				z = append(z, exact(sol.At(i, j)))
			}
		}
	}
	fmt.Fprintln(&want, "Z = S\\X:", z)

	if got := stdoutOf(t, Example_rowMajor); got != want.String() {
		t.Fatalf("the example prints\n%s\ngonum computes\n%s", got, want.String())
	}
}
