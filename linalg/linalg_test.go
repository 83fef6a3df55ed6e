package linalg_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/linalg"
	sel "github.com/batchlas-go/batchlas/select"
)

// layouts are the ways the tests lay their inputs out.
var layouts = []struct {
	name string
	view bool
}{{"tight", false}, {"view", true}}

func TestSolve(t *testing.T) { each(t, testSolve[float32], testSolve[float64]) }

// testSolve: X agrees with gonum's solve for every order and layout, is a
// new tight batch, and neither input changed.
func testSolve[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, nrhs := range []int{1, 3} {
			for _, l := range layouts {
				const count = 5
				a, b := general[T](uint64(10*n+nrhs), n, nrhs, count, l.view)
				a0, b0 := snapshot(a.Data), snapshot(b.Data)
				x, err := linalg.Solve(ctx, a, b)
				what := fmt.Sprintf("Solve n=%d nrhs=%d %s", n, nrhs, l.name)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				tight(t, what, x, n, nrhs, count)
				unchanged(t, what+": a", a.Data, a0)
				unchanged(t, what+": b", b.Data, b0)
				if n == 0 {
					continue
				}
				for i := range count {
					var want mat.Dense
					if err := want.Solve(dense(a, i), dense(b, i)); err != nil {
						t.Fatalf("%s: gonum: %v", what, err)
					}
					closeTo(t, what, x, i, &want, n)
				}
			}
		}
	}
}

func TestSolveBroadcast(t *testing.T) {
	each(t, testSolveBroadcast[float32], testSolveBroadcast[float64])
}

// testSolveBroadcast: one A for every right-hand side, and one B for
// every A, give what the expanded batches give.
func testSolveBroadcast[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	const n, count = 17, 6
	a, b := general[T](7, n, 2, count, false)
	a1, err := a.Sub(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	x, err := linalg.Solve(ctx, batchlas.Broadcast(a1, count), b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range count {
		var want mat.Dense
		if err := want.Solve(dense(a, 2), dense(b, i)); err != nil {
			t.Fatal(err)
		}
		closeTo(t, "broadcast a", x, i, &want, n)
	}
	b1, err := b.Sub(4, 5)
	if err != nil {
		t.Fatal(err)
	}
	x, err = linalg.Solve(ctx, a, batchlas.Broadcast(b1, count))
	if err != nil {
		t.Fatal(err)
	}
	tight(t, "broadcast b", x, n, 2, count)
	for i := range count {
		var want mat.Dense
		if err := want.Solve(dense(a, i), dense(b, 4)); err != nil {
			t.Fatal(err)
		}
		closeTo(t, "broadcast b", x, i, &want, n)
	}
}

func TestSolveSPD(t *testing.T) { each(t, testSolveSPD[float32], testSolveSPD[float64]) }

// testSolveSPD: X agrees with gonum's Cholesky solve of the symmetric
// matrix the lower triangle describes (the upper one is NaN).
func testSolveSPD[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, l := range layouts {
			const count, nrhs = 4, 3
			a, b := spd[T](uint64(n+100), n, nrhs, count, l.view)
			a0, b0 := snapshot(a.Data), snapshot(b.Data)
			x, err := linalg.SolveSPD(ctx, a, b)
			what := fmt.Sprintf("SolveSPD n=%d %s", n, l.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, x, n, nrhs, count)
			unchanged(t, what+": a", a.Data, a0)
			unchanged(t, what+": b", b.Data, b0)
			if n == 0 {
				continue
			}
			for i := range count {
				var ch mat.Cholesky
				if !ch.Factorize(symLower(a, i)) {
					t.Fatalf("%s: gonum: matrix %d not positive definite", what, i)
				}
				var want mat.Dense
				if err := ch.SolveTo(&want, dense(b, i)); err != nil {
					t.Fatal(err)
				}
				closeTo(t, what, x, i, &want, n)
			}
		}
	}
}

func TestCholesky(t *testing.T) { each(t, testCholesky[float32], testCholesky[float64]) }

// testCholesky: L is gonum's lower factor with zeros above the diagonal,
// and CholeskySolve with it solves the systems, with the factor as it is
// and broadcast.
func testCholesky[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, lay := range layouts {
			const count, nrhs = 4, 2
			a, b := spd[T](uint64(n+200), n, nrhs, count, lay.view)
			a0, b0 := snapshot(a.Data), snapshot(b.Data)
			l, err := linalg.Cholesky(ctx, a)
			what := fmt.Sprintf("Cholesky n=%d %s", n, lay.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, l, n, n, count)
			unchanged(t, what+": a", a.Data, a0)
			l0 := snapshot(l.Data)
			x, err := linalg.CholeskySolve(ctx, l, b)
			if err != nil {
				t.Fatalf("CholeskySolve n=%d: %v", n, err)
			}
			tight(t, "CholeskySolve", x, n, nrhs, count)
			unchanged(t, what+": l", l.Data, l0)
			unchanged(t, what+": b", b.Data, b0)
			for i := range count {
				for c := range n {
					for r := range c {
						if l.At(i, r, c) != 0 {
							t.Fatalf("%s: matrix %d: L(%d,%d) = %v above the diagonal, want 0", what, i, r, c, l.At(i, r, c))
						}
					}
				}
				if n == 0 {
					continue
				}
				var ch mat.Cholesky
				if !ch.Factorize(symLower(a, i)) {
					t.Fatalf("%s: gonum: matrix %d not positive definite", what, i)
				}
				var want mat.TriDense
				ch.LTo(&want)
				closeTo(t, what, l, i, &want, n)
				var sol mat.Dense
				if err := ch.SolveTo(&sol, dense(b, i)); err != nil {
					t.Fatal(err)
				}
				closeTo(t, "CholeskySolve", x, i, &sol, n)
			}
			if n == 0 {
				continue
			}
			// One factor for every right-hand side.
			l2, err := l.Sub(2, 3)
			if err != nil {
				t.Fatal(err)
			}
			x, err = linalg.CholeskySolve(ctx, batchlas.Broadcast(l2, count), b)
			if err != nil {
				t.Fatal(err)
			}
			var ch mat.Cholesky
			ch.Factorize(symLower(a, 2))
			for i := range count {
				var sol mat.Dense
				if err := ch.SolveTo(&sol, dense(b, i)); err != nil {
					t.Fatal(err)
				}
				closeTo(t, "CholeskySolve broadcast", x, i, &sol, n)
			}
		}
	}
}

