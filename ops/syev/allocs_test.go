package syev

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// allocShape is one call of the allocation test.
type allocShape struct {
	n, count int
	jobz     Job
	uplo     batchlas.Uplo
}

// allocShapes reach every kernel's internal paths: one matrix and batches
// past a group of lanes (8 float64, 16 float32) and past the workers;
// orders at and around the limits where a kernel changes path (blocked's
// and dc's panel width 16/32: tridiag's code at or below it; lanes and
// jacobi up to 32; dc's leaves of 32, so 70 merges), both jobs, both
// triangles. allocsWithFailure adds a failed matrix and chunks.
var allocShapes = []allocShape{
	{1, 1, WithVectors, batchlas.Lower},
	{7, 1, ValuesOnly, batchlas.Upper},
	{7, 37, ValuesOnly, batchlas.Lower},
	{7, 37, WithVectors, batchlas.Upper},
	{16, 9, WithVectors, batchlas.Lower},
	{17, 20, ValuesOnly, batchlas.Upper},
	{32, 3, WithVectors, batchlas.Upper},
	{33, 17, WithVectors, batchlas.Lower},
	{40, 1, WithVectors, batchlas.Lower},
	{40, 9, ValuesOnly, batchlas.Lower},
	{70, 2, WithVectors, batchlas.Upper},
	{70, 5, ValuesOnly, batchlas.Upper},
}

// With the BufferSize workspace supplied, the public call of every native
// candidate allocates nothing, on one worker and on all of them: the
// kernels' loops run pooled jobs, their scratch (dc's integers, the
// nested gemm calls' workspace) is carved from ws. The vendor candidate
// stays within vendorAllocBound (syev's doc states it).
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

// vendorAllocBound is the documented bound on the vendor candidate's
// allocations per call: gonum's Dsyev, given the work it asks for,
// allocated nothing on any shape measured (orders 1 to 70, both jobs,
// the decoupled tiny block of TestDecoupledTinyBlock); the bound leaves
// gonum one allocation per matrix.
func vendorAllocBound(count int) float64 { return float64(count) }

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	for _, s := range allocShapes {
		if !runs(c, s.jobz, s.uplo, s.n, s.count) || (c.Is(lanesFamily) && s.n > 33) {
			continue // lanes past 33: no path of its own, and slow
		}
		p := newProblem[T](testmat.Rand(uint64(s.n*100+s.count)), s.jobz, s.uplo, s.n, s.count, 0, true)
		allocsOf(t, ctx, c, fmt.Sprintf("%s %+v", c, s), p, false)
	}
	allocsWithFailure[T](t, ctx, c)
}

// allocsWithFailure: a matrix that fails (an infinity) and blocked's
// batch in chunks of three matrices (dc's nested products per chunk) do
// not allocate either, but for the *batchlas.NumericalError that reports
// the failure.
func allocsWithFailure[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	defer func(e int) { blockedChunkElems = e }(blockedChunkElems)
	n := 40
	for _, jobz := range jobs {
		if !runs(c, jobz, batchlas.Lower, n, 8) {
			continue
		}
		if c.Is(blockedFamily) || c.Is(dcFamily) {
			nb, dc := blockedShape(c, jobz)
			blockedChunkElems = 3 * blockedStride[T](n, nb, dc)
		}
		p := newProblem[T](testmat.Rand(9), jobz, batchlas.Lower, n, 8, 0, false)
		p.a.Set(4, 1, 1, T(math.Inf(1)))
		allocsOf(t, ctx, c, fmt.Sprintf("%s n=%d jobz=%v a failure, chunks of 3", c, n, jobz), p, true)
	}
}

// allocsOf checks one problem's call with its BufferSize workspace.
func allocsOf[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, what string, p problem[T], fails bool) {
	t.Helper()
	a, w := p.clone()
	size, err := BufferSize(ctx, p.jobz, p.uplo, a, w)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]T, size)
	call := func() {
		copy(a.Data, p.a.Data)
		if err := Syev(ctx, p.jobz, p.uplo, a, w, ws); (err != nil) != fails {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// The steady state: the job pools and parked helpers of the parallel
	// loop warm on every P, not only on the one the first call ran on.
	for range 2 {
		call()
	}
	if c.Vendor() {
		if testmat.RaceEnabled {
			return
		}
		if got, bound := testmat.FewestAllocs(5, call), vendorAllocBound(a.Count); got > bound {
			t.Errorf("%s: %v allocations per call, above the documented bound %v", what, got, bound)
		}
		return
	}
	want := 0.0
	if fails {
		// The error's own allocations, for one failed matrix.
		info := make([]int32, a.Count)
		info[0] = 1
		want = testing.AllocsPerRun(10, func() { _ = opkit.InfoError(opName, info) })
	}
	if testmat.RaceEnabled {
		return
	}
	one, all := testmat.Allocs(testmat.AllocRuns, call)
	if one != want {
		t.Errorf("%s: %v allocations per call on one worker, want %v", what, one, want)
	}
	if all != want {
		t.Errorf("%s: %v allocations per call on %d workers, want %v", what, all, runtime.GOMAXPROCS(0), want)
	}
}
