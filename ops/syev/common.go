package syev

import (
	"cmp"
	"math"
	"slices"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// This file is the one place that decides what every kernel shares: which
// elements are read, the NaN/Inf check and its info code, the scaling into
// a safe range, the ascending order, the sign convention, the iteration
// limits and what is written back. A kernel only turns a full symmetric
// copy into eigenvalues (and vectors) or a non-convergence count.

// Iteration limits. They are variables so that the package's tests can make
// a kernel give up early and check the non-convergence report; nothing
// else writes them.
var (
	// jacobiSweeps is the most sweeps (each over every off-diagonal pair)
	// the jacobi kernel makes.
	jacobiSweeps = 30
	// qlIterPerOrder bounds the implicit QL/QR iterations at
	// qlIterPerOrder*n for a tridiagonal matrix of order n (LAPACK's
	// 30*n).
	qlIterPerOrder = 30
)

// nanInfo is the info of a matrix whose read triangle holds a NaN or an
// infinity: n+1, outside the range 1..n of the non-convergence counts, the
// same for every kernel. Nothing is computed for such a matrix.
func nanInfo(n int) int32 { return int32(n + 1) }

// overflowInfo is the info of a finite matrix an eigenvalue of which is
// not a finite number of T (its magnitude is above the largest, which the
// eigenvalues of a matrix with entries within a factor n of it can be):
// n+2, the same for every kernel. Nothing is written for such a matrix.
// The kernels compute on a copy scaled into a safe range, so the
// eigenvalues exist; returning them as infinities, as scaling them back
// gives, would pass an overflow off as an answer.
func overflowInfo(n int) int32 { return int32(n + 2) }

// The machine constants of T, as LAPACK names them: eps is the unit
// round-off, safmin the smallest normal number.
func epsOf[T batchlas.Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-24)
	}
	return T(0x1p-53)
}

func safminOf[T batchlas.Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(0x1p-126)
	}
	tiny := 0x1p-1022
	return T(tiny)
}

func maxOf[T batchlas.Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(math.MaxFloat32)
	}
	big := math.MaxFloat64
	return T(big)
}

// abs is |x|, clearing the sign bit: a branch on the sign mispredicts on
// random data, and load calls abs on every entry it reads.
func abs[T batchlas.Float](x T) T { return T(math.Abs(float64(x))) }

func sqrt[T batchlas.Float](x T) T { return T(math.Sqrt(float64(x))) }

// hypot is sqrt(x*x + y*y) without overflow or needless underflow,
// correctly rounded to T from float64 for float32.
func hypot[T batchlas.Float](x, y T) T { return T(math.Hypot(float64(x), float64(y))) }

// sign is |a| with the sign of b (Fortran's SIGN; +0 counts as positive).
func sign[T batchlas.Float](a, b T) T {
	a = abs(a)
	if b < 0 || (b == 0 && math.Signbit(float64(b))) {
		return -a
	}
	return a
}

// scaleRange is the range [rmin, rmax] LAPACK's xSYEV scales a matrix's
// largest entry into: sqrt(safmin/eps) and its reciprocal.
func scaleRange[T batchlas.Float]() (rmin, rmax T) {
	small := float64(safminOf[T]()) / float64(epsOf[T]())
	return T(math.Sqrt(small)), T(math.Sqrt(1 / small))
}

// load reads the uplo triangle of the n x n column-major matrix m (leading
// dimension ld) into s, a full symmetric n x n copy with leading dimension
// n (both triangles written, the other triangle of m never read), its
// element (r, c) at s[(c*sld+r)*inc]: sld is n and inc 1 for a matrix of
// its own; for a lane of an interleaved group, the group's column stride
// and lane count (s starting at the lane). When the triangle holds a NaN or an infinity it returns ok =
// false and s is zeroed. Otherwise, when the largest magnitude lies
// outside scaleRange, s is multiplied by sigma, a power of two chosen so
// that it lies inside (exact, barring underflow of entries far below the
// largest), and sigma is returned (1 when no scaling was needed): the
// eigenvalues of s are sigma times those of m, its eigenvectors the same.
func load[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int, s []T, sld, inc int) (sigma T, ok bool) {
	s = s[:((n-1)*sld+n-1)*inc+1]
	var anrm T
	big, bad := maxOf[T](), false
	for c := 0; c < n; c++ {
		lo, hi := c, n // the rows of column c in the triangle
		if uplo == batchlas.Upper {
			lo, hi = 0, c+1
		}
		for r, v := range m[c*ld+lo : c*ld+hi] {
			s[(c*sld+r+lo)*inc] = v
			if a := abs(v); !(a <= big) {
				bad = true // NaN or +Inf
			} else if a > anrm {
				anrm = a
			}
		}
	}
	if bad {
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				s[(c*sld+r)*inc] = 0
			}
		}
		return 0, false
	}
	mirror(uplo, s, sld, n, inc)
	if sigma = scaleFor(anrm); sigma != 1 {
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				s[(c*sld+r)*inc] *= sigma
			}
		}
	}
	return sigma, true
}

