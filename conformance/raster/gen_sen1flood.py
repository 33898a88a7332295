#!/usr/bin/python3
"""Goldens for raster.OtsuFloat32, raster.Label and raster.Polygonize.

Computed with Debian's scikit-image (threshold_otsu), SciPy (ndimage.label)
and rasterio (features.shapes, GDAL polygonize) from deterministic
pseudo-random inputs; run from the repository root:

    /usr/bin/python3 conformance/raster/gen_sen1flood.py > raster/testdata/sen1flood_algorithms.json
"""
import json
import sys

import numpy as np
import rasterio
import rasterio.features
import scipy
import skimage
from affine import Affine
from scipy import ndimage
from skimage.filters import threshold_otsu


def otsu_cases(rng):
    cases = []

    def add(name, x):
        x = np.asarray(x, dtype=np.float32).ravel()
        t = threshold_otsu(x, nbins=256)
        cases.append({"name": name, "values": [float(v) for v in x], "threshold": float(np.float32(t))})

    add("constant", np.full(7, -12.5))
    add("two_values", [-20, -5, -5, -20, -5])
    add("single_outlier", [0.0] * 50 + [1e-3])
    add("tiny_range", np.float32(1.0) + np.arange(40, dtype=np.float32) * np.float32(1e-7))
    for i in range(6):
        n = int(rng.integers(200, 3000))
        water = rng.normal(-22, 2.5, int(n * rng.uniform(0.05, 0.6)))
        land = rng.normal(-9, 3, n - water.size)
        x = np.concatenate([water, land]).astype(np.float32)
        rng.shuffle(x)
        add("bimodal_db_%d" % i, x)
    for i in range(4):
        add("uniform_%d" % i, rng.uniform(-50, 30, int(rng.integers(50, 2000))))
    add("integers_as_float", rng.integers(-40, 5, 1500))
    add("wide_range", np.concatenate([rng.normal(-1e4, 10, 300), rng.normal(3e4, 10, 200)]))
    return cases


def mask_cases(rng):
    cases = []
    fixed = [
        [[1, 0, 0], [0, 1, 0], [0, 0, 0]],
        [[1, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1]],
        [[1, 1, 1, 1], [1, 0, 0, 1], [1, 0, 1, 1], [1, 1, 1, 1]],
        [[0, 1, 0], [1, 0, 1], [0, 1, 0]],
        [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 0, 1, 0, 1], [0, 1, 0, 1, 0]],
        [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]],
        [[0, 0, 0], [0, 0, 0]],
        [[1, 1], [1, 1]],
    ]
    for m in fixed:
        cases.append(np.array(m, dtype=np.uint8))
    for i in range(40):
        h, w = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        p = rng.uniform(0.2, 0.7)
        cases.append((rng.random((h, w)) < p).astype(np.uint8))
    for i in range(4):
        h, w = 96, 80
        noise = rng.random((h, w))
        # Smooth-ish blobs: threshold a blurred field.
        f = ndimage.uniform_filter(noise, size=5)
        cases.append((f < np.quantile(f, rng.uniform(0.3, 0.6))).astype(np.uint8))
    out = []
    st8 = np.ones((3, 3), dtype=int)
    for m in cases:
        l8, n8 = ndimage.label(m, structure=st8)
        l4, n4 = ndimage.label(m)
        polys = []
        for geom, val in rasterio.features.shapes(m, mask=m == 1, connectivity=8, transform=Affine.identity()):
            polys.append([[[int(x), int(y)] for x, y in ring] for ring in geom["coordinates"]])
        out.append({
            "width": int(m.shape[1]), "height": int(m.shape[0]),
            "mask": "".join(str(int(v)) for v in m.ravel()),
            "labels8": [int(v) for v in l8.ravel()], "n8": int(n8),
            "labels4": [int(v) for v in l4.ravel()], "n4": int(n4),
            "polygons": polys,
        })
    return out


def main():
    rng = np.random.default_rng(20261130)
    doc = {
        "generator": "conformance/raster/gen_sen1flood.py",
        "stack": {"numpy": np.__version__, "scipy": scipy.__version__, "skimage": skimage.__version__,
                  "rasterio": rasterio.__version__, "gdal": rasterio.__gdal_version__},
        "otsu": otsu_cases(rng),
        "masks": mask_cases(rng),
    }
    json.dump(doc, sys.stdout, separators=(",", ":"), allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
