package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const peersSynopsis = "peers [flags]   e.g. peers --shapes default --markdown"

// peersScript is the numpy side of the peer benchmark, relative to the
// module root. It reads the cases as JSON on stdin and answers with JSON.
const peersScript = "tools/peers/numpy_peers.py"

// The call shapes of the peer benchmark, one per line as `bench` takes
// them: op, dtype, keys. They are defined here only; the numpy script gets
// them as JSON. An op this build of the tuner has no measurement for (syev,
// before its package lands) is skipped with a note, so the list can name
// ops ahead of them.
var defaultPeerShapes = []string{
	"gemm float64 ta=N tb=N m=8 n=8 k=8 batch=65536",
	"gemm float64 ta=N tb=N m=32 n=32 k=32 batch=8192",
	"gemm float64 ta=N tb=N m=64 n=64 k=64 batch=2048",
	"gemm float64 ta=N tb=N m=128 n=128 k=128 batch=1000",
	"gemm float64 ta=N tb=N m=1024 n=1024 k=1024 batch=1",
	"gemm float32 ta=N tb=N m=8 n=8 k=8 batch=65536",
	"gemm float32 ta=N tb=N m=32 n=32 k=32 batch=8192",
	"gemm float32 ta=N tb=N m=64 n=64 k=64 batch=2048",
	"gemm float32 ta=N tb=N m=128 n=128 k=128 batch=1000",
	"gemm float32 ta=N tb=N m=1024 n=1024 k=1024 batch=1",
	"gemm float64 ta=T tb=N m=32 n=32 k=32 batch=8192",
	"gemm float32 ta=T tb=N m=32 n=32 k=32 batch=8192",
	// A Kalman filter's H*P: C with few rows and many columns.
	"gemm float64 ta=N tb=N m=4 n=64 k=64 batch=4096",
	"gemm float32 ta=N tb=N m=4 n=64 k=64 batch=4096",
	"potrf float64 uplo=L n=8 batch=65536",
	"potrf float64 uplo=L n=32 batch=8192",
	"potrf float64 uplo=L n=128 batch=1000",
	"potrf float64 uplo=L n=256 batch=64",
	"trsm float64 side=L uplo=L ta=N diag=N m=32 n=32 batch=8192",
	"gesv float64 n=8 nrhs=1 batch=65536",
	"gesv float64 n=32 nrhs=4 batch=8192",
	"gesv float64 n=128 nrhs=16 batch=512",
	"posv float64 uplo=L n=8 nrhs=1 batch=65536",
	"posv float64 uplo=L n=32 nrhs=4 batch=8192",
	"posv float64 uplo=L n=128 nrhs=16 batch=512",
	"syev float64 jobz=V uplo=L n=4 batch=100000",
	"syev float64 jobz=V uplo=L n=8 batch=65536",
	"syev float64 jobz=V uplo=L n=16 batch=16384",
	"syev float64 jobz=V uplo=L n=32 batch=4096",
	"syev float64 jobz=V uplo=L n=64 batch=512",
	"syev float64 jobz=V uplo=L n=128 batch=64",
	"syev float64 jobz=N uplo=L n=4 batch=100000",
	"syev float64 jobz=N uplo=L n=8 batch=65536",
	"syev float64 jobz=N uplo=L n=16 batch=16384",
	"syev float64 jobz=N uplo=L n=32 batch=4096",
	"syev float64 jobz=N uplo=L n=64 batch=512",
	"syev float64 jobz=N uplo=L n=128 batch=64",
	// QR: the factorisation alone against numpy's R, and with Q formed
	// (geqrf then orgqr, timed as one call of linalg.QR) against
	// np.linalg.qr; least squares of tall systems.
	"geqrf float64 m=8 n=8 batch=65536",
	"geqrf float64 m=32 n=32 batch=4096",
	"geqrf float64 m=128 n=128 batch=256",
	"geqrf float64 m=256 n=32 batch=2000",
	"qr float64 m=8 n=8 batch=65536",
	"qr float64 m=32 n=32 batch=4096",
	"qr float64 m=128 n=128 batch=256",
	"qr float64 m=256 n=32 batch=2000",
	// The Gram matrix A*A^T's lower triangle (syrk) against numpy's full
	// product.
	"syrk float64 uplo=L trans=N n=32 k=32 batch=8192",
	"syrk float64 uplo=L trans=N n=128 k=128 batch=500",
	// A triangle times a block (trmm) against numpy's tril and matmul.
	"trmm float64 side=L uplo=L ta=N diag=N m=32 n=32 batch=8192",
	// The inverse (linalg.Inv on the matinv op), timed as one call with
	// its output allocated, against np.linalg.inv.
	"inv float64 n=3 batch=100000",
	"inv float64 n=8 batch=65536",
	"inv float64 n=32 batch=4096",
	"inv float64 n=128 batch=256",
	// The matinv op alone, into an output the program keeps between
	// calls (as `bench` times every op): the inverse against its copy
	// floor, which allocates nothing either.
	"matinv float64 n=3 batch=100000",
	"matinv float64 n=8 batch=65536",
	// The SPD inverse (linalg.InvSPD on the poinv op), against
	// np.linalg.inv on the same SPD matrices.
	"invspd float64 uplo=L n=32 batch=4096",
	"invspd float64 uplo=L n=128 batch=256",
	"gels float64 m=64 n=8 nrhs=1 batch=20000",
	"gels float64 m=32 n=32 nrhs=4 batch=4096",
	// The SVD with the thin vectors (np.linalg.svd(a,
	// full_matrices=False)) and of the values alone (compute_uv=False).
	"gesvd float64 vectors=V m=3 n=3 batch=100000",
	"gesvd float64 vectors=V m=8 n=8 batch=65536",
	"gesvd float64 vectors=V m=32 n=32 batch=4096",
	"gesvd float64 vectors=V m=128 n=128 batch=64",
	"gesvd float64 vectors=V m=64 n=8 batch=20000",
	"gesvd float64 vectors=N m=3 n=3 batch=100000",
	"gesvd float64 vectors=N m=8 n=8 batch=65536",
	"gesvd float64 vectors=N m=32 n=32 batch=4096",
	"gesvd float64 vectors=N m=128 n=128 batch=64",
	"gesvd float64 vectors=N m=64 n=8 batch=20000",
}