func TestLU(t *testing.T) { each(t, testLU[float32], testLU[float64]) }

// testLU: the pivots are 0-based row interchanges in [j, n), and applying
// them to A gives L*U.
func testLU[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, lay := range layouts {
			const count = 4
			a, _ := general[T](uint64(n+300), n, 1, count, lay.view)
			a0 := snapshot(a.Data)
			lu, piv, err := linalg.LU(ctx, a)
			what := fmt.Sprintf("LU n=%d %s", n, lay.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, lu, n, n, count)
			unchanged(t, what+": a", a.Data, a0)
			if piv.Len != n || piv.Count != count {
				t.Fatalf("%s: pivots %d x %d, want %d x %d", what, piv.Count, piv.Len, count, n)
			}
			for i := range count {
				luReconstructs(t, what, a, lu, piv, i)
			}
		}
	}
}

// luReconstructs checks matrix i of LU's result: P^T*A = L*U, with P the
// pivots' interchanges, each within [j, n).
func luReconstructs[T batchlas.Float](t *testing.T, what string, a, lu batchlas.Batch[T], piv batchlas.Vectors[int32], i int) {
	t.Helper()
	n := a.Rows
	if n == 0 {
		return
	}
	pa := mat.DenseCopyOf(dense(a, i))
	for j := range n {
		p := int(piv.At(i, j))
		if p < j || p >= n {
			t.Fatalf("%s: matrix %d: pivot %d at %d outside [%d, %d)", what, i, p, j, j, n)
		}
		for c := range n {
			x, y := pa.At(j, c), pa.At(p, c)
			pa.Set(j, c, y)
			pa.Set(p, c, x)
		}
	}
	lo, up := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	for c := range n {
		for r := range n {
			v := float64(lu.At(i, r, c))
			switch {
			case r > c:
				lo.Set(r, c, v)
			case r == c:
				lo.Set(r, c, 1)
				up.Set(r, c, v)
			default:
				up.Set(r, c, v)
			}
		}
	}
	var prod mat.Dense
	prod.Mul(lo, up)
	var d mat.Dense
	d.Sub(&prod, pa)
	if diff := mat.Norm(&d, math.Inf(1)); !(diff <= tol[T](n)*math.Max(1, mat.Norm(pa, math.Inf(1)))) {
		t.Errorf("%s: matrix %d: |P^T*A - L*U| = %.3g", what, i, diff)
	}
}

func TestEigh(t *testing.T) { each(t, testEigh[float32], testEigh[float64]) }

// testEigh: the eigenvalues are gonum's, ascending; V is orthonormal and
// A*V = V*diag(w); Eigvalsh gives the same values. Only the lower triangle
// is read (the upper one is NaN).
func testEigh[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, lay := range layouts {
			const count = 4
			a, _ := spd[T](uint64(n+400), n, 1, count, lay.view)
			// Shift so that some eigenvalues are negative.
			for i := range count {
				for k := range n {
					a.Set(i, k, k, a.At(i, k, k)-1.5)
				}
			}
			a0 := snapshot(a.Data)
			w, v, err := linalg.Eigh(ctx, a)
			what := fmt.Sprintf("Eigh n=%d %s", n, lay.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, v, n, n, count)
			unchanged(t, what+": a", a.Data, a0)
			wv, err := linalg.Eigvalsh(ctx, a)
			if err != nil {
				t.Fatalf("Eigvalsh n=%d: %v", n, err)
			}
			unchanged(t, "Eigvalsh: a", a.Data, a0)
			if w.Len != n || w.Count != count || wv.Len != n || wv.Count != count {
				t.Fatalf("%s: w %d x %d, Eigvalsh %d x %d, want %d x %d", what, w.Count, w.Len, wv.Count, wv.Len, count, n)
			}
			for i := range count {
				if n == 0 {
					continue
				}
				var es mat.EigenSym
				if !es.Factorize(symLower(a, i), false) {
					t.Fatalf("%s: gonum did not converge", what)
				}
				want := es.Values(nil)
				scale := math.Max(1, math.Max(math.Abs(want[0]), math.Abs(want[n-1])))
				for j := range n {
					if d := math.Abs(float64(w.At(i, j)) - want[j]); !(d <= tol[T](n)*scale) {
						t.Errorf("%s: matrix %d: w[%d] = %v, gonum %v", what, i, j, w.At(i, j), want[j])
					}
					if d := math.Abs(float64(wv.At(i, j)) - want[j]); !(d <= tol[T](n)*scale) {
						t.Errorf("Eigvalsh n=%d: matrix %d: w[%d] = %v, gonum %v", n, i, j, wv.At(i, j), want[j])
					}
					if j > 0 && w.At(i, j) < w.At(i, j-1) {
						t.Errorf("%s: matrix %d: eigenvalues not ascending at %d", what, i, j)
					}
				}
				vi := dense(v, i)
				var av, vtv mat.Dense
				av.Mul(symLower(a, i), vi)
				for j := range n {
					for r := range n {
						av.Set(r, j, av.At(r, j)-vi.At(r, j)*float64(w.At(i, j)))
					}
				}
				vtv.Mul(vi.T(), vi)
				for k := range n {
					vtv.Set(k, k, vtv.At(k, k)-1)
				}
				if r := mat.Norm(&av, math.Inf(1)); !(r <= tol[T](n)*scale) {
					t.Errorf("%s: matrix %d: |A*V - V*diag(w)| = %.3g", what, i, r)
				}
				if r := mat.Norm(&vtv, math.Inf(1)); !(r <= tol[T](n)) {
					t.Errorf("%s: matrix %d: |V^T*V - I| = %.3g", what, i, r)
				}
			}
		}
	}
}

