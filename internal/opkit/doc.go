// Package opkit is the plumbing the ops of batchlas share: what every op's
// entry point does around its kernels, and what tools/tune and the tests
// read, that a user of the library never calls.
//
//   - errors in the library's types: Argf (an *batchlas.ArgError),
//     InfoError (a *batchlas.NumericalError from per-matrix info),
//     Interrupted (names the op in a *batchlas.InterruptedError),
//     WorkspaceShort (the "ws" error of a workspace that is too short);
//   - operand checks: CheckDisjoint (a written operand shares no element
//     with another) and CheckWorkspace (nor a workspace with an operand),
//     by batchlas.Overlap's rule;
//   - the call's context: Context (a nil context is Background), DeviceFrom
//     (the device set by batchlas.WithDevice, else the host) and
//     ParallelismFrom (the cap set by batchlas.WithParallelism);
//   - DTypeOf, the selection core's dtype of a Go element type, and
//     BuiltinTables, the tables embedded in the root package.
//
// Why internal: these used to be exported by the root package, where
// `go doc` showed them beside the user's API (Batch, WithDevice,
// WithParallelism, the error types) although a user never needs them: a
// user sets a device with batchlas.WithDevice and a worker cap with
// batchlas.WithParallelism, and gets the errors back from the ops. Here
// they are shared by every op, linalg, gonummat, tools/tune and the tests
// of this module, and by no program outside it.
//
// This package imports the root package, so the root package cannot import
// it: what both need lives in packages below them (internal/rootlink for
// the context keys and the embedded tables, internal/overlap for the
// overlap algorithm), and the root package keeps small unexported helpers
// of its own where it needs one (its argf beside Argf).
package opkit
