"""Oracle answers of the Sen1Floods11 family (types 39-43, sen1_flood_a..e).

Recomputes every answer from the declared files with the native stack:
rasterio (read, features.shapes = GDAL polygonize, 8-connected),
scikit-image (threshold_otsu, nbins=256), SciPy (ndimage.label with a 3x3
structure) and NumPy, following the spec's prose for each type. Field
names and rounding follow workers/sen1flood/schemas/sen1_flood_*.json.

DIAGNOSTICS[id] also records, per record, the Otsu threshold, the SHA-256
of the uint8 mask samples (0 valid non-flood, 1 flood, 255 nodata;
row-major), the component count, the rasterio polygon count and a digest of
the normalized polygons. Regenerate the family's goldens with this module's
main (oracle.py writes the same answers but no diagnostics, which
TestSen1FloodSyntheticDiagnostics needs):

    go run ./cmd/geodisaster synth --out /tmp/c_sen1 --types sen1_flood_a,sen1_flood_b,sen1_flood_c,sen1_flood_d,sen1_flood_e --seed 1
    /usr/bin/python3 conformance/oracle/oracle_sen1flood.py --corpus /tmp/c_sen1 > conformance/goldens/oracle_sen1flood.json

The real-chip goldens (conformance/goldens/sen1flood_real.json) are made
the same way from the corpus TestSen1FloodRealChip writes (see its doc).
"""
import hashlib
import os

import numpy as np
import rasterio
import rasterio.features
from scipy import ndimage
from skimage.filters import threshold_otsu

from common import cell_area_grid, find, same_grid

DIAGNOSTICS = {}


def predict(root, rel):
    with rasterio.open(os.path.join(root, rel)) as ds:
        assert ds.count == 2 and ds.crs.to_epsg() == 4326, rel
        vv = ds.read(1)
        vh = ds.read(2)
        nodata = ds.nodata
        transform = ds.transform
    valid = np.isfinite(vv) & np.isfinite(vh)
    if nodata is not None and not np.isnan(nodata):
        valid &= (vv != nodata) & (vh != nodata)
    if not valid.any():
        raise ValueError("all-nodata chip: %s" % rel)
    score = np.minimum(vv, vh)
    t = threshold_otsu(score[valid], nbins=256)
    flood = valid & (score <= t)
    mask = np.full(vv.shape, 255, dtype=np.uint8)
    mask[valid] = 0
    mask[flood] = 1
    return {"valid": valid, "flood": flood, "mask": mask, "threshold": float(t), "transform": transform}


def _canonical_ring(ring):
    pts = [(int(x), int(y)) for x, y in ring]
    if pts[0] == pts[-1]:
        pts = pts[:-1]
    changed = True
    while changed and len(pts) > 2:
        changed = False
        for i in range(len(pts)):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            if (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) == 0:
                del pts[i]
                changed = True
                break
    area2 = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1] for i in range(len(pts)))
    if area2 < 0:
        pts.reverse()
    best = min(pts[k:] + pts[:k] for k in range(len(pts)))
    return "".join("%d,%d;" % p for p in best)


def polygon_digest(mask, flood):
    """SHA-256 of the 8-connected GDAL polygons in pixel coordinates, each
    ring without its closing point and collinear points, oriented with a
    positive (x, row-down) shoelace, started at its smallest rotation; a
    polygon is its exterior then its sorted holes; polygons sorted."""
    polys = []
    for geom, _ in rasterio.features.shapes(mask, mask=flood, connectivity=8):
        rings = geom["coordinates"]
        polys.append(_canonical_ring(rings[0]) + "|" + "|".join(sorted(_canonical_ring(r) for r in rings[1:])))
    return hashlib.sha256("\n".join(sorted(polys)).encode()).hexdigest()


