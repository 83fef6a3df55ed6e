// Package infobuf recycles the per-call info buffers of the factoring ops
// (one int32 per matrix: LAPACK's info). A fresh buffer per call is an
// allocation the size of the batch: for tiny matrices it cost more than the
// factorization itself (page faults, or garbage-collector cycles that also
// made timings noisy), and an op called with its workspace allocates
// nothing.
package infobuf

// free holds the buffers given back. It is a buffered channel rather than
// a sync.Pool: a sync.Pool keeps the last buffer put on a P in a private
// slot no other P sees, so a caller that moved to another P while it
// waited for its helpers found none and allocated, about once a call; and
// a collection empties a sync.Pool.
var free = make(chan *[]int32, 64)

// Get returns a zeroed buffer of n entries, recycled when a free one is
// big enough. Give it back with Put once nothing refers to it.
func Get(n int) *[]int32 {
	select {
	case p := <-free:
		if cap(*p) >= n {
			*p = (*p)[:n]
			clear(*p)
			return p
		}
	default:
	}
	s := make([]int32, n)
	return &s
}

// Put gives a buffer from Get back; it is dropped when 64 are free.
func Put(p *[]int32) {
	select {
	case free <- p:
	default:
	}
}
