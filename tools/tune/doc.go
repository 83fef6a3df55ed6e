// Command tune is the offline tuner and table tool of batchlas: one binary,
// one subcommand per job.
//
//	go run ./tools/tune run      --op potrf --dtype float64 --grid quick --out tuned
//	go run ./tools/tune check    [--dir tuned] [--regret]
//	go run ./tools/tune validate --op potrf --dtype float64 --shapes 30 --seed 1
//	go run ./tools/tune explain  potrf float64 uplo=L n=100 batch=3000
//	go run ./tools/tune bench    potrf float64 uplo=L n=64 batch=4096
//	go run ./tools/tune peers    [--shapes default|all] [--markdown]
//	go run ./tools/tune docs     [--check]
//	go run ./tools/tune plot     [--dir DIR] [--out out/plots]
//	go run ./tools/tune coverage [--require-reached] [--suggest N] FILES...
//
// `tune help <command>` (or `<command> --help`) prints the command's
// arguments and flags on stdout; for the commands that take keys it lists
// every op's keys, the values of exact keys taken from the op's grid. explain
// and bench take the dtype as the word after the op or as --dtype.
//
// run times every candidate of an op over the op's tuner grid (declared in
// ops/<op>/choice.go) and writes tuned/<op>.<device>.txt in the table
// format docs/select.md describes. What the tuner needs to know about an op beyond
// its selection spec (how to make inputs for a cell, how to verify a result,
// the flop count) is the op's measurement, declared next to its kernels in
// ops/<op>/trial.go (sel.Measure, with the helpers of internal/trial): a
// program's first-use tuning measures with it too. The op's kernel source
// files are derived from its package's imports (provenance.go), trial.go
// left out.
//
// docs writes docs/tables.md and the SVG plots it shows (docs/plots/),
// drawn by the code of plot (gonum.org/v1/plot, a dependency of this tool
// only): who wins where over size and batch, and what each table gains over
// the best single fixed candidate. Both depend only on the candidate lists
// and the tables, so docs --check compares bytes. docs also writes each
// op's ops/<op>/kernelshash.go, the hash of its kernel sources compiled
// into the op for first-use tuning, and --check fails when one is out of
// date.
//
// docs/tuning.md is the operator's guide: what to run, how long it takes
// (--plan's estimate, fitted on this machine's ledger: estimate.go), how to
// resume, check and ship the tables; then the design of the measured cells
// and the protocol.
package main
