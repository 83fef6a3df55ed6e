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

    {"numpy": "1.24.2", "scipy": "1.10.1", "blas": "OpenBLAS 0.3.21 ...", "results":
      [{"ms": 1.23, "calls": 1, "call": "np.matmul(a, b, out=c)", "recipe": "matmul",
        "tried": [{"recipe": "matmul", "call": "...", "ms": 1.23, "calls": 1}]},
       {"error": "..."}]}

Each op has one or more recipes, ways a numpy user does the same job
(numpy's batched call; scipy's per-matrix call in a loop where scipy has a
better-suited routine). All are timed in the same run and the fastest is
the result; "tried" lists every recipe with its time ("screened": dropped
after one call, more than SCREEN times the fastest so far) or its error.
The recipes' answers are compared with the first's, so a recipe that does
less than the job is an error, not a time.

The protocol is the Go side's: one warm-up call, one timed call to size a
timing (made again while it touches steady_fresh bytes or more of fresh
memory, steady_max calls at most, both from the case: a call that
allocates its results runs on fresh pages until the allocator's memory has
grown), then reps timings of as many calls as reach target_ms, and the
best of them, in ms per call. The tuner sets OPENBLAS_NUM_THREADS and
removes OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE before it starts this
script.

Exit status 3 means numpy cannot be imported (the tuner then says how to
install it).
"""
import ctypes
import json
import math
import resource
import sys
import time

try:
    import numpy as np
except ImportError as e:
    print(f"numpy_peers.py: {e}", file=sys.stderr)
    sys.exit(3)

try:  # scipy's recipes are timed when it is there
    import scipy
    import scipy.linalg as sla
except ImportError:
    scipy, sla = None, None

# How many different matrices an input batch holds; the rest repeat them,
# as on the Go side (internal/trial/inputs.go): the speed of these calls does
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


# Each op's recipes take a case's keys (ints where numeric), its dtype and a
# random generator, build the inputs like the Go side does (once, shared by
# every recipe of the case), and return the ways a numpy user can do the
# same job, as Recipe values. Every recipe is timed in the same run and the
# fastest is reported: timing one spelling that does more work than needed
# flatters batchlas (posv as a Cholesky plus two np.linalg.solve calls ran
# a full LU on each triangle: 2.7x the work of np.linalg.solve(a, b)). The
# batched numpy spelling comes first; scipy's are loops over the batch
# (scipy.linalg takes one matrix per call), which win on few large
# matrices and lose on many small ones.

class Recipe:
    """One way to do a case's job: a short name for the table's "numpy
    recipe" column, its spelling, the call, and answer(result), the part of
    the result every recipe of the op must agree on."""

    def __init__(self, name, spelled, call, answer=None):
        self.name, self.spelled, self.call = name, spelled, call
        self.answer = answer or (lambda r: r)


def loop(fn, *batches):
    """fn applied to the matrices of the batches one at a time."""
    return lambda: [fn(*xs) for xs in zip(*batches)]


def stacked(r):
    return np.stack(r) if isinstance(r, list) else r


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
    return [Recipe("matmul", "np.matmul(a, b, out=c)", lambda: np.matmul(a, bb, out=c))]


def syrk(k, dtype, rng):
    # The Gram matrix op(A) op(A)^T: numpy has no syrk, so the full
    # product by matmul (batchlas writes one triangle).
    n, kk, b = k["n"], k["k"], k["batch"]
    c = np.empty((b, n, n), dtype=dtype)
    if k["trans"] == "T":
        a = tiled(rng, b, rect(kk, n, dtype))
        return [Recipe("matmul", "np.matmul(a^T, a, out=c)", lambda: np.matmul(t(a), a, out=c))]
    a = tiled(rng, b, rect(n, kk, dtype))
    return [Recipe("matmul", "np.matmul(a, a^T, out=c)", lambda: np.matmul(a, t(a), out=c))]


def trmm(k, dtype, rng):
    # A triangle times B: numpy has no trmm, so the triangle is taken
    # (np.tril or np.triu, A transposed first for ta=T) and multiplied by
    # matmul, both timed, as a numpy user would write it.
    m, n, b = k["m"], k["n"], k["batch"]
    left = k["side"] == "L"
    tt = m if left else n
    a = tiled(rng, b, rect(tt, tt, dtype))
    bb = tiled(rng, b, rect(m, n, dtype))
    tri = np.tril if k["uplo"] == "L" else np.triu

    def op():
        x = tri(a)
        if k["ta"] == "T":
            x = t(x)
        return np.matmul(x, bb) if left else np.matmul(bb, x)
    return [Recipe("tril+matmul", "np.tril(a) @ b (np.triu for U, transposed for T, b @ it for R)", op)]


def potrf(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    # numpy has one Cholesky, the lower factor (uplo=U is the same work).
    out = [Recipe("cholesky", "np.linalg.cholesky(a)", lambda: np.linalg.cholesky(a))]
    if sla:
        out.append(Recipe("cho_factor loop", "scipy.linalg.cho_factor(a_i, lower=True) per matrix",
                          loop(lambda x: sla.cho_factor(x, lower=True, check_finite=False)[0], a),
                          lambda r: np.tril(stacked(r))))
    return out


def trsm(k, dtype, rng):
    m, n, b = k["m"], k["n"], k["batch"]
    order = m if k["side"] == "L" else n
    lower, unit = k["uplo"] == "L", k["diag"] == "U"
    a = tiled(rng, b, triangular(order, lower, unit, dtype))
    rhs = tiled(rng, b, rect(m, n, dtype))
    op = t(a) if k["ta"] == "T" else a
    # numpy has no triangular solve: its general solver runs an LU of the
    # triangle. scipy's solve_triangular does the triangular solve, one
    # matrix per call.
    if k["side"] == "L":
        out = [Recipe("solve", "np.linalg.solve(tri, b)", lambda: np.linalg.solve(op, rhs))]
    else:
        # X*op(A) = B is op(A)^T * X^T = B^T.
        out = [Recipe("solve", "np.linalg.solve(tri^T, b^T)^T", lambda: t(np.linalg.solve(t(op), t(rhs))))]
    if sla:
        trans = 1 if k["ta"] == "T" else 0
        if k["side"] == "L":
            out.append(Recipe("solve_triangular loop", "scipy.linalg.solve_triangular(tri_i, b_i) per matrix",
                              loop(lambda x, y: sla.solve_triangular(x, y, trans=trans, lower=lower, unit_diagonal=unit, check_finite=False), a, rhs),
                              stacked))
        else:
            # X*op(A) = B: op(A)^T X^T = B^T, the other transpose of A.
            out.append(Recipe("solve_triangular loop", "scipy.linalg.solve_triangular(tri_i^T, b_i^T)^T per matrix",
                              loop(lambda x, y: sla.solve_triangular(x, y.T, trans=1 - trans, lower=lower, unit_diagonal=unit, check_finite=False).T, a, rhs),
                              stacked))
    return out


def gesv(k, dtype, rng):
    a = tiled(rng, k["batch"], general(k["n"], dtype))
    rhs = tiled(rng, k["batch"], rect(k["n"], k["nrhs"], dtype))
    out = [Recipe("solve", "np.linalg.solve(a, b)", lambda: np.linalg.solve(a, rhs))]
    if sla:
        out.append(Recipe("lu_factor+lu_solve loop", "scipy.linalg.lu_solve(lu_factor(a_i), b_i) per matrix",
                          loop(lambda x, y: sla.lu_solve(sla.lu_factor(x, check_finite=False), y, check_finite=False), a, rhs),
                          stacked))
    return out


def getrf(k, dtype, rng):
    a = tiled(rng, k["batch"], general(k["n"], dtype))
    if not sla:
        raise RuntimeError("numpy has no LU factorization; getrf needs scipy (apt-get install python3-scipy)")
    return [Recipe("lu_factor loop", "scipy.linalg.lu_factor(a_i) per matrix",
                   loop(lambda x: sla.lu_factor(x, check_finite=False)[0], a), stacked)]


def getrs(k, dtype, rng):
    n, b = k["n"], k["batch"]
    if not sla:
        raise RuntimeError("numpy has no LU factorization to solve with; getrs needs scipy (apt-get install python3-scipy)")
    a = tiled(rng, b, general(n, dtype))
    rhs = tiled(rng, b, rect(n, k["nrhs"], dtype))
    trans = 1 if k["trans"] == "T" else 0
    # The factors are made once, outside the timing, as on the Go side.
    facs = [sla.lu_factor(x, check_finite=False) for x in a[:min(b, DISTINCT)]]
    facs = [facs[i % len(facs)] for i in range(b)]
    out = [Recipe("lu_solve loop", "scipy.linalg.lu_solve((lu_i, piv_i), b_i) per matrix",
                  loop(lambda f, y: sla.lu_solve(f, y, trans=trans, check_finite=False), facs, rhs), stacked)]
    if trans == 0:
        # Batched numpy: the row interchanges as a permutation, then the
        # two triangles through the general solver.
        lu = np.stack([f[0] for f in facs])
        perm = np.empty((b, n), dtype=np.intp)
        for i, f in enumerate(facs):
            p = np.arange(n)
            for j, q in enumerate(f[1]):
                p[j], p[q] = p[q], p[j]
            perm[i] = p
        lo = np.tril(lu, -1) + np.eye(n, dtype=dtype)
        up = np.triu(lu)
        rows = np.arange(b)[:, None]

        def tri_solves():
            y = np.linalg.solve(lo, rhs[rows, perm])
            return np.linalg.solve(up, y)
        out.append(Recipe("permute+2 solve", "b[perm], then np.linalg.solve(L, .) and np.linalg.solve(U, .)", tri_solves))
    return out


def potrs(k, dtype, rng):
    n, b = k["n"], k["batch"]
    a = tiled(rng, b, spd(n, dtype))
    rhs = tiled(rng, b, rect(n, k["nrhs"], dtype))
    lo = np.linalg.cholesky(a)  # the factor, made outside the timing
    lower = k["uplo"] == "L"
    f = lo if lower else t(lo)  # uplo=U holds U = L^T

    def two_solves():
        if lower:
            return np.linalg.solve(t(f), np.linalg.solve(f, rhs))
        return np.linalg.solve(f, np.linalg.solve(t(f), rhs))
    out = [Recipe("2 solve", "np.linalg.solve on each triangle", two_solves)]
    if sla:
        out.append(Recipe("cho_solve loop", "scipy.linalg.cho_solve((c_i, lower), b_i) per matrix",
                          loop(lambda c, y: sla.cho_solve((c, lower), y, check_finite=False), f, rhs), stacked))
    return out


def posv(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    rhs = tiled(rng, k["batch"], rect(k["n"], k["nrhs"], dtype))
    # The whole job (factor and solve) on a fresh A each call. numpy's
    # general solver does it in one batched call, with an LU: fewer flops
    # wasted than a Cholesky followed by two general solves, which run an
    # LU on each triangle. scipy's Cholesky solve is a loop.
    out = [Recipe("solve", "np.linalg.solve(a, b)", lambda: np.linalg.solve(a, rhs))]
    if sla:
        out.append(Recipe("cho_factor+cho_solve loop", "scipy.linalg.cho_solve(cho_factor(a_i), b_i) per matrix",
                          loop(lambda x, y: sla.cho_solve(sla.cho_factor(x, lower=True, check_finite=False), y, check_finite=False), a, rhs),
                          stacked))

    def chol_two_solves():
        l = np.linalg.cholesky(a)
        return np.linalg.solve(t(l), np.linalg.solve(l, rhs))
    out.append(Recipe("cholesky+2 solve", "np.linalg.cholesky + 2 np.linalg.solve", chol_two_solves))
    return out


def syev(k, dtype, rng):
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    uplo = k.get("uplo", "L")
    lower = uplo == "L"
    # Eigenvectors are unique up to sign: the recipes agree on the values.
    if k["jobz"] == "V":
        out = [Recipe("eigh", "np.linalg.eigh(a)", lambda: np.linalg.eigh(a, UPLO=uplo), lambda r: r[0])]
        if sla:
            out.append(Recipe("scipy eigh loop", "scipy.linalg.eigh(a_i) per matrix",
                              loop(lambda x: sla.eigh(x, lower=lower, check_finite=False)[0], a), stacked))
        return out
    out = [Recipe("eigvalsh", "np.linalg.eigvalsh(a)", lambda: np.linalg.eigvalsh(a, UPLO=uplo))]
    if sla:
        out.append(Recipe("scipy eigvalsh loop", "scipy.linalg.eigh(a_i, eigvals_only=True) per matrix",
                          loop(lambda x: sla.eigh(x, lower=lower, eigvals_only=True, check_finite=False), a), stacked))
    return out


def r_diagonal(r):
    """|diag(R)|: the part of a QR every recipe agrees on (R's signs, and
    Q's, depend on the reflector convention)."""
    return np.abs(np.diagonal(r, axis1=-2, axis2=-1))


def geqrf(k, dtype, rng):
    # The factorisation alone: numpy's R, or its raw reflectors and tau
    # (LAPACK's geqrf output, as batchlas's), on stacks.
    a = tiled(rng, k["batch"], rect(k["m"], k["n"], dtype))
    return [Recipe("qr r", "np.linalg.qr(a, mode='r')", lambda: np.linalg.qr(a, mode="r"), r_diagonal),
            Recipe("qr raw", "np.linalg.qr(a, mode='raw')", lambda: np.linalg.qr(a, mode="raw"), lambda r: r_diagonal(r[0]))]


def inv(k, dtype, rng):
    # The inverse of every matrix (linalg.Inv on the matinv op; the matinv
    # op itself into an output kept between calls).
    a = tiled(rng, k["batch"], general(k["n"], dtype))
    return [Recipe("inv", "np.linalg.inv(a)", lambda: np.linalg.inv(a))]


def invspd(k, dtype, rng):
    # The inverse of every SPD matrix (linalg.InvSPD on the poinv op): numpy
    # has one inverse for every matrix.
    a = tiled(rng, k["batch"], spd(k["n"], dtype))
    return [Recipe("inv", "np.linalg.inv(a)", lambda: np.linalg.inv(a))]


def qr(k, dtype, rng):
    # geqrf and orgqr together, as the one-call layer's linalg.QR: the
    # reduced Q and R of every matrix.
    a = tiled(rng, k["batch"], rect(k["m"], k["n"], dtype))
    return [Recipe("qr", "np.linalg.qr(a)", lambda: np.linalg.qr(a), lambda r: r_diagonal(r[1]))]


def gels(k, dtype, rng):
    # Least squares of tall, full-rank systems: numpy's lstsq is one matrix
    # per call; the stacked way is a QR, Q^T b, and a solve with R (numpy
    # has no stacked triangular solve: its general solver runs an LU of R).
    a = tiled(rng, k["batch"], rect(k["m"], k["n"], dtype))
    rhs = tiled(rng, k["batch"], rect(k["m"], k["nrhs"], dtype))

    def qr_solve():
        q, r = np.linalg.qr(a)
        return np.linalg.solve(r, t(q) @ rhs)
    return [Recipe("qr+solve", "q, r = np.linalg.qr(a); np.linalg.solve(r, q^T b)", qr_solve),
            Recipe("lstsq loop", "np.linalg.lstsq(a_i, b_i) per matrix",
                   loop(lambda x, y: np.linalg.lstsq(x, y, rcond=None)[0], a, rhs), stacked)]


def gesvd(k, dtype, rng):
    # The singular values, and with vectors=V the thin U and V^T as
    # batchlas's ThinVectors: numpy's stacked svd (LAPACK's gesdd one
    # matrix at a time), or scipy's gesvd per matrix. Vectors are unique up
    # to sign: the recipes agree on the values.
    a = tiled(rng, k["batch"], rect(k["m"], k["n"], dtype))
    if k["vectors"] == "V":
        out = [Recipe("svd", "np.linalg.svd(a, full_matrices=False)",
                      lambda: np.linalg.svd(a, full_matrices=False), lambda r: r[1])]
        if sla:
            out.append(Recipe("scipy gesvd loop", "scipy.linalg.svd(a_i, full_matrices=False, lapack_driver='gesvd') per matrix",
                              loop(lambda x: sla.svd(x, full_matrices=False, check_finite=False, lapack_driver="gesvd")[1], a), stacked))
        return out
    out = [Recipe("svd values", "np.linalg.svd(a, compute_uv=False)", lambda: np.linalg.svd(a, compute_uv=False))]
    if sla:
        out.append(Recipe("scipy svdvals loop", "scipy.linalg.svdvals(a_i) per matrix",
                          loop(lambda x: sla.svdvals(x, check_finite=False), a), stacked))
    return out


RECIPES = {"gemm": gemm, "syrk": syrk, "trmm": trmm, "potrf": potrf, "trsm": trsm, "gesv": gesv, "getrf": getrf, "getrs": getrs,
           "potrs": potrs, "posv": posv, "syev": syev, "geqrf": geqrf, "qr": qr, "inv": inv, "matinv": inv, "invspd": invspd,
           "gels": gels,
           "gesvd": gesvd}

# A recipe whose one sizing call takes more than SCREEN times the fastest
# recipe's time so far is not timed further: a Python loop over 65536
# matrices can take seconds per call, and cannot be the fastest.
SCREEN = 3.0


def keys_of(case):
    out = {}
    for name, v in case["keys"].items():
        out[name] = int(v) if v.isdigit() else v
    return out


def steady(call, case, give_up=math.inf):
    """Seconds of one call, made again while the call touched the case's
    steady_fresh bytes or more of fresh memory (its page faults, as the Go
    side counts the memory its runtime grows by), steady_max calls at
    most: the last. A call slower than give_up seconds is not made again
    (screening)."""
    page = resource.getpagesize()
    for i in range(1, max(1, case.get("steady_max", 1)) + 1):
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t0 = time.perf_counter()
        call()
        one = time.perf_counter() - t0
        fresh = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) * page
        if one > give_up or i >= case.get("steady_max", 1) or fresh < case.get("steady_fresh", 0):
            return one


