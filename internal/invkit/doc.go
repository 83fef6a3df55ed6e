// Package invkit holds what the out-of-place inverse ops (matinv, poinv)
// share around their kernels: A copied into X on the workers for a kernel
// that works in place (Copy), the output of a matrix with no inverse
// (SetNaN), and the exact reciprocal condition number from the inverse
// (FinishCheck). It is its own package so that only those ops have it in
// their kernels hash.
package invkit
