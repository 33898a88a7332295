#!/usr/bin/env python3
"""Time GDAL's decode of band 1 (ReadAsArray): best wall and CPU of N runs.

Usage: /usr/bin/python3 conformance/raster/gdalread.py FILE THREADS [RUNS]
"""
import sys
import time

from osgeo import gdal

gdal.UseExceptions()
gdal.SetConfigOption("GDAL_NUM_THREADS", sys.argv[2])
gdal.SetConfigOption("GDAL_CACHEMAX", "1024")
best, bestcpu = 1e9, 1e9
for _ in range(int(sys.argv[3]) if len(sys.argv) > 3 else 1):
    ds = gdal.Open(sys.argv[1])
    t, c = time.time(), time.process_time()
    a = ds.GetRasterBand(1).ReadAsArray()
    best, bestcpu = min(best, time.time() - t), min(bestcpu, time.process_time() - c)
    del a
    ds = None
print("gdal ReadAsArray threads=%s best wall %.3f s cpu %.3f s" % (sys.argv[2], best, bestcpu))
