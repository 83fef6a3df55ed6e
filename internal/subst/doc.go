// Package subst holds the vector kernels of triangular substitution, the
// heart of trsm's vector family: one matrix's E*Y = alpha*C solved in
// place, E triangular of order t, with whole vectors where the Go compiler
// leaves the scalar loops of ops/trsm's direct family.
//
//   - SolveCols vectorises along the triangle: C's columns are contiguous
//     (trsm side Left). E is packed by PackBlocks into blocks of one vector
//     of rows; each block's rows take the products with the rows solved
//     before them as whole-vector fused multiply-adds, then the block's own
//     small triangle is solved in registers (one lane broadcast per step).
//     Several columns run together so the multiply-adds overlap.
//   - SolveRows vectorises along the other dimension: C's rows are
//     contiguous (trsm side Right, where a row of C is a column of B). E
//     is packed by PackSteps in the order its rows are solved; each step
//     is a whole chunk of up to four vectors, each with two accumulators.
//
// Both multiply by the reciprocal of each diagonal entry, computed once
// per matrix when E is packed.
//
// On x86-64-v4 the kernels are AVX-512 assembly (subst_amd64.s, written by
// gen.go: `go generate`; TestAssemblyIsGenerated checks the file is what
// gen.go writes). Elsewhere, with -tags purego, or when simd.AVX512 is
// false, a Go twin runs that performs the same IEEE operations in the same
// order (fused multiply-adds included, through package fma), so both give
// the same bits; the tests flip simd.AVX512 to compare them on one machine.
package subst
