"""Shared helpers of the native-stack oracle (independent of the Go code)."""
import math
import os

import numpy as np
import rasterio

WGS84_A = 6378137.0
WGS84_F = 1 / 298.257223563


def handle_files(rec, handle):
    return [f["path"] for f in rec["handles"][handle]["files"]]


def find(rec, handle, suffix):
    for p in handle_files(rec, handle):
        if p.endswith(suffix):
            return p
    raise KeyError("%s declares no file ending in %s" % (handle, suffix))


def read_band(root, rel, band=1):
    with rasterio.open(os.path.join(root, rel)) as ds:
        return ds.read(band), ds.nodata, ds.transform, ds.crs


def _zone(lat_deg):
    """Ellipsoid area between the equator and latitude, per radian of longitude."""
    e2 = WGS84_F * (2 - WGS84_F)
    e = np.sqrt(e2)
    b2 = (WGS84_A * (1 - WGS84_F)) ** 2
    s = np.sin(np.radians(lat_deg))
    return b2 * (s / (2 * (1 - e2 * s * s)) + np.log((1 + e * s) / (1 - e * s)) / (4 * e))


def cell_area_grid(transform, height, width):
    """WGS84 ellipsoidal area (m2) of every cell of a north-up geographic grid."""
    rows = np.arange(height + 1, dtype=np.float64)
    edges = transform.f + transform.e * rows
    per_row = np.abs(_zone(edges[:-1]) - _zone(edges[1:])) * np.radians(abs(transform.a))
    return np.repeat(per_row[:, None], width, axis=1)


def grid_cell_areas(transform, crs, height, width):
    """Spec section 8: WGS84 ellipsoidal cell areas on geographic grids; on
    projected grids every cell has |det| times the squared linear unit."""
    if crs.is_geographic:
        return cell_area_grid(transform, height, width)
    unit = crs.linear_units_factor[1]
    det = abs(transform.a * transform.e - transform.b * transform.d) * unit * unit
    return np.full((height, width), det)


def masked_area_m2(sel, transform, crs):
    """Area of the selected cells: NumPy's areas[sel].sum() on geographic
    grids, count times the pixel area on projected ones."""
    if crs.is_geographic:
        return float(cell_area_grid(transform, *sel.shape)[sel].sum())
    return float(int(sel.sum()) * grid_cell_areas(transform, crs, 1, 1)[0, 0])


# Grid compatibility (docs/grids.md): same shape and CRS, and the two
# transforms place every corner of the pixel grid within this fraction of a
# pixel of each other. Exports carry float noise (the real Sen1Floods11
# LabelHand.tif pixel is 3.1e-19 degrees smaller than S1Hand.tif's), which
# the benchmark's reference accepts.
GRID_TOLERANCE_PIXELS = 1e-6


def same_grid(t1, t2, width, height):
    """Whether affine transforms t1 and t2 describe one width x height grid."""
    d = [t1.a - t2.a, t1.b - t2.b, t1.c - t2.c, t1.d - t2.d, t1.e - t2.e, t1.f - t2.f]
    worst = max(math.hypot(d[0] * x + d[1] * y + d[2], d[3] * x + d[4] * y + d[5])
                for x, y in ((0, 0), (width, 0), (0, height), (width, height)))
    pixel = min(math.hypot(t1.a, t1.d), math.hypot(t1.b, t1.e))
    return pixel > 0 and worst <= GRID_TOLERANCE_PIXELS * pixel
