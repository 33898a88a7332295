#!/usr/bin/env python3
"""GeoTIFFs written by GDAL and what GDAL and rasterio read from them.

Writes small GeoTIFFs into OUTDIR and prints one JSON object per file:

  {"file": "...", "def": "EPSG:32633" or a PROJ string,
   "epsg": rasterio's CRS.to_epsg() or null, "aux": the CRS is in a
   .aux.xml sidecar (the GeoKeys cannot express it),
   "wkt": gdalinfo -json's coordinateSystem.wkt,
   "mapping": coordinateSystem.dataAxisToSRSAxisMapping}

--files reads existing GeoTIFFs (a corpus of real-world files) without
writing anything; "def" is then the path. --codes writes one file per EPSG code (GDAL's osr.ImportFromEPSG, as GDAL
users write a coded CRS); --user writes the user-defined CRSs of
crs/geotiff_test.go (PROJ strings through rasterio, so that the GeoKeys
are user-defined, as a GIS user writes them). crs/geotiff_test.go reads
the files with the engine and compares.

Usage: /usr/bin/python3 conformance/crs/geotiff_cases.py OUTDIR
       (--codes C1,C2,... | --sample N [--seed S] | --user DEF1 DEF2 ... |
        --files PATH1 PATH2 ...)
"""
import argparse
import json
import os
import random
import sqlite3
import subprocess
import warnings

import numpy as np
import pyproj
import rasterio
from osgeo import gdal, osr
from rasterio.crs import CRS
from rasterio.transform import from_origin

warnings.filterwarnings("ignore")
gdal.UseExceptions()


def info(path):
    out = subprocess.run(["gdalinfo", "-json", path], capture_output=True, text=True, check=True).stdout
    cs = json.loads(out).get("coordinateSystem", {})
    with rasterio.open(path) as d:
        epsg = d.crs.to_epsg() if d.crs else None
    # GDAL keeps a CRS the GeoKeys cannot express in a .aux.xml sidecar.
    aux = os.path.exists(path + ".aux.xml")
    return {"epsg": epsg, "wkt": cs.get("wkt", ""), "mapping": cs.get("dataAxisToSRSAxisMapping"), "aux": aux}


def write_code(outdir, code):
    s = osr.SpatialReference()
    s.ImportFromEPSG(code)
    path = os.path.join(outdir, "epsg_%d.tif" % code)
    ds = gdal.GetDriverByName("GTiff").Create(path, 2, 2)
    ds.SetSpatialRef(s)
    ds = None
    return path


def write_def(outdir, i, definition):
    path = os.path.join(outdir, "user_%03d.tif" % i)
    with rasterio.open(path, "w", driver="GTiff", width=2, height=2, count=1, dtype="uint8",
                       crs=CRS.from_string(definition), transform=from_origin(0, 0, 1, 1)) as d:
        d.write(np.zeros((1, 2, 2), "uint8"))
    return path


def all_codes():
    db = sqlite3.connect(pyproj.datadir.get_data_dir() + "/proj.db")
    rows = db.execute(
        "SELECT code FROM projected_crs WHERE auth_name='EPSG' AND deprecated=0 UNION "
        "SELECT code FROM geodetic_crs WHERE auth_name='EPSG' AND deprecated=0 AND type='geographic 2D'").fetchall()
    return sorted(int(c) for (c,) in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--codes", default="")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--user", nargs="*", default=None)
    ap.add_argument("--files", nargs="*", default=None)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    items = []
    if args.files is not None:
        for f in args.files:
            items.append((f, lambda f=f: f))
    elif args.user is not None:
        for i, d in enumerate(args.user):
            items.append((d, lambda d=d, i=i: write_def(args.outdir, i, d)))
    else:
        codes = [int(c) for c in args.codes.split(",")] if args.codes else all_codes()
        if args.sample:
            codes = sorted(random.Random(args.seed).sample(codes, min(args.sample, len(codes))))
        for c in codes:
            items.append(("EPSG:%d" % c, lambda c=c: write_code(args.outdir, c)))
    for definition, write in items:
        out = {"def": definition}
        try:
            out["file"] = write()
            out.update(info(out["file"]))
        except Exception as exc:
            out["error"] = str(exc)
        print(json.dumps(out))


if __name__ == "__main__":
    main()