func TestInv(t *testing.T) { each(t, testInv[float32], testInv[float64]) }

// testInv: the inverse is gonum's.
func testInv[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, lay := range layouts {
			const count = 4
			a, _ := general[T](uint64(n+500), n, 1, count, lay.view)
			a0 := snapshot(a.Data)
			inv, err := linalg.Inv(ctx, a)
			what := fmt.Sprintf("Inv n=%d %s", n, lay.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, inv, n, n, count)
			unchanged(t, what+": a", a.Data, a0)
			for i := range count {
				if n == 0 {
					continue
				}
				var want mat.Dense
				if err := want.Inverse(dense(a, i)); err != nil {
					t.Fatal(err)
				}
				closeTo(t, what, inv, i, &want, n)
			}
		}
	}
}

func TestDet(t *testing.T) { each(t, testDet[float32], testDet[float64]) }

// testDet: Det and Slogdet agree with gonum's, and with each other.
func testDet[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, lay := range layouts {
			const count = 4
			a, _ := general[T](uint64(n+600), n, 1, count, lay.view)
			a0 := snapshot(a.Data)
			d, err := linalg.Det(ctx, a)
			what := fmt.Sprintf("Det n=%d %s", n, lay.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			sign, logabs, err := linalg.Slogdet(ctx, a)
			if err != nil {
				t.Fatalf("Slogdet n=%d: %v", n, err)
			}
			unchanged(t, what+": a", a.Data, a0)
			for _, v := range []batchlas.Vectors[T]{d, sign, logabs} {
				if v.Len != 1 || v.Count != count || len(v.Data) != count {
					t.Fatalf("%s: got %d vectors of %d in %d elements, want %d values", what, v.Count, v.Len, len(v.Data), count)
				}
			}
			for i := range count {
				wantLog, wantSign := 0.0, 1.0
				if n > 0 {
					wantLog, wantSign = mat.LogDet(dense(a, i))
				}
				if float64(sign.Data[i]) != wantSign {
					t.Errorf("%s: matrix %d: sign %v, gonum %v", what, i, sign.Data[i], wantSign)
				}
				if e := math.Abs(float64(logabs.Data[i]) - wantLog); !(e <= tol[T](n)*math.Max(1, math.Abs(wantLog))) {
					t.Errorf("%s: matrix %d: logabsdet %v, gonum %v", what, i, logabs.Data[i], wantLog)
				}
				want := wantSign * math.Exp(wantLog)
				if e := math.Abs(float64(d.Data[i]) - want); !(e <= tol[T](n)*math.Abs(want)) {
					t.Errorf("%s: matrix %d: det %v, gonum %v", what, i, d.Data[i], want)
				}
				if d.At(i, 0) != d.Data[i] {
					t.Errorf("%s: At(i, 0) is not Data[i]", what)
				}
			}
		}
	}
}

