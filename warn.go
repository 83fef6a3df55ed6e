package batchlas

import (
	"io"

	sel "github.com/batchlas-go/batchlas/select"
)

// SetWarnOutput sends the library's warnings to w instead of stderr and
// returns the previous writer; a nil w discards them. It is
// sel.SetWarnOutput, here so that a program using only the ops need not
// import the selection core to silence or capture them.
//
// A healthy program gets no warning: they are for misconfiguration the
// user should fix (a BATCHLAS_TUNED_DIR table that cannot be used, a native
// or vendor pin that falls back to the automatic choice, a malformed
// BATCHLAS_DEVICE, an unusable BATCHLAS_COVERAGE_OUT, a pin or table for an
// op the program does not have), each once per process, one line each.
// What only describes the selection (a borrowed table, what an override
// replaces) is printed only while tracing (BATCHLAS_SELECT_TRACE=1), with
// the trace on its own writer (trace.SetOutput).
func SetWarnOutput(w io.Writer) io.Writer { return sel.SetWarnOutput(w) }
