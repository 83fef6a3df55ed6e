package allops_test

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/batchlas-go/batchlas"
	_ "github.com/batchlas-go/batchlas/internal/allops"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestConcurrentEveryCandidate calls every candidate of every op, float32
// and float64, each on the smallest cell of its op's grid it can run, all
// at once from many goroutines with parallelism caps of 0, 1 and 2,
// through the ops' own measurement code (the inputs, the strict pin and
// the independent check the tuner uses). Each result must pass its check.
//
// It is the race pass's test of the ops (make race runs it under -race):
// one test binary for every op instead of one per op package, which cost
// the test command most of a minute of compiling and linking race-built
// binaries. The ops' own TestConcurrent* tests, which compare results
// bit for bit with the same calls made one after another, run in the
// plain and the portable passes.
func TestConcurrentEveryCandidate(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	type job struct {
		what string
		op   *sel.Op
		dt   sel.DType
		c    sel.Choice
		k    sel.Key
	}
	var jobs []job
	for _, op := range sel.Ops() {
		m := op.Measurement()
		if m == nil {
			continue
		}
		cells := smallCells(t, op)
		for _, dt := range op.DTypes() {
			for _, c := range op.Candidates(dt) {
				cl, ok := firstRunnable(op, m, dt, c, cells)
				if !ok {
					t.Errorf("%s %s %s: no cell of the grid binds it", op.Name(), dt, c)
					continue
				}
				jobs = append(jobs, job{fmt.Sprintf("%s %s %s %s", op.Name(), dt, c, cl.text), op, dt, c, cl.k})
			}
		}
	}
	if len(jobs) < 2*len(sel.Ops()) {
		t.Fatalf("%d calls for %d ops: the grids were not read", len(jobs), len(sel.Ops()))
	}
	var wg sync.WaitGroup
	for _, j := range jobs {
		for _, limit := range []int{0, 1, 2} {
			wg.Go(func() {
				tr, err := j.op.Measurement().New(j.dt, j.k, 7)
				if err != nil {
					t.Errorf("%s: inputs: %v", j.what, err)
					return
				}
				ctx := sel.WithStrictPin(context.Background(), j.op.Name(), j.c.String())
				b, err := tr.Bind(ctx)
				if err != nil {
					t.Errorf("%s: %v", j.what, err)
					return
				}
				if err := b.Verify(batchlas.WithParallelism(ctx, limit)); err != nil {
					t.Errorf("%s cap %d: %v", j.what, limit, err)
				}
			})
		}
	}
	wg.Wait()
}

// batchOfRaceCalls is the batch of every call: more matrices than a group
// of lanes (8 float64, 16 float32) holds, in parts for two workers.
const batchOfRaceCalls = 19

// raceCell is a cell of an op's grid and its text ("uplo=L n=2 batch=19").
type raceCell struct {
	k     sel.Key
	text  string
	small bool // a size below 2
	elems float64
}

// smallCells lists the cells of op's quick grid, with batch set to
// batchOfRaceCalls, smallest first: cells whose sizes are all at least 2
// before the others (a dimension of 0 or 1 reaches few of a kernel's
// paths), then by the elements their operands hold.
func smallCells(t *testing.T, op *sel.Op) []raceCell {
	keys := op.Keys()
	axes := make([][]string, len(keys))
	for i, ks := range keys {
		for _, ax := range op.Spec().Grid {
			if ax.Key == ks.Name {
				axes[i] = ax.Quick
			}
		}
		if ks.Name == "batch" {
			axes[i] = []string{strconv.Itoa(batchOfRaceCalls)}
		}
		if len(axes[i]) == 0 {
			t.Fatalf("%s: key %s has no quick grid axis", op.Name(), ks.Name)
		}
	}
	var cells []raceCell
	vals := make([]sel.KeyVal, len(keys))
	words := make([]string, len(keys))
	var walk func(i int, small bool)
	walk = func(i int, small bool) {
		if i == len(keys) {
			k := sel.MakeKey(slices.Clone(vals)...)
			cells = append(cells, raceCell{k, strings.Join(words, " "), small, op.Measurement().Elems(k)})
			return
		}
		for _, v := range axes[i] {
			words[i] = keys[i].Name + "=" + v
			if keys[i].Kind == sel.Exact {
				vals[i] = sel.Str(v)
				walk(i+1, small)
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: key %s: grid value %q is not a number", op.Name(), keys[i].Name, v)
			}
			vals[i] = sel.Int(n)
			walk(i+1, small || n < 2)
		}
	}
	walk(0, false)
	slices.SortStableFunc(cells, func(a, b raceCell) int {
		if a.small != b.small {
			if a.small {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.elems, b.elems)
	})
	return cells
}

// firstRunnable is the first of cells that is a call of the op, on which
// c runs code of its own (a blocked kernel whose one block is the whole
// matrix runs the unblocked one's: the op's Twin says so) and whose inputs
// c binds to on this host, among the cells of at most raceCellElems
// elements; where c runs code of its own on none of those (potrf's
// blocked kernel starts at hundreds of rows), the first that binds.
func firstRunnable(op *sel.Op, m *sel.Measure, dt sel.DType, c sel.Choice, cells []raceCell) (raceCell, bool) {
	ctx := sel.WithStrictPin(context.Background(), op.Name(), c.String())
	host := batchlas.Host()
	twin := op.Spec().Twin
	for _, own := range []bool{true, false} {
		for _, cl := range cells {
			k := cl.k
			if cl.elems > raceCellElems || (m.Problem != nil && m.Problem(k) != nil) || !op.CanRun(c, k, host) {
				continue
			}
			if own && twin != nil && twin(c, dt, k, host) != "" {
				continue
			}
			tr, err := m.New(dt, k, 7)
			if err != nil {
				continue
			}
			if _, err := tr.Bind(ctx); err == nil {
				return cl, true
			}
		}
	}
	return raceCell{}, false
}

// raceCellElems bounds the operands of a call: the race detector makes
// every memory access many times slower.
const raceCellElems = 1 << 18