def analyse(rec, root):
    p = predict(root, find(rec, "s1_image_1", "S1Portable.tif"))
    valid, flood, t = p["valid"], p["flood"], p["transform"]
    h, w = flood.shape
    areas = cell_area_grid(t, h, w)
    labels, n = ndimage.label(flood, structure=np.ones((3, 3), dtype=int))
    out = {
        "valid": int(valid.sum()),
        "flood": int(flood.sum()),
        "flood_area": float(areas[flood].sum()),
        "components": int(n),
        "largest": None,
    }
    if n > 0:
        counts = np.bincount(labels.ravel())[1:]
        k = int(np.argmax(counts)) + 1
        sel = labels == k
        rows, cols = np.nonzero(sel)
        xs = t.c + (cols + 0.5) * t.a
        ys = t.f + (rows + 0.5) * t.e
        x0, x1 = t.c + cols.min() * t.a, t.c + (cols.max() + 1) * t.a
        y0, y1 = t.f + rows.min() * t.e, t.f + (rows.max() + 1) * t.e
        out["largest"] = {
            "area": round(float(areas[sel].sum()), 3),
            "centroid": {"lon": round(float(xs.mean()), 6), "lat": round(float(ys.mean()), 6)},
            "bbox": [round(float(min(x0, x1)), 6), round(float(min(y0, y1)), 6),
                     round(float(max(x0, x1)), 6), round(float(max(y0, y1)), 6)],
        }
    # 4x4 index partition: cell row i spans rows [i*h//4, (i+1)*h//4).
    re = [i * h // 4 for i in range(5)]
    ce = [j * w // 4 for j in range(5)]
    cells = []
    total = out["flood"]
    for i in range(4):
        for j in range(4):
            v = int(valid[re[i]:re[i + 1], ce[j]:ce[j + 1]].sum())
            f = int(flood[re[i]:re[i + 1], ce[j]:ce[j + 1]].sum())
            cells.append({
                "cell_id": i * 4 + j, "row": i, "col": j, "valid_pixels": v, "flood_pixels": f,
                "flood_percentage": round(100.0 * f / v, 6) if v > 0 else None,
                "flood_share": round(f / total, 6) if total > 0 else 0.0,
                "_key": (100.0 * f / v) if v > 0 else -1.0,
            })
    ranked = sorted(cells, key=lambda c: (c["_key"], c["flood_pixels"], c["cell_id"]), reverse=True)[:3]
    out["top3"] = [dict({k: v for k, v in c.items() if k != "_key"}, rank=r + 1) for r, c in enumerate(ranked)]
    out["grid"] = [{k: v for k, v in c.items() if k != "_key"} for c in cells]
    mx = max(c["flood_pixels"] for c in cells)
    conc = mx / total if total > 0 else 0.0
    out["concentration"] = round(conc, 6)
    out["pattern"] = "localized" if total > 0 and conc >= 0.5 else "dispersed"
    polys = list(rasterio.features.shapes(p["mask"], mask=flood, connectivity=8, transform=t))
    assert all(g["type"] == "Polygon" for g, _ in polys)
    out["polygons"] = len(polys)
    if "jrc_water_1" in rec["handles"]:
        with rasterio.open(os.path.join(root, find(rec, "jrc_water_1", "JRCWaterHand.tif"))) as ds:
            jrc = ds.read(1)
            assert ds.shape == flood.shape and ds.crs == rasterio.crs.CRS.from_epsg(4326), "JRC shape or CRS"
            assert same_grid(t, ds.transform, ds.width, ds.height), "JRC grid %s is not the SAR grid %s" % (ds.transform, t)
            jnd = ds.nodata
        known = jrc == 1
        if jnd is not None:
            bad = ~np.isin(jrc, [0, 1]) & (jrc != jnd)
        else:
            bad = ~np.isin(jrc, [0, 1])
        assert not bad.any(), "JRC values other than 0/1"
        if jnd is not None:
            known &= jrc != jnd
        out["overlap"] = int((flood & known).sum())
        out["outside"] = int((flood & ~known).sum())
        assert out["overlap"] + out["outside"] == total
    DIAGNOSTICS[rec["id"]] = {
        "threshold": p["threshold"],
        "mask_sha256": hashlib.sha256(np.ascontiguousarray(p["mask"]).tobytes()).hexdigest(),
        "valid_pixels": out["valid"], "flood_pixels": total,
        "component_count": out["components"], "polygon_count": out["polygons"],
        "polygon_digest": polygon_digest(p["mask"], flood),
    }
    return out


def pct(a, b):
    return round(100.0 * a / b, 6) if b > 0 else 0.0


def _largest(o):
    L = o["largest"]
    return (L["area"] if L else 0.0), (L["centroid"] if L else None), (L["bbox"] if L else None)


def _extent(o):
    """Type A's fields: the flood's extent, its largest component and grid."""
    area, cen, _ = _largest(o)
    return {
        "flood_percentage": pct(o["flood"], o["valid"]),
        "flood_area_m2": round(o["flood_area"], 3),
        "component_count": o["components"],
        "largest_component_area_m2": area,
        "largest_component_centroid": cen,
        "grid_4x4": o["grid"],
    }


def _hotspots(o):
    """Type C's fields: the densest cells and the pattern."""
    return {"top3_cells": o["top3"], "max_cell_concentration": o["concentration"], "pattern": o["pattern"]}


def _reference(o):
    """The flood pixels inside and outside the reference water."""
    return {
        "overlap_pixels": o["overlap"],
        "overlap_percentage": pct(o["overlap"], o["flood"]),
        "outside_reference_pixels": o["outside"],
        "outside_reference_percentage": pct(o["outside"], o["flood"]),
    }


def sen1_flood_a(rec, root):
    return _extent(analyse(rec, root))


def sen1_flood_b(rec, root):
    o = analyse(rec, root)
    area, cen, bbox = _largest(o)
    assert o["polygons"] == o["components"]
    return {
        "polygon_generation_status": "generated",
        "polygon_count": o["polygons"],
        "total_flood_area_m2": round(o["flood_area"], 3),
        "largest_component_area_m2": area,
        "largest_component_bbox": bbox,
        "largest_component_centroid": cen,
        "top3_cells": o["top3"],
    }


def sen1_flood_c(rec, root):
    return _hotspots(analyse(rec, root))


def sen1_flood_d(rec, root):
    o = analyse(rec, root)
    area, cen, _ = _largest(o)
    return {
        "total_flood_pixels": o["flood"],
        **_reference(o),
        "largest_component_area_m2": area,
        "largest_component_centroid": cen,
    }


def sen1_flood_e(rec, root):
    o = analyse(rec, root)
    _, _, bbox = _largest(o)
    return {
        **_extent(o),
        "polygon_count": o["polygons"],
        "largest_component_bbox": bbox,
        **_hotspots(o),
        **_reference(o),
        "method": "s1_min_backscatter_otsu_v1",
        "mask_generated": True,
        "polygons_generated": True,
        "map_rendered": True,
    }


ANSWERS = {
    "sen1_flood_a": sen1_flood_a,
    "sen1_flood_b": sen1_flood_b,
    "sen1_flood_c": sen1_flood_c,
    "sen1_flood_d": sen1_flood_d,
    "sen1_flood_e": sen1_flood_e,
}


def main():
    """Writes the family's goldens like oracle.py, plus per-record DIAGNOSTICS.

        /usr/bin/python3 conformance/oracle/oracle_sen1flood.py --corpus DIR > conformance/goldens/oracle_sen1flood.json
    """
    import argparse
    import json
    import sys

    import numpy
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True, help="directory with records.jsonl (also the dataset root)")
    ap.add_argument("--source-sha256", default="", help="SHA-256 of the upstream S1Hand.tif (real-chip corpus)")
    args = ap.parse_args()
    raw = open(os.path.join(args.corpus, "records.jsonl"), "rb").read()
    answers, types = {}, set()
    for line in raw.decode().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec["family"] != "sen1_flood":
            continue
        answers[rec["id"]] = ANSWERS[rec["question_type"]](rec, args.corpus)
        types.add(rec["question_type"])
    if not answers:
        sys.exit("oracle_sen1flood: no sen1_flood record")
    import scipy
    import skimage
    out = {
        "generator": "conformance/oracle/oracle_sen1flood.py",
        "stack": {"numpy": numpy.__version__, "rasterio": rasterio.__version__, "gdal": rasterio.__gdal_version__,
                  "scipy": scipy.__version__, "skimage": skimage.__version__},
        "family": "sen1_flood",
        "types": sorted(types),
        "records_sha256": hashlib.sha256(raw).hexdigest(),
        "answers": answers,
        "diagnostics": DIAGNOSTICS,
    }
    if args.source_sha256:
        out["source_sha256"] = args.source_sha256
    json.dump(out, sys.stdout, indent=1, sort_keys=True, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
