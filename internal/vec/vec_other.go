//go:build !amd64 || purego

package vec

import "github.com/batchlas-go/batchlas"

// Without the amd64 assembly the Go twins run.

func rotAsm[T batchlas.Float](bool, []T, int, int, int, []T, []T) bool { return false }

func reflectAsm[T batchlas.Float]([]T, []T, int, int, T) bool { return false }

func dotAsm[T batchlas.Float]([]T, []T) (T, bool) { return 0, false }

func axpyAsm[T batchlas.Float](T, []T, []T) bool { return false }

func axpy2Asm[T batchlas.Float](T, []T, T, []T, []T) bool { return false }

func dotAxpyAsm[T batchlas.Float](T, []T, []T, []T) (T, bool) { return 0, false }

func dotAxpy4Asm[T batchlas.Float](*[4]T, []T, int, []T, []T, *[4]T) bool { return false }

func axpy2x4Asm[T batchlas.Float](*[8]T, []T, int, []T, []T) bool { return false }

func axpy4Asm[T batchlas.Float](*[4]T, []T, []T, []T, []T, []T) bool { return false }
