#!/usr/bin/env python3
"""Build a held-out corpus of real-world-style GeoTIFFs and record what GDAL
decodes (goldens.json, the schema of gen.py's, plus overview counts).

Usage (Debian: apt-get install gdal-bin python3-gdal python3-rasterio python3-numpy):

    /usr/bin/python3 conformance/raster/gen_realworld.py --data ../shared/data --out /tmp/geodisaster-raster-realworld

Unlike gen.py's systematic grid of creation options, these files are
written the way users' files are: by rasterio with profiles copied from
real rasters, by gdal_translate, gdalwarp, gdaladdo and the COG driver,
with the nodata values real products carry (float32 -3.4e38 and NaN,
-9999, -32768, 0, 255), internal and COG overviews, masks, colour tables,
rotated and PixelIsPoint georeferencing, big-endian and BigTIFF files and
a GDAL single strip larger than the engine's 16 MiB streaming threshold.
`go test ./raster/ -run TestRealWorldCorpus` generates it (or reads
$GEODISASTER_RASTER_REALWORLD) and requires pixels, statistics,
georeferencing, nodata and overview counts to equal GDAL's.
"""
import argparse
import json
import os
import sys

import numpy as np
import rasterio
from osgeo import gdal
from rasterio.transform import Affine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import describe  # noqa: E402

gdal.UseExceptions()
gdal.SetConfigOption("GDAL_PAM_ENABLED", "NO")
gdal.SetConfigOption("GDAL_TIFF_INTERNAL_MASK", "YES")


