#!/usr/bin/env python3
"""Record how GDAL reads GDAL_NODATA texts: raster/testdata/gdal_nodata_text.json.

Usage (Debian: apt-get install python3-gdal python3-numpy):

    /usr/bin/python3 conformance/raster/gen_nodata.py > raster/testdata/gdal_nodata_text.json

For every sample type (8/16/32-bit unsigned and signed integers, 16/32/64
bit floats) and every text below, a minimal 10 x 1 uncompressed TIFF is
written byte by byte (the text goes into the GDAL_NODATA tag as is, which
GDAL's own writer would not do) and opened with GDAL: the record holds the
file's parameters and samples, GetNoDataValue() (as float.hex, or
"nan"/"inf"/"-inf", or null) and ComputeStatistics(False) with
STATISTICS_VALID_PERCENT, so that `go test ./raster/` can rebuild the same
file and require the same nodata value and statistics.
"""
import json
import os
import struct
import sys
import tempfile

import numpy as np
from osgeo import gdal

gdal.UseExceptions()
gdal.SetConfigOption("GDAL_PAM_ENABLED", "NO")

TYPES = [  # (bits per sample, SampleFormat, NumPy type)
    (8, 1, np.uint8), (8, 2, np.int8), (16, 1, np.uint16), (16, 2, np.int16),
    (32, 1, np.uint32), (32, 2, np.int32), (16, 3, np.float16), (32, 3, np.float32), (64, 3, np.float64),
]

TEXTS = [
    # numbers GDAL and rasterio write, and their float32 roundings
    "-3.4e38", "-3.39999999999999996e+38", "3.4028234663852886e+38", "3.4028235e+38", "-3.4028235e38",
    "3.40282347e+38", "3.40282356779733661637539395458142568448e38", "-3.4028235677973366e+38", "1e39",
    "-9999", "-9999.5", "0.1", "2", "2.5", "2.4", "3.5", "-1", "-0.5", "255", "255.5", "256", "65535.5",
    "4294967295.5", "1e10", "1e-39", "1.4e-45", "7e-46", "1e-50", "1e-400", "-1e-400", "1e308", "1e400",
    "12345678901234567890123", "-0", "007", "+7", ".5", "5.", "-.5e-3", "0.1e1", "1E5", "1.e5",
    # near-integers (GDAL's integer statistics take |v - k| < 1e-10 as k)
    "0.5", "1e-10", "1e-11", "-1e-11", "1.0000000001", "1.000000000001", "254.9999999999999", "255.0000000000001",
    # not-a-number and infinity spellings
    "nan", "NaN", "-nan", "+nan", "nan(123)", "nanx", "inf", "-inf", "INF", "+inf", "infinity", "-Infinity",
    "inf5", "1.#QNAN", "-1.#QNAN", "1.#SNAN", "-1.#IND", "1.#IND", "1.#INF", "-1.#INF", "1.#inf", "+1.#INF",
    " 1.#INF", "\t1.#INF", "  -1.#IND", "\t-1.#IND",
    # what strtod stops at
    " 7 ", "\t5", "\n5", "\x0b5", "5 ", " ", "7abc", "abc", "e5", "-", "+", ".", "-.", "1e", "1e+", "1e+2x",
    "1e5.5", "1_000", "1.5 2",
    # hexadecimal
    "0x10", "0x", "0xg", "0x1p3", "0x1.8p1", "0X1A", "-0x10", "0x.8", "0x1p", "0x1.p1",
    # a comma as the decimal separator (first comma, within 50 bytes)
    "1,5", "1,5,3", "1,5e3", "1.5,3", "1,5.3", ",5", "1,", "1,,5", "abc,5", "2,5 3.5", "0x1,8",
    "1" * 49 + ",5", "1" * 50 + ",5", " " * 60 + ",5",
    # a NUL ends the text
    "1,5\x00junk", "",
]


def tiff(w, bps, sf, data, text):
    """A little-endian classic TIFF: one strip, uncompressed, GDAL_NODATA text."""
    entries = []
    blob = bytearray(data)
    if len(blob) % 2:
        blob += b"\0"

    def ext(b):
        off = 8 + len(blob)
        blob.extend(b)
        if len(blob) % 2:
            blob.extend(b"\0")
        return off

    def short(v):
        return struct.pack("<HH", v, 0)

    entries += [(256, 4, 1, struct.pack("<I", w)), (257, 4, 1, struct.pack("<I", 1)),
                (258, 3, 1, short(bps)), (259, 3, 1, short(1)), (262, 3, 1, short(1)),
                (273, 4, 1, struct.pack("<I", 8)), (277, 3, 1, short(1)), (278, 4, 1, struct.pack("<I", 1)),
                (279, 4, 1, struct.pack("<I", len(data))), (339, 3, 1, short(sf))]
    t = text.encode("latin-1") + b"\0"
    entries.append((42113, 2, len(t), t.ljust(4, b"\0") if len(t) <= 4 else struct.pack("<I", ext(t))))
    entries.sort()
    ifd = 8 + len(blob)
    out = b"II*\0" + struct.pack("<I", ifd) + bytes(blob) + struct.pack("<H", len(entries))
    for tag, typ, cnt, val in entries:
        out += struct.pack("<HHI", tag, typ, cnt) + val
    return out + struct.pack("<I", 0)


def fmt(v):
    if v is None:
        return None
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v.hex()


def main():
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.tif")
        for bps, sf, dt in TYPES:
            if sf == 3:
                vals = np.array([0, 1, 2, 2.5, 0.1, -1, -0.5, 255, -3.4e38 if bps == 32 else -9999, -9999], dtype=np.float64)
            else:
                vals = np.array([0, 1, 2, 3, 7, 255, 6, 5, 4, 8], dtype=np.float64)
                if sf == 2:
                    vals[5] = -1
            data = vals.astype(dt).astype("<" + np.dtype(dt).str[1:]).tobytes()
            for text in TEXTS:
                with open(path, "wb") as f:
                    f.write(tiff(10, bps, sf, data, text))
                ds = gdal.Open(path)
                band = ds.GetRasterBand(1)
                try:
                    gdal.PushErrorHandler("CPLQuietErrorHandler")
                    st = band.ComputeStatistics(False)
                    vp = float(band.GetMetadataItem("STATISTICS_VALID_PERCENT"))
                except RuntimeError:
                    st, vp = None, 0.0
                finally:
                    gdal.PopErrorHandler()
                out.append({"bps": bps, "sf": sf, "text": text, "data": data.hex(),
                            "nodata": fmt(band.GetNoDataValue()),
                            "stats": None if st is None else [fmt(x) for x in st], "valid_percent": vp})
                ds = None
    # One case per line, so that a change shows as a readable diff.
    sys.stdout.write('{"generator": "conformance/raster/gen_nodata.py", "gdal": %s, "cases": [\n' % json.dumps(gdal.VersionInfo("RELEASE_NAME")))
    sys.stdout.write(",\n".join(json.dumps(c, sort_keys=True) for c in out))
    sys.stdout.write("\n]}\n")


if __name__ == "__main__":
    main()