// mirrorTile is the side of the square tiles mirror copies through: a
// tile's rows and columns both stay in L1, where mirroring a whole column
// at once wrote one line per entry down a row (26 ms of a 160 ms jobz=N
// call at n = 1024, float64).
const mirrorTile = 32

// mirror copies the uplo triangle of s (n x n, element (r, c) at
// s[(c*sld+r)*inc]) onto the other one, tile by tile.
func mirror[T batchlas.Float](uplo batchlas.Uplo, s []T, sld, n, inc int) {
	for c0 := 0; c0 < n; c0 += mirrorTile {
		for r0 := c0; r0 < n; r0 += mirrorTile {
			// The tile of rows r0.. and columns c0.. of the lower
			// triangle and its transpose in the upper one.
			for c := c0; c < min(n, c0+mirrorTile); c++ {
				for r := max(r0, c+1); r < min(n, r0+mirrorTile); r++ {
					lower, upper := (c*sld+r)*inc, (r*sld+c)*inc
					if uplo == batchlas.Upper {
						s[lower] = s[upper]
					} else {
						s[upper] = s[lower]
					}
				}
			}
		}
	}
}

// scan is load's verdict on the uplo triangle of the n x n matrix m
// (leading dimension ld) without the copy: ok = false when it holds a NaN
// or an infinity, else the scale factor sigma (1 when its largest
// magnitude lies within scaleRange).
func scan[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int) (sigma T, ok bool) {
	var anrm T
	big := maxOf[T]()
	for c := 0; c < n; c++ {
		lo, hi := c, n
		if uplo == batchlas.Upper {
			lo, hi = 0, c+1
		}
		for _, v := range m[c*ld+lo : c*ld+hi] {
			if a := abs(v); !(a <= big) {
				return 0, false // NaN or +Inf
			} else if a > anrm {
				anrm = a
			}
		}
	}
	return scaleFor(anrm), true
}

// scaleFor is the scale factor of a matrix whose largest magnitude is
// anrm (finite): 1 when anrm lies within scaleRange (or is 0), else the
// power of two that brings it inside.
func scaleFor[T batchlas.Float](anrm T) T {
	rmin, rmax := scaleRange[T]()
	switch {
	case anrm > 0 && anrm < rmin:
		return pow2Toward(anrm, rmin)
	case anrm > rmax:
		return pow2Toward(anrm, rmax)
	}
	return 1
}

// pow2Toward is the power of two sigma that brings x to about target: x's
// and target's binary exponents differ by k, sigma = 2^k, so x*sigma lies
// within a factor of two of target, on its side of the safe range.
func pow2Toward[T batchlas.Float](x, target T) T {
	_, ex := math.Frexp(float64(x))
	_, et := math.Frexp(float64(target))
	return T(math.Ldexp(1, et-ex))
}

// finish is the shared epilogue of a matrix whose kernel succeeded: d holds
// its n eigenvalues (of the scaled copy) and z, when not nil, the matching
// eigenvectors as columns (n x n, leading dimension ldz). It sorts them into
// ascending order, applies the sign convention, undoes the scaling and
// writes the eigenvalues to w and the vectors over the matrix m (leading
// dimension ld), both triangles, and returns 0; or, when an eigenvalue
// scaled back is not a finite number of T, writes nothing and returns
// overflowInfo(n).
func finish[T batchlas.Float](d, z []T, ldz, n int, sigma T, w, m []T, ld int) int32 {
	inv := 1 / sigma // exact: sigma is a power of two
	big := maxOf[T]()
	for _, v := range d[:n] {
		// A matrix scaled down from near overflow can have eigenvalues
		// beyond it (up to n times its largest entry); and a NaN is never
		// an answer.
		if !(abs(v*inv) <= big) {
			return overflowInfo(n)
		}
	}
	sortAscending(d, z, ldz, n)
	if z != nil {
		fixSigns(z, ldz, n)
	}
	for j, v := range d[:n] {
		w[j] = v * inv
	}
	if z != nil {
		for c := 0; c < n; c++ {
			copy(m[c*ld:c*ld+n], z[c*ldz:c*ldz+n])
		}
	}
	return 0
}

