package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
)

// bound is the c of every accuracy check: each residual, divided by its
// natural unit (a size times eps, times a norm), must be at most bound.
const bound = 64

// sentinel fills the padding of the outputs; it must be there after a
// call (Jacobi writes nothing outside the parts it owns).
const sentinel = -7777.25

var impl gonum.Implementation

// epsOf is T's machine epsilon as a float64.
func epsOf[T batchlas.Float]() float64 { return float64(epsilon[T]()) }

// typeName is "float32" or "float64".
func typeName[T batchlas.Float]() string {
	if is32[T]() {
		return "float32"
	}
	return "float64"
}

// jobName is the letter of a job.
func jobName(j Job) string { return string(rune(j)) }

var jobs = []Job{None, Thin, All}

// general is an m x n column-major float64 matrix, leading dimension m.
type general struct {
	m, n int
	d    []float64
}

func (g general) at(i, j int) float64 { return g.d[i+j*g.m] }

func newGeneral(m, n int) general { return general{m, n, make([]float64, m*n)} }

// randNormal is an m x n matrix of standard normal entries.
func randNormal(r *rand.Rand, m, n int) general {
	g := newGeneral(m, n)
	for i := range g.d {
		g.d[i] = r.NormFloat64()
	}
	return g
}

// mul is x * y.
func mul(x, y general) general {
	z := newGeneral(x.m, y.n)
	for j := 0; j < y.n; j++ {
		for l := 0; l < x.n; l++ {
			b := y.at(l, j)
			for i := 0; i < x.m; i++ {
				z.d[i+j*z.m] += x.at(i, l) * b
			}
		}
	}
	return z
}

// randOrthogonal is an n x n orthogonal matrix: the Q of gonum's QR of a
// normal matrix.
func randOrthogonal(r *rand.Rand, n int) general {
	q := randNormal(r, n, n)
	if n == 0 {
		return q
	}
	// Column-major q is row-major q^T; the Q of q^T is orthogonal too.
	tau := make([]float64, n)
	work := make([]float64, 64*n)
	impl.Dgeqrf(n, n, q.d, n, tau, work, len(work))
	impl.Dorgqr(n, n, n, q.d, n, tau, work, len(work))
	return q
}

// class is a kind of test matrix; scale is the factor of the scaled
// classes for T.
type class struct {
	name string
	make func(r *rand.Rand, m, n int, big, tiny float64) general
}

var classes = []class{
	{"normal", func(r *rand.Rand, m, n int, _, _ float64) general { return randNormal(r, m, n) }},
	{"graded", func(r *rand.Rand, m, n int, _, _ float64) general {
		// Columns scaled from 1e-8 to 1e8.
		g := randNormal(r, m, n)
		for j := 0; j < n; j++ {
			e := 0.0
			if n > 1 {
				e = -8 + 16*float64(j)/float64(n-1)
			}
			f := math.Pow(10, e)
			for i := 0; i < m; i++ {
				g.d[i+j*m] *= f
			}
		}
		return g
	}},
	{"rankdef", func(r *rand.Rand, m, n int, _, _ float64) general {
		// Rank min(m,n)/2 as a product.
		k := min(m, n) / 2
		return mul(randNormal(r, m, k), randNormal(r, k, n))
	}},
	{"repeated", func(r *rand.Rand, m, n int, _, _ float64) general {
		// Q1 diag(1,1,1,2,2,2,3,...) Q2^T: clusters of three equal values.
		d := newGeneral(m, n)
		for i := 0; i < min(m, n); i++ {
			d.d[i+i*m] = float64(1 + i/3)
		}
		q2 := randOrthogonal(r, n)
		q2t := newGeneral(n, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				q2t.d[i+j*n] = q2.at(j, i)
			}
		}
		return mul(mul(randOrthogonal(r, m), d), q2t)
	}},
	{"zero", func(_ *rand.Rand, m, n int, _, _ float64) general { return newGeneral(m, n) }},
	{"big", func(r *rand.Rand, m, n int, big, _ float64) general {
		g := randNormal(r, m, n)
		for i := range g.d {
			g.d[i] *= big
		}
		return g
	}},
	{"tiny", func(r *rand.Rand, m, n int, _, tiny float64) general {
		g := randNormal(r, m, n)
		for i := range g.d {
			g.d[i] *= tiny
		}
		return g
	}},
	{"split", func(r *rand.Rand, m, n int, _, tiny float64) general {
		// The last column tiny times the others: after the scaling its
		// squares underflow, so its norm takes colNorm's scaled sum.
		g := randNormal(r, m, n)
		for i := max(0, n-1) * m; i < n*m; i++ {
			g.d[i] *= tiny
		}
		return g
	}},
}

