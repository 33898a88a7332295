#!/usr/bin/env python3
"""PROJ's answers for EPSG projected CRSs, converted from their own base
geographic CRS, on points sampled over each CRS's area of use.

For every non-deprecated EPSG projected CRS PROJ can convert (or a seeded
sample of them), draws points uniformly in the CRS's area of use, expresses
them in the base geographic CRS (its angular unit, relative to its prime
meridian, authority axis order), converts them with pyproj (PROJ) to the
projected CRS (authority axis order) and back, and prints one JSON object
per CRS on stdout:

  {"code": 31467, "method": 9807, "base": 4314,
   "points": [[b1, b2, x, y, b1_back, b2_back], ...],
   "failed": n}

where (b1, b2) is the input in the base CRS, (x, y) PROJ's projected
coordinates and (b1_back, b2_back) PROJ's inverse of (x, y). CRSs PROJ
cannot convert are printed with "error". crs/sweep_test.go runs this
script and compares the engine with every number (1 mm forward, 1e-9
degrees back).

Usage: /usr/bin/python3 conformance/crs/sweep.py [--sample N [--per-method M]]
       [--seed S] [--points K] [--codes C1,C2,...]
"""
import argparse
import json
import math
import random
import sqlite3
import sys
import warnings

import pyproj
from pyproj import CRS, Transformer

warnings.filterwarnings("ignore")


def codes_from_db():
    db = sqlite3.connect(pyproj.datadir.get_data_dir() + "/proj.db")
    return [(int(c), int(m)) for c, m in db.execute(
        "SELECT p.code, c.method_code FROM projected_crs p JOIN conversion c "
        "ON p.conversion_auth_name = c.auth_name AND p.conversion_code = c.code "
        "WHERE p.auth_name = 'EPSG' AND p.deprecated = 0 ORDER BY p.code")]


def sample_points(crs, rnd, k):
    aou = crs.area_of_use
    if aou is None:
        return []
    w, s, e, n = aou.west, aou.south, aou.east, aou.north
    if e < w:
        e += 360
    pts = [((w + e) / 2, (s + n) / 2)]
    while len(pts) < k:
        pts.append((rnd.uniform(w, e), rnd.uniform(s, n)))
    return [(lon if lon <= 180 else lon - 360, lat) for lon, lat in pts]


def run(code, method, rnd, k):
    out = {"code": code, "method": method}
    try:
        crs = CRS.from_epsg(code)
        base = crs.geodetic_crs
        out["base"] = int(base.to_epsg() or 0)
        fwd = Transformer.from_crs(base, crs)
        inv = Transformer.from_crs(crs, base)
    except Exception as exc:  # PROJ cannot build the conversion
        out["error"] = str(exc)
        return out
    try:
        fwd.transform(0, 0)
    except Exception as exc:
        out["error"] = str(exc)
        return out
    # Base CRS axes: unit (radians per unit), order, prime meridian.
    axes = base.axis_info
    unit = axes[0].unit_conversion_factor
    lat_first = axes[0].direction.lower() == "north"
    pm = base.prime_meridian
    pm_deg = pm.longitude * pm.unit_conversion_factor / (math.pi / 180)
    pts = []
    failed = 0
    for lon, lat in sample_points(crs, rnd, k):
        blon = (lon - pm_deg) * (math.pi / 180) / unit
        blat = lat * (math.pi / 180) / unit
        b1, b2 = (blat, blon) if lat_first else (blon, blat)
        try:
            x, y = fwd.transform(b1, b2, errcheck=True)
            c1, c2 = inv.transform(x, y, errcheck=True)
        except Exception:
            failed += 1
            continue
        if not all(math.isfinite(v) for v in (x, y, c1, c2)):
            failed += 1
            continue
        pts.append([b1, b2, x, y, c1, c2])
    out["points"] = pts
    out["failed"] = failed
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0, help="number of codes (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--points", type=int, default=12)
    ap.add_argument("--codes", default="")
    ap.add_argument("--per-method", type=int, default=0,
                    help="with --sample, also at least this many codes of every method")
    args = ap.parse_args()
    codes = codes_from_db()
    rnd = random.Random(args.seed)
    if args.codes:
        want = {int(c) for c in args.codes.split(",")}
        codes = [c for c in codes if c[0] in want]
    elif args.sample:
        chosen = set(rnd.sample(codes, min(args.sample, len(codes))))
        by_method = {}
        for c in codes:
            by_method.setdefault(c[1], []).append(c)
        for m in sorted(by_method):
            have = [c for c in by_method[m] if c in chosen]
            rest = [c for c in by_method[m] if c not in chosen]
            need = max(0, args.per_method - len(have))
            chosen.update(rnd.sample(rest, min(need, len(rest))))
        codes = sorted(chosen)
    print(json.dumps({"proj": pyproj.proj_version_str, "pyproj": pyproj.__version__,
                      "seed": args.seed, "points": args.points}))
    for code, method in codes:
        print(json.dumps(run(code, method, random.Random(args.seed * 1000003 + code), args.points)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