// peerShapes returns the shape list of --shapes: default, or all (the
// default list and a float32 twin of every float64 shape it lacks one of).
func peerShapes(name string) ([]string, error) {
	switch name {
	case "default":
		return slices.Clone(defaultPeerShapes), nil
	case "all":
		out := slices.Clone(defaultPeerShapes)
		for _, s := range defaultPeerShapes {
			op, rest, _ := strings.Cut(s, " ")
			dt, keys, _ := strings.Cut(rest, " ")
			if dt != string(sel.Float64) {
				continue
			}
			twin := op + " " + string(sel.Float32) + " " + keys
			if !slices.Contains(out, twin) {
				out = append(out, twin)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("--shapes: %s: want default or all", quote.Q(name))
}

// peerCase is one call shape as the numpy script reads it (and, decoded
// back, as the tests check it): every key value is text, as on the
// command line.
type peerCase struct {
	Op       string            `json:"op"`
	DType    sel.DType         `json:"dtype"`
	Keys     map[string]string `json:"keys"`
	Reps     int               `json:"reps"`
	TargetMS float64           `json:"target_ms"`
	Seed     uint64            `json:"seed"`
	// SteadyFresh and SteadyMax are steadyCall's constants: the script
	// repeats its sizing call by the same rule, counting its page faults.
	SteadyFresh int `json:"steady_fresh"`
	SteadyMax   int `json:"steady_max"`
}

// numpyResult is the numpy script's answer for one case: the time of its
// fastest recipe (Recipe, spelled Call), or why there is none, and every
// recipe it tried.
type numpyResult struct {
	MS     float64    `json:"ms"`
	Calls  int        `json:"calls"`
	Call   string     `json:"call"`
	Recipe string     `json:"recipe,omitempty"`
	Tried  []numpyTry `json:"tried,omitempty"`
	Error  string     `json:"error,omitempty"`
}

// numpyTry is one recipe of a case as the script timed it: its time, or
// (Screened) the time of one call that put it past the script's screening
// ratio, or why it failed.
type numpyTry struct {
	Recipe   string  `json:"recipe"`
	Call     string  `json:"call"`
	MS       float64 `json:"ms,omitempty"`
	Calls    int     `json:"calls,omitempty"`
	Screened bool    `json:"screened,omitempty"`
	Error    string  `json:"error,omitempty"`
}

// numpyReport is the numpy script's whole answer.
type numpyReport struct {
	Numpy   string        `json:"numpy"`
	Scipy   string        `json:"scipy"`
	BLAS    string        `json:"blas"`
	Results []numpyResult `json:"results"`
}

// peerRun is a shape of the list this tuner can time: its op's tuner, the
// dtype and the cell.
type peerRun struct {
	t  *opTuner
	dt sel.DType
	c  cell
	// comp is the composite the shape names (composite.go), nil for an
	// op; t is then the first op of its chain, whose keys it takes.
	comp *peerComposite
}

// name is the shape's op word: the op's, or the composite's.
func (r peerRun) name() string {
	if r.comp != nil {
		return r.comp.name
	}
	return r.t.op.Name()
}

func (r peerRun) String() string { return r.name() + " " + string(r.dt) + " " + r.c.String() }

// flops is the work of one call of the shape.
func (r peerRun) flops() float64 {
	if r.comp != nil {
		return compositeFlops(r.comp, r.c)
	}
	return r.t.flops(r.c)
}

// peerCaseOf is the JSON case of a shape.
func peerCaseOf(r peerRun, ms measureSettings) peerCase {
	keys := map[string]string{}
	for i, k := range r.c.keys {
		keys[k.Name] = r.c.vals[i]
	}
	return peerCase{
		Op: r.name(), DType: r.dt, Keys: keys,
		Reps:        ms.proto.reps,
		TargetMS:    float64(ms.proto.target) / float64(time.Millisecond),
		Seed:        ms.seed,
		SteadyFresh: steadyFresh,
		SteadyMax:   steadyMax,
	}
}

// encodePeerCases writes the cases as the numpy script reads them.
func encodePeerCases(cases []peerCase) ([]byte, error) { return json.Marshal(cases) }

// decodePeerCases reads cases back.
func decodePeerCases(data []byte) ([]peerCase, error) {
	var out []peerCase
	err := json.Unmarshal(data, &out)
	return out, err
}

// decodeNumpyReport reads the numpy script's answer, which must hold
// exactly one result per case (an extra result would shift every later
// one onto the wrong shape), and checks each result: a time is finite and
// positive from at least one call, and it is the fastest recipe the
// script timed fully (checkNumpyResult).
func decodeNumpyReport(data []byte, cases int) (numpyReport, error) {
	var rep numpyReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return rep, fmt.Errorf("reading the numpy script's answer: %s", quote.Message(err.Error()))
	}
	if len(rep.Results) != cases {
		return rep, fmt.Errorf("the numpy script answered %d results for %d cases", len(rep.Results), cases)
	}
	for i, r := range rep.Results {
		if err := checkNumpyResult(r); err != nil {
			return rep, fmt.Errorf("the numpy script's result %d: %w", i+1, err)
		}
	}
	return rep, nil
}

// checkNumpyResult refuses a result the table cannot show as numpy's
// fastest way to do the job.
func checkNumpyResult(r numpyResult) error {
	if r.Error != "" {
		return nil
	}
	if !(r.MS > 0) || math.IsInf(r.MS, 0) || r.Calls < 1 {
		return fmt.Errorf("time %g ms over %d calls: want a positive finite time from at least one call", r.MS, r.Calls)
	}
	if len(r.Tried) == 0 {
		return nil // a script of one recipe per op, before the recipes
	}
	found := false
	for _, tr := range r.Tried {
		if tr.Error != "" || tr.Screened {
			continue
		}
		if tr.MS < r.MS {
			return fmt.Errorf("recipe %s took %g ms, faster than the %g ms reported (%s): the fastest must be reported", quote.Q(tr.Recipe), tr.MS, r.MS, quote.Q(r.Recipe))
		}
		found = found || (tr.Recipe == r.Recipe && tr.MS == r.MS)
	}
	if !found {
		return fmt.Errorf("the reported recipe %s (%g ms) is not among the recipes timed", quote.Q(r.Recipe), r.MS)
	}
	return nil
}

// resolvePeerShapes turns shape lines into runs of this tuner, keeping
// those of the dtypes and ops asked for (ops: nil for every op). A shape
// whose op this tuner has no measurement for is left out with a note; a shape
// that is wrong is an error.
func resolvePeerShapes(lines []string, dtypes []sel.DType, ops []string, maxBytes int64) (runs []peerRun, notes []string, err error) {
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, nil, fmt.Errorf("shape %s: want OP DTYPE key=value...", quote.Q(line))
		}
		name, dt := strings.ToLower(f[0]), sel.DType(f[1])
		if !slices.Contains(dtypes, dt) || (ops != nil && !slices.Contains(ops, name)) {
			continue
		}
		comp := peerComposites[name]
		first := name
		if comp != nil {
			first = comp.chain[0]
		}
		t, ok := tuners[first]
		if !ok {
			notes = append(notes, fmt.Sprintf("%s: skipped, this build of the tuner has no measurement for op %s (ops/%s/trial.go)", line, first, first))
			continue
		}
		if !slices.Contains(t.op.DTypes(), dt) {
			return nil, nil, fmt.Errorf("shape %s: %s has no dtype %s (dtypes: %s)", quote.Q(line), name, quote.Q(string(dt)), dtypeList(t.op))
		}
		c, err := parseCellArgs(t.op, f[2:])
		if err != nil {
			return nil, nil, fmt.Errorf("shape %s: %w", quote.Q(line), err)
		}
		if err := memoryErr(t, dt, c, maxBytes); err != nil {
			notes = append(notes, fmt.Sprintf("%s: skipped, %v", line, err))
			continue
		}
		runs = append(runs, peerRun{t: t, dt: dt, c: c, comp: comp})
	}
	return runs, notes, nil
}

