package gesvd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for gesvd.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "gesvd", c.String())
}

// runs reports whether candidate c can run an m x n call (its can_run).
func runs(c sel.Choice, vectors bool, m, n, count int) bool {
	job := NoVectors
	if vectors {
		job = ThinVectors
	}
	return Op.CanRun(c, makeKey(job, job, batchlas.NewBatch[float64](m, n, count)), batchlas.Host())
}

type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(c), c) })
		}
	}
}

// padded is a batch of count rows x cols matrices with ld = rows+3 and
// stride = ld*cols+5, every element outside the matrices NaN (a kernel
// that reads or writes padding shows).
func padded[T batchlas.Float](rows, cols, count int) batchlas.Batch[T] {
	ld := rows + 3
	stride := ld*max(1, cols) + 5
	b, err := batchlas.WrapStrided(testmat.NaNs[T](stride*count), rows, cols, ld, stride, count)
	if err != nil {
		panic(err)
	}
	return b
}

// randomIn fills the matrices of b with standard normal entries.
func randomIn[T batchlas.Float](r *rand.Rand, b batchlas.Batch[T]) {
	for i := range b.Count {
		for c := range b.Cols {
			for row := range b.Rows {
				b.Set(i, row, c, T(r.NormFloat64()))
			}
		}
	}
}

// operands are the outputs of a call with jobs ju and jvt on count m x n
// matrices, padded with NaN.
func operands[T batchlas.Float](ju, jvt Job, m, n, count int) (s batchlas.Vectors[T], u, vt batchlas.Batch[T]) {
	k := min(m, n)
	s, _ = batchlas.WrapStridedVectors(testmat.NaNs[T]((k+2)*count), k, k+2, count)
	if ju != NoVectors {
		u = padded[T](m, vectorCols(ju, m, k), count)
	}
	if jvt != NoVectors {
		vt = padded[T](vectorCols(jvt, n, k), n, count)
	}
	return s, u, vt
}

// gonumValues are the singular values of matrix i of a by gonum's Dgesvd
// (the oracle), in float64.
func gonumValues[T batchlas.Float](a batchlas.Batch[T], i int) []float64 {
	m, n := a.Rows, a.Cols
	// Row-major A^T is the column-major A: its singular values are A's.
	t := make([]float64, m*n)
	for c := range n {
		for r := range m {
			t[c*m+r] = float64(a.At(i, r, c))
		}
	}
	s := make([]float64, min(m, n))
	work := []float64{0}
	impl := gonum.Implementation{}
	impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, n, m, t, max(1, m), s, nil, 1, nil, 1, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, n, m, t, max(1, m), s, nil, 1, nil, 1, work, len(work)) {
		panic("gonum Dgesvd did not converge")
	}
	return s
}

// denseOf is matrix i of b as a trial.Dense, nil where job computes none.
func denseOf[T batchlas.Float](job Job, b batchlas.Batch[T], i int) *trial.Dense {
	if job == NoVectors {
		return nil
	}
	d := trial.DenseOf(b, i)
	return &d
}

// checkSVD checks the decomposition of every matrix of a: values against
// gonum's within trial.SVDBound max(m,n) eps s_max, the residual and
// orthogonality (trial.CheckSVD), the sign convention, and that no
// padding of s, u or vt was written.
func checkSVD[T batchlas.Float](t *testing.T, what string, ju, jvt Job, a batchlas.Batch[T], s batchlas.Vectors[T], u, vt batchlas.Batch[T]) {
	t.Helper()
	for i := range a.Count {
		checkMatrix(t, what, ju, jvt, a, s, u, vt, i)
	}
	for _, b := range []batchlas.Batch[T]{u, vt} {
		if b.Count > 0 {
			require.True(t, testmat.Untouched(b, b.Data, testmat.NaNs[T](len(b.Data))), "%s: padding of u or vt written", what)
		}
	}
}

