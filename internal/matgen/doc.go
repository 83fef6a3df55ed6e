// Package matgen makes the deterministic inputs kernels are checked on:
// random, SPD, well-conditioned triangular and general batches from a
// seed, and the float64 copies and unit round-offs the checks compute
// with. Two kinds of code use it: the ops' conformance tests (through
// internal/testmat, which re-exports it) and the ops' trials
// (ops/<op>/trial.go, through internal/trial), which a program links for
// first-use tuning. It therefore imports nothing beyond the root package
// and the standard library's math: linking it must not pull test
// machinery (package testing, os/exec) into programs.
package matgen
