package main

import (
	"github.com/spf13/pflag"

	sel "github.com/batchlas-go/batchlas/select"
)

// cellCaps leave out the cells whose one call would take too long or too
// much memory. The grid still spans every axis (n 1..512, batch 1..32768);
// only its expensive corner (large n at large batch) is skipped, where a
// single call of a slow candidate would cost seconds and the winner is the
// same as at the largest measured batch (the nearest row takes over). The
// default admits potrf n=64 batch=4096, the README's example call.
type cellCaps struct {
	maxFlops float64
	maxBytes int64
}

// capFlags declares --max-cell-flops and --max-cell-bytes on a command.
func capFlags(fs *pflag.FlagSet) (*float64, *int64) {
	return fs.Float64("max-cell-flops", 4e8, "skip cells whose one call (whole batch) does more floating-point work than this"),
		fs.Int64("max-cell-bytes", 512<<20, "skip cells whose operands take more memory than this")
}

func (c cellCaps) fits(t *opTuner, dt sel.DType, k cell) bool {
	elem := int64(8)
	if dt == sel.Float32 {
		elem = 4
	}
	return t.flops(k) <= c.maxFlops && t.elems(k)*elem <= c.maxBytes
}
