package main

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/linalg"
	"github.com/batchlas-go/batchlas/ops/poinv"
	sel "github.com/batchlas-go/batchlas/select"
)

// A peer composite is a job numpy does in one call and batchlas with a
// chain of ops: the QR factorisation with Q formed (np.linalg.qr) is geqrf
// then orgqr, the inverse (np.linalg.inv) the matinv op (getrf's
// factorisation and the inverse from it, out of place), or potrf then
// potri for an SPD matrix. peers times it as one call of the one-call layer (package
// linalg), which chains them and allocates its results as numpy does, so
// that the comparison is the one a user makes. A composite takes the keys
// of the first op of its chain; its kernel column names each op's
// automatic choice.
type peerComposite struct {
	name  string   // the list's op word, and the numpy script's: qr
	chain []string // the ops it runs, in order: geqrf, orgqr
	// keysOf is the cell of each op of the chain for the composite's cell.
	keysOf func(c cell, op *opTuner) (cell, error)
	// newCall makes the inputs of cell c and returns one call, and a check
	// of the call's last result.
	newCall func(dt sel.DType, c cell, seed uint64) (call func(ctx context.Context) error, check func() error)
}

// peerComposites are the composites peers knows, by list word.
var peerComposites = map[string]*peerComposite{
	"inv": {
		name:  "inv",
		chain: []string{"matinv"},
		keysOf: func(c cell, t *opTuner) (cell, error) {
			return parseCellArgs(t.op, []string{"n=" + c.get("n"), "batch=" + c.get("batch")})
		},
		newCall: func(dt sel.DType, c cell, seed uint64) (func(context.Context) error, func() error) {
			if dt == sel.Float32 {
				return newInvCall[float32](c, seed)
			}
			return newInvCall[float64](c, seed)
		},
	},
	"invspd": {
		name:  "invspd",
		chain: []string{"poinv"},
		keysOf: func(c cell, t *opTuner) (cell, error) {
			return parseCellArgs(t.op, []string{"uplo=" + c.get("uplo"), "n=" + c.get("n"), "batch=" + c.get("batch")})
		},
		newCall: func(dt sel.DType, c cell, seed uint64) (func(context.Context) error, func() error) {
			if dt == sel.Float32 {
				return newInvSPDCall[float32](c, seed)
			}
			return newInvSPDCall[float64](c, seed)
		},
	},
	"qr": {
		name:  "qr",
		chain: []string{"geqrf", "orgqr"},
		keysOf: func(c cell, t *opTuner) (cell, error) {
			m, n, batch := c.get("m"), c.get("n"), c.get("batch")
			if t.op.Name() == "orgqr" {
				// Q is m x min(m, n), from as many reflectors.
				n = fmt.Sprint(min(c.num("m"), c.num("n")))
			}
			return parseCellArgs(t.op, []string{"m=" + m, "n=" + n, "batch=" + batch})
		},
		newCall: func(dt sel.DType, c cell, seed uint64) (func(context.Context) error, func() error) {
			if dt == sel.Float32 {
				return newQRCall[float32](c, seed)
			}
			return newQRCall[float64](c, seed)
		},
	},
}

// newInvCall is linalg.Inv, the one-call inverse on the matinv op: the
// output allocated, the inverses written into it. Its check is
// checkInverse's.
func newInvCall[T batchlas.Float](c cell, seed uint64) (func(context.Context) error, func() error) {
	n, count := c.num("n"), c.num("batch")
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.General(r, b) })
	var x batchlas.Batch[T]
	call := func(ctx context.Context) error {
		var err error
		x, err = linalg.Inv(ctx, a)
		return err
	}
	check := func() error {
		return checkInverse("linalg.Inv", a, func(r, c int) float64 { return float64(x.At(0, r, c)) })
	}
	return call, check
}

// newInvSPDCall is linalg.InvSPD, the one-call SPD inverse on the poinv
// op (lower triangle read, the whole inverse written): the output
// allocated, the inverses written into it. uplo=U reads the upper
// triangle instead, through poinv itself into an output allocated the
// same way. Its check is checkInverse's.
func newInvSPDCall[T batchlas.Float](c cell, seed uint64) (func(context.Context) error, func() error) {
	n, count := c.num("n"), c.num("batch")
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	var x batchlas.Batch[T]
	call := func(ctx context.Context) error {
		if c.get("uplo") != "U" {
			var err error
			x, err = linalg.InvSPD(ctx, a)
			return err
		}
		x = batchlas.NewBatch[T](n, n, count)
		return poinv.Poinv(ctx, batchlas.Upper, a, x, nil)
	}
	check := func() error {
		return checkInverse("linalg.InvSPD", a, func(r, c int) float64 { return float64(x.At(0, r, c)) })
	}
	return call, check
}

