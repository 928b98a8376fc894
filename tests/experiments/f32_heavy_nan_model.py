#!/usr/bin/env python3
"""Host model of ptx_corpus/bench/f32_heavy's recurrence (kernel.cu): how many lanes end NaN, and in how many
lane-iterations a guarded region's test would fail if NaN counted as "not normal" (docs/GPU_BENCH.md, "NaN
replayed every region"). f32 arithmetic in numpy; fma through f64 (one extra rounding at most: a model, not a
reference). Inputs uniform in [-2, 2] as case.json asks, from numpy's generator (not the runner's).

usage: f32_heavy_nan_model.py [ITERATIONS]   (default 4096, as case.json; needs numpy: apt-get install python3-numpy)
"""
import sys

import numpy as np


def main():
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    f = np.float32
    n = 131072
    inp = np.random.default_rng(1).uniform(-2, 2, n).astype(f)

    def fma(a, b, c):
        return (a.astype(np.float64) * b + c).astype(f)

    x = inp.copy()
    y = inp[np.arange(n) ^ 1] * f(0.5)
    z = f(1) + x * f(0.25)
    w = f(0.75) - y
    tiny = f(1.17549435e-38)
    failed = 0
    with np.errstate(all="ignore"):
        for k in range(iters):
            m = np.full(n, np.inf, f)  # smallest |result| of the iteration, NaN propagating (the old test)
            for _ in range(8):
                p = x * y
                t = z * f(0.25)
                x = fma(p, f(0.5), t)
                t2 = fma(y, f(0.96875), w * f(0.03125))
                y = fma(-p, f(0.0009765625), t2)
                c = fma(z, f(0.875), x)
                z = np.minimum(np.maximum(c, f(-4)), f(4))
                w = fma(w, f(0.9990234), p)
                for r in (p, t, x, t2, y, c, w):
                    m = np.minimum(m, np.abs(r))
            x = fma(x, f(0.5), f(0.25))
            failed += int((~(m > tiny)).sum())
            if k % 512 == 0 or k == iters - 1:
                print("iteration %d: %d of %d lanes NaN" % (k, int(np.isnan(x).sum()), n), flush=True)
    print("lane-iterations whose test fails with NaN counted: %d of %d" % (failed, n * iters))


if __name__ == "__main__":
    main()
