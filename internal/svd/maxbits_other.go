//go:build !amd64 || purego

package svd

// maxMagnitudeBits is maxMagnitudeBitsGo without the amd64 assembly.
func maxMagnitudeBits[U uint32 | uint64](x []U, m, n, lda int, mag U) U {
	return maxMagnitudeBitsGo(x, m, n, lda, mag)
}