// scales returns the factors of the big and tiny classes for T.
func scales[T batchlas.Float]() (big, tiny float64) {
	if is32[T]() {
		return 1e30, 1e-30
	}
	return 1e300, 1e-300
}

// rounded is g with every entry rounded to T (the matrix the T test
// factors, and the one the float64 reference is computed from).
func rounded[T batchlas.Float](g general) general {
	h := general{g.m, g.n, make([]float64, len(g.d))}
	for i, x := range g.d {
		h.d[i] = float64(T(x))
	}
	return h
}

// refSV is gonum's singular values of g (float64, descending).
func refSV(g general) []float64 {
	m, n := g.m, g.n
	k := min(m, n)
	if k == 0 {
		return nil
	}
	// Column-major g with leading dimension m is row-major g^T (n x m),
	// which has the same singular values.
	a := append([]float64(nil), g.d...)
	s := make([]float64, k)
	var q [1]float64
	impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, n, m, a, m, s, nil, 1, nil, 1, q[:], -1)
	work := make([]float64, int(q[0]))
	if !impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, n, m, a, m, s, nil, 1, nil, 1, work, len(work)) {
		panic("gonum Dgesvd did not converge")
	}
	return s
}

// call is one kernel call's inputs and outputs, in padded storage.
type call[T batchlas.Float] struct {
	m, n         int
	jobu, jobvt  Job
	ucols, vrows int
	a            []T
	lda          int
	s            []T
	u, vt        []T
	ldu, ldvt    int
	work         []T
	info         int
	kernel       string // "jacobi" or "bidiag"
}

// kernels are the per-matrix kernels of the package, which share
// Jacobi's contract: the conformance tests run each.
var kernels = []string{"jacobi", "bidiag"}

// workSize is kernel's WorkSize.
func workSize[T batchlas.Float](kernel string, m, n int, jobu, jobvt Job) int {
	if kernel == "bidiag" {
		return BidiagWorkSize[T](m, n, jobu, jobvt)
	}
	return WorkSize[T](m, n, jobu, jobvt)
}

// newCall prepares a Jacobi call on g rounded to T: a with lda = m+2 and
// NaN in its padding rows, u and vt with padding rows holding sentinel,
// s with two sentinel elements after its k, work full of NaN.
func newCall[T batchlas.Float](g general, jobu, jobvt Job) *call[T] {
	return newCallOf[T]("jacobi", g, jobu, jobvt)
}

// newCallOf is newCall for the named kernel.
func newCallOf[T batchlas.Float](kernel string, g general, jobu, jobvt Job) *call[T] {
	m, n := g.m, g.n
	k := min(m, n)
	c := &call[T]{m: m, n: n, jobu: jobu, jobvt: jobvt, kernel: kernel}
	c.ucols, c.vrows = k, k
	if jobu == All {
		c.ucols = m
	}
	if jobvt == All {
		c.vrows = n
	}
	c.lda = m + 2
	c.a = make([]T, c.lda*max(n, 1))
	for i := range c.a {
		c.a[i] = T(math.NaN())
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			c.a[i+j*c.lda] = T(g.at(i, j))
		}
	}
	c.s = make([]T, k+2)
	for i := range c.s {
		c.s[i] = sentinel
	}
	c.ldu, c.ldvt = m+1, c.vrows+3
	if jobu != None {
		c.u = make([]T, c.ldu*max(c.ucols, 1))
	}
	if jobvt != None {
		c.vt = make([]T, c.ldvt*max(n, 1))
	}
	for i := range c.u {
		c.u[i] = sentinel
	}
	for i := range c.vt {
		c.vt[i] = sentinel
	}
	c.work = make([]T, workSize[T](kernel, m, n, jobu, jobvt))
	for i := range c.work {
		c.work[i] = T(math.NaN())
	}
	return c
}

// run calls the kernel.
func (c *call[T]) run() {
	if c.kernel == "bidiag" {
		c.info = Bidiag(c.m, c.n, c.a, c.lda, c.s, c.jobu, c.jobvt, c.u, c.ldu, c.vt, c.ldvt, c.work)
		return
	}
	c.info = Jacobi(c.m, c.n, c.a, c.lda, c.s, c.jobu, c.jobvt, c.u, c.ldu, c.vt, c.ldvt, c.work)
}

