#!/usr/bin/env python3
"""Time the engine's crs against pyproj (PROJ) on the same arrays in one
run, and print the ratios (pyproj time / Go time; > 1: Go is faster).

    /usr/bin/python3 conformance/crs/bench_vs_pyproj.py [--rounds R]

Workloads: 1e6 conversions from a projected CRS's base geographic CRS
(no datum shift), the arrays of crs/bench_test.go's benchGrid:
  TM   EPSG:4314 -> 31467 (DHDN / 3-degree Gauss-Kruger zone 3), 8-10E 48-50N
  LCC  EPSG:4171 -> 2154  (RGF93 v1 / Lambert-93), 1W-5E 44-50N
  PS   EPSG:4326 -> 3031  (WGS 84 / Antarctic Polar Stereographic), 85-60S
and the TM inverse (31467 -> 4314). pyproj: Transformer.from_crs(...,
always_xy=True).transform on numpy float64 arrays (PROJ's C loop, one
core, the fastest way Python users have); Go: crs.Transform per point (go
test -bench, the library call a Go user makes, one core), and the bulk
call crs.Transformer.TransformSlices on every core (*Slices rows). Rounds alternate pyproj and Go
so that machine load affects both alike; the best time of each is kept.
"""
import argparse
import os
import re
import subprocess
import time

import numpy as np
from pyproj import Transformer

N = 1000000
WORK = {
    "TMForward1e6": (4314, 31467, (8, 48, 2, 2)),
    "LCCForward1e6": (4171, 2154, (-1, 44, 6, 6)),
    "PolarStereoForward1e6": (4326, 3031, (-180, -85, 360, 25)),
    "TMInverse1e6": (31467, 4314, (3400000, 5300000, 200000, 200000)),
}
# The same conversions through Transformer.TransformSlices on every core.
PARALLEL = {"TMForwardSlices1e6": "TMForward1e6", "LCCForwardSlices1e6": "LCCForward1e6",
            "PolarStereoForwardSlices1e6": "PolarStereoForward1e6"}


def grid(n, x0, y0, dx, dy):
    i = np.arange(n, dtype=np.int64)
    y = y0 + dy * (i / n)
    x = x0 + dx * (((i * 7919) % n) / n)
    return x, y


def go_bench(names):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cmd = ["go", "test", "-run", "^$", "-bench", "^Benchmark(" + "|".join(names) + ")$",
           "-benchtime", "3x", "./crs/"]
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True).stdout
    res = {}
    for m in re.finditer(r"^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", out, re.M):
        res[m.group(1)] = float(m.group(2)) / 1e9
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    py = {k: float("inf") for k in WORK}
    go = {k: float("inf") for k in WORK}
    inputs = {k: grid(N, *w[2]) for k, w in WORK.items()}
    tr = {k: Transformer.from_crs("EPSG:%d" % w[0], "EPSG:%d" % w[1], always_xy=True) for k, w in WORK.items()}
    for r in range(args.rounds):
        for k in WORK:
            x, y = inputs[k]
            t0 = time.perf_counter()
            tr[k].transform(x, y)
            py[k] = min(py[k], time.perf_counter() - t0)
        for k, v in go_bench(list(WORK) + list(PARALLEL)).items():
            go[k] = min(go.get(k, float("inf")), v)
    print("%-24s %10s %10s %8s" % ("workload (1e6 points)", "pyproj s", "Go s", "ratio"))
    for k in WORK:
        print("%-24s %10.3f %10.3f %8.2f" % (k, py[k], go[k], py[k] / go[k]))
    cores = os.cpu_count()
    for k, base in PARALLEL.items():
        print("%-24s %10.3f %10.3f %8.2f   (Go on %d cores)" % (k, py[base], go[k], py[base] / go[k], cores))


if __name__ == "__main__":
    main()
