#!/usr/bin/env python3
"""Held-out check: fresh random points (any --seed) through our CLI versus
PROJ/pyproj, printing the worst errors per system.

    go build -o /tmp/geodisaster ./cmd/geodisaster
    /usr/bin/python3 conformance/geodesy/verify.py --bin /tmp/geodisaster --seed 7

Checks: UTM (random zones, across the zone band +-3 deg, both hemispheres)
forward and inverse, Web Mercator to +-85 deg, aeqd within 500 km of random
centres, round trips to 1e-8 deg, and geodesic inverse distances/azimuths.
"""
import argparse
import math
import subprocess

import pyproj
from pyproj import Transformer

from points import LCG


def cli(binary, args, lines):
    inp = "".join(" ".join(repr(float(v)) for v in l) + "\n" for l in lines)
    p = subprocess.run([binary] + args, input=inp, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("%s failed: %s" % (args, p.stderr))
    return [[float(v) for v in l.split()] for l in p.stdout.splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="/tmp/geodisaster")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("-n", type=int, default=2000)
    a = ap.parse_args()
    r = LCG(a.seed)
    report = []

    def check(name, frm, to, pts, projected_out):
        proj_from = frm if not frm.startswith("aeqd:") else "+proj=aeqd +lat_0=%s +lon_0=%s +datum=WGS84" % tuple(frm[5:].split(","))
        proj_to = to if not to.startswith("aeqd:") else "+proj=aeqd +lat_0=%s +lon_0=%s +datum=WGS84" % tuple(to[5:].split(","))
        t = Transformer.from_crs(proj_from, proj_to, always_xy=True)
        ours = cli(a.bin, ["transform", "--from", frm, "--to", to], pts)
        worst = 0.0
        for (x, y), (X, Y) in zip(pts, ours):
            px, py = t.transform(x, y)
            if projected_out:
                d = math.hypot(X - px, Y - py)
            else:
                d = max(abs((X - px + 180) % 360 - 180), abs(Y - py))
            worst = max(worst, d)
        report.append((name, len(pts), worst, "m" if projected_out else "deg"))
        return ours

    per = max(1, a.n // 20)
    wutm, wutm_inv, wrt = 0.0, 0.0, 0.0
    for k in range(10):
        zone = 1 + int(r.next() * 60)
        north = r.next() < 0.5
        code = "EPSG:%d" % ((32600 if north else 32700) + zone)
        cm = zone * 6 - 183
        pts = [(cm + r.uniform(-3, 3), r.uniform(0, 84) if north else r.uniform(-80, 0)) for _ in range(per)]
        xy = check("UTM %s forward" % code, "EPSG:4326", code, pts, True)
        back = check("UTM %s inverse" % code, code, "EPSG:4326", [tuple(p) for p in xy], False)
        for (lon, lat), (blon, blat) in zip(pts, back):
            wrt = max(wrt, abs(blat - lat), abs((blon - lon + 180) % 360 - 180))
    pts = [(r.uniform(-180, 180), r.uniform(-85, 85)) for _ in range(per * 5)]
    xy = check("Web Mercator forward", "EPSG:4326", "EPSG:3857", pts, True)
    check("Web Mercator inverse", "EPSG:3857", "EPSG:4326", [tuple(p) for p in xy], False)
    g = pyproj.Geod(ellps="WGS84")
    for k in range(5):
        lat0, lon0 = round(r.uniform(-89, 89), 4), round(r.uniform(-180, 180), 4)
        name = "aeqd:%r,%r" % (lat0, lon0)
        pts = []
        for _ in range(per):
            lon, lat, _ = g.fwd(lon0, lat0, r.uniform(-180, 180), r.uniform(0, 500000))
            pts.append((lon, lat))
        xy = check("%s forward" % name, "EPSG:4326", name, pts, True)
        check("%s inverse" % name, name, "EPSG:4326", [tuple(p) for p in xy], False)
    # geodesic inverse
    lines = [(r.uniform(-90, 90), r.uniform(-180, 180), r.uniform(-90, 90), r.uniform(-180, 180)) for _ in range(a.n)]
    ours = cli(a.bin, ["geod", "inverse"], lines)
    ws, wa = 0.0, 0.0
    for (la1, lo1, la2, lo2), (az1, az2, s12) in zip(lines, ours):
        paz1, pbaz, ps = g.inv(lo1, la1, lo2, la2)
        ws = max(ws, abs(s12 - ps))
        wa = max(wa, abs((az1 - paz1 + 180) % 360 - 180))
    report.append(("geodesic inverse s12", len(lines), ws, "m"))
    report.append(("geodesic inverse azi1", len(lines), wa, "deg"))
    report.append(("UTM round trip", 10 * per, wrt, "deg"))
    print("held-out seed %d against PROJ %s" % (a.seed, pyproj.proj_version_str))
    for name, n, w, unit in report:
        print("%-40s n=%-6d worst %.3g %s" % (name, n, w, unit))


if __name__ == "__main__":
    main()
