//go:build !novendor

package batchlas

// vendorLibs are the vendor library groups compiled into this build: gonum
// provides BLAS and LAPACK on the CPU. Build with -tags novendor to leave
// gonum out of the library.
var vendorLibs = []string{"blas", "lapack"}
