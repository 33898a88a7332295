#!/usr/bin/env python3
"""Write pixel_goldens.json: rasterio (1.3, affine 2.4) answers for
transform.xy (centre and corners) and transform.rowcol on deterministic
transforms and points, including points exactly on pixel edges.

    /usr/bin/python3 conformance/geodesy/gen_pixel.py
"""

import rasterio
from affine import Affine
from rasterio.transform import rowcol, xy

from points import LCG, write_goldens


def main():
    r = LCG(31)
    transforms = [
        Affine(10, 0, 500000, 0, -10, 4000000),
        Affine(0.0001, 0, 12.5, 0, -0.0001, 45.3),
        Affine(0.00025, 0, -60.0, 0, 0.00025, -10.0),
        Affine(1 / 3600, 0, 100.0, 0, -1 / 3600, 0.1),
        Affine(8.983152841195214e-05, 0, -3.7, 0, -8.983152841195214e-05, 40.4),
        Affine(30, 5, 1000, -4, -30, 2000),  # rotated
    ]
    cases = []
    for t in transforms:
        xys = []
        for _ in range(40):
            row, col = int(r.next() * 1000), int(r.next() * 1000)
            for off in ("center", "ul", "ur", "ll", "lr"):
                x, y = xy(t, row, col, offset=off)
                xys.append([row, col, off, x, y])
        rcs = []
        for _ in range(60):
            fx, fy = r.uniform(-5, 1005), r.uniform(-5, 1005)
            x, y = t * (fx, fy)
            rr, cc = rowcol(t, x, y)
            rcs.append([x, y, rr, cc])
        for _ in range(30):  # exact pixel corners
            x, y = t * (int(r.next() * 1000), int(r.next() * 1000))
            rr, cc = rowcol(t, x, y)
            rcs.append([x, y, rr, cc])
        cases.append({"transform": list(t)[:6], "xy": xys, "rowcol": rcs})
    out = {"generator": "conformance/geodesy/gen_pixel.py", "rasterio": rasterio.__version__, "cases": cases}
    write_goldens("pixel_goldens.json", out)


if __name__ == "__main__":
    main()