class Corpus:
    def __init__(self, data, out):
        self.data, self.out, self.goldens = data, out, {}

    def src(self, rel):
        return os.path.join(self.data, rel)

    def path(self, name):
        p = os.path.join(self.out, name)
        for q in (p, p + ".ovr", p + ".msk"):
            if os.path.exists(q):
                os.remove(q)
        return p

    def record(self, name, producer, lossy_ref=None):
        p = os.path.join(self.out, name)
        rec = describe(p)
        ds = gdal.Open(p)
        rec["overviews"] = ds.GetRasterBand(1).GetOverviewCount()
        ds = None
        rec["options"] = producer
        if lossy_ref:
            ref = name[:-4] + ".ref.tif"
            gdal.Translate(self.path(ref), p, creationOptions=["COMPRESS=DEFLATE", "PREDICTOR=2"])
            rec["lossy"], rec["ref"] = True, ref
        self.goldens[name] = rec

    # --- rasterio writers, profiles copied from the real rasters --------------

    def rio(self, name, src, window, producer, dtype=None, nodata="keep", mutate=None, **profile):
        with rasterio.open(self.src(src)) as s:
            a = s.read(window=rasterio.windows.Window(*window))
            p = s.profile.copy()
            p.update(width=window[2], height=window[3], transform=s.window_transform(rasterio.windows.Window(*window)))
        if dtype:
            a = a.astype(dtype)
            p["dtype"] = dtype
        if nodata != "keep":
            p["nodata"] = nodata
        if mutate:
            a = mutate(a)
        p.update(profile)
        p["count"] = a.shape[0]
        with rasterio.open(self.path(name), "w", **p) as d:
            d.write(a)
        self.record(name, producer)

    def build(self):
        s1, label, s2 = ("sen1floods11/Spain_7370579/S1Hand.tif", "sen1floods11/Spain_7370579/LabelHand.tif",
                         "sen1floods11/Spain_7370579/S2Hand.tif")
        rgb, shade, world = "rasterio/RGB.byte.tif", "rasterio/shade.tif", "rasterio/world.byte.tif"

        def hole(value):
            def f(a):
                a = a.copy()
                a[:, 20:60, 30:90] = value
                return a
            return f

        # Float32 nodata as products write it: -3.4e38 (GDAL reads it back
        # as float32(-3.4e38)), NaN and -9999.
        self.rio("rio_s1_f32_nodata_m3.4e38.tif", s1, (40, 30, 300, 250), "rasterio deflate predictor 3 nodata -3.4e38",
                 nodata=-3.4e38, mutate=hole(np.float32(-3.4e38)), compress="deflate", predictor=3, tiled=True, blockxsize=256, blockysize=256)
        self.rio("rio_s1_f32_nodata_nan_lzw.tif", s1, (0, 0, 512, 512), "rasterio lzw nodata nan (S1Hand's profile)",
                 compress="lzw")
        self.rio("rio_s1_f32_nodata_m9999_zstd.tif", s1, (100, 100, 257, 263), "rasterio zstd predictor 2 nodata -9999",
                 nodata=-9999.0, mutate=lambda a: np.where(np.isnan(a), np.float32(-9999), a), compress="zstd", predictor=2)
        self.rio("rio_label_i16_m32768.tif", label, (0, 0, 512, 512), "rasterio int16 lzw predictor 2 nodata -32768",
                 nodata=-32768, mutate=lambda a: np.where(a < 0, np.int16(-32768), a), compress="lzw", predictor=2)
        self.rio("rio_s2_u16_13band_bigtiff.tif", s2, (50, 60, 200, 180), "rasterio 13-band uint16 zstd pixel-interleaved BigTIFF",
                 compress="zstd", interleave="pixel", tiled=True, blockxsize=128, blockysize=128, BIGTIFF="YES")
        self.rio("rio_s2_u16_band_interleave.tif", s2, (0, 0, 160, 120), "rasterio uint16 deflate band-interleaved nodata 0",
                 nodata=0, compress="deflate", interleave="band")
        self.rio("rio_rgb_lzw_tiled.tif", rgb, (100, 80, 500, 400), "rasterio RGB.byte profile lzw tiled 256",
                 compress="lzw", tiled=True, blockxsize=256, blockysize=256)
        self.rio("rio_shade_u8_nodata255_packbits.tif", shade, (0, 0, 1024, 1024), "rasterio packbits nodata 255 (shade's profile)",
                 compress="packbits")
        self.rio("rio_label_i8.tif", label, (0, 0, 300, 200), "rasterio int8 deflate nodata -1", dtype="int8", nodata=-1, compress="deflate")
        self.rio("rio_s2_i32_nodata.tif", s2, (0, 0, 130, 110), "rasterio int32 lzw nodata -2147483648", dtype="int32",
                 nodata=-2147483648, mutate=hole(np.int32(-2147483648)), compress="lzw")
        self.rio("rio_s2_u32.tif", s2, (10, 10, 140, 90), "rasterio uint32 deflate predictor 2 big-endian", dtype="uint32", nodata=None,
                 compress="deflate", predictor=2, ENDIANNESS="BIG")
        self.rio("rio_s1_f64_nodata_1e20.tif", s1, (0, 200, 200, 150), "rasterio float64 lzma nodata 1e20", dtype="float64",
                 nodata=1e20, mutate=lambda a: np.where(np.isnan(a), 1e20, a), compress="lzma")

        # A rotated grid (ModelTransformation) and a PixelIsPoint one.
        with rasterio.open(self.src(rgb)) as s:
            a = s.read(window=rasterio.windows.Window(0, 0, 256, 200))
            p = s.profile.copy()
        p.update(width=256, height=200, compress="deflate",
                 transform=Affine(300.0, 12.5, 101985.0, -8.0, -300.0, 2826915.0))
        with rasterio.open(self.path("rio_rgb_rotated.tif"), "w", **p) as d:
            d.write(a)
        self.record("rio_rgb_rotated.tif", "rasterio rotated transform (ModelTransformation)")
        gdal.Translate(self.path("gdal_label_pixelispoint.tif"), self.src(label), metadataOptions=["AREA_OR_POINT=Point"],
                       creationOptions=["COMPRESS=DEFLATE"])
        self.record("gdal_label_pixelispoint.tif", "gdal_translate AREA_OR_POINT=Point")

        # Overviews: gdaladdo internal, COG, JPEG with overviews.
        p = self.path("gdal_world_tiled_ovr.tif")
        gdal.Translate(p, self.src(world), creationOptions=["TILED=YES", "COMPRESS=DEFLATE", "PREDICTOR=2"])
        ds = gdal.Open(p, gdal.GA_Update)
        ds.BuildOverviews("AVERAGE", [2, 4, 8, 16])
        ds = None
        self.record("gdal_world_tiled_ovr.tif", "gdal_translate tiled deflate + gdaladdo average 2 4 8 16")
        p = self.path("cog_s1_deflate.tif")
        gdal.Translate(p, self.src(s1), format="COG", creationOptions=["COMPRESS=DEFLATE", "PREDICTOR=YES", "BLOCKSIZE=128", "OVERVIEWS=AUTO"])
        self.record("cog_s1_deflate.tif", "COG driver deflate predictor blocksize 128 overviews auto")
        p = self.path("cog_rgb_jpeg.tif")
        gdal.Translate(p, self.src(rgb), format="COG", creationOptions=["COMPRESS=JPEG", "QUALITY=85", "BLOCKSIZE=256"])
        self.record("cog_rgb_jpeg.tif", "COG driver JPEG quality 85 with overviews", lossy_ref=True)

        # gdalwarp to Web Mercator with a destination nodata, and a
        # colour-table raster, a 1-bit mask and a sparse file.
        p = self.path("gdalwarp_shade_3857.tif")
        gdal.Warp(p, self.src(shade), dstSRS="EPSG:3857", dstNodata=0, creationOptions=["COMPRESS=LZW", "TILED=YES"], resampleAlg="near")
        self.record("gdalwarp_shade_3857.tif", "gdalwarp to EPSG:3857 near, dstnodata 0, lzw tiled")
        p = self.path("gdalwarp_label_utm30.tif")
        gdal.Warp(p, self.src(label), dstSRS="EPSG:32630", xRes=10, yRes=10, dstNodata=-1, resampleAlg="near", creationOptions=["COMPRESS=DEFLATE"])
        self.record("gdalwarp_label_utm30.tif", "gdalwarp to EPSG:32630 at 10 m, dstnodata -1, deflate")
        p = self.path("gdal_world_palette.tif")
        tmp = gdal.Translate("/vsimem/w.tif", self.src(world), srcWin=[1000, 200, 600, 400])
        ct = gdal.ColorTable()
        for i in range(256):
            ct.SetColorEntry(i, (i, 255 - i, (7 * i) % 256, 255))
        tmp.GetRasterBand(1).SetRasterColorTable(ct)
        tmp.GetRasterBand(1).SetRasterColorInterpretation(gdal.GCI_PaletteIndex)
        gdal.Translate(p, tmp, creationOptions=["COMPRESS=LZW"])
        gdal.Unlink("/vsimem/w.tif")
        self.record("gdal_world_palette.tif", "gdal_translate with a colour table (photometric palette)")
        p = self.path("gdal_rgb_internal_mask.tif")
        ds = gdal.Translate(p, self.src(rgb), srcWin=[200, 200, 300, 240], creationOptions=["COMPRESS=DEFLATE", "TILED=YES"])
        ds.CreateMaskBand(gdal.GMF_PER_DATASET)
        m = ds.GetRasterBand(1).GetMaskBand()
        m.WriteArray((np.arange(300 * 240).reshape(240, 300) % 7 != 0).astype(np.uint8) * 255)
        ds = None
        self.record("gdal_rgb_internal_mask.tif", "gdal_translate + internal per-dataset mask band")
        p = self.path("gdal_mask_nbits1.tif")
        tmp = gdal.Translate("/vsimem/m.tif", self.src(label), outputType=gdal.GDT_Byte, scaleParams=[[-1, 1, 0, 1]], noData="none")
        gdal.Translate(p, tmp, creationOptions=["NBITS=1", "COMPRESS=DEFLATE"])
        gdal.Unlink("/vsimem/m.tif")
        self.record("gdal_mask_nbits1.tif", "gdal_translate NBITS=1 deflate")
        p = self.path("gdal_sparse_nodata.tif")
        ds = gdal.GetDriverByName("GTiff").Create(p, 700, 500, 1, gdal.GDT_Float32,
                                                options=["SPARSE_OK=TRUE", "TILED=YES", "COMPRESS=ZSTD"])
        ds.SetGeoTransform([500000, 30, 0, 4500000, 0, -30])
        ds.SetProjection("EPSG:32633")
        ds.GetRasterBand(1).SetNoDataValue(-3.4e38)
        ds.GetRasterBand(1).WriteArray(np.linspace(-5, 5, 256 * 256, dtype=np.float32).reshape(256, 256), 256, 0)
        ds = None
        self.record("gdal_sparse_nodata.tif", "GTiff Create SPARSE_OK float32 nodata -3.4e38, one tile written")

        # A GDAL single strip over the 16 MiB streaming threshold (4200 x
        # 4200 bytes = 16.8 MiB), and WebP.
        p = self.path("gdal_single_strip_17mb.tif")
        n = 4200
        ds = gdal.GetDriverByName("GTiff").Create(p, n, n, 1, gdal.GDT_Byte, options=["BLOCKYSIZE=%d" % n, "COMPRESS=DEFLATE"])
        ds.SetGeoTransform([-10, 0.01, 0, 50, 0, -0.01])
        ds.SetProjection("EPSG:4326")
        col = np.arange(n, dtype=np.uint32)
        for y in range(0, n, 600):
            h = min(600, n - y)
            ds.GetRasterBand(1).WriteArray(((col[None, :] * 3 + np.arange(y, y + h, dtype=np.uint32)[:, None] * 5) % 251).astype(np.uint8), 0, y)
        ds = None
        self.record("gdal_single_strip_17mb.tif", "GTiff one 17.6 MB DEFLATE strip (GDAL reads it as 4200x1 blocks)")
        if "WEBP" in gdal.GetDriverByName("GTiff").GetMetadataItem("DMD_CREATIONOPTIONLIST"):
            gdal.Translate(self.path("gdal_rgb_webp_lossless.tif"), self.src(rgb), srcWin=[0, 0, 512, 400],
                           creationOptions=["COMPRESS=WEBP", "WEBP_LOSSLESS=YES"])
            self.record("gdal_rgb_webp_lossless.tif", "gdal_translate WebP lossless")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    c = Corpus(a.data, a.out)
    c.build()
    meta = {"generator": "conformance/raster/gen_realworld.py", "gdal": gdal.VersionInfo("RELEASE_NAME"),
            "rasterio": rasterio.__version__, "mode": "realworld", "files": c.goldens}
    with open(os.path.join(a.out, "goldens.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d files written to %s" % (len(c.goldens), a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
