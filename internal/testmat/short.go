package testmat

import (
	"testing"

	"github.com/batchlas-go/batchlas"
)

// DriverCheck marks t as a check of an op's driver (no allocation with the
// workspace supplied, interruption, results independent of the worker
// count) and skips it for float32 under -short.
//
// The test command runs -short in its portable pass (no assembly, no
// vendor library), whose purpose is the kernels' Go twins: the drivers'
// code is generic and the same for both dtypes, and the float32 Go twins
// are the slower half there (their fused multiply-add is computed in
// software, internal/fma). The plain pass runs these checks for both
// dtypes, on the assembly kernels, which differ by dtype.
func DriverCheck[T batchlas.Float](t testing.TB) {
	t.Helper()
	var z T
	if _, single := any(z).(float32); single && testing.Short() {
		t.Skip("float32 driver check: run for float64 only under -short (testmat.DriverCheck)")
	}
}