// sortAscending orders d[:n] ascending, by selection sort swapping the
// columns of z (n x n, leading dimension ldz) alike when z is not nil: the
// fewest column swaps, as LAPACK's xSTEQR does. Equal values keep their
// order (-0 counts as below +0). The minimum is searched on orderKey, so
// that the search compiles to conditional moves rather than branches
// that mispredict on unsorted data.
func sortAscending[T batchlas.Float](d, z []T, ldz, n int) {
	if z == nil && n > 32 {
		// Values alone: no column to move, so an O(n log n) sort once n
		// is large enough to repay its calls. orderKey is one-to-one, so
		// equal keys are equal bits and the order among them cannot show.
		slices.SortFunc(d[:n], func(x, y T) int { return cmp.Compare(orderKey(x), orderKey(y)) })
		return
	}
	for i := 0; i < n-1; i++ {
		k, pk := i, orderKey(d[i])
		for j := i + 1; j < n; j++ {
			if key := orderKey(d[j]); key < pk {
				k, pk = j, key
			}
		}
		if k == i {
			continue
		}
		d[k], d[i] = d[i], d[k]
		if z != nil {
			ci, ck := z[i*ldz:i*ldz+n], z[k*ldz:k*ldz+n]
			for r := range ci {
				ci[r], ck[r] = ck[r], ci[r]
			}
		}
	}
}