// checkMatrix is checkSVD's check of matrix i, padding of u and vt
// aside.
func checkMatrix[T batchlas.Float](t *testing.T, what string, ju, jvt Job, a batchlas.Batch[T], s batchlas.Vectors[T], u, vt batchlas.Batch[T], i int) {
	t.Helper()
	m, n := a.Rows, a.Cols
	k := min(m, n)
	eps := testmat.Eps[T]()
	w := fmt.Sprintf("%s matrix %d", what, i)
	got := make([]float64, k)
	for j := range got {
		got[j] = float64(s.At(i, j))
	}
	want := gonumValues(a, i)
	for j := range want {
		tol := trial.SVDBound * float64(max(m, n)) * eps * want[0]
		require.True(t, math.Abs(got[j]-want[j]) <= tol, "%s: s[%d] = %.17g, gonum %.17g", w, j, got[j], want[j])
	}
	require.NoError(t, trial.CheckSVD(w, trial.DenseOf(a, i), got, denseOf(ju, u, i), denseOf(jvt, vt, i), eps))
	checkSigns(t, w, ju, jvt, u, vt, i, k)
	for j := k; j < k+2; j++ {
		require.True(t, math.IsNaN(float64(s.Data[i*s.Stride+j])), "%s: s's padding written", w)
	}
}

// checkSigns checks the sign convention: U's columns (or, without U,
// V^T's rows) have their first entry of largest magnitude positive, and
// so do the completion columns and rows past k.
func checkSigns[T batchlas.Float](t *testing.T, what string, ju, jvt Job, u, vt batchlas.Batch[T], i, k int) {
	t.Helper()
	lead := func(x []float64) float64 {
		best, v := -1.0, 0.0
		for _, e := range x {
			if math.Abs(e) > best {
				best, v = math.Abs(e), e
			}
		}
		return v
	}
	if ju != NoVectors {
		for c := range u.Cols {
			col := make([]float64, u.Rows)
			for r := range col {
				col[r] = float64(u.At(i, r, c))
			}
			require.True(t, lead(col) > 0, "%s: U's column %d has a negative leading entry", what, c)
		}
	}
	if jvt != NoVectors {
		for r := range vt.Rows {
			if ju != NoVectors && r < k {
				continue // its sign goes with U's column
			}
			row := make([]float64, vt.Cols)
			for c := range row {
				row[c] = float64(vt.At(i, r, c))
			}
			require.True(t, lead(row) > 0, "%s: V^T's row %d has a negative leading entry", what, r)
		}
	}
}

var orders = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 32, 33, 65}

var jobs = []Job{NoVectors, ThinVectors, AllVectors}

// TestAgainstGonum: every candidate on shapes straddling the kernels'
// limits, every pair of jobs on some of them, random normal matrices.
func TestAgainstGonum(t *testing.T) {
	forEachCandidate(t, conform[float32], conform[float64])
}

func conform[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(1, 2))
	for mi, m := range orders {
		for ni, n := range orders {
			if m > 17 && n > 17 && m != n {
				continue // the big rectangles: a few are enough
			}
			ju, jvt := jobs[(mi+ni)%3], jobs[(mi+2*ni+1)%3]
			if m == n {
				ju, jvt = ThinVectors, ThinVectors
			}
			if !runs(c, true, m, n, 3) {
				continue
			}
			a := padded[T](m, n, 3)
			randomIn(r, a)
			s, u, vt := operands[T](ju, jvt, m, n, a.Count)
			what := fmt.Sprintf("%s %dx%d jobu=%s jobvt=%s", c, m, n, ju, jvt)
			require.NoError(t, Gesvd(ctx, ju, jvt, a, s, u, vt, nil), what)
			if m == 0 || n == 0 {
				continue
			}
			checkSVD(t, what, ju, jvt, a, s, u, vt)
		}
	}
	for _, ju := range jobs {
		for _, jvt := range jobs {
			for _, sh := range [][2]int{{5, 3}, {3, 5}, {4, 4}} {
				a := padded[T](sh[0], sh[1], 2)
				randomIn(r, a)
				s, u, vt := operands[T](ju, jvt, sh[0], sh[1], a.Count)
				what := fmt.Sprintf("%s %v jobu=%s jobvt=%s", c, sh, ju, jvt)
				require.NoError(t, Gesvd(ctx, ju, jvt, a, s, u, vt, nil), what)
				checkSVD(t, what, ju, jvt, a, s, u, vt)
			}
		}
	}
}