// TestDetRange: a determinant whose factors would overflow or underflow
// one by one but not together is exact; one beyond the range is +-Inf in
// Det and finite in Slogdet; a row interchange flips the sign.
func TestDetRange(t *testing.T) {
	ctx := context.Background()
	diag := func(vs ...float64) batchlas.Batch[float64] {
		a := batchlas.NewBatch[float64](len(vs), len(vs), 1)
		for k, v := range vs {
			a.Set(0, k, k, v)
		}
		return a
	}
	for _, c := range []struct {
		a       batchlas.Batch[float64]
		det     float64
		sign    float64
		logabs  float64
		logSlop float64
	}{
		{diag(1e200, 1e200, 1e-200, 1e-100), 1e100, 1, 100 * math.Ln10, 1e-13},
		{diag(-1e300, 1e300), math.Inf(-1), -1, 600 * math.Ln10, 1e-13},
		{diag(1e-300, 1e-300), 0, 1, -600 * math.Ln10, 1e-13},
		{diag(0x1p-1074, 0x1p-1074, 0x1p1023, 0x1p1023, 4), 0x1p-100, 1, -100 * math.Ln2, 1e-13},
	} {
		d, err := linalg.Det(ctx, c.a)
		if err != nil {
			t.Fatal(err)
		}
		s, l, err := linalg.Slogdet(ctx, c.a)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Data[0]; !(got == c.det || math.Abs(got-c.det) <= 1e-14*math.Abs(c.det)) {
			t.Errorf("det of diag %v = %v, want %v", c.a.Data, got, c.det)
		}
		if s.Data[0] != c.sign || math.Abs(l.Data[0]-c.logabs) > c.logSlop*math.Abs(c.logabs) {
			t.Errorf("slogdet of diag %v = (%v, %v), want (%v, %v)", c.a.Data, s.Data[0], l.Data[0], c.sign, c.logabs)
		}
	}
	// [[0 2] [3 0]]: one interchange, U = [[3 0] [0 2]]: det -6.
	a := batchlas.NewBatch[float32](2, 2, 1)
	a.Set(0, 0, 1, 2)
	a.Set(0, 1, 0, 3)
	d, err := linalg.Det(ctx, a)
	if err != nil || d.Data[0] != -6 {
		t.Errorf("det [[0 2] [3 0]] = %v, %v; want -6", d.Data, err)
	}
	s, l, err := linalg.Slogdet(ctx, a)
	if err != nil || s.Data[0] != -1 || math.Abs(float64(l.Data[0])-math.Log(6)) > 1e-6 {
		t.Errorf("slogdet [[0 2] [3 0]] = (%v, %v), %v; want (-1, log 6)", s.Data, l.Data, err)
	}
	// A NaN gives NaN, as in numpy.
	a.Set(0, 0, 0, float32(math.NaN()))
	d, err = linalg.Det(ctx, a)
	s, l, err2 := linalg.Slogdet(ctx, a)
	if err != nil || err2 != nil || !math.IsNaN(float64(d.Data[0])) || !math.IsNaN(float64(s.Data[0])) || !math.IsNaN(float64(l.Data[0])) {
		t.Errorf("det and slogdet of a matrix with a NaN: %v, (%v, %v), %v, %v; want NaN, (NaN, NaN), no error", d.Data, s.Data, l.Data, err, err2)
	}
}

// singularAt returns count well-conditioned n x n matrices of which
// matrix bad has column col zero (an exact zero pivot at col, so getrf's
// info is col+1 whatever the kernel), and right-hand sides.
func singularAt[T batchlas.Float](n, count, bad, col int) (a, b batchlas.Batch[T]) {
	a, b = general[T](uint64(n+700), n, 2, count, false)
	for r := range n {
		a.Set(bad, r, col, 0)
	}
	return a, b
}

// wantFailure fails t unless err is a *batchlas.NumericalError from op
// listing exactly matrix bad with info.
func wantFailure(t *testing.T, what string, err error, op string, bad, info int) {
	t.Helper()
	var ne *batchlas.NumericalError
	if !errors.As(err, &ne) {
		t.Fatalf("%s: got %v, want a *batchlas.NumericalError", what, err)
	}
	if ne.Op != op || len(ne.Index) != 1 || ne.Index[0] != bad || ne.Info[0] != info {
		t.Fatalf("%s: got %s %v %v, want %s naming matrix %d with info %d", what, ne.Op, ne.Index, ne.Info, op, bad, info)
	}
}

func TestSingularInTheMiddle(t *testing.T) {
	each(t, testSingularInTheMiddle[float32], testSingularInTheMiddle[float64])
}

// testSingularInTheMiddle: a singular matrix in the middle of a batch is
// reported by Solve, Inv and LU in a NumericalError naming it, with the
// others right; its X and inverse are NaN, its LU factor complete; Det and
// Slogdet give 0 and (0, -Inf) for it without an error.
func testSingularInTheMiddle[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders[1:] {
		const count, bad = 5, 2
		col := n / 2
		a, b := singularAt[T](n, count, bad, col)
		a0, b0 := snapshot(a.Data), snapshot(b.Data)
		defer unchanged(t, "a", a.Data, a0)
		defer unchanged(t, "b", b.Data, b0)
		what := fmt.Sprintf("n=%d", n)

		x, err := linalg.Solve(ctx, a, b)
		wantFailure(t, "Solve "+what, err, "gesv", bad, col+1)
		tight(t, "Solve "+what, x, n, 2, count)
		inv, err := linalg.Inv(ctx, a)
		wantFailure(t, "Inv "+what, err, "matinv", bad, col+1)
		lu, piv, err := linalg.LU(ctx, a)
		wantFailure(t, "LU "+what, err, "getrf", bad, col+1)
		for i := range count {
			luReconstructs(t, "LU "+what, a, lu, piv, i)
			if i == bad {
				if !allNaN(x, i) || !allNaN(inv, i) {
					t.Errorf("%s: the singular matrix's X or inverse is not NaN", what)
				}
				continue
			}
			var want, wantInv mat.Dense
			if err := want.Solve(dense(a, i), dense(b, i)); err != nil {
				t.Fatal(err)
			}
			closeTo(t, "Solve "+what, x, i, &want, n)
			if err := wantInv.Inverse(dense(a, i)); err != nil {
				t.Fatal(err)
			}
			closeTo(t, "Inv "+what, inv, i, &wantInv, n)
		}

		d, err := linalg.Det(ctx, a)
		if err != nil {
			t.Fatalf("Det %s: %v, want no error for a singular matrix", what, err)
		}
		sign, logabs, err := linalg.Slogdet(ctx, a)
		if err != nil {
			t.Fatalf("Slogdet %s: %v, want no error for a singular matrix", what, err)
		}
		for i := range count {
			if i == bad {
				if d.Data[i] != 0 || sign.Data[i] != 0 || !math.IsInf(float64(logabs.Data[i]), -1) {
					t.Errorf("%s: singular matrix: det %v, slogdet (%v, %v); want 0 and (0, -Inf)", what, d.Data[i], sign.Data[i], logabs.Data[i])
				}
				continue
			}
			wantLog, wantSign := mat.LogDet(dense(a, i))
			if float64(sign.Data[i]) != wantSign || math.Abs(float64(logabs.Data[i])-wantLog) > tol[T](n)*math.Max(1, math.Abs(wantLog)) {
				t.Errorf("%s: matrix %d: slogdet (%v, %v), gonum (%v, %v)", what, i, sign.Data[i], logabs.Data[i], wantSign, wantLog)
			}
			if want := wantSign * math.Exp(wantLog); math.Abs(float64(d.Data[i])-want) > tol[T](n)*math.Abs(want) {
				t.Errorf("%s: matrix %d: det %v, gonum %v", what, i, d.Data[i], want)
			}
		}
	}
}

