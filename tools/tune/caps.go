package main

import (
	"fmt"

	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// cellCaps leave out the cells whose one call would take too long or too
// much memory. The grid still spans every axis (n 1..512, batch 1..32768);
// only its expensive corner (large n at large batch) is skipped, where a
// single call of a slow candidate would cost seconds and the winner is the
// same as at the largest measured batch (the nearest row takes over), as
// long as that batch fills the across-matrices kernels' lanes
// (lanesBatch). One matrix (batch 1) is measured at every order of the
// grid whatever the work cap: past the largest order measured the nearest
// row takes over, and a kernel that ties at that order can be far behind
// at twice it (syev float64 jobz=V took tridiag for one matrix of order
// 512 and more from a 2% tie with dc at 256, 37 against 22 ms at 512).
// The default admits potrf n=64 batch=4096, the README's example call.
type cellCaps struct {
	maxFlops float64
	maxBytes int64
}

// Defaults of --max-cell-flops and --max-cell-bytes. The memory cap is
// also the one every measurement applies before it allocates a cell's
// inputs (measureSettings.maxBytes), whatever the command.
const (
	defaultMaxCellFlops = 4e8
	defaultMaxCellBytes = 512 << 20
)

// capFlags declares --max-cell-flops and --max-cell-bytes on a command.
func capFlags(fs *cmdFlags) (*float64, *int64) {
	flops := fs.Float64("max-cell-flops", defaultMaxCellFlops, "skip cells whose one call (whole batch; one matrix up to batch 16) does more floating-point work than this; batch 1 is always measured")
	fs.check("max-cell-flops", fmt.Sprintf("a number above 0 up to %g", maxCellFlops), func() bool { return *flops > 0 && *flops <= maxCellFlops })
	return flops, maxBytesFlag(fs)
}

// maxBytesFlag declares --max-cell-bytes alone (bench, which times any
// amount of work but never allocates more than the cap).
func maxBytesFlag(fs *cmdFlags) *int64 {
	p := fs.Int64("max-cell-bytes", defaultMaxCellBytes, "refuse cells whose operands take more memory than this, before allocating them")
	memoryCapCheck(fs, "max-cell-bytes", p)
	return p
}

// elemSize is the size of one element of dt in bytes.
func elemSize(dt sel.DType) float64 {
	if dt == sel.Float32 {
		return 4
	}
	return 8
}

// cellBytes is the memory a cell's operands take. It is a float64 so that
// no key value can overflow it: n=batch=3037000500 wraps an int64 product
// to a negative count, which every cap admits.
func cellBytes(t *opTuner, dt sel.DType, c cell) float64 {
	return t.elems(c) * elemSize(dt) * layoutFactor(c)
}

// layoutFactor bounds how many times the storage of a tight cell its
// operands take under trial.OperandLayout: the largest ld/rows over the row
// counts an operand of the cell can have (its size keys).
func layoutFactor(c cell) float64 {
	f := 1.0
	if trial.OperandLayout.Tight() {
		return f
	}
	for _, name := range []string{"m", "n", "k", "nrhs"} {
		if v := c.num(name); v > 0 {
			f = max(f, float64(trial.OperandLayout.Of(v))/float64(v))
		}
	}
	return f
}

// memoryErr refuses a cell whose operands take more than maxBytes (a
// non-positive maxBytes means the default cap, never no cap). The error
// names the op, the dtype, the cell and the cap.
func memoryErr(t *opTuner, dt sel.DType, c cell, maxBytes int64) error {
	if maxBytes <= 0 {
		maxBytes = defaultMaxCellBytes
	}
	if b := cellBytes(t, dt, c); !(b <= float64(maxBytes)) {
		return fmt.Errorf("%s %s %s: its operands take %s, over the memory cap of %s (--max-cell-bytes %d)",
			t.op.Name(), dt, c, formatBytes(b), formatBytes(float64(maxBytes)), maxBytes)
	}
	return nil
}

// lanesBatch is the most matrices an across-matrices kernel runs side by
// side in its vectors (16 float32 in 64 bytes). Below that batch such a
// kernel leaves lanes empty, so its rank at batch 2 says nothing of batch
// 16: the work cap lets a cell up to this batch through when one of its
// matrices fits the cap, so each size is measured at a batch that fills
// the lanes. (syev n=256 jobz=V stopped at batch 2, where lanestri, with
// 2 of 8 lanes busy, lost to tridiag; at batch 8 it was 1.47x faster.)
const lanesBatch = 16

// err says why a cell is not measured, nil when it is: it is no call of
// the op (sel.Measure.Problem), or it is over the caps.
func (c cellCaps) err(t *opTuner, dt sel.DType, k cell) error {
	if t.problem != nil {
		if err := t.problem(k); err != nil {
			return fmt.Errorf("%s %s %s: not a call of %s: %w", t.op.Name(), dt, k, t.op.Name(), err)
		}
	}
	if err := memoryErr(t, dt, k, c.maxBytes); err != nil {
		return err
	}
	f := t.flops(k)
	switch batch := k.num("batch"); {
	case batch <= 1:
		return nil // one matrix of every order is measured
	case batch <= lanesBatch:
		f = t.flops(k.with("batch", "1"))
	}
	if !(f <= c.maxFlops) {
		return fmt.Errorf("%s %s %s: one call does %.3g flops, over the work cap of %.3g (--max-cell-flops; up to batch %d, one matrix's)", t.op.Name(), dt, k, t.flops(k), c.maxFlops, lanesBatch)
	}
	return nil
}

func (c cellCaps) fits(t *opTuner, dt sel.DType, k cell) bool { return c.err(t, dt, k) == nil }

// formatBytes writes a size with a binary unit: 512 MiB, 2.2 TiB.
func formatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}
