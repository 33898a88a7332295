#!/usr/bin/env python3
"""Goldens for internal/numpy/numpy.go: NumPy's float32/float64 sum and mean of
deterministic arrays. Run with Debian's python3 (NumPy 1.24):

    /usr/bin/python3 conformance/numpy/gen_sums.py > internal/numpy/testdata/numpy_sums.json
"""
import json
import numpy as np


def lcg_values(n, seed):
    """Deterministic pseudo-random doubles in [0, 100), reproduced in Go."""
    out = np.empty(n, dtype=np.float64)
    s = seed
    for i in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out[i] = (s >> 11) / float(1 << 53) * 100.0
    return out


cases = []
for n, seed in [(1, 1), (7, 2), (8, 3), (127, 4), (128, 5), (129, 6), (1000, 7),
                (8191, 8), (8192, 9), (8193, 10), (20000, 11), (65536 + 13, 12), (262144, 13)]:
    v = lcg_values(n, seed)
    f32 = v.astype(np.float32)
    cases.append({
        "n": n, "seed": seed,
        "sum32": float(f32.sum()), "mean32": float(f32.mean()),
        "sum64": float(v.sum()), "mean64": float(v.mean()),
    })
print(json.dumps({"numpy": np.__version__, "cases": cases}, indent=1))
