// Package sel is the selection core of batchlas: it decides which compiled
// kernel (a Choice) runs for one call of one op, from the op's declared
// candidates, the tuned tables of the device, the pins in force and the op's
// correctness-only can_run.
//
// The core knows no op. An op declares itself once with Register (its
// OpSpec: families, candidates per dtype, key names, last-resort order and
// can_run) and then asks one question per call through Op.Run (decide, trace,
// record coverage, launch) or Op.Pick (decide only, for sizing a workspace).
//
// The environment is read into a snapshot on first use and again on Reload:
// BATCHLAS_<OP>_ROUTE pins a kernel (WithPin does it for one context),
// BATCHLAS_SELECT_TRACE=1 prints every decision (package trace),
// BATCHLAS_COVERAGE_OUT=<path> records what ran (package coverage) and
// BATCHLAS_TUNED_DIR=<dir> replaces sections of the built-in tables (per
// dtype) with an operator's own.
//
// A healthy program prints nothing. Warnings (SetWarnOutput redirects them;
// once per process each) are only for what a user should fix: a tuned-dir
// table that cannot be used, a native or vendor pin that falls back, a pin
// or table for an op the program lacks, an unusable coverage path, and the
// root package's malformed BATCHLAS_DEVICE (through WarnOnce). Borrowing
// another device's table, what an override replaces and a stale built-in
// table are notices, printed only while tracing, after a startup report
// (the init line and the switches line) that comes before the first traced
// decision. docs/select.md, "Switches", lists every switch and what it
// prints.
//
// docs/select.md explains the mechanism to a maintainer; the table format,
// trace lines and coverage columns it describes are fixed (tools and
// scripts outside the Go code read them).
package sel