// TestHardMatrices: graded, rank-deficient, repeated values, zero, and
// scaled near overflow and underflow.
func TestHardMatrices(t *testing.T) {
	forEachCandidate(t, hard[float32], hard[float64])
}

func hard[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(3, 4))
	big, tiny := 1e300, 1e-300
	if testmat.Eps[T]() > 1e-10 {
		big, tiny = 1e30, 1e-30
	}
	for _, sh := range [][2]int{{8, 8}, {17, 9}, {9, 17}, {33, 33}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		if !runs(c, true, m, n, 2) {
			continue
		}
		kinds := map[string]func(i, row, col int, x float64) float64{
			"graded": func(_, _, col int, x float64) float64 {
				return x * math.Pow(10, -8+16*float64(col)/float64(max(1, n-1)))
			},
			"zero":     func(int, int, int, float64) float64 { return 0 },
			"big":      func(_, _, _ int, x float64) float64 { return x * big },
			"tiny":     func(_, _, _ int, x float64) float64 { return x * tiny },
			"rank one": func(_, row, col int, _ float64) float64 { return float64(row+1) * float64(col%3+1) },
		}
		for name, f := range kinds {
			a := padded[T](m, n, 2)
			for i := range a.Count {
				for col := range n {
					for row := range m {
						a.Set(i, row, col, T(f(i, row, col, r.NormFloat64())))
					}
				}
			}
			s, u, vt := operands[T](ThinVectors, AllVectors, m, n, a.Count)
			what := fmt.Sprintf("%s %dx%d %s", c, m, n, name)
			require.NoError(t, Gesvd(ctx, ThinVectors, AllVectors, a, s, u, vt, nil), what)
			checkSVD(t, what, ThinVectors, AllVectors, a, s, u, vt)
			if name == "zero" {
				for j := range k {
					require.Zero(t, s.At(0, j), what)
				}
			}
		}
	}
}

// TestJobsAgree: the values do not depend on which vectors are computed
// (within the bound), for every candidate.
func TestJobsAgree(t *testing.T) {
	forEachCandidate(t, jobsAgree[float32], jobsAgree[float64])
}

func jobsAgree[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][2]int{{6, 6}, {20, 7}, {7, 20}} {
		m, n := sh[0], sh[1]
		a := padded[T](m, n, 4)
		randomIn(r, a)
		var ref batchlas.Vectors[T]
		for _, ju := range jobs {
			for _, jvt := range jobs {
				s, u, vt := operands[T](ju, jvt, m, n, a.Count)
				require.NoError(t, Gesvd(ctx, ju, jvt, a, s, u, vt, nil))
				if ref.Count == 0 {
					ref = s
					continue
				}
				for i := range a.Count {
					for j := range min(m, n) {
						d := math.Abs(float64(s.At(i, j) - ref.At(i, j)))
						require.True(t, d <= trial.SVDBound*float64(max(m, n))*testmat.Eps[T]()*float64(ref.At(i, 0)), "%s %v jobs %s %s: s[%d][%d]", c, sh, ju, jvt, i, j)
					}
				}
			}
		}
	}
}

// TestWorkersDoNotChangeResults: the same bits on 1, 2 and 3 workers.
func TestWorkersDoNotChangeResults(t *testing.T) {
	forEachCandidate(t, workers[float32], workers[float64])
}

func workers[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][2]int{{9, 9}, {30, 7}} {
		a := padded[T](sh[0], sh[1], 23)
		randomIn(r, a)
		var res [][]T
		for _, w := range []int{1, 2, 3} {
			s, u, vt := operands[T](ThinVectors, ThinVectors, sh[0], sh[1], a.Count)
			require.NoError(t, Gesvd(batchlas.WithParallelism(ctx, w), ThinVectors, ThinVectors, a, s, u, vt, nil))
			res = append(res, append(append(append([]T(nil), s.Data...), u.Data...), vt.Data...))
		}
		for _, x := range res[1:] {
			for i := range x {
				require.True(t, x[i] == res[0][i] || (x[i] != x[i] && res[0][i] != res[0][i]), "%s %v: element %d depends on the worker count", c, sh, i)
			}
		}
	}
}

// TestNonFinite: a NaN or an infinity in a matrix is info k+1 for it,
// whatever the kernel, its outputs untouched; the others are computed.
func TestNonFinite(t *testing.T) {
	forEachCandidate(t, nonFinite[float32], nonFinite[float64])
}

