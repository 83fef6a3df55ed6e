package trial

import (
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// The selection core cannot import the root package (the root imports
// it), yet first-use tuning must read a call's worker cap
// (batchlas.WithParallelism) to leave capped calls alone. Every op's
// trial.go imports this package, so a program that links an op, and with
// it the op's measurement, installs the reader before any call.
func init() {
	sel.SetParallelismReader(opkit.ParallelismFrom)
}