func TestNotPositiveDefinite(t *testing.T) {
	each(t, testNotPositiveDefinite[float32], testNotPositiveDefinite[float64])
}

// testNotPositiveDefinite: Cholesky and SolveSPD report a matrix that is
// not positive definite in potrf's and posv's NumericalError, with its
// output NaN and the others right; Eigh and Eigvalsh report a NaN in a
// lower triangle (info n+1) the same way.
func testNotPositiveDefinite[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders[1:] {
		const count, bad = 4, 1
		a, b := spd[T](uint64(n+800), n, 2, count, false)
		k := n - 1 // the last leading minor fails
		a.Set(bad, k, k, -a.At(bad, k, k))
		a0 := snapshot(a.Data)
		what := fmt.Sprintf("n=%d", n)

		l, err := linalg.Cholesky(ctx, a)
		wantFailure(t, "Cholesky "+what, err, "potrf", bad, k+1)
		x, err := linalg.SolveSPD(ctx, a, b)
		wantFailure(t, "SolveSPD "+what, err, "posv", bad, k+1)
		for i := range count {
			if i == bad {
				if !allNaN(l, i) || !allNaN(x, i) {
					t.Errorf("%s: the failed matrix's L or X is not NaN", what)
				}
				continue
			}
			var ch mat.Cholesky
			if !ch.Factorize(symLower(a, i)) {
				t.Fatal("gonum: not positive definite")
			}
			var want mat.TriDense
			ch.LTo(&want)
			closeTo(t, "Cholesky "+what, l, i, &want, n)
			var sol mat.Dense
			if err := ch.SolveTo(&sol, dense(b, i)); err != nil {
				t.Fatal(err)
			}
			closeTo(t, "SolveSPD "+what, x, i, &sol, n)
		}

		unchanged(t, "a", a.Data, a0)
		a.Set(bad, k, k, T(math.NaN()))
		a0 = snapshot(a.Data)
		w, v, err := linalg.Eigh(ctx, a)
		wantFailure(t, "Eigh "+what, err, "syev", bad, n+1)
		wv, err := linalg.Eigvalsh(ctx, a)
		wantFailure(t, "Eigvalsh "+what, err, "syev", bad, n+1)
		for i := range count {
			for j := range n {
				if got := math.IsNaN(float64(w.At(i, j))); got != (i == bad) {
					t.Errorf("Eigh %s: matrix %d: w[%d] = %v", what, i, j, w.At(i, j))
				}
				if got := math.IsNaN(float64(wv.At(i, j))); got != (i == bad) {
					t.Errorf("Eigvalsh %s: matrix %d: w[%d] = %v", what, i, j, wv.At(i, j))
				}
			}
			if allNaN(v, i) != (i == bad) {
				t.Errorf("Eigh %s: matrix %d: V NaN %v", what, i, allNaN(v, i))
			}
		}
		unchanged(t, "a", a.Data, a0)
	}
}

