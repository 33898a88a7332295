#!/usr/bin/env python3
"""Build GeoTIFF decoder-conformance variants with GDAL and record goldens.

Usage (Debian: apt-get install gdal-bin python3-gdal python3-numpy):

    /usr/bin/python3 conformance/raster/gen.py --data ../shared/data --out conformance/raster/testdata
    /usr/bin/python3 conformance/raster/gen.py --data ../shared/data --out /tmp/geodisaster-raster-full --full

The compact mode (default) cuts small windows (odd sizes, partial blocks)
out of the rasters of ../shared/data so the committed corpus stays small;
--full uses the whole rasters and larger blocks and must not be committed.
Each variant is built with gdal_translate-equivalent options (compression x
predictor x strip/tile x block size x interleave x BigTIFF x endianness x
data type, JPEG, WebP, COG) and decoded back by GDAL. goldens.json records,
per file, what GDAL reports: size, count, dtype (NumPy name), geotransform
in rasterio order [a,b,c,d,e,f], EPSG, nodata, band descriptions and the
SHA-256 of each band's samples as little-endian bytes, row-major. Lossy
variants (JPEG, lossy WebP) also get GDAL's decoded pixels written as an
uncompressed companion "<name>.ref.tif" so a decoder can measure its
maximum difference from libjpeg/libwebp.
"""
import argparse
import hashlib
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()
# Statistics must not leave .aux.xml files next to the variants.
gdal.SetConfigOption("GDAL_PAM_ENABLED", "NO")

GDAL_TO_NUMPY = {
    gdal.GDT_Byte: "uint8", gdal.GDT_UInt16: "uint16", gdal.GDT_Int16: "int16",
    gdal.GDT_UInt32: "uint32", gdal.GDT_Int32: "int32", gdal.GDT_Float32: "float32",
    gdal.GDT_Float64: "float64",
}

SOURCES = {
    # name: (relative path, compact window [col,row,w,h])
    "rgb": ("rasterio/RGB.byte.tif", [301, 250, 77, 61]),
    "shade": ("rasterio/shade.tif", [400, 500, 70, 53]),
    "world": ("rasterio/world.byte.tif", [1300, 300, 90, 45]),
    "label": ("sen1floods11/Spain_7370579/LabelHand.tif", [0, 0, 66, 50]),
    "s1": ("sen1floods11/Spain_7370579/S1Hand.tif", [0, 460, 53, 52]),
    "s2": ("sen1floods11/Spain_7370579/S2Hand.tif", [200, 200, 37, 29]),
}


def band_sha(ds):
    out = []
    for b in range(1, ds.RasterCount + 1):
        a = ds.GetRasterBand(b).ReadAsArray()
        a = np.ascontiguousarray(a)
        out.append(hashlib.sha256(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()).hexdigest())
    return out


def epsg_of(ds):
    srs = ds.GetSpatialRef()
    if srs is None:
        return 0
    srs = srs.Clone()
    for node in ("PROJCS", "GEOGCS", None):
        if srs.GetAuthorityName(node) == "EPSG" and (node is not None or True):
            code = srs.GetAuthorityCode(node)
            if code:
                return int(code)
        if node is not None and srs.GetAttrValue(node) is not None:
            break
    try:
        if srs.AutoIdentifyEPSG() == 0:
            return int(srs.GetAuthorityCode(None))
    except Exception:
        pass
    return 0


def band_stats(ds):
    """GDAL's exact statistics (ComputeStatistics, approx_ok=False) per band:
    [min, max, mean, stddev, valid_percent], or None without valid pixels."""
    out = []
    for b in range(1, ds.RasterCount + 1):
        band = ds.GetRasterBand(b)
        try:
            gdal.PushErrorHandler("CPLQuietErrorHandler")
            st = band.ComputeStatistics(False)
        except RuntimeError:
            st = None
        finally:
            gdal.PopErrorHandler()
        if st is None or st[0] is None:
            out.append(None)
            continue
        vp = band.GetMetadataItem("STATISTICS_VALID_PERCENT")
        out.append([st[0], st[1], st[2], st[3], float(vp) if vp is not None else None])
    return out