// uAt and vtAt read the outputs as float64.
func (c *call[T]) uAt(i, j int) float64  { return float64(c.u[i+j*c.ldu]) }
func (c *call[T]) vtAt(i, j int) float64 { return float64(c.vt[i+j*c.ldvt]) }

// checkUntouched fails t when a changed or the padding of s, u or vt no
// longer holds the sentinel.
func (c *call[T]) checkUntouched(t *testing.T, g general) {
	t.Helper()
	for j := 0; j < c.n; j++ {
		for i := 0; i < c.lda; i++ {
			x := c.a[i+j*c.lda]
			if i < c.m {
				if y := T(g.at(i, j)); x != y && (x == x || y == y) {
					t.Fatalf("a(%d,%d) changed", i, j)
				}
			} else if x == x {
				t.Fatalf("a's padding (%d,%d) changed", i, j)
			}
		}
	}
	k := min(c.m, c.n)
	for i := k; i < len(c.s); i++ {
		if c.s[i] != sentinel {
			t.Fatalf("s[%d] written beyond k = %d", i, k)
		}
	}
	for i, x := range c.u {
		if i%c.ldu >= c.m || i/c.ldu >= c.ucols {
			if x != sentinel {
				t.Fatalf("u written outside its %d x %d part at %d", c.m, c.ucols, i)
			}
		}
	}
	for i, x := range c.vt {
		if i%c.ldvt >= c.vrows || i/c.ldvt >= c.n {
			if x != sentinel {
				t.Fatalf("vt written outside its %d x %d part at %d", c.vrows, c.n, i)
			}
		}
	}
}

// stats keeps the worst value of each measured ratio and where it was.
type stats struct {
	worst map[string]float64
	where map[string]string
}

func newStats() *stats {
	return &stats{map[string]float64{}, map[string]string{}}
}

func (st *stats) add(name string, x float64, where string) {
	if cur, ok := st.worst[name]; !ok || x > cur || x != x {
		st.worst[name] = x
		st.where[name] = where
	}
}

func (st *stats) log(t *testing.T) {
	t.Helper()
	names := make([]string, 0, len(st.worst))
	for k := range st.worst {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("worst %-16s %8.3f  (%s)", k, st.worst[k], st.where[k])
	}
}

// frob is the Frobenius norm of the entries of x, without overflow.
func frob(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
	}
	return scale * math.Sqrt(ssq)
}

// orthoRatio is ||X^T X - I||_F / (size eps) for the p x q matrix X with
// entries at(i, j); 0 when q is 0.
func orthoRatio(p, q int, at func(i, j int) float64, size int, eps float64) float64 {
	if q == 0 {
		return 0
	}
	// X's columns copied once, contiguous: the products below read them
	// q times each (calling at in the inner loop was most of the tests'
	// time). X^T X is symmetric: each product off the diagonal counts
	// twice.
	x := make([]float64, p*q)
	for j := 0; j < q; j++ {
		for i := 0; i < p; i++ {
			x[j*p+i] = at(i, j)
		}
	}
	var e []float64
	for a := 0; a < q; a++ {
		xa := x[a*p : a*p+p]
		for b := a; b < q; b++ {
			d := 0.0
			for i, v := range x[b*p : b*p+p] {
				d += xa[i] * v
			}
			if a == b {
				d--
				e = append(e, d)
				continue
			}
			e = append(e, d, d)
		}
	}
	return frob(e) / (float64(size) * eps)
}