// TestEmpty: no matrices, and matrices of order 0, are valid everywhere.
func TestEmpty(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ n, count int }{{3, 0}, {0, 4}, {0, 0}} {
		a := batchlas.NewBatch[float64](c.n, c.n, c.count)
		b := batchlas.NewBatch[float64](c.n, 2, c.count)
		what := fmt.Sprintf("n=%d count=%d", c.n, c.count)
		if x, err := linalg.Solve(ctx, a, b); err != nil || x.Count != c.count || x.Rows != c.n || x.Cols != 2 {
			t.Errorf("Solve %s: %+v, %v", what, x, err)
		}
		if x, err := linalg.SolveSPD(ctx, a, b); err != nil || x.Count != c.count {
			t.Errorf("SolveSPD %s: %+v, %v", what, x, err)
		}
		l, err := linalg.Cholesky(ctx, a)
		if err != nil || l.Count != c.count || l.Rows != c.n {
			t.Errorf("Cholesky %s: %+v, %v", what, l, err)
		}
		if x, err := linalg.CholeskySolve(ctx, l, b); err != nil || x.Count != c.count {
			t.Errorf("CholeskySolve %s: %+v, %v", what, x, err)
		}
		if lu, piv, err := linalg.LU(ctx, a); err != nil || lu.Count != c.count || piv.Count != c.count || piv.Len != c.n {
			t.Errorf("LU %s: %+v %+v, %v", what, lu, piv, err)
		}
		if w, v, err := linalg.Eigh(ctx, a); err != nil || w.Count != c.count || w.Len != c.n || v.Count != c.count {
			t.Errorf("Eigh %s: %+v %+v, %v", what, w, v, err)
		}
		if w, err := linalg.Eigvalsh(ctx, a); err != nil || w.Count != c.count || w.Len != c.n {
			t.Errorf("Eigvalsh %s: %+v, %v", what, w, err)
		}
		if inv, err := linalg.Inv(ctx, a); err != nil || inv.Count != c.count {
			t.Errorf("Inv %s: %+v, %v", what, inv, err)
		}
		if inv, err := linalg.InvSPD(ctx, a); err != nil || inv.Count != c.count || inv.Rows != c.n {
			t.Errorf("InvSPD %s: %+v, %v", what, inv, err)
		}
		d, err := linalg.Det(ctx, a)
		if err != nil || len(d.Data) != c.count {
			t.Errorf("Det %s: %+v, %v", what, d, err)
		}
		s, la, err := linalg.Slogdet(ctx, a)
		if err != nil || len(s.Data) != c.count || len(la.Data) != c.count {
			t.Errorf("Slogdet %s: %+v %+v, %v", what, s, la, err)
		}
		// The determinant of a 0x0 matrix is 1 (numpy's too).
		for i := range d.Data {
			if d.Data[i] != 1 || s.Data[i] != 1 || la.Data[i] != 0 {
				t.Errorf("%s: det %v, slogdet (%v, %v) of a 0x0 matrix; want 1 and (1, 0)", what, d.Data[i], s.Data[i], la.Data[i])
			}
		}
	}
}

