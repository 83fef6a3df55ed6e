package syev

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// queueRotations is how many rotations, per unit of the order n, steqr
// queues before it applies them to the eigenvectors. Applied one sequence
// at a time, each QL/QR sweep streams all of z from memory once z outgrows
// L2 (n = 512 float64 is 2 MiB): 12 GFLOP/s on one core, and no faster on
// two. Queued, a block of rows goes through every queued sequence while
// it sits in cache.
const queueRotations = 16

// steqrWork is the scratch steqr needs at order n: the current sweep's
// rotations and the queue's.
func steqrWork(n int) int { return 2*n + 2*queueRotations*n }

// rotSeq is one queued sequence: k-1 rotations on the column pairs from
// col0, forward or backward (vec.RotForward, vec.RotBackward), their c
// and s at off in the queue's buffers.
type rotSeq struct {
	forward      bool
	col0, k, off int
}

// queueSequences bounds the sequences one queue holds (short ones fill
// it before its rotations do).
const queueSequences = 64

// rotQueue holds the rotation sequences of steqr's iterations until they
// are applied to z (n x n, leading dimension ld) together: each row sees
// the same sequences in the same order as if they were applied one by
// one, so the bits are the same; only the order in which the rows go
// through them changes.
type rotQueue[T batchlas.Float] struct {
	z     []T
	ld, n int
	c, s  []T // queueRotations*n each
	used  int
	seqs  [queueSequences]rotSeq
	nseq  int
}

// newRotQueue makes the queue of z (n x n, leading dimension ld) in buf
// (2*queueRotations*n elements).
func newRotQueue[T batchlas.Float](z []T, ld, n int, buf []T) rotQueue[T] {
	m := queueRotations * n
	return rotQueue[T]{z: z, ld: ld, n: n, c: buf[:m], s: buf[m : 2*m]}
}

// push queues the sequence of k-1 rotations (c, s) on the column pairs
// from col0, applying the queue first when it has no room for it.
func (q *rotQueue[T]) push(forward bool, col0, k int, c, s []T) {
	r := k - 1
	if q.used+r > len(q.c) || q.nseq == len(q.seqs) {
		q.flush()
	}
	copy(q.c[q.used:], c[:r])
	copy(q.s[q.used:], s[:r])
	q.seqs[q.nseq] = rotSeq{forward, col0, k, q.used}
	q.nseq++
	q.used += r
}

// flush applies the queued sequences to z and empties the queue: the rows
// in blocks of four vectors (what the kernels carry in registers), each
// block through every sequence in order while it is in cache.
func (q *rotQueue[T]) flush() {
	block := 4 * vec.Width[T]()
	ld := q.ld
	for r0 := 0; r0 < q.n; r0 += block {
		rows := min(block, q.n-r0)
		for _, sq := range q.seqs[:q.nseq] {
			z := q.z[sq.col0*ld+r0:]
			c, s := q.c[sq.off:sq.off+sq.k-1], q.s[sq.off:sq.off+sq.k-1]
			if sq.forward {
				vec.RotForward(z, ld, rows, sq.k, c, s)
			} else {
				vec.RotBackward(z, ld, rows, sq.k, c, s)
			}
		}
	}
	q.nseq, q.used = 0, 0
}
