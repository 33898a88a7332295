#!/usr/bin/env python3
"""Write crs_goldens.json: PROJ (pyproj.Transformer, always_xy) answers for
deterministic point sets: WGS84 <-> UTM (all 120 zones, across each zone's
band and a little beyond, both hemispheres), Web Mercator to +-85 deg,
azimuthal equidistant within 500 km of varied centres (poles, antimeridian),
and the other EPSG systems github.com/wroge/wgs84 registers.

Run with Debian's python3 (pyproj 3.4 / PROJ 9.1): /usr/bin/python3 gen_crs.py
"""
import math

import pyproj
from pyproj import Transformer

from points import LCG, write_goldens

AEQD = "+proj=aeqd +lat_0={lat} +lon_0={lon} +datum=WGS84 +units=m +no_defs"


def proj_name(s):
    if s.startswith("aeqd:"):
        lat, lon = s[5:].split(",")
        return AEQD.format(lat=lat, lon=lon)
    return s


def run(frm, to, pts):
    t = Transformer.from_crs(proj_name(frm), proj_name(to), always_xy=True)
    out = []
    for x, y in pts:
        X, Y = t.transform(x, y, errcheck=True)
        out.append([x, y, X, Y])
    return {"from": frm, "to": to, "points": out}


def main():
    r = LCG(11)
    cases = []
    # UTM: every zone, north and south; lon across the zone +-3.5 deg
    # (edges and the overlap used for rasters straddling a boundary).
    for zone in range(1, 61):
        cm = zone * 6 - 183
        for north in (True, False):
            code = (32600 if north else 32700) + zone
            pts = []
            for k in range(12):
                lon = cm + r.uniform(-3.5, 3.5)
                lat = r.uniform(0, 84) if north else r.uniform(-80, 0)
                pts.append((lon, lat))
            for dl in (-3, 3):  # exact zone edges
                pts.append((cm + dl, 45.0 if north else -45.0))
                pts.append((cm + dl, 0.0))
            pts.append((cm, 84.0 if north else -80.0))
            cases.append(run("EPSG:4326", "EPSG:%d" % code, pts))
            inv = []
            for k in range(6):
                e = r.uniform(160000, 840000)
                n = r.uniform(0, 9300000) if north else r.uniform(1100000, 10000000)
                inv.append((e, n))
            cases.append(run("EPSG:%d" % code, "EPSG:4326", inv))
    # Antimeridian neighbours and far-from-zone points.
    cases.append(run("EPSG:4326", "EPSG:32601", [(-180, 10), (180, 10), (179.5, -5), (-177, 60), (-174, 1)]))
    cases.append(run("EPSG:4326", "EPSG:32760", [(180, -10), (-179.9, -50), (174, -1), (177, -79.9)]))
    cases.append(run("EPSG:4326", "EPSG:32633", [(25, 40), (5, -10), (40, 60), (15, 89.9), (15, 90)]))
    # Web Mercator.
    pts = [(0, 0), (180, 85), (-180, -85), (179.999, 85.0511287798), (0, -85.0511287798)]
    for _ in range(200):
        pts.append((r.uniform(-180, 180), r.uniform(-85, 85)))
    cases.append(run("EPSG:4326", "EPSG:3857", pts))
    inv = [(r.uniform(-20037508, 20037508), r.uniform(-20037508, 20037508)) for _ in range(100)]
    cases.append(run("EPSG:3857", "EPSG:4326", inv))
    # aeqd within 500 km (and a few beyond) of varied centres.
    g = pyproj.Geod(ellps="WGS84")
    centres = [(0, 0), (45, 7), (-33.9, 151.2), (89.9, 30), (-89.5, -60), (10, 179.9),
               (64.1, -21.9), (-0.5, -179.99), (52.1, 0.0), (90, 0), (-90, 0)]
    for _ in range(8):
        centres.append((round(r.uniform(-85, 85), 6), round(r.uniform(-180, 180), 6)))
    for lat0, lon0 in centres:
        name = "aeqd:%r,%r" % (lat0, lon0)
        pts = []
        for k in range(25):
            az = r.uniform(-180, 180)
            d = r.uniform(0, 500000) if k < 22 else r.uniform(500000, 5000000)
            lon, lat, _ = g.fwd(lon0, lat0, az, d)
            pts.append((lon, lat))
        pts.append((lon0, lat0))
        cases.append(run("EPSG:4326", name, pts))
        inv = []
        for k in range(10):
            az = r.uniform(0, 2 * math.pi)
            d = r.uniform(0, 500000)
            inv.append((d * math.sin(az), d * math.cos(az)))
        cases.append(run(name, "EPSG:4326", inv))
    cases.append(run("EPSG:32633", "aeqd:45.0,15.0", [(500000, 4983000), (520000, 5000000)]))
    cases.append(run("EPSG:3857", "EPSG:32632", [(1000000, 6000000), (1100000, 5900000)]))
    # Other systems github.com/wroge/wgs84 registers: points inside their areas.
    others = {
        4258: (-10, 35, 30, 70), 4314: (6, 47, 15, 55), 4277: (-7, 50, 1.5, 58),
        4171: (-4, 43, 8, 51), 4269: (-120, 25, -70, 60),
        3416: (10, 46.5, 17, 49), 3035: (-10, 35, 30, 70), 31287: (10, 46.5, 17, 49),
        31284: (9.5, 46.5, 11.8, 48), 31285: (11.8, 46.5, 14.8, 49), 31286: (14.8, 46.5, 17, 49),
        31257: (9.5, 46.5, 11.8, 48), 31258: (11.8, 46.5, 14.8, 49), 31259: (14.8, 46.5, 17, 49),
        27700: (-7, 50, 1.5, 58), 2154: (-4, 43, 8, 51),
        6355: (-86.7, 31, -85, 35), 6356: (-88.4, 30.2, -86.4, 35), 6414: (-124, 33, -115, 41.5),
    }
    for z in range(42, 51):
        others[3900 + z] = (-2, z - 0.7, 8, z + 0.7)
    for z in range(2, 6):
        others[31464 + z] = (z * 3 - 1.4, 47.5, z * 3 + 1.4, 55)
    for z in range(28, 39):
        cm = z * 6 - 183
        others[25800 + z] = (cm - 3, 35, cm + 3, 70)
    for code, (w, s, e, n) in sorted(others.items()):
        pts = [(r.uniform(w, e), r.uniform(s, n)) for _ in range(8)]
        fwd = run("EPSG:4326", "EPSG:%d" % code, pts)
        cases.append(fwd)
        back = [(p[2], p[3]) for p in fwd["points"]]
        cases.append(run("EPSG:%d" % code, "EPSG:4326", back))
    out = {
        "generator": "conformance/geodesy/gen_crs.py",
        "pyproj": pyproj.__version__,
        "proj": pyproj.proj_version_str,
        "cases": cases,
    }
    write_goldens("crs_goldens.json", out)


if __name__ == "__main__":
    main()