// TestArgErrors: every bad argument is a *batchlas.ArgError that names the
// function and the argument, never a panic, and the outputs are zero.
func TestArgErrors(t *testing.T) {
	ctx := context.Background()
	sq := batchlas.NewBatch[float64](3, 3, 2)
	rect := batchlas.NewBatch[float64](3, 4, 2)
	rhs := batchlas.NewBatch[float64](3, 1, 2)
	short := batchlas.Batch[float64]{Rows: 3, Cols: 3, LD: 3, Stride: 9, Count: 2}                  // no storage
	stride0 := batchlas.Batch[float64]{Data: make([]float64, 9), Rows: 3, Cols: 3, LD: 3, Count: 2} // forgot Stride
	var zero batchlas.Batch[float64]
	wrongRows := batchlas.NewBatch[float64](4, 1, 2)
	wrongCount := batchlas.NewBatch[float64](3, 1, 3)
	bad := func(r batchlas.Batch[float64], err error) error {
		if r.Data != nil {
			return fmt.Errorf("an output with data: %+v", r)
		}
		return err
	}
	for _, c := range []struct {
		fn, arg, says string
		call          func() error
	}{
		{"Solve", "a", "3x4", func() error { return bad(linalg.Solve(ctx, rect, rhs)) }},
		{"Solve", "a", "zero Batch", func() error { return bad(linalg.Solve(ctx, zero, rhs)) }},
		{"Solve", "a", "data has 0 elements", func() error { return bad(linalg.Solve(ctx, short, rhs)) }},
		{"Solve", "a", "stride 0", func() error { return bad(linalg.Solve(ctx, stride0, rhs)) }},
		{"Solve", "b", "4 rows", func() error { return bad(linalg.Solve(ctx, sq, wrongRows)) }},
		{"Solve", "b", "b.Count 3 != a.Count 2", func() error { return bad(linalg.Solve(ctx, sq, wrongCount)) }},
		{"Solve", "b", "zero Batch", func() error { return bad(linalg.Solve(ctx, sq, zero)) }},
		{"SolveSPD", "a", "3x4", func() error { return bad(linalg.SolveSPD(ctx, rect, rhs)) }},
		{"SolveSPD", "b", "b.Count 3", func() error { return bad(linalg.SolveSPD(ctx, sq, wrongCount)) }},
		{"Cholesky", "a", "3x4", func() error { return bad(linalg.Cholesky(ctx, rect)) }},
		{"Cholesky", "a", "zero Batch", func() error { return bad(linalg.Cholesky(ctx, zero)) }},
		{"CholeskySolve", "l", "3x4", func() error { return bad(linalg.CholeskySolve(ctx, rect, rhs)) }},
		{"CholeskySolve", "b", "4 rows", func() error { return bad(linalg.CholeskySolve(ctx, sq, wrongRows)) }},
		{"CholeskySolve", "b", "b.Count 3 != l.Count 2", func() error { return bad(linalg.CholeskySolve(ctx, sq, wrongCount)) }},
		{"LU", "a", "3x4", func() error { lu, _, err := linalg.LU(ctx, rect); return bad(lu, err) }},
		{"LU", "a", "data has 0 elements", func() error { lu, _, err := linalg.LU(ctx, short); return bad(lu, err) }},
		{"Eigh", "a", "3x4", func() error { _, v, err := linalg.Eigh(ctx, rect); return bad(v, err) }},
		{"Eigvalsh", "a", "3x4", func() error { _, err := linalg.Eigvalsh(ctx, rect); return err }},
		{"Eigvalsh", "a", "zero Batch", func() error { _, err := linalg.Eigvalsh(ctx, zero); return err }},
		{"Inv", "a", "3x4", func() error { return bad(linalg.Inv(ctx, rect)) }},
		{"InvSPD", "a", "3x4", func() error { return bad(linalg.InvSPD(ctx, rect)) }},
		{"InvSPD", "a", "zero Batch", func() error { return bad(linalg.InvSPD(ctx, zero)) }},
		{"Det", "a", "3x4", func() error { _, err := linalg.Det(ctx, rect); return err }},
		{"Det", "a", "zero Batch", func() error { _, err := linalg.Det(ctx, zero); return err }},
		{"Slogdet", "a", "3x4", func() error { _, _, err := linalg.Slogdet(ctx, rect); return err }},
		{"Slogdet", "a", "stride 0", func() error { _, _, err := linalg.Slogdet(ctx, stride0); return err }},
	} {
		err := c.call()
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) {
			t.Errorf("%s, bad %s: got %v, want a *batchlas.ArgError", c.fn, c.arg, err)
			continue
		}
		msg := err.Error()
		if ae.Op != "linalg."+c.fn || ae.Arg != c.arg || !containsAll(msg, "linalg."+c.fn+": ", c.arg, c.says) {
			t.Errorf("%s, bad %s: got %s (Op %q, Arg %q), want it to name linalg.%s, %s and say %q", c.fn, c.arg, msg, ae.Op, ae.Arg, c.fn, c.arg, c.says)
		}
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestOpErrorsPassThrough: the op's errors come back unchanged: a bad pin
// is the op's *sel.PinError, a pinned kernel runs, and a cancelled context
// gives the op's *batchlas.InterruptedError with every output NaN.
func TestOpErrorsPassThrough(t *testing.T) {
	a, b := general[float64](900, 8, 1, 3, false)
	ctx := sel.WithPin(context.Background(), "gesv", "no-such-kernel")
	_, err := linalg.Solve(ctx, a, b)
	var pe *sel.PinError
	if !errors.As(err, &pe) || pe.Op != "gesv" {
		t.Fatalf("Solve with a bad gesv pin: %v, want gesv's *sel.PinError", err)
	}
	want, err := linalg.Solve(nil, a, b) // a nil ctx is Background
	if err != nil {
		t.Fatal(err)
	}
	ctx = sel.WithPin(context.Background(), "gesv", "fused")
	x, err := linalg.Solve(ctx, a, b)
	if err != nil {
		t.Fatalf("Solve pinned to fused: %v", err)
	}
	for i := range a.Count {
		closeTo(t, "pinned", x, i, dense(want, i), 8)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	x, err = linalg.Solve(cancelled, a, b)
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) || ie.Op != "gesv" || !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve with a cancelled context: %v, want gesv's *batchlas.InterruptedError", err)
	}
	for i := ie.Completed; i < x.Count; i++ {
		if !allNaN(x, i) {
			t.Errorf("Solve interrupted with %d completed: X_%d is not NaN", ie.Completed, i)
		}
	}
	for _, kernel := range []string{"lanes", "chain"} {
		inv, err := linalg.Inv(sel.WithPin(cancelled, "matinv", kernel), a)
		if !errors.As(err, &ie) || ie.Op != "matinv" || !errors.Is(err, context.Canceled) {
			t.Fatalf("Inv (%s) with a cancelled context: %v, want matinv's *batchlas.InterruptedError", kernel, err)
		}
		for i := ie.Completed; i < inv.Count; i++ {
			if !allNaN(inv, i) {
				t.Errorf("Inv (%s) interrupted with %d completed: X_%d is not NaN", kernel, ie.Completed, i)
			}
		}
	}
	d, err := linalg.Det(cancelled, a)
	if !errors.As(err, &ie) || ie.Op != "getrf" {
		t.Fatalf("Det with a cancelled context: %v, want getrf's *batchlas.InterruptedError", err)
	}
	for i := ie.Completed; i < d.Count; i++ {
		if !math.IsNaN(d.Data[i]) {
			t.Errorf("Det interrupted with %d completed: det %d = %v, want NaN", ie.Completed, i, d.Data[i])
		}
	}
	w, err := linalg.Eigvalsh(cancelled, a)
	if !errors.As(err, &ie) || ie.Op != "syev" {
		t.Fatalf("Eigvalsh with a cancelled context: %v, want syev's *batchlas.InterruptedError", err)
	}
	if ie.Completed < w.Count && !math.IsNaN(w.At(w.Count-1, 0)) {
		t.Errorf("Eigvalsh interrupted: the last matrix's eigenvalues are not NaN")
	}
}

