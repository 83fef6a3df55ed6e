// Package lanerows holds the arithmetic of kernels across matrices that is
// written in Go but whose inner loop is a run of rows of lanes: a group
// of lanes.Lanes[T]() matrices interleaved one per lane (element (r, c) of
// lane l at g[(c*ld+r)*L+l], internal/lanes' layout) keeps a column's
// rows one 64-byte vector apart, so "row i of column j plus the lanes'
// multipliers times row i of column k" for consecutive rows is one loop
// over whole vectors.
//
// AxpyRows is that loop, and DotRows the lanes' dot products over rows,
// as AVX-512 assembly (rows_amd64.s) where simd.AVX512 allows it, as AVX2
// assembly (rows_avx2_amd64.s, each row two 32-byte halves) where
// simd.AVX2 does (x86-64-v3), and as a Go loop elsewhere (purego, other
// architectures, a device presented below x86-64-v3). Both multiply and then add, without fusing, as Go's
// compiler does for y += t*x (AxpyRows row after row, DotRows in four
// interleaved partial sums), so a kernel written on them gives the bits
// of the same loops written lane by lane in Go, with or without the
// assembly. The package is its own so that only the kernels on
// it have it in their kernels hash.
package lanerows
