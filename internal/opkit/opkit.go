package opkit

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/rootlink"
	sel "github.com/batchlas-go/batchlas/select"
)

// Argf makes a *batchlas.ArgError from op on argument arg.
func Argf(op, arg, format string, args ...any) error {
	return &batchlas.ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf(format, args...)}
}

// InfoError builds a *batchlas.NumericalError from a per-matrix info
// slice (0 = ok), or returns nil when every matrix succeeded.
func InfoError(op string, info []int32) error {
	var e *batchlas.NumericalError
	for i, v := range info {
		if v != 0 {
			if e == nil {
				e = &batchlas.NumericalError{Op: op}
			}
			e.Index = append(e.Index, i)
			e.Info = append(e.Info, int(v))
		}
	}
	if e == nil {
		return nil
	}
	return e
}

// Interrupted names op in err when err is a *batchlas.InterruptedError
// (the batch loop and the kernels leave the name to the op's entry point)
// and returns err unchanged otherwise.
func Interrupted(op string, err error) error {
	if e, ok := err.(*batchlas.InterruptedError); ok {
		e.Op = op
	}
	return err
}

// Context returns ctx, or context.Background() when ctx is nil: every
// entry point of batchlas and its ops treats a nil context as Background.
func Context(ctx context.Context) context.Context { return rootlink.Background(ctx) }

// DeviceFrom returns the device a call with this context runs on: the one
// set by batchlas.WithDevice, else the host CPU (batchlas.Host). A nil ctx
// is context.Background(), so it runs on the host.
func DeviceFrom(ctx context.Context) *sel.Device {
	if d := rootlink.Device(ctx); d != nil {
		return d
	}
	return batchlas.Host()
}

// ParallelismFrom returns the cap batchlas.WithParallelism set on ctx:
// n >= 1, or 0 for no cap (none set, or set to n <= 0). A nil ctx has no
// cap.
func ParallelismFrom(ctx context.Context) int { return rootlink.Parallelism(ctx) }

// DTypeOf returns the dtype spelling of T (float32 or float64).
func DTypeOf[T batchlas.Float]() sel.DType {
	var z T
	if _, ok := any(z).(float32); ok {
		return sel.Float32
	}
	return sel.Float64
}

// BuiltinTables returns the tuned/ directory embedded in the root package,
// the tables the selection core reads (sel.RegisterBuiltin), for tools/tune
// and the tests.
func BuiltinTables() fs.FS { return rootlink.Tables() }