// numpyMissing is the error when the interpreter cannot import numpy.
func numpyMissing(python string, why error) error {
	return fmt.Errorf("numpy not found for %s: apt-get install python3-numpy python3-scipy (%v)", python, why)
}

// numpyEnv is the environment of the numpy script: OpenBLAS on threads
// threads, and with its own choice of core and cache size (the settings
// OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE made elsewhere are removed).
func numpyEnv(threads int) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "OPENBLAS_NUM_THREADS="+strconv.Itoa(threads))
}

// runPython runs the interpreter with args, in on stdin, and returns its
// stdout; on failure, the error carries the last lines of its stderr.
func runPython(ctx context.Context, python string, env []string, in []byte, args ...string) ([]byte, int, error) {
	cmd := exec.CommandContext(ctx, python, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, ee.ExitCode(), errors.New(msg)
	}
	return nil, -1, err
}

// timeNumpy checks that python imports numpy, then times every case with
// the numpy script.
func timeNumpy(ctx context.Context, python, script string, threads int, cases []peerCase) (numpyReport, error) {
	env := numpyEnv(threads)
	if _, _, err := runPython(ctx, python, env, nil, "-c", "import numpy"); err != nil {
		return numpyReport{}, numpyMissing(python, err)
	}
	in, err := encodePeerCases(cases)
	if err != nil {
		return numpyReport{}, err
	}
	out, code, err := runPython(ctx, python, env, in, script)
	if code == 3 {
		return numpyReport{}, numpyMissing(python, err)
	}
	if err != nil {
		return numpyReport{}, fmt.Errorf("%s %s: %w", python, script, err)
	}
	return decodeNumpyReport(out, len(cases))
}