func nonFinite[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, sh := range [][2]int{{1, 1}, {5, 3}, {3, 5}, {12, 12}} {
		m, n := sh[0], sh[1]
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			a := padded[T](m, n, 3)
			randomIn(r, a)
			a.Set(1, m/2, n/2, T(bad))
			s, u, vt := operands[T](ThinVectors, ThinVectors, m, n, a.Count)
			// The bad matrix's outputs hold 7, which no kernel writes by
			// chance (a kernel that wrote NaN would not be caught by the
			// NaN padding).
			for j := range min(m, n) {
				s.Set(1, j, 7)
			}
			for _, b := range []batchlas.Batch[T]{u, vt} {
				for c := range b.Cols {
					for row := range b.Rows {
						b.Set(1, row, c, 7)
					}
				}
			}
			what := fmt.Sprintf("%s %dx%d %v", c, m, n, bad)
			err := Gesvd(ctx, ThinVectors, ThinVectors, a, s, u, vt, nil)
			info, ok := testmat.Infos(err, a.Count)
			require.True(t, ok, "%s: %v", what, err)
			require.Equal(t, []int{0, min(m, n) + 1, 0}, info, what)
			var ne *batchlas.NumericalError
			require.True(t, errors.As(err, &ne), what)
			for j := range min(m, n) {
				require.Equal(t, T(7), s.At(1, j), "%s: s of the bad matrix written", what)
			}
			for _, i := range []int{0, 2} {
				checkMatrix(t, what, ThinVectors, ThinVectors, a, s, u, vt, i)
			}
			for _, b := range []batchlas.Batch[T]{u, vt} {
				for c := range b.Cols {
					for row := range b.Rows {
						require.Equal(t, T(7), b.At(1, row, c), "%s: vectors of the bad matrix written", what)
					}
				}
			}
		}
	}
}

