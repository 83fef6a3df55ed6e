// Package safefile is the one guarded path through which the selection
// core, the coverage instrument and the tuner open files that a user or
// another process may have put in their way.
//
// Reads (ReadFile, ReadFS) accept only a regular file of at most a stated
// number of bytes: the file is opened without blocking (opening a FIFO for
// reading would otherwise wait for a writer forever), checked with fstat on
// the opened descriptor (so a file swapped in after a path check is still
// seen), and read through a limit one byte past the bound (so a file that
// grows after the check is refused, not read into memory). A link to
// /dev/zero or /dev/urandom is a character device, refused before a byte is
// read.
//
// Appends (OpenAppend) are for files that must lose nothing when the
// process dies: coverage shards and tuning ledgers. They are opened without
// following a symbolic link at the last path element and without blocking,
// then checked regular by fstat; nothing is truncated.
//
// Whole-file writes (WriteAtomic) go through a temporary file in the same
// directory and a rename, so a reader or a crash never sees half a file;
// an existing target that is not a regular file is refused, not replaced.
package safefile