// bestOf makes reps timings of calls calls each and returns the fastest in
// ms per call. The peer benchmark takes the best on both sides: load from
// elsewhere on the machine only ever adds time.
func (p protocol) bestOf(ctx context.Context, tm timer, calls int) (float64, error) {
	best := math.Inf(1)
	for range max(1, p.reps) {
		ms, err := timeOnce(ctx, tm, calls)
		if err != nil {
			return 0, err
		}
		best = min(best, ms)
	}
	return best, nil
}

// timeAuto times the automatic call of a shape as `bench` does its auto
// row (no pin: the tables decide; verified, warmed up, calls per timing
// sized from the steady timed call: steadyCall) and returns the best of
// the timings and the kernel the decision picked.
func timeAuto(ctx context.Context, r peerRun, ms measureSettings) (float64, string, error) {
	defer quietGC()()
	walk, err := r.t.op.Explain(ctx, r.dt, r.c.key(), batchlas.Host())
	if err != nil {
		return 0, "", fmt.Errorf("the automatic decision fails: %w", err)
	}
	oc, err := newCellCase(r.t, r.dt, r.c, ms)
	if err != nil {
		return 0, "", err
	}
	auto, err := oc.Bind(ctx)
	if err != nil {
		return 0, "", fmt.Errorf("sizing the automatic call: %w", err)
	}
	if err := auto.Verify(ctx); err != nil {
		return 0, "", fmt.Errorf("BAD RESULT: %w", err)
	}
	if _, err := auto.Run(ctx, 1); err != nil {
		return 0, "", err
	}
	one, err := steadyCall(ctx, auto.Run, heldBytes)
	if err != nil {
		return 0, "", err
	}
	best, err := ms.proto.bestOf(ctx, auto.Run, ms.proto.calibrate(one))
	return best, walk.Choice.String(), err
}

// traffic is the memory a call must move at least: the bytes of the
// operands it reads and of those it writes (an operand updated in place
// counts in both).
type traffic struct{ read, write float64 }

// peerTraffic is the least memory traffic of one call of an op's whole
// batch, for the copy floor; ok is false for an op without a rule here.
func peerTraffic(op string, dt sel.DType, c cell) (tr traffic, ok bool) {
	e := 8.0
	if dt == sel.Float32 {
		e = 4
	}
	const ipiv = 4 // int32 pivots
	b := float64(c.num("batch"))
	n, m, k, nrhs := float64(c.num("n")), float64(c.num("m")), float64(c.num("k")), float64(c.num("nrhs"))
	switch op {
	case "gemm": // beta 0: A and B read, C written
		return traffic{(m*k + k*n) * e * b, m * n * e * b}, true
	case "trmm": // the triangle read, B updated in place
		t := m
		if c.get("side") == "R" {
			t = n
		}
		return traffic{(t*(t+1)/2 + m*n) * e * b, m * n * e * b}, true
	case "syrk": // beta 0: A read, C's triangle written
		return traffic{n * k * e * b, n * (n + 1) / 2 * e * b}, true
	case "potrf", "getrf": // A factored in place (getrf also writes its pivots)
		w := n * n * e
		if op == "getrf" {
			w += n * ipiv
		}
		return traffic{n * n * e * b, w * b}, true
	case "trsm": // the triangle read, B solved in place
		t := m // the triangle's order: m for side Left, n for Right
		if c.get("side") == "R" {
			t = n
		}
		return traffic{(t*t + m*n) * e * b, m * n * e * b}, true
	case "potrs", "getrs": // the factor (and pivots) read, B solved in place
		r := n * n * e
		if op == "getrs" {
			r += n * ipiv
		}
		return traffic{(r + n*nrhs*e) * b, n * nrhs * e * b}, true
	case "posv", "gesv": // A factored and B solved, both in place
		w := (n*n + n*nrhs) * e
		if op == "gesv" {
			w += n * ipiv
		}
		return traffic{(n*n + n*nrhs) * e * b, w * b}, true
	case "geqrf": // A factored in place, tau written
		return traffic{m * n * e * b, (m*n + min(m, n)) * e * b}, true
	case "inv", "invspd", "matinv": // A read, the inverse written (out of place)
		return traffic{n * n * e * b, n * n * e * b}, true
	case "qr": // A read (the one-call layer copies it), Q and R written
		k := min(m, n)
		return traffic{m * n * e * b, (m*k + k*n) * e * b}, true
	case "gels": // A factored and B solved, both in place
		return traffic{(m*n + m*nrhs) * e * b, (m*n + m*nrhs) * e * b}, true
	case "gesvd": // A read, the values written, and the thin U and V^T for vectors=V
		k := min(m, n)
		w := k * e
		if c.get("vectors") == "V" {
			w += (m*k + k*n) * e
		}
		return traffic{m * n * e * b, w * b}, true
	case "syev": // A read, the eigenvalues written, and the vectors over A for jobz=V
		w := n * e
		if c.get("jobz") == "V" {
			w += n * n * e
		}
		return traffic{n * n * e * b, w * b}, true
	}
	return traffic{}, false
}

