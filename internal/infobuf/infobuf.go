// Package infobuf recycles the per-call info buffers of the factoring ops
// (one int32 per matrix: LAPACK's info). A fresh buffer per call is an
// allocation the size of the batch: for tiny matrices it cost more than the
// factorization itself (page faults, or garbage-collector cycles that also
// made timings noisy).
package infobuf

import "sync"

var pool sync.Pool // of *[]int32

// Get returns a zeroed buffer of n entries, from the pool when one is big
// enough. Give it back with Put once nothing refers to it.
func Get(n int) *[]int32 {
	if p, ok := pool.Get().(*[]int32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		clear(*p)
		return p
	}
	s := make([]int32, n)
	return &s
}

// Put returns a buffer from Get to the pool.
func Put(p *[]int32) { pool.Put(p) }
