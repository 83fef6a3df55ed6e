package matinv

// chain's pivots live in buffers recycled here rather than in
// internal/infobuf: infobuf also holds the info buffers (one int32 per
// matrix) and drops a recycled buffer too small for the request, so pivot
// buffers (n per matrix) alternating with info buffers would allocate on
// calls with the workspace supplied. Here every buffer is a pivot buffer
// and the sizes settle at the largest batch seen.

// freePivots holds the pivot buffers given back.
var freePivots = make(chan []int32, 8)

// getPivots returns a buffer of n pivots, recycled when a free one is
// big enough. Its contents are whatever the last user left: getrf writes
// every pivot before anything reads one.
func getPivots(n int) []int32 {
	select {
	case p := <-freePivots:
		if cap(p) >= n {
			return p[:n]
		}
	default:
	}
	return make([]int32, n)
}

// putPivots gives a buffer from getPivots back; it is dropped when 8 are
// free.
func putPivots(p []int32) {
	select {
	case freePivots <- p:
	default:
	}
}
