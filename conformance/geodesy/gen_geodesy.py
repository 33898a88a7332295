#!/usr/bin/env python3
"""Write geodesy_goldens.json: GeographicLib (via PROJ's geodesic, pyproj.Geod)
answers for inverse, direct and polygon areas, and mpmath (50 digits)
quadrangle areas from the authalic-latitude formula.

Run with Debian's python3 (pyproj 3.4 / PROJ 9.1): /usr/bin/python3 gen_geodesy.py
"""
import math

import mpmath
import pyproj

from points import LCG, direct_cases, geodesic_pairs, write_goldens

mpmath.mp.dps = 50
A = mpmath.mpf(6378137)
F = 1 / mpmath.mpf("298.257223563")
E2 = F * (2 - F)
E = mpmath.sqrt(E2)


def q(lat):
    s = mpmath.sin(mpmath.radians(mpmath.mpf(lat)))
    if abs(s) == 1:
        s = mpmath.mpf(1) if s > 0 else mpmath.mpf(-1)
    return (1 - E2) * (s / (1 - E2 * s * s) + mpmath.atanh(E * s) / E)


def quad(lat_s, lat_n, dlon):
    return float(A * A / 2 * mpmath.radians(mpmath.mpf(dlon)) * (q(lat_n) - q(lat_s)))


def norm180(x):
    x = math.fmod(x, 360.0)
    if x > 180:
        x -= 360
    elif x <= -180:
        x += 360
    return x


def main():
    g = pyproj.Geod(ellps="WGS84")
    inv = []
    for lat1, lon1, lat2, lon2 in geodesic_pairs():
        az12, az21, dist = g.inv(lon1, lat1, lon2, lat2)
        # pyproj gives the back azimuth; GeodSolve's azi2 is forward.
        inv.append([lat1, lon1, lat2, lon2, dist, az12, norm180(az21 + 180)])
    dire = []
    for lat1, lon1, azi1, s12 in direct_cases():
        lon2, lat2, baz = g.fwd(lon1, lat1, azi1, s12)
        dire.append([lat1, lon1, azi1, s12, lat2, lon2, norm180(baz + 180)])
    polys = []
    r = LCG(3)
    shapes = [
        ([0, 0, 1, 1], [0, 1, 1, 0]),
        ([-10, -10, 10, 10], [170, -170, -170, 170]),  # across the antimeridian
        ([80, 80, 80], [0, 120, -120]),  # around the north pole
        ([-89, -89, -89, -89], [0, 90, 180, -90]),
    ]
    for _ in range(30):
        lat0, lon0 = r.uniform(-80, 80), r.uniform(-180, 180)
        n = 3 + int(r.next() * 8)
        lats, lons = [], []
        for k in range(n):
            ang = 2 * math.pi * k / n
            rad = r.uniform(0.01, 2)
            lats.append(lat0 + rad * math.sin(ang))
            lons.append(lon0 + rad * math.cos(ang))
        shapes.append((lats, lons))
    for lats, lons in shapes:
        area, perim = g.polygon_area_perimeter(lons, lats)
        polys.append({"lats": lats, "lons": lons, "area": area, "perimeter": perim})
    quads = []
    cases = [(-90, 90, 360), (0, 90, 360), (-90, -89, 1), (89.99, 90, 0.01), (0, 1, 1),
             (45, 45.0001, 0.0001), (-0.00009, 0, 0.00009), (10, 20, 30), (-60, 60, 0.5)]
    for _ in range(60):
        s = r.uniform(-90, 90)
        n = min(90, s + r.uniform(0, 3) ** 3)
        cases.append((s, n, r.uniform(0, 10) ** 2 / 10))
    for s, n, w in cases:
        quads.append([s, n, w, quad(s, n, w)])
    out = {
        "generator": "conformance/geodesy/gen_geodesy.py",
        "pyproj": pyproj.__version__,
        "proj": pyproj.proj_version_str,
        "mpmath": mpmath.__version__,
        "inverse_fields": ["lat1", "lon1", "lat2", "lon2", "s12", "azi1", "azi2"],
        "inverse": inv,
        "direct_fields": ["lat1", "lon1", "azi1", "s12", "lat2", "lon2", "azi2"],
        "direct": dire,
        "polygons": polys,
        "quadrangle_fields": ["lat_south", "lat_north", "dlon_deg", "area_m2"],
        "quadrangles": quads,
        "total_area_m2": quad(-90, 90, 360),
    }
    write_goldens("geodesy_goldens.json", out)


if __name__ == "__main__":
    main()