// checkInverse checks the inverse X of the first matrix of a (element
// (r, c) of X from x): max |A*X - I| within 64 n^2 eps max|A| max|X|.
// what names the chain in the error.
func checkInverse[T batchlas.Float](what string, a batchlas.Batch[T], x func(r, c int) float64) error {
	n := a.Rows
	if a.Count == 0 || n == 0 {
		return nil
	}
	var worst, norm, xnorm float64
	for row := range n {
		for col := range n {
			s := 0.0
			for l := range n {
				s += float64(a.At(0, row, l)) * x(l, col)
			}
			if row == col {
				s--
			}
			worst = max(worst, math.Abs(s))
			norm = max(norm, math.Abs(float64(a.At(0, row, col))))
			xnorm = max(xnorm, math.Abs(x(row, col)))
		}
	}
	eps := 0x1p-52
	if _, single := any(T(0)).(float32); single {
		eps = 0x1p-23
	}
	if bound := 64 * float64(n) * eps * norm * xnorm * float64(n); !(worst <= bound) {
		return fmt.Errorf("%s: max |A*X - I| of the first matrix is %.3g, over %.3g", what, worst, bound)
	}
	return nil
}

// newQRCall is linalg.QR on random m x n matrices; its check is the
// residual ||A - QR|| of the first matrix against a bound.
func newQRCall[T batchlas.Float](c cell, seed uint64) (func(context.Context) error, func() error) {
	m, n, count := c.num("m"), c.num("n"), c.num("batch")
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, m, n, count, func(b batchlas.Batch[T]) {
		for i := range b.Count {
			for col := range n {
				for row := range m {
					b.Set(i, row, col, T(2*r.Float64()-1))
				}
			}
		}
	})
	var q, rr batchlas.Batch[T]
	call := func(ctx context.Context) error {
		var err error
		q, rr, err = linalg.QR(ctx, a)
		return err
	}
	check := func() error {
		if count == 0 || min(m, n) == 0 {
			return nil
		}
		k := min(m, n)
		var worst, norm float64
		for row := range m {
			for col := range n {
				s := 0.0
				for l := range min(k, col+1) {
					s += float64(q.At(0, row, l)) * float64(rr.At(0, l, col))
				}
				worst = max(worst, math.Abs(s-float64(a.At(0, row, col))))
				norm = max(norm, math.Abs(float64(a.At(0, row, col))))
			}
		}
		eps := 0x1p-52
		if _, single := any(T(0)).(float32); single {
			eps = 0x1p-23
		}
		if bound := 64 * float64(max(m, n)) * eps * max(norm, 1) * float64(k); !(worst <= bound) {
			return fmt.Errorf("linalg.QR: max |A - QR| of the first matrix is %.3g, over %.3g", worst, bound)
		}
		return nil
	}
	return call, check
}

// compositeFlops is the work of a composite's call: the sum of its
// chain's.
func compositeFlops(comp *peerComposite, c cell) float64 {
	total := 0.0
	for _, name := range comp.chain {
		t := tuners[name]
		oc, err := comp.keysOf(c, t)
		if err != nil {
			return math.NaN()
		}
		total += t.flops(oc)
	}
	return total
}

// timeComposite times one call of a composite as timeAuto times an op's
// automatic call, after checking its result; the kernel is each op's
// automatic choice, joined by '+'.
//
// A composite is a call of the one-call layer, which allocates its results
// as numpy's functions do, so it is timed as a program runs it: from a
// collected heap but with the collector's target left as the program has
// it (quietGC's raised target would keep every freed result unused, and
// each call would fault in fresh pages: 0.9 ms of linalg.Inv's 2.7 at n = 3
// batch = 100000 on the Intel Xeon guest). The heap's free memory goes
// back to the system first (debug.FreeOSMemory, not only a collection):
// after the cells before it had grown the heap, the runtime's background
// scavenger went on returning that memory during the composite's timings,
// a little at a time, and the composite kept reusing and faulting it back
// in (qr float64 n = 32 took 41-58 ms after geqrf's cells, 18-20 ms alone
// or after this, on the Zen 5 guest). Its sizing call is then made steady
// (steadyCall): the first calls grow the heap onto fresh pages, as a
// program's first calls do, and the timings are of the calls after.
func timeComposite(ctx context.Context, r peerRun, ms measureSettings) (float64, string, error) {
	debug.FreeOSMemory()
	var kernels []string
	for _, name := range r.comp.chain {
		t := tuners[name]
		oc, err := r.comp.keysOf(r.c, t)
		if err != nil {
			return 0, "", err
		}
		walk, err := t.op.Explain(ctx, r.dt, oc.key(), batchlas.Host())
		if err != nil {
			return 0, "", fmt.Errorf("%s: the automatic decision fails: %w", name, err)
		}
		kernels = append(kernels, name+":"+walk.Choice.String())
	}
	call, check := r.comp.newCall(r.dt, r.c, ms.seed)
	run := func(ctx context.Context, n int) (d time.Duration, err error) {
		t0 := time.Now()
		for range n {
			if err := call(ctx); err != nil {
				return 0, err
			}
		}
		return time.Since(t0), nil
	}
	if _, err := run(ctx, 1); err != nil {
		return 0, "", err
	}
	if err := check(); err != nil {
		return 0, "", fmt.Errorf("BAD RESULT: %w", err)
	}
	one, err := steadyCall(ctx, run, heldBytes)
	if err != nil {
		return 0, "", err
	}
	best, err := ms.proto.bestOf(ctx, run, ms.proto.calibrate(one))
	return best, strings.Join(kernels, "+"), err
}