def describe(path):
    ds = gdal.Open(path)
    b1 = ds.GetRasterBand(1)
    dtype = GDAL_TO_NUMPY[b1.DataType]
    if dtype == "uint8" and b1.GetMetadataItem("PIXELTYPE", "IMAGE_STRUCTURE") == "SIGNEDBYTE":
        dtype = "int8"
    gt = ds.GetGeoTransform(can_return_null=True)
    nd = b1.GetNoDataValue()
    rec = {
        "width": ds.RasterXSize, "height": ds.RasterYSize, "count": ds.RasterCount,
        "dtype": dtype,
        "transform": None if gt is None else [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]],
        "epsg": epsg_of(ds),
        "nodata": None if nd is None else repr(float(nd)),
        "descriptions": [ds.GetRasterBand(b).GetDescription() for b in range(1, ds.RasterCount + 1)],
        "band_sha256": band_sha(ds),
        "stats": band_stats(ds),
        "compression": ds.GetMetadataItem("COMPRESSION", "IMAGE_STRUCTURE") or "NONE",
        "block": b1.GetBlockSize(),
    }
    ds = None
    return rec


class Builder:
    def __init__(self, data, out, full):
        self.data, self.out, self.full = data, out, full
        self.goldens = {}
        self.mem = {}

    def source(self, name):
        """Returns an in-memory dataset: the whole raster or its compact window."""
        if name not in self.mem:
            rel, win = SOURCES[name]
            path = os.path.join(self.data, rel)
            opts = {} if self.full else {"srcWin": win}
            self.mem[name] = gdal.Translate("/vsimem/src_%s.tif" % name, path, **opts)
        return self.mem[name]

    def add(self, fname, src, lossy=False, **kw):
        path = os.path.join(self.out, fname)
        if os.path.exists(path):
            os.remove(path)
        driver = kw.pop("driver", "GTiff")
        post = kw.pop("post", None)
        ds = gdal.Translate(path, src, format=driver, **kw)
        if post:
            post(ds)
        ds = None
        rec = describe(path)
        rec["options"] = " ".join(kw.get("creationOptions", []))
        if lossy:
            ref = fname[:-4] + ".ref.tif"
            refpath = os.path.join(self.out, ref)
            if os.path.exists(refpath):
                os.remove(refpath)
            gdal.Translate(refpath, path, format="GTiff", creationOptions=["COMPRESS=DEFLATE", "PREDICTOR=2"] if not self.full else [])
            rec["lossy"] = True
            rec["ref"] = ref
        self.goldens[fname] = rec

    def build(self):
        blk_small, blk_big = (16, 32) if not self.full else (256, 512)
        rows = (1, 5) if not self.full else (1, 17)
        comps = ["NONE", "LZW", "DEFLATE", "PACKBITS", "ZSTD", "LZMA"]
        i = 0
        for name in ["rgb", "shade", "world", "label", "s1", "s2"]:
            src = self.source(name)
            isfloat = src.GetRasterBand(1).DataType in (gdal.GDT_Float32, gdal.GDT_Float64)
            multi = src.RasterCount > 1
            for comp in comps:
                preds = [1] if comp == "NONE" else ([1, 2, 3] if isfloat else [1, 2])
                for pred in preds:
                    i += 1
                    layout = i % 4
                    co = ["COMPRESS=" + comp]
                    if pred != 1:
                        co.append("PREDICTOR=%d" % pred)
                    if layout == 0:
                        co += ["TILED=YES", "BLOCKXSIZE=%d" % blk_small, "BLOCKYSIZE=%d" % blk_small]
                        lay = "t%d" % blk_small
                    elif layout == 1:
                        co += ["TILED=YES", "BLOCKXSIZE=%d" % blk_big, "BLOCKYSIZE=%d" % blk_small]
                        lay = "t%dx%d" % (blk_big, blk_small)
                    elif layout == 2:
                        co += ["BLOCKYSIZE=%d" % rows[i % 2]]
                        lay = "s%d" % rows[i % 2]
                    else:
                        lay = "sdef"
                    il = ""
                    if multi:
                        il = ["PIXEL", "BAND"][(i // 4) % 2]
                        co.append("INTERLEAVE=" + il)
                    big = (i // 2) % 2 == 1
                    be = (i // 3) % 2 == 1
                    if big:
                        co.append("BIGTIFF=YES")
                    if be:
                        co.append("ENDIANNESS=BIG")
                    fname = "%s_%s_p%d_%s%s%s%s.tif" % (name, comp.lower(), pred, lay,
                                                       "_" + il.lower() if il else "",
                                                       "_big" if big else "", "_be" if be else "")
                    self.add(fname, src, creationOptions=co)
        self.dtypes()
        self.bits()
        self.georef()
        self.lossy()
        self.cog()
        self.sparse()

    def dtypes(self):
        s2, s1 = self.source("s2"), self.source("s1")
        blk = 16 if not self.full else 256
        for ot, src, bands in [("UInt16", s2, [1, 2]), ("Int32", s2, [3]), ("UInt32", s2, [4, 5]),
                               ("Float64", s1, [1, 2]), ("Float32", s2, [6]), ("Int16", s1, [1])]:
            for j, (comp, pred) in enumerate([("DEFLATE", 2), ("LZW", 1), ("ZSTD", 3 if ot.startswith("Float") else 2)]):
                be = j == 1
                co = ["COMPRESS=" + comp, "PREDICTOR=%d" % pred, "TILED=YES", "BLOCKXSIZE=%d" % blk, "BLOCKYSIZE=%d" % blk]
                if be:
                    co.append("ENDIANNESS=BIG")
                fname = "dtype_%s_%s_p%d%s.tif" % (ot.lower(), comp.lower(), pred, "_be" if be else "")
                self.add(fname, src, outputType=getattr(gdal, "GDT_" + ot), bandList=bands, creationOptions=co)
        # Signed bytes (GDAL 3.6 marks them PIXELTYPE=SIGNEDBYTE).
        label = self.source("label")
        for comp in ["NONE", "DEFLATE"]:
            self.add("dtype_int8_%s.tif" % comp.lower(), label, outputType=gdal.GDT_Byte,
                     creationOptions=["COMPRESS=" + comp, "PIXELTYPE=SIGNEDBYTE"])

    def bits(self):
        world, shade, s1 = self.source("world"), self.source("shade"), self.source("s1")
        # A 0/1 mask for 1-bit, and values small enough for 4/12-bit.
        for nbits, src, scale in [(1, world, 1.0 / 255.9), (2, shade, 3.0 / 255), (4, shade, 15.0 / 255), (12, shade, 16.0)]:
            for comp in ["NONE", "DEFLATE", "PACKBITS"]:
                ot = gdal.GDT_Byte if nbits <= 8 else gdal.GDT_UInt16
                tmp = gdal.Translate("/vsimem/bits.tif", src, outputType=ot,
                                     scaleParams=[[0, 255, 0, 255 * scale]], noData="none")
                lay = ["TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16"] if comp == "DEFLATE" else ["BLOCKYSIZE=3"]
                self.add("nbits%d_%s.tif" % (nbits, comp.lower()), tmp,
                         creationOptions=["NBITS=%d" % nbits, "COMPRESS=" + comp] + lay)
        # Half floats (NBITS=16 on Float32), with and without the fp predictor.
        for comp, pred in [("NONE", 1), ("DEFLATE", 3), ("LZW", 2)]:
            self.add("float16_%s_p%d.tif" % (comp.lower(), pred), s1,
                     creationOptions=["NBITS=16", "COMPRESS=" + comp, "PREDICTOR=%d" % pred])

    def georef(self):
        rgb, label, s1 = self.source("rgb"), self.source("label"), self.source("s1")
        self.add("geo_pixelispoint.tif", label, creationOptions=["COMPRESS=DEFLATE"],
                 metadataOptions=["AREA_OR_POINT=Point"])

        def rotate(ds):
            gt = list(ds.GetGeoTransform())
            gt[2], gt[4] = gt[1] * 0.1, gt[5] * -0.05
            ds.SetGeoTransform(gt)
        self.add("geo_rotated.tif", rgb, creationOptions=["COMPRESS=LZW"], post=rotate)
        for epsg in [32633, 3857, 4269, 26918, 32735, 2154]:
            self.add("geo_epsg%d.tif" % epsg, label, outputSRS="EPSG:%d" % epsg, creationOptions=["COMPRESS=DEFLATE"])
        self.add("geo_nonodata.tif", s1, noData="none", creationOptions=["COMPRESS=DEFLATE", "PREDICTOR=3"])
        self.add("geo_nodata_m9999.tif", s1, noData=-9999, creationOptions=["COMPRESS=DEFLATE"])
        self.add("geo_nosrs.tif", label, creationOptions=["COMPRESS=NONE"],
                 post=lambda ds: ds.SetProjection(""))

        def describe_bands(ds):
            for b in range(1, ds.RasterCount + 1):
                ds.GetRasterBand(b).SetDescription("band <%d> & \"x\"" % b)
        self.add("geo_descriptions.tif", rgb, creationOptions=["COMPRESS=DEFLATE"], post=describe_bands)

    def lossy(self):
        rgb, shade = self.source("rgb"), self.source("shade")
        blk = 16 if not self.full else 256
        for q, extra, tag in [(75, ["PHOTOMETRIC=YCBCR", "TILED=YES", "BLOCKXSIZE=%d" % (2 * blk), "BLOCKYSIZE=%d" % (2 * blk)], "ycbcr_t"),
                              (90, ["PHOTOMETRIC=YCBCR"], "ycbcr_s"),
                              (85, ["PHOTOMETRIC=RGB", "TILED=YES", "BLOCKXSIZE=%d" % (2 * blk), "BLOCKYSIZE=%d" % (2 * blk)], "rgb_t"),
                              (80, ["INTERLEAVE=BAND"], "band_s")]:
            self.add("jpeg_%s_q%d.tif" % (tag, q), rgb, lossy=True,
                     creationOptions=["COMPRESS=JPEG", "JPEG_QUALITY=%d" % q] + extra)
        self.add("jpeg_gray_t.tif", shade, lossy=True,
                 creationOptions=["COMPRESS=JPEG", "TILED=YES", "BLOCKXSIZE=%d" % (2 * blk), "BLOCKYSIZE=%d" % (2 * blk)])
        drv = gdal.GetDriverByName("GTiff").GetMetadataItem("DMD_CREATIONOPTIONLIST")
        if "WEBP" in drv:
            self.add("webp_lossless.tif", rgb, creationOptions=["COMPRESS=WEBP", "WEBP_LOSSLESS=YES", "TILED=YES"])
            self.add("webp_lossy.tif", rgb, lossy=True, creationOptions=["COMPRESS=WEBP", "WEBP_LEVEL=80"])

    def cog(self):
        s1, rgb = self.source("s1"), self.source("rgb")
        blk = 32 if not self.full else 512
        self.add("cog_deflate.tif", s1, driver="COG",
                 creationOptions=["COMPRESS=DEFLATE", "PREDICTOR=YES", "BLOCKSIZE=%d" % blk, "OVERVIEWS=AUTO"])
        self.add("cog_zstd_rgb.tif", rgb, driver="COG",
                 creationOptions=["COMPRESS=ZSTD", "BLOCKSIZE=%d" % blk, "BIGTIFF=YES"])

    def sparse(self):
        for nd, tag in [(None, "nonodata"), (-7.0, "nodata")]:
            path = os.path.join(self.out, "sparse_%s.tif" % tag)
            w, h = (70, 50) if not self.full else (2000, 1500)
            ds = gdal.GetDriverByName("GTiff").Create(path, w, h, 1, gdal.GDT_Int16,
                                                     options=["SPARSE_OK=TRUE", "TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16", "COMPRESS=DEFLATE"])
            ds.SetGeoTransform([10, 1, 0, 20, 0, -1])
            srs = osr.SpatialReference()
            srs.ImportFromEPSG(4326)
            ds.SetSpatialRef(srs)
            b = ds.GetRasterBand(1)
            if nd is not None:
                b.SetNoDataValue(nd)
            b.WriteArray(np.arange(16 * 16, dtype=np.int16).reshape(16, 16) - 100, 16, 16)
            ds = None
            rec = describe(path)
            rec["options"] = "SPARSE_OK=TRUE"
            self.goldens[os.path.basename(path)] = rec


class RandomBuilder(Builder):
    """Random windows and option combinations (a held-out style corpus)."""

    def __init__(self, data, out, seed, count):
        super().__init__(data, out, False)
        import random
        self.rng = random.Random(seed)
        self.count = count

    def source(self, name):
        rel, _ = SOURCES[name]
        path = os.path.join(self.data, rel)
        ds = gdal.Open(path)
        w = self.rng.randint(17, min(300, ds.RasterXSize))
        h = self.rng.randint(9, min(300, ds.RasterYSize))
        x = self.rng.randint(0, ds.RasterXSize - w)
        y = self.rng.randint(0, ds.RasterYSize - h)
        return gdal.Translate("/vsimem/rnd.tif", path, srcWin=[x, y, w, h])

    def build(self):
        r = self.rng
        for i in range(self.count):
            name = r.choice(list(SOURCES))
            src = self.source(name)
            ot = r.choice([None, None, "Byte", "UInt16", "Int16", "UInt32", "Int32", "Float32", "Float64"])
            isfloat = (ot or gdal.GetDataTypeName(src.GetRasterBand(1).DataType)).startswith("Float")
            comp = r.choice(["NONE", "LZW", "DEFLATE", "PACKBITS", "ZSTD", "LZMA", "JPEG", "WEBP"])
            nb = src.RasterCount
            isbyte = (ot or gdal.GetDataTypeName(src.GetRasterBand(1).DataType)) == "Byte"
            co = ["COMPRESS=" + comp]
            bands = None
            if comp in ("JPEG", "WEBP"):
                ot = "Byte"
                if comp == "WEBP" or r.random() < 0.5:
                    bands = [1, 1, 1] if nb < 3 else [1, 2, 3]
                    if comp == "WEBP" and r.random() < 0.3:
                        bands = bands + [1]
                if comp == "JPEG":
                    co.append("JPEG_QUALITY=%d" % r.choice([30, 75, 95, 100]))
                    if bands and len(bands) == 3 and r.random() < 0.6:
                        co.append("PHOTOMETRIC=YCBCR")
                else:
                    co.append(r.choice(["WEBP_LOSSLESS=YES", "WEBP_LEVEL=%d" % r.choice([20, 75, 100])]))
            elif comp != "NONE" and comp != "PACKBITS":
                co.append("PREDICTOR=%d" % r.choice([1, 2, 3] if isfloat else [1, 2]))
            if r.random() < 0.6:
                bs = r.choice([16, 32, 48, 64, 128, 256])
                co += ["TILED=YES", "BLOCKXSIZE=%d" % bs, "BLOCKYSIZE=%d" % r.choice([16, 32, 48, 64, 128, 256])]
            elif r.random() < 0.7:
                co.append("BLOCKYSIZE=%d" % r.randint(1, 40))
            if (bands and len(bands) > 1) or (bands is None and nb > 1):
                if comp != "WEBP":
                    co.append("INTERLEAVE=" + r.choice(["PIXEL", "BAND"]))
            if r.random() < 0.3:
                co.append("BIGTIFF=YES")
            if r.random() < 0.3 and comp not in ("JPEG", "WEBP"):
                co.append("ENDIANNESS=BIG")
            if comp == "DEFLATE" and r.random() < 0.5:
                co.append("ZLEVEL=%d" % r.choice([1, 9, 12]))
            if comp == "ZSTD" and r.random() < 0.5:
                co.append("ZSTD_LEVEL=%d" % r.choice([1, 15, 22]))
            kw = {"creationOptions": co}
            if ot:
                kw["outputType"] = getattr(gdal, "GDT_" + ot)
            if bands:
                kw["bandList"] = bands
            if r.random() < 0.2:
                kw["noData"] = r.choice(["none", 0, -9999, 255, 1])
            if r.random() < 0.15:
                kw["outputSRS"] = "EPSG:%d" % r.choice([4326, 3857, 32631, 32748, 26917, 3035])
            fname = "rnd%03d_%s_%s.tif" % (i, name, comp.lower())
            try:
                self.add(fname, src, lossy=comp in ("JPEG", "WEBP"), **kw)
            except RuntimeError as e:
                print("skip %s: %s %s" % (fname, co, e), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", required=True)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="instead: N variants with random windows and options (held-out style)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.random:
        b = RandomBuilder(a.data, a.out, a.seed, a.random)
    else:
        b = Builder(a.data, a.out, a.full)
    b.build()
    mode = "random seed %d" % a.seed if a.random else ("full" if a.full else "compact")
    meta = {"generator": "conformance/raster/gen.py", "gdal": gdal.VersionInfo("RELEASE_NAME"),
            "mode": mode, "files": b.goldens}
    with open(os.path.join(a.out, "goldens.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d variants written to %s" % (len(b.goldens), a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