// TestOrderZero: no singular values; AllVectors gives identities, and
// the pin is not read.
func TestOrderZero(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "gesvd", "nosuch")
	for _, sh := range [][2]int{{0, 3}, {3, 0}, {0, 0}} {
		m, n := sh[0], sh[1]
		a := batchlas.NewBatch[float64](m, n, 2)
		s := batchlas.NewVectors[float64](0, 2)
		u := padded[float64](m, m, 2)
		vt := padded[float64](n, n, 2)
		require.NoError(t, Gesvd(ctx, AllVectors, AllVectors, a, s, u, vt, nil), "%v", sh)
		for i := range 2 {
			for r := range m {
				for c := range m {
					require.Equal(t, float64(b2i(r == c)), u.At(i, r, c))
				}
			}
			for r := range n {
				for c := range n {
					require.Equal(t, float64(b2i(r == c)), vt.At(i, r, c))
				}
			}
		}
		size, err := BufferSize(ctx, AllVectors, AllVectors, a, s, u, vt)
		require.NoError(t, err)
		require.Zero(t, size)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBroadcast: a broadcast A is read, never written, and every matrix
// gets its decomposition.
func TestBroadcast(t *testing.T) {
	forEachCandidate(t, broadcast[float32], broadcast[float64])
}

func broadcast[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	one := padded[T](7, 5, 1)
	randomIn(rand.New(rand.NewPCG(11, 12)), one)
	a := batchlas.Broadcast(one, 4)
	s, u, vt := operands[T](ThinVectors, AllVectors, 7, 5, 4)
	require.NoError(t, Gesvd(ctx, ThinVectors, AllVectors, a, s, u, vt, nil))
	checkSVD(t, c.String()+" broadcast", ThinVectors, AllVectors, a, s, u, vt)
	// The values alone of more matrices than a group of lanes holds
	// (bidiag's group path gathers the one matrix into every lane).
	a = batchlas.Broadcast(one, 20)
	s, u, vt = operands[T](NoVectors, NoVectors, 7, 5, 20)
	require.NoError(t, Gesvd(ctx, NoVectors, NoVectors, a, s, u, vt, nil))
	checkSVD(t, c.String()+" broadcast values", NoVectors, NoVectors, a, s, u, vt)
}

// TestArguments: bad arguments are *ArgErrors naming gesvd and the
// argument.
func TestArguments(t *testing.T) {
	ctx := context.Background()
	a := batchlas.NewBatch[float64](4, 3, 2)
	s := batchlas.NewVectors[float64](3, 2)
	u := batchlas.NewBatch[float64](4, 3, 2)
	vt := batchlas.NewBatch[float64](3, 3, 2)
	argErr := func(err error, arg string) {
		t.Helper()
		var ae *batchlas.ArgError
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, "gesvd", ae.Op)
		require.Equal(t, arg, ae.Arg, "%v", err)
	}
	require.NoError(t, Gesvd(ctx, ThinVectors, ThinVectors, a, s, u, vt, nil))
	argErr(Gesvd(ctx, 'X', ThinVectors, a, s, u, vt, nil), "jobu")
	argErr(Gesvd(ctx, ThinVectors, 'O', a, s, u, vt, nil), "jobvt")
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, batchlas.NewVectors[float64](2, 2), u, vt, nil), "s")
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, batchlas.NewVectors[float64](3, 1), u, vt, nil), "s")
	argErr(Gesvd(ctx, AllVectors, ThinVectors, a, s, u, vt, nil), "u")
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, u, batchlas.NewBatch[float64](2, 3, 2), nil), "vt")
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, batchlas.NewBatch[float64](4, 3, 1), vt, nil), "u")
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, batchlas.Broadcast(batchlas.NewBatch[float64](4, 3, 1), 2), vt, nil), "u")
	// Outputs sharing storage with an input or each other.
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, a, vt, nil), "u")
	shared, err := batchlas.WrapStridedVectors(vt.Data, 3, 9, 2)
	require.NoError(t, err)
	argErr(Gesvd(ctx, NoVectors, ThinVectors, a, shared, batchlas.Batch[float64]{}, vt, nil), "vt")
	// NoVectors leaves the operand unread: the zero Batch is fine.
	require.NoError(t, Gesvd(ctx, NoVectors, NoVectors, a, s, batchlas.Batch[float64]{}, batchlas.Batch[float64]{}, nil))
	// A workspace too short, or inside an operand.
	size, err := BufferSize(ctx, ThinVectors, ThinVectors, a, s, u, vt)
	require.NoError(t, err)
	require.Positive(t, size)
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, u, vt, make([]float64, size-1)), "ws")
	bigU := batchlas.NewBatch[float64](4, 3, 200)
	u2 := bigU
	u2.Count = 2
	argErr(Gesvd(ctx, ThinVectors, ThinVectors, a, s, u2, vt, bigU.Data[:size]), "ws")
	_, err = BufferSize(ctx, ThinVectors, ThinVectors, a, batchlas.NewVectors[float64](1, 2), u, vt)
	argErr(err, "s")
	// An empty batch makes no decision.
	nopin := sel.WithPin(ctx, "gesvd", "nosuch")
	e := batchlas.NewBatch[float64](4, 3, 0)
	require.NoError(t, Gesvd(nopin, NoVectors, NoVectors, e, batchlas.NewVectors[float64](3, 0), batchlas.Batch[float64]{}, batchlas.Batch[float64]{}, nil))
	require.Error(t, Gesvd(nopin, ThinVectors, ThinVectors, a, s, u, vt, nil))
}

// TestNoAllocationsWithWorkspace: with the BufferSize workspace every
// candidate's call allocates nothing, on one worker and on all, with
// vectors and without (bidiag's values go a group at a time); but the
// vendor kernel without vectors, where gonum's Dgesvd sorts the values
// through package sort (Dlasrt), two allocations a matrix that the
// package doc owns up to.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(13, 14))
	for _, w := range []int{1, 0} {
		ctx := ctx
		if w > 0 {
			ctx = batchlas.WithParallelism(ctx, w)
		}
		for _, sh := range [][3]int{{1, 1, 1}, {20, 7, 16}, {7, 20, 16}, {33, 33, 4}, {8, 8, 40}} {
			for _, jobs := range [][2]Job{{AllVectors, ThinVectors}, {NoVectors, NoVectors}} {
				if !runs(c, jobs[0] != NoVectors, sh[0], sh[1], sh[2]) || (c.Family() == vendorFamily && jobs[0] == NoVectors) {
					continue
				}
				a := padded[T](sh[0], sh[1], sh[2])
				randomIn(r, a)
				s, u, vt := operands[T](jobs[0], jobs[1], sh[0], sh[1], sh[2])
				size, err := BufferSize(ctx, jobs[0], jobs[1], a, s, u, vt)
				require.NoError(t, err)
				ws := make([]T, size)
				testmat.NoAllocs(t, fmt.Sprintf("%s %v jobs %v workers=%d", c, sh, jobs, w), func() {
					if err := Gesvd(ctx, jobs[0], jobs[1], a, s, u, vt, ws); err != nil {
						panic(err)
					}
				})
			}
		}
	}
}