// TestCholeskyLogDet: the log-determinant from the Cholesky factor's
// diagonal is Slogdet's, the Gaussian-process recipe of the examples.
func TestCholeskyLogDet(t *testing.T) {
	ctx := context.Background()
	const n, count = 17, 3
	a, _ := spd[float64](950, n, 1, count, true)
	l, err := linalg.Cholesky(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	_, logabs, err := linalg.Slogdet(ctx, symmetric(a))
	if err != nil {
		t.Fatal(err)
	}
	for i := range count {
		s := 0.0
		for k := range n {
			s += 2 * math.Log(l.At(i, k, k))
		}
		if math.Abs(s-logabs.Data[i]) > 1e-12*math.Abs(s) {
			t.Errorf("matrix %d: log det from L %v, Slogdet %v", i, s, logabs.Data[i])
		}
	}
}

// symmetric returns a copy of a with its upper triangle mirrored from the
// lower one.
func symmetric[T batchlas.Float](a batchlas.Batch[T]) batchlas.Batch[T] {
	s := testmat.Clone(a)
	for i := range a.Count {
		for c := range a.Cols {
			for r := range c {
				s.Set(i, r, c, s.At(i, c, r))
			}
		}
	}
	return s
}

func TestEigvalshBroadcast(t *testing.T) {
	each(t, testEigvalshBroadcast[float32], testEigvalshBroadcast[float64])
}

// testEigvalshBroadcast: a broadcast A (which syev reads in place) gives
// every matrix the values of the one it repeats, and so does Eigh, which
// expands it (up to rounding: the batch size can change the kernel).
func testEigvalshBroadcast[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	const n, count = 8, 5
	a, _ := spd[T](960, n, 1, 3, true)
	one, err := a.Sub(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	a0 := snapshot(a.Data)
	w1, err := linalg.Eigvalsh(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	w, err := linalg.Eigvalsh(ctx, batchlas.Broadcast(one, count))
	if err != nil {
		t.Fatal(err)
	}
	we, v, err := linalg.Eigh(ctx, batchlas.Broadcast(one, count))
	if err != nil {
		t.Fatal(err)
	}
	tight(t, "Eigh of a broadcast", v, n, n, count)
	unchanged(t, "a", a.Data, a0)
	for i := range count {
		for j := range n {
			if d := math.Abs(float64(w.At(i, j) - w1.At(0, j))); d > tol[T](n)*10 {
				t.Errorf("Eigvalsh of a broadcast: matrix %d: w[%d] = %v, want %v", i, j, w.At(i, j), w1.At(0, j))
			}
			if d := math.Abs(float64(we.At(i, j) - w1.At(0, j))); d > tol[T](n)*10 {
				t.Errorf("Eigh of a broadcast: matrix %d: w[%d] = %v, want %v", i, j, we.At(i, j), w1.At(0, j))
			}
		}
	}
}

func TestInvSPD(t *testing.T) { each(t, testInvSPD[float32], testInvSPD[float64]) }

// testInvSPD: the inverse is gonum's of the symmetric matrix the lower
// triangle describes (the upper one is NaN and never read), whole and
// exactly symmetric; a is not modified; a matrix that is not positive
// definite is potrf's failure with its inverse NaN, the others right.
func testInvSPD[T batchlas.Float](t *testing.T) {
	ctx := context.Background()
	for _, n := range orders {
		for _, l := range layouts {
			const count = 4
			a, _ := spd[T](uint64(n+300), n, 1, count, l.view)
			a0 := snapshot(a.Data)
			x, err := linalg.InvSPD(ctx, a)
			what := fmt.Sprintf("InvSPD n=%d %s", n, l.name)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			tight(t, what, x, n, n, count)
			unchanged(t, what+": a", a.Data, a0)
			for i := range count {
				var want mat.Dense
				if n > 0 {
					if err := want.Inverse(symLower(a, i)); err != nil {
						t.Fatal(err)
					}
					closeTo(t, what, x, i, &want, n)
				}
				for c := range n {
					for r := range c {
						if x.At(i, r, c) != x.At(i, c, r) {
							t.Fatalf("%s: matrix %d: (%d,%d) %v != (%d,%d) %v", what, i, r, c, x.At(i, r, c), c, r, x.At(i, c, r))
						}
					}
				}
			}
		}
	}
	for _, n := range orders[1:] {
		const count, bad = 4, 2
		a, _ := spd[T](uint64(n+900), n, 1, count, false)
		k := n - 1
		a.Set(bad, k, k, -a.At(bad, k, k))
		x, err := linalg.InvSPD(ctx, a)
		what := fmt.Sprintf("InvSPD n=%d not positive definite", n)
		wantFailure(t, what, err, "poinv", bad, k+1)
		for i := range count {
			if i == bad {
				if !allNaN(x, i) {
					t.Errorf("%s: the failed matrix's inverse is not NaN", what)
				}
				continue
			}
			var want mat.Dense
			if err := want.Inverse(symLower(a, i)); err != nil {
				t.Fatal(err)
			}
			closeTo(t, what, x, i, &want, n)
		}
	}
}

// TestInvSPDCancelled: a call whose context is done before it starts
// returns poinv's *batchlas.InterruptedError over the whole batch, with
// every inverse NaN, and leaves a as it was, whichever kernel runs.
func TestInvSPDCancelled(t *testing.T) {
	a, _ := spd[float64](7, 9, 1, 12, false)
	a0 := snapshot(a.Data)
	for _, kernel := range []string{"lanes", "chain"} {
		ctx, cancel := context.WithCancel(sel.WithPin(context.Background(), "poinv", kernel))
		cancel()
		x, err := linalg.InvSPD(ctx, a)
		var ie *batchlas.InterruptedError
		if !errors.As(err, &ie) || ie.Op != "poinv" || ie.Count != a.Count || ie.Completed != 0 || !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: got %v, want poinv's InterruptedError with nothing completed", kernel, err)
		}
		if x.Count != a.Count {
			t.Fatalf("x.Count %d, want %d", x.Count, a.Count)
		}
		for i := range a.Count {
			if !allNaN(x, i) {
				t.Fatalf("%s: matrix %d of an interrupted call is not NaN", kernel, i)
			}
		}
		unchanged(t, "a", a.Data, a0)
	}
}
