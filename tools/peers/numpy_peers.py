#!/usr/bin/python3
"""Time numpy on the call shapes `go run ./tools/tune peers` lists.

The tuner runs this script; the shapes are defined once, in Go
(tools/tune/peers.go), and come in on stdin as a JSON list of cases:

    [{"op": "gemm", "dtype": "float64",
      "keys": {"ta": "N", "tb": "N", "m": "8", "n": "8", "k": "8", "batch": "65536"},
      "reps": 5, "target_ms": 1, "seed": 1}, ...]

Every key value is text, as on the tuner's command line (`n=8`). The
answer on stdout is one JSON object: the machine's numpy and BLAS, and one
result per case, in order:

    {"numpy": "1.24.2", "blas": "OpenBLAS 0.3.21 ...", "results":
      [{"ms": 1.23, "calls": 1, "call": "np.matmul(a, b, out=c)"}, {"error": "..."}]}

The protocol is the Go side's: one warm-up call, one timed call to size a
timing, then reps timings of as many calls as reach target_ms, and the best
of them, in ms per call. The tuner sets OPENBLAS_NUM_THREADS and removes
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE before it starts this script.

Exit status 3 means numpy cannot be imported (the tuner then says how to
install it).
"""
import ctypes
import json
import math
import sys
import time

try:
    import numpy as np
except ImportError as e:
    print(f"numpy_peers.py: {e}", file=sys.stderr)
    sys.exit(3)

# How many different matrices an input batch holds; the rest repeat them,
# as on the Go side (tools/tune/inputs.go): the speed of these calls does
# not depend on the values of well-conditioned inputs, and making 65536
# SPD matrices would take longer than timing them.
DISTINCT = 7


def blas_config():
    """The BLAS numpy runs on, as OpenBLAS describes itself (version, the
    core it picked), read from the library loaded into this process."""
    try:
        with open("/proc/self/maps") as f:
            libs = sorted({line.split()[-1] for line in f if "openblas" in line.split()[-1]})
    except OSError:
        libs = []
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
            cfg = lib.openblas_get_config
            cfg.restype = ctypes.c_char_p
            out = cfg().decode()
            threads = lib.openblas_get_num_threads()
            return f"{out} threads={threads}"
        except (OSError, AttributeError):
            continue
    return "BLAS: not OpenBLAS, or not found (see numpy.show_config())"


def tiled(rng, count, make):
    """A batch of count matrices repeating min(count, DISTINCT) made by make."""
    d = min(count, DISTINCT)
    base = np.stack([make(rng) for _ in range(d)])
    if d == count:
        return base
    return np.ascontiguousarray(base[np.arange(count) % d])


def general(n, dtype):
    # Well conditioned: a random matrix with a strong diagonal.
    return lambda rng: (rng.standard_normal((n, n)) + 2 * math.sqrt(n) * np.eye(n)).astype(dtype)


def spd(n, dtype):
    def make(rng):
        g = rng.standard_normal((n, n))
        return (g @ g.T / n + np.eye(n)).astype(dtype)
    return make


def triangular(n, lower, unit, dtype):
    # A well-conditioned triangle; the other triangle is zero, since
    # numpy's solve reads the whole matrix.
    def make(rng):
        t = rng.standard_normal((n, n)) / math.sqrt(n) + 2 * np.eye(n)
        t = np.tril(t) if lower else np.triu(t)
        if unit:
            np.fill_diagonal(t, 1)
        return t.astype(dtype)
    return make


def rect(r, c, dtype):
    return lambda rng: rng.standard_normal((r, c)).astype(dtype)


def t(x):
    """The transpose of every matrix of a batch (a view)."""
    return np.swapaxes(x, -1, -2)


# Each recipe takes a case's keys (ints where numeric), its dtype and a
# random generator, builds the inputs like the Go side does, and returns
# the call to time and how it reads.