def timed(call, one, case):
    """The protocol's timing of call, whose one timed call took one
    seconds: the best of reps timings of enough calls to last target_ms."""
    target = case.get("target_ms", 1) / 1e3
    calls = max(1, math.ceil(target / one)) if one > 0 else 1
    best = math.inf
    for _ in range(max(1, case.get("reps", 5))):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e3, calls


def agrees(got, want, dtype):
    tol = 1e-3 if dtype == np.float32 else 1e-8
    got, want = np.asarray(got), np.asarray(want)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.max(np.abs(want))))))


def time_case(case):
    recipe = RECIPES.get(case["op"])
    if recipe is None:
        return {"error": f"numpy_peers.py has no recipe for op {case['op']}"}
    dtype = {"float64": np.float64, "float32": np.float32}.get(case["dtype"])
    if dtype is None:
        return {"error": f"numpy_peers.py: unknown dtype {case['dtype']}"}
    rng = np.random.default_rng(case.get("seed", 1))
    tried, best, want = [], None, None
    for r in recipe(keys_of(case), dtype, rng):
        entry = {"recipe": r.name, "call": r.spelled}
        tried.append(entry)
        try:
            got = r.answer(r.call())  # warm-up, and the answer checked
            if want is None:
                want = got
            elif not agrees(got, want, dtype):
                entry["error"] = f"its answer differs from {tried[0]['recipe']}'s: not the same job"
                continue
            one = steady(r.call, case, math.inf if best is None else SCREEN * best["ms"] / 1e3)
            if best is not None and one > SCREEN * best["ms"] / 1e3:
                entry.update(ms=one * 1e3, calls=1, screened=True)
                continue
            ms, calls = timed(r.call, one, case)
            entry.update(ms=ms, calls=calls)
            if best is None or ms < best["ms"]:
                best = entry
        except Exception as e:  # one failing recipe must not lose the others
            entry["error"] = f"{type(e).__name__}: {e}"
    if best is None:
        return {"error": "; ".join(f"{e['recipe']}: {e.get('error', '?')}" for e in tried) or "no recipe", "tried": tried}
    return {"ms": best["ms"], "calls": best["calls"], "call": best["call"], "recipe": best["recipe"], "tried": tried}


def main():
    cases = json.load(sys.stdin)
    results = []
    for case in cases:
        try:
            results.append(time_case(case))
        except Exception as e:  # one failing case must not lose the others
            results.append({"error": f"{type(e).__name__}: {e}"})
    json.dump({"numpy": np.__version__, "scipy": scipy.__version__ if scipy else "",
               "blas": blas_config(), "results": results}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
