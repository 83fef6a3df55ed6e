// Package trial holds what the ops' measurement specs share: the code
// that makes synthetic inputs of a call shape, binds a candidate to them
// and checks its result against an independent reference.
//
// Each op declares how its candidates are timed in ops/<op>/trial.go
// (sel.Measure, registered with Op.SetMeasure): its inputs, the check of
// its result, its flop count. That code lives with the op, not in the
// tuner, because a program measures candidates too: first-use tuning
// (BATCHLAS_TUNE=online) times an op's candidates on the shape of the call
// at hand, with the same inputs and checks tools/tune uses, so a program
// that links an op links its measurement. The helpers those files have in
// common are here:
//
//   - Shape reads a selection key by key name;
//   - TiledBatch, Repeat and NewLaidBatch make operands, tight or with the
//     leading dimension OperandLayout asks for;
//   - InPlace keeps the working copies of an operand an in-place op
//     overwrites, and Workspace the NaN-filled workspace the candidates of
//     one trial share;
//   - Dense, MulAbs and WithinBound are the float64 reference arithmetic
//     and elementwise error bounds of the checks, LUScale and
//     CheckCholeskySolve the checks two ops each share.
//
// The files trial.go (and the generated kernelshash.go) of an op are not
// part of its kernels hash (tools/tune/provenance.go): they say how the
// kernels are measured, not what they compute, so neither they nor this
// package make a shipped table stale.
package trial
