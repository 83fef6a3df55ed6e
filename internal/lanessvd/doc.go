// Package lanessvd is the one-sided (Hestenes) Jacobi SVD's sweeps across
// matrices: a group of Lanes[T]() small n x n matrices interleaved one per
// 64-byte vector lane, orthogonalised column pair by column pair by one
// stream of operations on whole rows of lanes. Orders far too small to
// fill a vector with one matrix's column then still run every lane at
// once, and what differs between the matrices (which pairs rotate, which
// way a pair is stored) becomes a lane mask. It is the lanes kernel of
// package svd's sweeps. Across the same lanes it also checks and scales
// the input (Scale) and makes the singular values of a swept group
// (Values) for square groups; vectors, and the matrices these leave to
// the caller, are package svd's.
//
// Layout. Element (r, c) of lane l's matrix is at g[(c*n+r)*L+l], L =
// Lanes[T]() (8 float64 or 16 float32): column-major within the matrix,
// lane fastest, the columns tight (n vectors apart), as package lanes
// lays a group out with ld = n. Row i of a column is one vector, so the
// sums of a pair and its rotation walk two columns a vector at a time with
// no shuffles.
//
// Order. The pairs are visited row-cyclically, p = 0 .. n-2 and q = p+1 ..
// n-1, one after the other, as svd's per-matrix sweeps do (not in steps of
// disjoint pairs as lanes.Jacobi does): every lane runs the same pair, so
// the order costs nothing in parallelism here, and it keeps each lane's
// result what the per-matrix loop with the same arithmetic would give.
//
// Norms. Only a pair's product apq is summed from its columns. The
// squared norms app and aqq are summed for every column at the start of
// each sweep, kept in the assembly's frame (MaxOrder vectors a group),
// and updated after each rotation by the values it gives them in exact
// arithmetic, app' = app - t*apq and aqq' = aqq + t*apq (one fused
// multiply-add each), as LAPACK's xGESVJ does; summing them again at
// every pair was two of the pass's five multiply-adds a row. The updates
// drift by a few ulps within a sweep, which moves a rotation's angle by
// as little; the sweep that ends the iteration rotates nothing, so its
// test reads norms summed from the columns as they are, and a result is
// never declared converged on drifted norms. (At order 32, random
// float64 groups took the same number of sweeps, and gave singular values
// within a few ulps of the recomputed norms', on random, graded,
// rank-deficient and clustered matrices; two groups' values-only sweeps
// took 8% less time at order 32 and the same at 8 and 16, where the
// pair's chain of divisions and square roots bounds them.)
//
// Passes. Pair (p, q+1) shares column p with pair (p, q), so the pass
// that rotates (p, q) also sums (p, q+1): it stores each row of columns
// p and q and, from the row of p it has just stored and the row of q+1,
// adds that row's product to the next pair's apq. The next pair then
// costs no pass of its own, and the multiply-adds of the rotation and of
// the sum share one loop. The sum is the same operations in the same
// order as a pass of its own makes, so the same bits; a pair that
// follows one that rotated no lane, and the first pair of each p, get
// their own pass.
//
// Lanes. active names the lanes worked on; the others are never stored
// to and their contents (NaN, Inf, anything) meet only computations whose
// results are thrown away, so they cannot disturb the rest. A lane whose
// pair is converged is likewise left bit for bit: the assembly computes a
// rotation in every lane and stores the rotated columns under the mask of
// the rotating lanes (a rotation by c = 1, s = 0 would not do: 1*Inf -
// 0*x is NaN). A pair no lane rotates skips the rotation and the passes
// over the columns altogether, which is most pairs near convergence.
// A lane that rotated nothing in a sweep is unchanged by it, so the next
// sweep finds it converged again: a lane's result does not depend on how
// long the others take, and the iteration stops at the first sweep that
// rotates no lane.
//
// Arithmetic. Each sum (apq, and the norms at a sweep's start) is
// accumulated with fused multiply-adds from 0 in two parts, the even
// rows' in order and the odd rows', then the odd part added to the even
// one: two chains of half the rows, since the sum's latency bounds the
// pass. The convergence test is app < small || aqq < small ||
// |apq| <= (tol*sqrt(app))*sqrt(aqq), written so NaN fails it (a NaN lane
// keeps rotating and is reported, it is never taken as converged); the
// square roots come before the product, since app*aqq can overflow. 1 +
// zeta^2 is one fused multiply-add, fma(zeta, zeta, 1): one rounding
// instead of two, in one instruction. With r = sqrt(1 + zeta^2) and w =
// |zeta| + r, t = ±1/w and c = sqrt(w/(2r)), which equals 1/sqrt(1 + t^2)
// (1 + t^2 = 2rt): the divisions for t and for c are independent, where
// 1/sqrt(1 + t^2) waited on t, so a pair's chain of latencies is a
// division shorter (about 20% of the sweeps' time at order 8 on one core
// of the Zen 5 guest; two workers on its two vCPUs share one core's
// divider, and gain 5-10%). Where zeta^2 could overflow (|d| > big*|2
// apq|), r is |zeta|, which gives t = 1/(2 zeta) and c = 1. The rotated
// entries are x' = fma(-s, y, c*x) and y' = fma(c, y, s*x), each
// with one rounding of its sum. Divisions and square roots are the
// correctly rounded IEEE ones (VDIVPD, VSQRTPD; the Go twin's float32
// square root is float64's, rounded, which is the same).
//
// Two groups. Sweeps2 sweeps two groups in one instruction stream: each
// pair's chain of square roots and divisions is long and latency-bound,
// and while one group's chain runs the other group's column pass keeps
// the FMA units busy. Both groups walk the same pairs, and a step of the
// loop is the first group's rotation of (p, q), the second group's pass
// over its previous pair (which sums (p, q)), the second group's
// rotation of (p, q), then the first group's pass over it, so each chain
// has the other group's independent pass after it in the stream. Orders
// up to 4, whose passes are a few rows, run both groups' chains side by
// side, then both passes, which costs fewer branches (lockstepMax in
// sweeps_amd64.go gives the timings). Each group's work is exactly
// Sweeps' (the same operations, the same pairs skipped), and a group that
// has converged is swept on, unchanged, until the other has, so each
// gets the bits Sweeps gives it alone; its Go twin is Sweeps on each.
//
// On x86-64-v4 the sweeps are AVX-512 assembly (sweeps_amd64.s, written
// by gen.go: `go generate`; TestAssemblyIsGenerated checks the file is
// what gen.go writes). On x86-64-v3 (simd.AVX2 without simd.AVX512) they
// are AVX2 assembly (sweeps_avx2_amd64.s, written by gen_avx2.go): a
// 32-byte register holds half of a row of lanes, and one call sweeps both
// halves of a group, each pair's two chains of square roots and divisions
// side by side (Sweeps2 sweeps its groups one after the other there);
// Scale and Finish take half a group a call (edges_avx2_amd64.s). With
// -tags purego, or with neither switch set, the Go twin sweepsGo runs.
// The twin performs every arithmetic operation of the assembly, in the
// same order, with the same roundings (package fma for the fused ones),
// and skips the same pairs, so every path gives the same bits; the tests
// flip simd's switches (simdpath) to compare them on one machine. A
// change to one must be made to the others.
package lanessvd
