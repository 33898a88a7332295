#!/usr/bin/python3
"""Times the type-E (sen1_flood_e) chain on one chip with the Python
reference stack (rasterio, scikit-image, SciPy, Shapely, Pillow), one
process, for a side-by-side comparison with the Go engine's
BenchmarkSen1FloodTypeE on the same chip:

    GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./conformance/ -run TestSen1FloodRealChip
    /usr/bin/python3 conformance/oracle/bench_sen1flood.py --corpus /tmp/c_sen1_real --runs 20
    go test ./conformance/ -run '^$' -bench Sen1FloodTypeE -benchtime 20x

conformance/bench/sen1flood_vs_python.py runs both sides in one invocation,
rounds interleaved, and prints the ratios.

Each run does what the Go chain does: read S1Portable and JRC, Otsu mask
(written as a DEFLATE GeoTIFF), 8-connected labels, polygons (written as
GeoJSON through Shapely), component areas/bbox/centroid, the 4x4 grid and
top three, the JRC partition and a 512x512 PNG render (SAR, prediction,
boundaries, grid) with its manifest.
"""
import argparse
import json
import os
import statistics
import tempfile
import time

import numpy as np
import rasterio
import rasterio.features
from PIL import Image
from scipy import ndimage
from shapely.geometry import mapping, shape
from skimage.filters import threshold_otsu

from common import cell_area_grid


def chain(s1, jrc, out):
    with rasterio.open(s1) as ds:
        vv, vh = ds.read(1), ds.read(2)
        profile, t, nd = ds.profile, ds.transform, ds.nodata
    valid = np.isfinite(vv) & np.isfinite(vh) & (vv != nd) & (vh != nd)
    score = np.minimum(vv, vh)
    thr = threshold_otsu(score[valid], nbins=256)
    flood = valid & (score <= thr)
    mask = np.full(vv.shape, 255, np.uint8)
    mask[valid] = 0
    mask[flood] = 1
    p = dict(profile, dtype="uint8", count=1, nodata=255, compress="deflate", tiled=True, blockxsize=256, blockysize=256)
    with rasterio.open(os.path.join(out, "mask.tif"), "w", **p) as dst:
        dst.write(mask, 1)
    labels, n = ndimage.label(flood, structure=np.ones((3, 3), int))
    feats = []
    for k, (geom, _) in enumerate(rasterio.features.shapes(mask, mask=flood, connectivity=8, transform=t)):
        feats.append({"type": "Feature", "properties": {"component_id": k + 1}, "geometry": mapping(shape(geom))})
    with open(os.path.join(out, "polygons.geojson"), "w") as f:
        json.dump({"type": "FeatureCollection", "features": feats}, f)
    h, w = flood.shape
    areas = cell_area_grid(t, h, w)
    total_area = float(areas[flood].sum())
    counts = np.bincount(labels.ravel())[1:]
    k = int(np.argmax(counts)) + 1
    sel = labels == k
    rows, cols = np.nonzero(sel)
    largest = (float(areas[sel].sum()), float((t.c + (cols + 0.5) * t.a).mean()), float((t.f + (rows + 0.5) * t.e).mean()),
               cols.min(), cols.max(), rows.min(), rows.max())
    cells = []
    for i in range(4):
        for j in range(4):
            v = valid[i * h // 4:(i + 1) * h // 4, j * w // 4:(j + 1) * w // 4].sum()
            fl = flood[i * h // 4:(i + 1) * h // 4, j * w // 4:(j + 1) * w // 4].sum()
            cells.append((100.0 * fl / v if v else -1, int(fl), i * 4 + j))
    top3 = sorted(cells, reverse=True)[:3]
    with rasterio.open(jrc) as ds:
        known = ds.read(1) == 1
    overlap, outside = int((flood & known).sum()), int((flood & ~known).sum())
    g = np.clip(np.round((vv + 25.0) / 25.0 * 255), 0, 255).astype(np.uint8)
    g[~valid] = 0
    rgb = np.repeat(g[:, :, None], 3, axis=2).astype(np.int32)
    base = rgb.copy()
    rgb[flood] = (rgb[flood] * 140 + np.array([0, 112, 255]) * 115 + 127) // 255
    er = ndimage.binary_erosion(labels > 0, structure=np.ones((3, 3)), border_value=0)
    edge = (labels > 0) & ~ndimage.binary_erosion(labels > 0, border_value=0)
    rgb[edge] = (255, 221, 0)
    # The render is a 512 x 512 canvas (nearest-neighbour from the chip);
    # the 4x4 grid lines are drawn on the canvas, so a cropped chip of
    # fewer than 385 rows or columns renders too.
    rgb = np.asarray(Image.fromarray(rgb.astype(np.uint8)).resize((512, 512), Image.NEAREST)).astype(np.int32)
    base = np.asarray(Image.fromarray(base.astype(np.uint8)).resize((512, 512), Image.NEAREST)).astype(np.int32)
    for q in (128, 256, 384):
        rgb[:, q] = 255
        rgb[q, :] = 255
    Image.fromarray(rgb.astype(np.uint8)).save(os.path.join(out, "render.png"))
    changed = int((rgb != base).any(axis=2).sum())
    with open(os.path.join(out, "render.json"), "w") as f:
        json.dump({"changed_pixels": changed, "prepared_overlay_used": False}, f)
    return thr, n, total_area, largest, top3, overlap, outside, er.sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--record", default="sen1_flood_e__Spain_7370579")
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    rec = None
    for line in open(os.path.join(a.corpus, "records.jsonl")):
        r = json.loads(line)
        if r["id"] == a.record:
            rec = r
    s1 = os.path.join(a.corpus, rec["handles"]["s1_image_1"]["files"][0]["path"])
    jrc = os.path.join(a.corpus, rec["handles"]["jrc_water_1"]["files"][0]["path"])
    times, cpu = [], []
    with tempfile.TemporaryDirectory() as out:
        chain(s1, jrc, out)
        for _ in range(a.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            chain(s1, jrc, out)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    print("python reference stack, type E chain, %s: wall median %.1f ms (min %.1f), CPU median %.1f ms, %d runs" % (
        a.record, 1000 * statistics.median(times), 1000 * min(times), 1000 * statistics.median(cpu), len(times)))


if __name__ == "__main__":
    main()