// orderKey maps a number that is not NaN to an integer that orders as it
// does: the float64 bits with the sign bit set for a positive number and
// all bits flipped for a negative one.
func orderKey[T batchlas.Float](x T) uint64 {
	b := math.Float64bits(float64(x))
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// fixSigns applies the sign convention to the n columns of z (leading
// dimension ldz): each column's entry of largest magnitude (the first of
// them on a tie) is made positive by negating the column if needed.
func fixSigns[T batchlas.Float](z []T, ldz, n int) {
	for c := 0; c < n; c++ {
		col := z[c*ldz : c*ldz+n]
		if largestIsNegative(col) {
			for r := range col {
				col[r] = -col[r]
			}
		}
	}
}

// largestIsNegative reports whether the entry of largest magnitude of x
// (the first of them on a tie) is negative. It compares magnitudes as the
// integers of their float64 bits, which order like the values (x holds no
// NaN), so that the loop compiles to conditional moves: the winner's place
// is data-dependent and a branch on it mispredicts half the time.
func largestIsNegative[T batchlas.Float](x []T) bool {
	var best, neg uint64
	for _, v := range x {
		b := math.Float64bits(float64(v))
		if mag := b &^ (1 << 63); mag > best {
			best, neg = mag, b>>63
		}
	}
	return neg != 0
}

// nrm2 is the Euclidean norm of x, scaled when a plain sum of squares
// would overflow or lose accuracy to underflow. The plain sum is vec.Dot:
// a sum in one register chain waited four cycles per entry, which made
// nrm2 a tenth of a one-matrix reduction at n = 256.
func nrm2[T batchlas.Float](x []T) T {
	var amax T
	for _, v := range x {
		if a := abs(v); a > amax {
			amax = a
		}
	}
	if amax == 0 {
		return 0
	}
	lo, hi := scaleRange[T]()
	if amax > lo && amax < hi/T(len(x)) {
		return sqrt(vec.Dot(x, x))
	}
	var s T
	for _, v := range x {
		t := v / amax
		s += t * t
	}
	return amax * sqrt(s)
}

// larfg generates an elementary reflector H = I - tau*v*v^T with
// H*[alpha; x] = [beta; 0] and v = [1; x'], as LAPACK's xLARFG: x is
// overwritten with x' and (beta, tau) returned. tau = 0 (H = I) when x is
// zero. Tiny columns are rescaled a bounded number of times.
func larfg[T batchlas.Float](alpha T, x []T) (beta, tau T) {
	if len(x) == 0 {
		return alpha, 0
	}
	xnorm := nrm2(x)
	if xnorm == 0 {
		return alpha, 0
	}
	beta = -sign(hypot(alpha, xnorm), alpha)
	small := safminOf[T]() / epsOf[T]()
	rsmall := 1 / small
	knt := 0
	for abs(beta) < small && knt < 20 {
		knt++
		for j := range x {
			x[j] *= rsmall
		}
		beta *= rsmall
		alpha *= rsmall
		if abs(beta) >= small {
			break
		}
	}
	if knt > 0 {
		xnorm = nrm2(x)
		beta = -sign(hypot(alpha, xnorm), alpha)
	}
	tau = (beta - alpha) / beta
	scal := 1 / (alpha - beta)
	for j := range x {
		x[j] *= scal
	}
	for ; knt > 0; knt-- {
		beta *= small
	}
	return beta, tau
}

// lartg generates a plane rotation with c*f + s*g = r, -s*f + c*g = 0,
// c >= 0 (LAPACK 3.10's xLARTG, with safe scaling).
func lartg[T batchlas.Float](f, g T) (c, s, r T) {
	if g == 0 {
		return 1, 0, f
	}
	g1 := abs(g)
	if f == 0 {
		return 0, sign(1, g), g1
	}
	safmin := safminOf[T]()
	safmax := 1 / safmin
	rtmin := sqrt(safmin)
	rtmax := sqrt(safmax / 2)
	f1 := abs(f)
	if rtmin < f1 && f1 < rtmax && rtmin < g1 && g1 < rtmax {
		d := sqrt(f*f + g*g)
		c = f1 / d
		r = sign(d, f)
		s = g / r
		return c, s, r
	}
	u := min(max(safmin, max(f1, g1)), safmax)
	fs, gs := f/u, g/u
	d := sqrt(fs*fs + gs*gs)
	c = abs(fs) / d
	r = sign(d, f)
	s = gs / r
	return c, s, r * u
}

// lae2 returns the eigenvalues of [a b; b c], rt1 of the larger magnitude
// (LAPACK's xLAE2).
func lae2[T batchlas.Float](a, b, c T) (rt1, rt2 T) {
	rt1, rt2, _, _ = laev2(a, b, c, false)
	return rt1, rt2
}

// laev2 returns the eigendecomposition of [a b; b c] (LAPACK's xLAEV2):
// the eigenvalues, rt1 of the larger magnitude, and when vectors is set
// the unit right eigenvector (cs1, sn1) of rt1.
func laev2[T batchlas.Float](a, b, c T, vectors bool) (rt1, rt2, cs1, sn1 T) {
	sm := a + c
	df := a - c
	adf := abs(df)
	tb := b + b
	ab := abs(tb)
	acmx, acmn := c, a
	if abs(a) > abs(c) {
		acmx, acmn = a, c
	}
	var rt T
	switch {
	case adf > ab:
		q := ab / adf
		rt = adf * sqrt(1+q*q)
	case adf < ab:
		q := adf / ab
		rt = ab * sqrt(1+q*q)
	default:
		rt = ab * T(math.Sqrt2)
	}
	var sgn1 T
	switch {
	case sm < 0:
		rt1 = (sm - rt) / 2
		sgn1 = -1
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	case sm > 0:
		rt1 = (sm + rt) / 2
		sgn1 = 1
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	default:
		rt1 = rt / 2
		rt2 = -rt / 2
		sgn1 = 1
	}
	if !vectors {
		return rt1, rt2, 0, 0
	}
	var cs, sgn2 T
	if df >= 0 {
		cs = df + rt
		sgn2 = 1
	} else {
		cs = df - rt
		sgn2 = -1
	}
	if abs(cs) > ab {
		ct := -tb / cs
		sn1 = 1 / sqrt(1+ct*ct)
		cs1 = ct * sn1
	} else if ab == 0 {
		cs1, sn1 = 1, 0
	} else {
		tn := -cs / tb
		cs1 = 1 / sqrt(1+tn*tn)
		sn1 = tn * cs1
	}
	if sgn1 == sgn2 {
		cs1, sn1 = -sn1, cs1
	}
	return rt1, rt2, cs1, sn1
}
