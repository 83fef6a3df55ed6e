// Package trace prints the decision trace of the selection core: one stderr
// line per decision when BATCHLAS_SELECT_TRACE=1, indented two spaces per
// level of nesting (a decision made while another op's kernel runs sits under
// its parent's line).
//
// The package only formats and writes; the selection core decides when a
// line is due and what it says. The line format is fixed (docs/select.md,
// "Trace"): scripts and people read it, so Decision.String is the one place
// that spells it.
//
// Nesting travels in a context.Context. The core hands a kernel a nested
// context only while tracing is on, so a program with tracing off pays
// nothing for it.
package trace