// copyFloor moves a call's traffic with Go's copy, the floor no kernel
// can go under: as many bytes as are both read and written are copied
// from one buffer to another; the bytes only read are copied into a small
// buffer that stays in cache, and the bytes only written are copied from
// one.
type copyFloor struct{ src, dst, chunk []byte }

const floorChunk = 16 << 10 // stays in the L1 cache

func newCopyFloor(tr traffic) *copyFloor {
	f := &copyFloor{src: make([]byte, int(tr.read)), dst: make([]byte, int(tr.write)), chunk: make([]byte, floorChunk)}
	// Fresh memory is mapped to the zero page until written: reading it
	// would not reach memory at all.
	for i := range f.src {
		f.src[i] = byte(i)
	}
	for i := range f.dst {
		f.dst[i] = byte(i)
	}
	return f
}

func (f *copyFloor) once() {
	n := copy(f.dst, f.src)
	for off := n; off < len(f.src); off += len(f.chunk) {
		copy(f.chunk, f.src[off:])
	}
	for off := n; off < len(f.dst); off += len(f.chunk) {
		copy(f.dst[off:], f.chunk)
	}
}

func (f *copyFloor) run(ctx context.Context, calls int) (time.Duration, error) {
	t0 := time.Now()
	for range calls {
		f.once()
	}
	return time.Since(t0), ctx.Err()
}

// timeFloor times the copy floor of a traffic with the same protocol as
// the call: warmed up, calls per timing sized from the steady timed call
// (steadyCall), best of the timings.
func timeFloor(ctx context.Context, tr traffic, p protocol) (float64, error) {
	defer quietGC()()
	f := newCopyFloor(tr)
	f.once()
	one, _ := steadyCall(ctx, f.run, heldBytes)
	return p.bestOf(ctx, f.run, p.calibrate(one))
}

// peerRow is one line of the comparison; a time is NaN where there is
// none.
type peerRow struct {
	op           string
	dt           sel.DType
	shape        string
	numpyMS      float64
	autoMS       float64
	floorMS      float64
	flops        float64
	peakGF       float64    // the measured FMA peak of dt (fmaPeak), 0 if none
	kernel       string     // the kernel the automatic call ran
	numpyCall    string     // what was timed on numpy's side: the fastest recipe's spelling
	numpyRecipe  string     // the fastest recipe's short name
	numpyTried   []numpyTry // every recipe timed, for the notes
	numpyThreads int        // the OpenBLAS threads of numpy's time
	why          string     // why a time is missing
}

// peerHeader is the table's header: the ratio reads "batchlas is this
// many times as fast as numpy".
var peerHeader = []string{"op", "dtype", "shape", "numpy ms", "numpy threads", "numpy recipe", "batchlas ms", "speed vs numpy", "GFLOP/s", "of peak", "copy floor ms", "vs floor", "batchlas kernel"}

// cells formats a row; missing numbers read "-".
func (r peerRow) cells() []string {
	num := func(ok bool, s string) string {
		if !ok {
			return "-"
		}
		return s
	}
	has := func(x float64) bool { return !math.IsNaN(x) && x > 0 }
	return []string{
		r.op, string(r.dt), r.shape,
		num(has(r.numpyMS), formatPeerMS(r.numpyMS)),
		num(has(r.numpyMS) && r.numpyThreads > 0, strconv.Itoa(r.numpyThreads)),
		num(has(r.numpyMS) && r.numpyRecipe != "", r.numpyRecipe),
		num(has(r.autoMS), formatPeerMS(r.autoMS)),
		num(has(r.numpyMS) && has(r.autoMS), fmt.Sprintf("%.2fx", r.numpyMS/r.autoMS)),
		num(has(r.autoMS) && r.flops > 0, fmt.Sprintf("%.2f", r.flops/(r.autoMS*1e6))),
		num(has(r.autoMS) && r.flops > 0 && r.peakGF > 0, fmt.Sprintf("%.0f%%", 100*r.flops/(r.autoMS*1e6)/r.peakGF)),
		num(has(r.floorMS), formatPeerMS(r.floorMS)),
		num(has(r.floorMS) && has(r.autoMS), fmt.Sprintf("%.1fx", r.autoMS/r.floorMS)),
		num(r.kernel != "", r.kernel),
	}
}

