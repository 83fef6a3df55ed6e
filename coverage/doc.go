// Package coverage is the instrument that records which kernels a process
// linked and which it ran, one CSV shard per process.
//
// With BATCHLAS_COVERAGE_OUT=<path> the selection core opens
// <path>.<pid>.csv (test binaries run in parallel and must not clobber each
// other's shard) and writes these fixed columns (docs/select.md, "Coverage"):
//
//	kind,op,dtype,device,choice,origin,source,table,calls,key,native_existed,native_supported,vendor_lib
//
// "linked" rows say what the build contains, "reached" rows what ran (one per
// distinct op, dtype, device, choice, source and full key) and "miss" rows the
// calls nothing could serve.
//
// Nothing is lost when a process dies: a row is appended, in one write to a
// file opened with O_APPEND, the first time it is seen. Call counts are then
// kept in memory (one atomic add per call) and completed by Flush, which
// appends a new row for every count that changed. A reader therefore lets a
// later row of one shard supersede an earlier row with the same identity
// (ReadFiles does), and sums across shards (Merge does).
//
// The shard is opened through internal/safefile: never truncated, without
// following a symbolic link at its name, without blocking on a FIFO, and
// checked regular. A shard of the same pid left by an earlier process is
// appended to: each process starts its segment with the header line, and
// ReadFiles sums segments as it sums shards. A prefix that is an existing
// non-regular file (BATCHLAS_COVERAGE_OUT=/dev/full, a directory) or lies in
// a directory that cannot be written gets one warning from the selection
// core and coverage off; the op calls are unaffected. ReadFiles reads
// regular files of at most MaxShardBytes (64 MiB).
package coverage
