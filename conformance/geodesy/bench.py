#!/usr/bin/env python3
"""Time our Go geodesy/crs against pyproj (PROJ) on the same arrays in one run
and print the ratios (pyproj time / Go time; > 1 means Go is faster).

    /usr/bin/python3 conformance/geodesy/bench.py   # from the module root

Workloads (identical inputs on both sides):
  cell areas   all 512x512 cells of an EPSG:4326 grid with 0.0001 deg pixels at
               (12.5 E, 45.3 N): Go geodesy.CellAreas + fill; pyproj: the
               geodesic cell polygon per row (Geod.polygon_area_perimeter,
               512 calls) broadcast to the grid; numpy: the authalic formula
               vectorised (no pyproj).
  aeqd         1e6 forward transforms to +proj=aeqd +lat_0=45 +lon_0=12
               +datum=WGS84 (Transformer.transform on numpy arrays).
  inverse      1e6 geodesic inverses from (45, 12) (Geod.inv on arrays).
"""
import os
import re
import subprocess
import sys
import time

import numpy as np
import pyproj

N = 1000000


def best(f, reps=5):
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def arrays(n):
    i = np.arange(n, dtype=np.int64)
    lat = 44.6 + 0.8 * (i / n)
    lon = 11.6 + 0.8 * (((i * 7919) % n) / n)
    return lon, lat


def go_bench():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cmd = ["go", "test", "-run", "^$", "-bench",
           "CellAreasGrid512|CellAreas512|Inverse1e6|AeqdForward1e6", "-benchtime", "5x",
           "./geodesy/", "./crs/"]
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True).stdout
    res = {}
    for m in re.finditer(r"^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", out, re.M):
        res[m.group(1)] = float(m.group(2)) / 1e9
    return res


def main():
    g = pyproj.Geod(ellps="WGS84")
    # cell areas
    lon0, lat0, d, h = 12.5, 45.3, 0.0001, 512

    def py_cells():
        rows = np.empty(h)
        for r in range(h):
            n, s = lat0 - d * r, lat0 - d * (r + 1)
            a, _ = g.polygon_area_perimeter([0, d, d, 0], [s, s, n, n])
            rows[r] = abs(a)
        return np.repeat(rows[:, None], 512, axis=1)

    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    e = e2 ** 0.5

    def np_cells():
        lat = np.radians(lat0 - d * np.arange(h + 1))
        s = np.sin(lat)
        q = (1 - e2) * (s / (1 - e2 * s * s) + np.arctanh(e * s) / e)
        rows = a * a / 2 * np.radians(d) * (q[:-1] - q[1:])
        return np.repeat(rows[:, None], 512, axis=1)

    t_cells_py = best(py_cells)
    t_cells_np = best(np_cells)
    lon, lat = arrays(N)
    t_aeqd = pyproj.Transformer.from_crs(
        "EPSG:4326", "+proj=aeqd +lat_0=45 +lon_0=12 +datum=WGS84 +units=m", always_xy=True)
    t_aeqd_py = best(lambda: t_aeqd.transform(lon, lat), 3)
    lon1 = np.full(N, 12.0)
    lat1 = np.full(N, 45.0)
    t_inv_py = best(lambda: g.inv(lon1, lat1, lon, lat), 3)
    go = go_bench()
    rows = [
        ("cell areas 512x512 (vs pyproj per-row geodesic polygon)", t_cells_py, go.get("CellAreasGrid512")),
        ("cell areas 512x512 (vs numpy authalic formula)", t_cells_np, go.get("CellAreasGrid512")),
        ("1e6 aeqd forward (Transformer.transform)", t_aeqd_py, go.get("AeqdForward1e6")),
        ("1e6 geodesic inverse (Geod.inv)", t_inv_py, go.get("Inverse1e6")),
    ]
    print("pyproj %s, PROJ %s, numpy %s, python %s" % (
        pyproj.__version__, pyproj.proj_version_str, np.__version__, sys.version.split()[0]))
    print("%-58s %12s %12s %8s" % ("workload", "python s", "go s", "ratio"))
    for name, tp, tg in rows:
        print("%-58s %12.6f %12.6f %8.2f" % (name, tp, tg, tp / tg))


if __name__ == "__main__":
    main()
