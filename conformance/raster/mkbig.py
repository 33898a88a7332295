#!/usr/bin/env python3
"""Build the 8192 x 8192 float32 GeoTIFFs of the performance comparison.

Usage: /usr/bin/python3 conformance/raster/mkbig.py [--data ../shared/data] OUTDIR

The pixels are band 1 of Sen1Floods11's S1Hand.tif (512 x 512 dB values)
tiled 16 x 16 times, every other copy flipped and each shifted by a random
constant, so the data compress like real SAR backscatter. Three files are
written with 512-pixel tiles: DEFLATE + predictor 3, LZW + predictor 2,
ZSTD + predictor 3 (about 190, 250 and 190 MB). Never commit them.
"""
import argparse
import os

import numpy as np
from osgeo import gdal

gdal.UseExceptions()

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--data", default="../shared/data")
ap.add_argument("out")
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
src = gdal.Open(os.path.join(a.data, "sen1floods11/Spain_7370579/S1Hand.tif"))
tile = src.GetRasterBand(1).ReadAsArray()
big = np.empty((8192, 8192), np.float32)
rng = np.random.default_rng(1)
for i in range(16):
    for j in range(16):
        t = tile if (i + j) % 2 == 0 else tile[::-1, ::-1]
        big[i * 512:(i + 1) * 512, j * 512:(j + 1) * 512] = t + np.float32(rng.normal(0, 0.5))
mem = gdal.GetDriverByName("MEM").Create("", 8192, 8192, 1, gdal.GDT_Float32)
mem.GetRasterBand(1).WriteArray(big)
mem.SetGeoTransform(src.GetGeoTransform())
mem.SetProjection(src.GetProjection())
mem.GetRasterBand(1).SetNoDataValue(float("nan"))
for name, co in [("deflate_p3", ["COMPRESS=DEFLATE", "PREDICTOR=3"]),
                 ("lzw_p2", ["COMPRESS=LZW", "PREDICTOR=2"]),
                 ("zstd_p3", ["COMPRESS=ZSTD", "PREDICTOR=3"])]:
    gdal.Translate(os.path.join(a.out, "big_%s.tif" % name), mem,
                   creationOptions=co + ["TILED=YES", "BLOCKXSIZE=512", "BLOCKYSIZE=512", "NUM_THREADS=2"])
