//go:build !amd64 || purego

package subst

import "github.com/batchlas-go/batchlas"

// Without the amd64 assembly the Go twins run.

func colsAsm[T batchlas.Float]([]T, int, []T, block, bool, []T, int, int, T) bool { return false }

func diagAsm[T batchlas.Float]([]T, []T, int, int, bool, bool) bool { return false }

func scaleAsm[T batchlas.Float]([]T, int, int, int, int, int, []T, int, bool, T) bool { return false }

func rowsAsm[T batchlas.Float]([]T, int, bool, []T, int, int, T) bool { return false }