// formatPeerMS writes a time with four significant digits, as an exponent
// only past 1e9 ms.
func formatPeerMS(ms float64) string {
	if ms >= 1000 && ms < 1e9 {
		return strconv.FormatFloat(ms, 'f', 0, 64)
	}
	return formatMS(ms)
}

// printPeerTable prints the rows as an aligned text table, or as a
// Markdown table (numbers right-aligned) for the README.
func printPeerTable(w io.Writer, rows []peerRow, markdown bool) {
	lines := [][]string{peerHeader}
	for _, r := range rows {
		lines = append(lines, r.cells())
	}
	// op, dtype, shape and the recipe (a name) are left-aligned.
	const textCols = 3
	recipeCol := slices.Index(peerHeader, "numpy recipe")
	left := func(j, n int) bool { return j < textCols || j == recipeCol || j == n-1 }
	if markdown {
		for i, l := range lines {
			fmt.Fprintf(w, "| %s |\n", strings.Join(l, " | "))
			if i == 0 {
				sep := make([]string, len(l))
				for j := range sep {
					sep[j] = "---:"
					if left(j, len(l)) {
						sep[j] = "---"
					}
				}
				fmt.Fprintf(w, "|%s|\n", strings.Join(sep, "|"))
			}
		}
		return
	}
	width := make([]int, len(peerHeader))
	for _, l := range lines {
		for j, s := range l {
			width[j] = max(width[j], len(s))
		}
	}
	for _, l := range lines {
		var b strings.Builder
		for j, s := range l {
			if j > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-len(s))
			if left(j, len(l)) {
				b.WriteString(s + pad)
			} else {
				b.WriteString(pad + s)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// printPeerNotes prints what the table's columns mean, what numpy ran for
// each op, and the notes of the shapes left out or failed.
func printPeerNotes(w io.Writer, rows []peerRow, notes []string) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "speed vs numpy: numpy ms / batchlas ms (above 1: batchlas is faster). vs floor: batchlas ms / copy floor ms,")
	fmt.Fprintln(w, "the floor being Go's copy of the bytes one call must read and write. Times are the best of the timings.")
	fmt.Fprintln(w, "of peak: GFLOP/s / the FMA peak on the machine line, measured in the same run.")
	fmt.Fprintln(w, "numpy recipe: the fastest of the ways to do the job that were timed in this run (below, per op).")
	// Per op, each recipe's spelling, once.
	var ops []string
	spelled := map[string][]string{}
	for _, r := range rows {
		tried := r.numpyTried
		if len(tried) == 0 && r.numpyCall != "" {
			tried = []numpyTry{{Recipe: r.numpyRecipe, Call: r.numpyCall}}
		}
		for _, tr := range tried {
			s := tr.Call
			if tr.Recipe != "" {
				s = tr.Recipe + " = " + tr.Call
			}
			if !slices.Contains(ops, r.op) {
				ops = append(ops, r.op)
			}
			if !slices.Contains(spelled[r.op], s) {
				spelled[r.op] = append(spelled[r.op], s)
			}
		}
	}
	for _, op := range ops {
		fmt.Fprintf(w, "numpy %s: %s\n", op, strings.Join(spelled[op], "; "))
	}
	// Per row of more than one recipe, what each took.
	for _, r := range rows {
		if len(r.numpyTried) > 1 {
			fmt.Fprintf(w, "%s %s %s: numpy recipes: %s\n", r.op, r.dt, r.shape, triedText(r.numpyTried))
		}
	}
	for _, r := range rows {
		if r.why != "" {
			fmt.Fprintf(w, "%s %s %s: %s\n", r.op, r.dt, r.shape, r.why)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

// triedText lists the recipes of a row with their times, fastest first
// as the script timed them: "solve 57.6 ms, cho_factor+cho_solve loop
// 80.1 ms, cholesky+2 solve >154 ms (one call: screened)".
func triedText(tried []numpyTry) string {
	var parts []string
	for _, tr := range tried {
		switch {
		case tr.Error != "":
			parts = append(parts, fmt.Sprintf("%s failed (%s)", tr.Recipe, quote.Cut(tr.Error)))
		case tr.Screened:
			parts = append(parts, fmt.Sprintf("%s >%s ms (one call: screened)", tr.Recipe, formatPeerMS(tr.MS)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s ms", tr.Recipe, formatPeerMS(tr.MS)))
		}
	}
	return strings.Join(parts, ", ")
}

// machineLine says what the comparison ran on: the CPU, Go, numpy and its
// BLAS.
func machineLine(rep numpyReport, threads []int) string {
	cpu := cpuModel()
	d := batchlas.Host()
	var ts []string
	for _, t := range threads {
		ts = append(ts, strconv.Itoa(t))
	}
	scipy := "no scipy (its recipes not timed)"
	if rep.Scipy != "" {
		scipy = "scipy " + rep.Scipy
	}
	return fmt.Sprintf("machine: %s (%d cores, %s, identity %s); %s GOMAXPROCS=%d; numpy %s, %s, %s (OPENBLAS_NUM_THREADS=%s: the fastest per shape)",
		cpu, d.Cores, d.Key, identityWord(d), runtime.Version(), runtime.GOMAXPROCS(0), rep.Numpy, scipy, rep.BLAS, strings.Join(ts, ","))
}

// measurePeaks measures the FMA peak of each dtype on the call's default
// workers (fmaPeak), and the machine line's words for them ("" where no
// loop is built).
func measurePeaks(dts []sel.DType) (map[sel.DType]float64, string) {
	peaks := map[sel.DType]float64{}
	workers := runtime.GOMAXPROCS(0)
	var parts []string
	width := 0
	for _, dt := range dts {
		gf, w, ok := fmaPeak(dt, workers, 5)
		if !ok {
			continue
		}
		peaks[dt], width = gf, w
		parts = append(parts, fmt.Sprintf("%.0f GFLOP/s %s", gf, dt))
	}
	if len(parts) == 0 {
		return peaks, ""
	}
	return peaks, fmt.Sprintf("; FMA peak (%d-bit, %d workers): %s", width, workers, strings.Join(parts, ", "))
}

// parseThreadList reads --numpy-threads: positive counts, comma-separated,
// each once; "" is 1 and cores (cores alone when it is 1).
func parseThreadList(s string, cores int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		if cores <= 1 {
			return []int{1}, nil
		}
		return []int{1, cores}, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > maxThreads {
			return nil, fmt.Errorf("%s: want thread counts from 1 to %d, comma-separated", quote.Q(f), maxThreads)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// fasterNumpy merges the report r, timed with th threads, into best: each
// shape keeps its fastest time (an error only where no run timed it), and
// threads[i] the count that timed shape i's.
func fasterNumpy(best, r numpyReport, th int, threads []int) numpyReport {
	if best.Results == nil {
		best = r
		best.Results = slices.Clone(r.Results)
		for i := range threads {
			threads[i] = th
		}
		return best
	}
	for i, res := range r.Results {
		cur := best.Results[i]
		if res.Error == "" && (cur.Error != "" || res.MS < cur.MS) {
			best.Results[i], threads[i] = res, th
		}
	}
	return best
}

// cpuModel is the CPU's model name from /proc/cpuinfo, or the name the
// host detection reads where there is none.
func cpuModel() string {
	if data, err := safefile.ReadFile("/proc/cpuinfo", procLimit); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			name, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(name) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return hostName(batchlas.Host())
}

func cmdPeers(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("peers", peersSynopsis, stdout, stderr)
	shapes := fs.String("shapes", "default", "shape list: default, or all (default and a float32 twin of every float64 shape)")
	var cases []string
	fs.StringArrayVar(&cases, "case", nil, "time this shape instead of a list, as OP DTYPE key=value... (repeatable)")
	opList := fs.String("op", "all", "ops of the list to time, comma-separated, or all")
	dtypes := fs.String("dtype", "float64,float32", "dtypes of the list to time: float32, float64 or both comma-separated")
	python := fs.String("python", "/usr/bin/python3", "the Python interpreter with numpy")
	threadList := fs.String("numpy-threads", "", "OpenBLAS thread counts numpy is timed with (OPENBLAS_NUM_THREADS), comma-separated; each shape keeps numpy's fastest (default: 1 and the host's cores)")
	markdown := fs.Bool("markdown", false, "print the table as Markdown")
	maxBytes := maxBytesFlag(fs)
	reps := fs.Int("reps", 5, "timings per shape on each side (the best is kept)")
	target := fs.Duration("target", time.Millisecond, "least duration of one timing; fast calls are repeated to reach it")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	repsTargetChecks(fs, reps, target)
	fs.anyValue("seed")
	fs.check("case", fmt.Sprintf("at most %d shapes", maxCases), func() bool { return len(cases) <= maxCases })
	fs.note(func(w io.Writer) {
		fmt.Fprintf(w, "Times numpy (%s, run by --python) and the\n", peersScript)
		fmt.Fprintln(w, "automatic call of batchlas on the same call shapes in one run, and Go's copy")
		fmt.Fprintln(w, "of the bytes each call must read and write (the memory floor). Each side: a")
		fmt.Fprintln(w, "warm-up call, one timed call to size a timing (--target; repeated while it")
		fmt.Fprintf(w, "touches %d KiB or more of fresh memory, %d calls at most: a call that allocates\n", steadyFresh>>10, steadyMax)
		fmt.Fprintln(w, "its results runs on fresh pages until the heap has grown), then --reps timings;")
		fmt.Fprintln(w, "the best is kept. numpy runs once per OPENBLAS_NUM_THREADS of --numpy-threads")
		fmt.Fprintln(w, "(one thread is fastest on many small calls, all cores on one big one) and each")
		fmt.Fprintln(w, "shape keeps its fastest; OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed")
		fmt.Fprintln(w, "from its environment. numpy's time is the fastest of the ways to do the job")
		fmt.Fprintln(w, "(numpy's batched call, scipy's per matrix), all timed in the run; the \"numpy")
		fmt.Fprintln(w, "recipe\" column names it and the notes list what each took.")
		fmt.Fprintln(w, "`make bench-peers` runs the default list.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "A shape may name a composite instead of an op: qr (geqrf then orgqr, the Q and")
		fmt.Fprintln(w, "R numpy's np.linalg.qr returns) takes geqrf's keys and is timed as one call of")
		fmt.Fprintln(w, "linalg.QR; its kernel column names each op's choice.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "default shapes (an op this build has no measurement for is skipped with a note):")
		for _, s := range defaultPeerShapes {
			fmt.Fprintf(w, "  %s\n", s)
		}
	})
	fs.note(keysNote(tunedOps()))
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected arguments %s", quoteList(fs.Args()))
	}
	threads, err := parseThreadList(*threadList, batchlas.Host().Cores)
	if err != nil {
		return fs.usageError("--numpy-threads: %v", err)
	}
	if *maxBytes <= 0 {
		return fs.usageError("--max-cell-bytes must be positive")
	}
	lines := cases
	if len(cases) > 0 && fs.Changed("shapes") {
		return fs.usageError("--case and --shapes: give one")
	}
	if len(cases) == 0 {
		var err error
		if lines, err = peerShapes(*shapes); err != nil {
			return fs.usageError("%v", err)
		}
	}
	dts, err := selectDTypes(*dtypes)
	if err != nil {
		return fs.usageError("%v", err)
	}
	var ops []string
	if strings.TrimSpace(*opList) != "all" {
		for _, name := range strings.Split(*opList, ",") {
			if name = strings.ToLower(strings.TrimSpace(name)); name != "" {
				ops = append(ops, name)
			}
		}
		for _, name := range ops {
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(strings.ToLower(l), name+" ") }) {
				return fs.usageError("--op: no shape of op %s in the list", quote.Q(name))
			}
		}
	}
	ms := measureSettings{proto: defaultProtocol(), seed: *seed, maxBytes: *maxBytes}
	ms.proto.reps, ms.proto.target = *reps, *target
	runs, notes, err := resolvePeerShapes(lines, dts, ops, *maxBytes)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		for _, n := range notes {
			fmt.Fprintln(stderr, n)
		}
		return errors.New("no shape to time")
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	var pcs []peerCase
	for _, r := range runs {
		pcs = append(pcs, peerCaseOf(r, ms))
	}
	ctx := context.Background()
	script := filepath.Join(root, peersScript)
	peaks, peakLine := measurePeaks(dts)
	rows := make([]peerRow, len(runs))
	var facts numpyReport // numpy's versions and BLAS, for the machine line
	bad := false
	// The cores are looked at before the first shape and after each
	// (sharedCores): a shape with a look on either side that found them
	// shared is listed under the machine line.
	cores, why := watchCores(), ""
	var sharedShapes []string
	// Each shape is timed with numpy and then with batchlas, one after
	// the other: this machine's speed drifts over minutes, and the two
	// sides of a ratio timed minutes apart were each in another phase.
	for i, r := range runs {
		row := peerRow{op: r.name(), dt: r.dt, shape: r.c.String(), flops: r.flops(),
			numpyMS: math.NaN(), autoMS: math.NaN(), floorMS: math.NaN(), peakGF: peaks[r.dt]}
		fmt.Fprintf(stderr, "peers: timing %s with numpy...\n", r)
		var rep numpyReport
		numpyThreads := make([]int, 1) // the count of its fastest numpy time
		for _, th := range threads {
			one, err := timeNumpy(ctx, *python, script, th, pcs[i:i+1])
			if err != nil {
				return err
			}
			rep = fasterNumpy(rep, one, th, numpyThreads)
		}
		if i == 0 {
			facts = rep
		}
		if res := rep.Results[0]; res.Error != "" {
			row.why = "numpy: " + res.Error
		} else {
			row.numpyMS, row.numpyCall, row.numpyThreads = res.MS, res.Call, numpyThreads[0]
			row.numpyRecipe, row.numpyTried = res.Recipe, res.Tried
		}
		fmt.Fprintf(stderr, "peers: timing %s with batchlas...\n", r)
		timeIt := timeAuto
		if r.comp != nil {
			timeIt = timeComposite
		}
		auto, kernel, err := timeIt(ctx, r, ms)
		if err != nil {
			row.why = strings.TrimPrefix(row.why+"; ", "; ") + "batchlas: " + err.Error()
			bad = true
		} else {
			row.autoMS, row.kernel = auto, kernel
		}
		if tr, ok := peerTraffic(row.op, r.dt, r.c); ok {
			if row.floorMS, err = timeFloor(ctx, tr, ms.proto); err != nil {
				return err
			}
		}
		rows[i] = row
		if w := cores.since(); w != "" {
			sharedShapes = append(sharedShapes, fmt.Sprintf("%s %s %s", row.op, row.dt, row.shape))
			why = w
		}
	}
	fmt.Fprintln(stdout, machineLine(facts, threads)+peakLine)
	if line := sharedCoresLine(sharedShapes, len(rows), why); line != "" {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintln(stdout)
	printPeerTable(stdout, rows, *markdown)
	printPeerNotes(stdout, rows, notes)
	if bad { // the table is printed, and the status says a call failed
		return exitError{1}
	}
	return nil
}
