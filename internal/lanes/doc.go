// Package lanes holds the library's across-matrices kernels: a group of
// Lanes small matrices is interleaved so that each 64-byte vector holds
// the same element of every matrix of the group, one matrix per lane
// (Intel MKL calls the layout "compact"). A kernel then runs one matrix's
// algorithm on whole vectors, so orders far too small to fill a vector
// with one matrix's rows still run at full vector width, and branches
// that differ between matrices become masks.
//
// Element (r, c) of lane l's n x n matrix is at a[(c*n+r)*Lanes + l]:
// column-major within the matrix, lane fastest. Gather and Scatter move
// equally spaced column-major matrices in and out of that layout (a chunk
// of every matrix transposed in registers); Jacobi (syev's lanes kernel),
// Tridiag (syev's lanestri), LU (gesv's and getrf's), Inverse (matinv's)
// and Chol (posv's and potrf's) work in it. ForGroups is the batch loop the ops' lanes kernels
// share: groups over the workers, each with its slot of scratch.
//
// On x86-64-v4 the kernels are AVX-512 assembly (lanes_amd64.s, written
// by gen.go: `go generate`; TestAssemblyIsGenerated checks the file is
// what gen.go writes). On x86-64-v3 (simd.AVX2 without simd.AVX512) the
// kernels are AVX2 assembly (lanes_avx2_amd64.s, written by
// gen_avx2.go), each 64-byte vector taken as two 32-byte halves: Jacobi in
// one call over the group, as its decisions are the group's, the small
// orders' Cholesky (to 8, the halves taking turns column by column) and
// LU (2 to 8) unrolled over the whole group too, the LU past order 8 over
// the whole group as well (both halves of a column's rows in registers,
// so that every cache line of the earlier columns is read once), the
// others once per half. The AVX2 Cholesky and LU go by columns
// (left-looking); the Cholesky has no blends: a pivot that fails stops
// it, and cholFinish, the Go twin's loop from that column, finishes the
// half. Elsewhere, with -tags purego, or when both
// switches are off, the Go twins run. Every path performs the same IEEE
// operations in the same order, so all give the same bits; the tests flip
// the switches to compare every path the machine has.
package lanes
