#!/usr/bin/env python3
"""Write small GeoTIFF fixtures for `geodisaster area` and their expected
areas (area_goldens.json):

  mask_4326.tif  uint8 mask, 0.0001 deg pixels near (12.5 E, 45.3 N), nodata 255
  float_4326.tif float32 values incl. 0.1 and NaN, global-ish 1 deg pixels
  mask_32633.tif uint8 mask in UTM 33N, 10 m pixels

Expected "quadrangle" areas use the authalic formula in mpmath (50 digits)
per row; "geodesic" areas use pyproj.Geod.polygon_area_perimeter of each
row's cell; projected areas are count * |a*e|.

    /usr/bin/python3 conformance/geodesy/gen_area.py
"""
import os

import mpmath
import numpy as np
import pyproj
from osgeo import gdal, osr

from points import LCG, write_goldens

mpmath.mp.dps = 50
A = mpmath.mpf(6378137)
F = 1 / mpmath.mpf("298.257223563")
E2 = F * (2 - F)
E = mpmath.sqrt(E2)
HERE = os.path.dirname(os.path.abspath(__file__))


def q(lat):
    s = mpmath.sin(mpmath.radians(mpmath.mpf(lat)))
    return (1 - E2) * (s / (1 - E2 * s * s) + mpmath.atanh(E * s) / E)


def write(name, arr, gt, epsg, nodata, dtype):
    path = os.path.join(HERE, "testdata", name)
    drv = gdal.GetDriverByName("GTiff")
    ds = drv.Create(path, arr.shape[1], arr.shape[0], 1, dtype)
    ds.SetGeoTransform(gt)
    sr = osr.SpatialReference()
    sr.ImportFromEPSG(epsg)
    ds.SetProjection(sr.ExportToWkt())
    b = ds.GetRasterBand(1)
    if nodata is not None:
        b.SetNoDataValue(nodata)
    b.WriteArray(arr)
    ds.FlushCache()
    ds = None


def geo_expect(arr, gt, value, nodata):
    g = pyproj.Geod(ellps="WGS84")
    x0, dx, _, y0, _, dy = gt
    valid = ~np.isnan(arr.astype(np.float64))
    if nodata is not None:
        valid &= arr != nodata
    if value is None:
        sel = valid
    else:
        sel = valid & (arr == arr.dtype.type(value))
    quad = mpmath.mpf(0)
    geod = 0.0
    for r in range(arr.shape[0]):
        cnt = int(sel[r].sum())
        if cnt == 0:
            continue
        la, lb = y0 + dy * r, y0 + dy * (r + 1)
        s, n = min(la, lb), max(la, lb)
        cell = A * A / 2 * mpmath.radians(mpmath.mpf(abs(dx))) * (q(n) - q(s))
        quad += cnt * cell
        ga, _ = g.polygon_area_perimeter([0, abs(dx), abs(dx), 0], [s, s, n, n])
        geod += cnt * abs(ga)
    return int(sel.sum()), float(quad), geod


def lcg_grid(r, h, w, dtype, pick):
    """An h x w array of dtype filled in row order with pick(r.next())."""
    a = np.zeros((h, w), dtype)
    for i in range(h):
        for j in range(w):
            a[i, j] = pick(r.next())
    return a


def geographic_cases(name, arr, gt, values, nodata):
    """The expected areas of name's pixels of each value (None: every valid
    pixel)."""
    cases = []
    for value in values:
        n, qa, ga = geo_expect(arr, gt, value, nodata)
        cases.append({"file": name, "value": value, "pixels": n,
                      "quadrangle_m2": qa, "geodesic_m2": ga})
    return cases


def main():
    r = LCG(21)
    out = {"generator": "conformance/geodesy/gen_area.py", "pyproj": pyproj.__version__,
           "gdal": gdal.__version__, "cases": []}
    # 1. uint8 mask near Venice, north-up.
    m = lcg_grid(r, 300, 200, np.uint8, lambda v: 1 if v < 0.3 else (255 if v > 0.95 else 0))
    gt = (12.5, 0.0001, 0.0, 45.3, 0.0, -0.0001)
    write("mask_4326.tif", m, gt, 4326, 255, gdal.GDT_Byte)
    out["cases"] += geographic_cases("mask_4326.tif", m, gt, (1, 0, None), 255)
    # 2. float32 with 0.1 and NaN, coarse pixels spanning the poles' rows.
    f = lcg_grid(r, 180, 36, np.float32,
                 lambda v: np.float32(0.1) if v < 0.5 else (np.nan if v > 0.9 else np.float32(2.5)))
    gt = (-180.0, 10.0, 0.0, 90.0, 0.0, -1.0)
    write("float_4326.tif", f, gt, 4326, None, gdal.GDT_Float32)
    out["cases"] += geographic_cases("float_4326.tif", f, gt, (0.1, 2.5, None), None)
    # 3. UTM mask.
    u = lcg_grid(r, 64, 48, np.uint8, lambda v: 1 if v < 0.4 else 0)
    gt = (500000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0)
    write("mask_32633.tif", u, gt, 32633, None, gdal.GDT_Byte)
    n = int((u == 1).sum())
    out["cases"].append({"file": "mask_32633.tif", "value": 1, "pixels": n,
                         "projected_m2": n * 100.0})
    write_goldens("area_goldens.json", out, indent=1)


if __name__ == "__main__":
    main()