def gemm(k, dtype, rng):
    # numpy is row-major and batchlas column-major; the timing does not
    # care: a row-major C = A*B is the column-major C^T = B^T*A^T, the same
    # work on the same bytes.
    m, n, kk, b = k["m"], k["n"], k["k"], k["batch"]
    a = tiled(rng, b, rect(kk, m, dtype) if k["ta"] == "T" else rect(m, kk, dtype))
    bb = tiled(rng, b, rect(n, kk, dtype) if k["tb"] == "T" else rect(kk, n, dtype))
    a = t(a) if k["ta"] == "T" else a
    bb = t(bb) if k["tb"] == "T" else bb
    c = np.empty((b, m, n), dtype=dtype)
    return (lambda: np.matmul(a, bb, out=c)), "np.matmul(a, b, out=c)"


def potrf(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    # numpy has one Cholesky, the lower factor (uplo=U is the same work).
    return (lambda: np.linalg.cholesky(a)), "np.linalg.cholesky(a)"


def trsm(k, dtype, rng):
    m, n, b = k["m"], k["n"], k["batch"]
    order = m if k["side"] == "L" else n
    a = tiled(rng, b, triangular(order, k["uplo"] == "L", k["diag"] == "U", dtype))
    rhs = tiled(rng, b, rect(m, n, dtype))
    op = t(a) if k["ta"] == "T" else a
    # numpy has no batched triangular solve, and scipy's solve_triangular
    # takes one matrix per call: a loop of 8192 of them would time Python.
    # A numpy user solves with the general solver, as here.
    if k["side"] == "L":
        return (lambda: np.linalg.solve(op, rhs)), "np.linalg.solve(tri, b) (no batched trsm in numpy)"
    # X*op(A) = B is op(A)^T * X^T = B^T.
    return (lambda: t(np.linalg.solve(t(op), t(rhs)))), "np.linalg.solve(tri^T, b^T)^T (no batched trsm in numpy)"


def gesv(k, dtype, rng):
    a = tiled(rng, k["batch"], general(k["n"], dtype))
    rhs = tiled(rng, k["batch"], rect(k["n"], k["nrhs"], dtype))
    return (lambda: np.linalg.solve(a, rhs)), "np.linalg.solve(a, b)"


def posv(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    rhs = tiled(rng, k["batch"], rect(k["n"], k["nrhs"], dtype))

    # numpy has no batched Cholesky solve (scipy's cho_solve takes one
    # matrix): the factor, then two general solves with it, is what a
    # numpy user writes.
    def call():
        l = np.linalg.cholesky(a)
        y = np.linalg.solve(l, rhs)
        return np.linalg.solve(t(l), y)
    return call, "np.linalg.cholesky + 2 np.linalg.solve"


def syev(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    uplo = k.get("uplo", "L")
    if k["jobz"] == "V":
        return (lambda: np.linalg.eigh(a, UPLO=uplo)), "np.linalg.eigh(a)"
    return (lambda: np.linalg.eigvalsh(a, UPLO=uplo)), "np.linalg.eigvalsh(a)"


RECIPES = {"gemm": gemm, "potrf": potrf, "trsm": trsm, "gesv": gesv, "posv": posv, "syev": syev}


def keys_of(case):
    out = {}
    for name, v in case["keys"].items():
        out[name] = int(v) if v.isdigit() else v
    return out


def time_case(case):
    recipe = RECIPES.get(case["op"])
    if recipe is None:
        return {"error": f"numpy_peers.py has no recipe for op {case['op']}"}
    dtype = {"float64": np.float64, "float32": np.float32}.get(case["dtype"])
    if dtype is None:
        return {"error": f"numpy_peers.py: unknown dtype {case['dtype']}"}
    rng = np.random.default_rng(case.get("seed", 1))
    call, spelled = recipe(keys_of(case), dtype, rng)
    call()  # warm-up
    t0 = time.perf_counter()
    call()
    one = time.perf_counter() - t0
    target = case.get("target_ms", 1) / 1e3
    calls = max(1, math.ceil(target / one)) if one > 0 else 1
    best = math.inf
    for _ in range(max(1, case.get("reps", 5))):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - t0) / calls)
    return {"ms": best * 1e3, "calls": calls, "call": spelled}


def main():
    cases = json.load(sys.stdin)
    results = []
    for case in cases:
        try:
            results.append(time_case(case))
        except Exception as e:  # one failing case must not lose the others
            results.append({"error": f"{type(e).__name__}: {e}"})
    json.dump({"numpy": np.__version__, "blas": blas_config(), "results": results}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
