// Command tune is the offline tuner and table tool of batchlas: one binary,
// one subcommand per job.
//
//	go run ./tools/tune run      --op potrf --dtype float64 --grid quick --out tuned
//	go run ./tools/tune check    [--dir tuned] [--regret]
//	go run ./tools/tune validate --op potrf --dtype float64 --shapes 30 --seed 1
//	go run ./tools/tune explain  potrf float64 uplo=L n=100 batch=3000
//	go run ./tools/tune bench    potrf --dtype float64 uplo=L n=64 batch=4096
//	go run ./tools/tune docs     [--check]
//	go run ./tools/tune coverage [--require-reached] [--suggest N] FILES...
//
// run times every candidate of an op over the op's tuner grid (declared in
// ops/<op>/choice.go) and writes tuned/<op>.<device>.txt in the table
// format docs/select.md describes. What the tuner needs to know about an op beyond
// its selection spec (how to make inputs for a cell, how to verify a result,
// the flop count, which source files are its kernels) lives in
// <op>_spec.go, one file per op.
//
// docs/tuning.md is the operator's guide: the design of the measured
// cells, the protocol, and how to check and ship the tables.
package main