// TestInterrupted interrupts every candidate at chunk boundaries: a
// *batchlas.InterruptedError naming gesvd; the completed matrices'
// outputs are bit for bit an uninterrupted call's, every later one
// untouched (Touched == Completed).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(15, 16))
	for _, tc := range []struct {
		m, n, count int
		ju          Job
	}{{4, 4, 300, ThinVectors}, {12, 5, 60, ThinVectors}, {4, 4, 300, NoVectors}, {12, 5, 60, NoVectors}} {
		a := padded[T](tc.m, tc.n, tc.count)
		randomIn(r, a)
		what := fmt.Sprintf("%s %dx%d count=%d jobu=%v", c, tc.m, tc.n, tc.count, tc.ju)
		call := func(stop *testmat.StopAfter) (batchlas.Vectors[T], batchlas.Batch[T], error) {
			s, u, _ := operands[T](tc.ju, NoVectors, tc.m, tc.n, tc.count)
			return s, u, Gesvd(testmat.WithValues(stop, ctx), tc.ju, NoVectors, a, s, u, batchlas.Batch[T]{}, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		refS, refU, err := call(counter)
		require.NoError(t, err, what)
		blankS, blankU, _ := operands[T](tc.ju, NoVectors, tc.m, tc.n, tc.count)
		for _, n := range testmat.StopPoints(counter.Calls(), 50) {
			s, u, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted("gesvd", tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			done := tc.count
			if ie != nil {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d", what, n)
				done = ie.Completed
			}
			require.Equal(t, -1, testmat.SameMatrices(u, refU, 0, done), "%s n=%d: a completed matrix differs", what, n)
			require.Equal(t, -1, testmat.SameMatrices(u, blankU, done, tc.count), "%s n=%d: an untouched matrix changed", what, n)
			sb, rb, bb := batchlas.VectorsAsBatch(s), batchlas.VectorsAsBatch(refS), batchlas.VectorsAsBatch(blankS)
			require.Equal(t, -1, testmat.SameMatrices(sb, rb, 0, done), "%s n=%d: completed values differ", what, n)
			require.Equal(t, -1, testmat.SameMatrices(sb, bb, done, tc.count), "%s n=%d: untouched values changed", what, n)
		}
	}
}

// TestConcurrentCalls: every candidate called from several goroutines at
// once on one shared read-only A gives the results of
// the same calls one after another.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrentCalls(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		ctx := pin(c)
		a := padded[float64](9, 6, 20)
		randomIn(rand.New(rand.NewPCG(17, 18)), a)
		const g = 4
		want, _, _ := operands[float64](ThinVectors, NoVectors, 9, 6, a.Count)
		wantU := padded[float64](9, 6, a.Count)
		require.NoError(t, Gesvd(ctx, ThinVectors, NoVectors, a, want, wantU, batchlas.Batch[float64]{}, nil))
		var wg sync.WaitGroup
		errs := make([]error, g)
		got := make([]batchlas.Batch[float64], g)
		for i := range g {
			got[i] = padded[float64](9, 6, a.Count)
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, _, _ := operands[float64](ThinVectors, NoVectors, 9, 6, a.Count)
				errs[i] = Gesvd(ctx, ThinVectors, NoVectors, a, s, got[i], batchlas.Batch[float64]{}, nil)
			}()
		}
		wg.Wait()
		for i := range g {
			require.NoError(t, errs[i])
			require.Equal(t, -1, testmat.SameMatrices(got[i], wantU, 0, a.Count), "%s goroutine %d", c, i)
		}
	}
}