// check verifies the outputs of a successful call on g (the matrix
// already rounded to T) against the reference singular values ref, and
// records the ratios in st under where.
func (c *call[T]) check(t *testing.T, g general, ref []float64, st *stats, where string) {
	t.Helper()
	m, n := c.m, c.n
	k := min(m, n)
	eps := epsOf[T]()
	c.checkUntouched(t, g)
	if c.info != 0 {
		t.Fatalf("%s: info = %d, want 0", where, c.info)
	}
	// s: non-negative, descending, close to the reference.
	smax := 0.0
	if k > 0 {
		smax = ref[0]
	}
	for i := 0; i < k; i++ {
		x := float64(c.s[i])
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("%s: s[%d] = %v", where, i, x)
		}
		if i > 0 && x > float64(c.s[i-1]) {
			t.Fatalf("%s: s not descending at %d: %v > %v", where, i, x, c.s[i-1])
		}
		d := math.Abs(x - ref[i])
		if smax == 0 {
			if d != 0 {
				t.Fatalf("%s: s[%d] = %v of a zero matrix", where, i, x)
			}
			continue
		}
		r := d / (float64(max(m, n)) * eps * smax)
		st.add("sval", r, where)
		if !(r <= bound) {
			t.Errorf("%s: |s[%d] - gonum| = %.3g, ratio %.3g > %d (s %v, gonum %v)", where, i, d, r, bound, x, ref[i])
		}
	}
	if c.jobu != None {
		r := orthoRatio(m, c.ucols, c.uAt, max(m, n), eps)
		st.add("orthU", r, where)
		if !(r <= bound) {
			t.Errorf("%s: ||U^T U - I|| ratio %.3g > %d", where, r, bound)
		}
	}
	if c.jobvt != None {
		// V = VT^T: V^T V = VT VT^T.
		r := orthoRatio(n, c.vrows, func(i, j int) float64 { return c.vtAt(j, i) }, n, eps)
		st.add("orthV", r, where)
		if !(r <= bound) {
			t.Errorf("%s: ||V^T V - I|| ratio %.3g > %d", where, r, bound)
		}
	}
	if c.jobu != None && c.jobvt != None && k > 0 {
		// Residual on A and s scaled by one power of two (exact), so
		// that the big and tiny classes stay in the normal range.
		amax := 0.0
		for _, x := range g.d {
			amax = math.Max(amax, math.Abs(x))
		}
		_, ex := math.Frexp(amax)
		res := make([]float64, m*n)
		for j := 0; j < n; j++ {
			for i := 0; i < m; i++ {
				x := math.Ldexp(g.at(i, j), -ex)
				for l := 0; l < k; l++ {
					x -= c.uAt(i, l) * math.Ldexp(float64(c.s[l]), -ex) * c.vtAt(l, j)
				}
				res[i+j*m] = x
			}
		}
		an := frob(g.d)
		rn := frob(res)
		if an == 0 {
			if rn != 0 {
				t.Errorf("%s: residual %v of a zero matrix", where, rn)
			}
		} else {
			r := rn / (math.Ldexp(an, -ex) * float64(max(m, n)) * eps)
			st.add("resid", r, where)
			if !(r <= bound) {
				t.Errorf("%s: ||A - U S VT|| ratio %.3g > %d", where, r, bound)
			}
		}
	}
	c.checkSigns(t, where)
}

// checkSigns verifies the sign convention.
func (c *call[T]) checkSigns(t *testing.T, where string) {
	t.Helper()
	m, n := c.m, c.n
	k := min(m, n)
	colOK := func(j int) bool {
		return firstLargest(m, func(i int) float64 { return c.uAt(i, j) }) > 0
	}
	rowOK := func(j int) bool {
		return firstLargest(n, func(i int) float64 { return c.vtAt(j, i) }) > 0
	}
	for j := 0; j < k; j++ {
		switch {
		case c.jobu != None:
			if !colOK(j) {
				t.Errorf("%s: U's column %d has a negative largest entry", where, j)
			}
		case c.jobvt != None:
			if !rowOK(j) {
				t.Errorf("%s: VT's row %d has a negative largest entry", where, j)
			}
		}
	}
	if c.jobu == All {
		for j := k; j < m; j++ {
			if !colOK(j) {
				t.Errorf("%s: U's extra column %d has a negative largest entry", where, j)
			}
		}
	}
	if c.jobvt == All {
		for j := k; j < n; j++ {
			if !rowOK(j) {
				t.Errorf("%s: VT's extra row %d has a negative largest entry", where, j)
			}
		}
	}
}

// label names a case.
func label[T batchlas.Float](m, n int, cls string, jobu, jobvt Job) string {
	return fmt.Sprintf("%s %dx%d %s %s%s", typeName[T](), m, n, cls, jobName(jobu), jobName(jobvt))
}

// firstLargest is the first of the n entries x(i) of largest magnitude.
func firstLargest(n int, x func(i int) float64) float64 {
	best := 0.0
	for i := 0; i < n; i++ {
		if math.Abs(x(i)) > math.Abs(best) {
			best = x(i)
		}
	}
	return best
}
