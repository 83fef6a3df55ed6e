package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// packedNC caps the columns of op(B) packed at once, so the packed B block
// (kc x packedNC) stays in L2/L3 for wide C. Like mc it changes neither the
// work nor the result, so it is not a field of its own.
const packedNC = 512

// packedMaxMC bounds the rows of op(A) packed per block: past a few hundred
// rows a bigger block saves nothing (each B panel is already reused by
// mc/mr micro-tiles) and only grows the workspace.
const packedMaxMC = 512

// packedDefaultL2 stands in for a device that does not report its L2 size
// (the per-core L2 of common x86-64 and arm64 cores).
const packedDefaultL2 = 512 << 10

// packedKC is the kc field of a packed choice: the depth of each k slice.
func packedKC(c sel.Choice) int { return c.Value(0) }

// packedMC is the number of rows of op(A) the packed kernel packs per
// block, for kb-deep slices of elemSize-byte elements on device d. It is
// not a field of the family because it changes neither the work nor the
// result: every element of C sums the same products in the same order for
// any mc (only kc splits the sum), so timing several mc would rank
// identical arithmetic by cache luck. What mc does change is how long the
// packed A block stays in cache while B's micro-panels stream past it, so
// it derives from the device's cache (a performance fact, never a gate):
// the largest multiple of mr whose mc x kb block takes about half of one
// core's L2, leaving the other half to the B panel and the C tiles,
// within [mr, packedMaxMC]. A device that does not report its L2 gets
// packedDefaultL2.
func packedMC(d *sel.Device, kb, elemSize int) int {
	l2 := packedDefaultL2
	if d != nil && d.L2 > 0 {
		l2 = d.L2
	}
	mc := l2 / 2 / (max(kb, 1) * elemSize) / mr * mr
	return min(max(mc, mr), packedMaxMC)
}

// packedBlocking is the blocking the packed kernel uses for choice c on a
// k-deep product of elemSize-byte elements on device d: the rows of op(A)
// per block (mc) and the depth of each k slice (kc). The workspace size and
// the kernel both ask it, so they agree for the same device. mc
// follows the first slice's depth min(kc, k), so two choices whose kc are
// both at least k block alike: they are twins there (twin).
func packedBlocking(c sel.Choice, d *sel.Device, elemSize, k int) (mc, kc int) {
	kc = packedKC(c)
	return packedMC(d, min(kc, k), elemSize), kc
}

// packedPerWorker is the scratch one worker needs for blocking mc, kc: an
// mc x kc block of op(A) and a kc x nc block of op(B), each trimmed to the
// problem.
func packedPerWorker(mc, kc, m, n, k int) int {
	kb := min(kc, k)
	// Sized for the widest tile (wide.go) whichever path runs: a multiple
	// of both shapes.
	mb := roundUp(min(mc, m), wideMaxMR)
	nb := roundUp(min(packedNC, n), wideMaxNR)
	return mb*kb + kb*nb
}

func roundUp(x, to int) int { return (x + to - 1) / to * to }

// packed runs the GotoBLAS loop nest on each matrix: for each kc-deep
// slice of k, pack a kc x nc block of op(B); for each mc-row block of
// op(A), pack it and sweep mr x nr micro-tiles over the block. mc comes
// from device d's cache (packedBlocking).
func packed[T batchlas.Float](ctx context.Context, p *problem[T], ch sel.Choice, d *sel.Device, ws []T) error {
	mc, kc := packedBlocking(ch, d, elemSize[T](), p.k)
	need := packedPerWorker(mc, kc, p.m, p.n, p.k)
	per := parallel.Pad(need)
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	slots := len(ws) / per
	set := func(j *job[T]) { j.mc, j.kc, j.need, j.per, j.ws = mc, kc, need, per, ws }
	if parts := splitParts(ctx, p, slots, flops); parts > 1 {
		return splitColumns(ctx, p, parts, slots, flops, runPacked, set)
	}
	// At most one worker per slot of ws, so w*per+need <= len(ws).
	j := parallel.Get[job[T]]()
	j.kernel, j.p = runPacked, *p
	set(j)
	err := parallel.RunScratch(ctx, p.c.Count, flops, slots, j)
	parallel.Put(j)
	return err
}

// packedOne multiplies one matrix with the scratch of one worker.
func packedOne[T batchlas.Float](p *problem[T], mc, kc int, scratch, a, b, c []T) {
	if mrw, nrw := wideShape[T](); mrw > 0 {
		packedOneWide(p, mc, kc, scratch, a, b, c, mrw, nrw)
		return
	}
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	for j0 := 0; j0 < n; j0 += packedNC {
		nb := min(packedNC, n-j0)
		for l0 := 0; l0 < k; l0 += kc {
			kb := min(kc, k-l0)
			beta := p.beta
			if l0 > 0 {
				beta = 1
			}
			bp := scratch[len(scratch)-kb*roundUp(nb, nr):]
			packB(bp, b, p.b.LD, p.transB, l0, kb, j0, nb)
			for i0 := 0; i0 < m; i0 += mc {
				mb := min(mc, m-i0)
				ap := scratch[:kb*roundUp(mb, mr)]
				if p.transA {
					packA(ap, a, p.a.LD, true, i0, mb, l0, kb)
				} else {
					packAN(ap, a, p.a.LD, i0, mb, l0, kb)
				}
				for jr := 0; jr < nb; jr += nr {
					bpan := bp[jr*kb:]
					for ir := 0; ir < mb; ir += mr {
						c0, c1, c2, c3, d0, d1, d2, d3 := microPacked(kb, ap[ir*kb:], bpan)
						storeTile(c[(j0+jr)*ldc+i0+ir:], ldc, min(mr, mb-ir), min(nr, nb-jr), p.alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					}
				}
			}
		}
	}
}
