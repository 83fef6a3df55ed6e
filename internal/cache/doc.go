// Package cache turns a device's cache facts (size and ways of its L1 data
// cache and its L2, as CPUID reports them) into the decisions kernels make
// about memory layout: whether columns of a matrix that lie a leading
// dimension apart can share one level of cache, or fall into so few of its
// sets that they evict each other, so that copying them to a tight buffer
// first pays (a stride cliff).
//
// A cache of S bytes with W ways maps addresses S/W bytes apart (its set
// period) to the same set. Columns whose leading dimension in bytes is a
// multiple of a large power of two start at only a few positions within a
// period: 64 columns of a float64 matrix with leading dimension 1024 (8 KiB)
// all start in the same set of a 48 KiB 12-way L1 (period 4 KiB), and a
// 24-row tile that reads them has 4 sets, 48 lines, for 256 lines of data.
// Nothing here is a speed constant of one CPU: every number comes from the
// device, and a device that reports no geometry gets a common one.
package cache
