#!/usr/bin/python3
"""Time numpy's batched solvers on the shapes the solve ops are compared at.

Run with the machine quiet, once with OpenBLAS's defaults and once single
threaded, and take numpy's better time (on the 2-core development VM the
threaded run was 2x to 15x slower on these many tiny calls):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tools/peers/numpy_solve.py
    OPENBLAS_NUM_THREADS=1 env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tools/peers/numpy_solve.py
(apt-get install python3-numpy; /usr/bin/python3 is Debian's) and compare with `go run ./tools/tune bench gesv float64 n=8 nrhs=1 batch=65536`
(its "auto" row) on the same shapes. Prints the best of REPS timings, in ms.
"""
import time

import numpy as np

REPS = 5
SHAPES = [(8, 1, 65536), (32, 4, 8192), (128, 16, 512)]  # n, nrhs, batch


def best(f):
    f()
    ts = []
    for _ in range(REPS):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts) * 1e3


def main():
    rng = np.random.default_rng(1)
    print(f"numpy {np.__version__}")
    for n, nrhs, batch in SHAPES:
        g = rng.standard_normal((batch, n, n)) + 2 * np.sqrt(n) * np.eye(n)
        s = g @ np.swapaxes(g, 1, 2) / n + np.eye(n)
        b = rng.standard_normal((batch, n, nrhs))
        solve = best(lambda: np.linalg.solve(g, b))
        chol = best(lambda: np.linalg.cholesky(s))
        # cho_solve has no batched form: numpy's cholesky plus two batched
        # triangular solves is what a user of numpy writes.
        def posv():
            l = np.linalg.cholesky(s)
            y = np.linalg.solve(l, b)  # general solve: numpy has no batched trsm
            return np.linalg.solve(np.swapaxes(l, 1, 2), y)
        po = best(posv)
        print(f"n={n} nrhs={nrhs} batch={batch}: np.linalg.solve {solve:.2f} ms; "
              f"cholesky {chol:.2f} ms; cholesky+2 solves {po:.2f} ms")


if __name__ == "__main__":
    main()
