"""Oracle answers of the xbd family (types 29-35).

Independent of the Go engine: label polygons are parsed with Shapely's WKT
reader, areas and centroids are Shapely's (GEOS), quadrant/cell areas are
Shapely intersections with the cell boxes, and the target mask is decoded
with Pillow and counted with NumPy.
"""
import json
import math
import os
from fractions import Fraction

import numpy as np
from PIL import Image
from shapely import wkt
from shapely.geometry import box, shape

from common import find

CLASSES = ["no-damage", "minor-damage", "major-damage", "destroyed", "unclassified"]
SUBTYPES = {"no-damage": 0, "minor-damage": 1, "major-damage": 2, "destroyed": 3, "un-classified": 4, "unclassified": 4}
METHOD = "pixel_polygon_area_x_gsd_squared"
ENCODING = "0=background,1=no-damage,2=minor-damage,3=major-damage,4=destroyed"
FRAME = 1024


def load(root, rel):
    with open(os.path.join(root, rel)) as f:
        return json.load(f)


def labels(root, rel):
    """Building labels: xView2's features.xy with WKT, or the same labels as
    a GeoJSON FeatureCollection (pixel-space Polygon geometries)."""
    doc = load(root, rel)
    meta = doc["metadata"]
    out = []
    if isinstance(doc["features"], list):
        assert doc["type"] == "FeatureCollection" and meta.get("coordinate_space", "pixel") == "pixel"
        for f in doc["features"]:
            if f["properties"].get("feature_type", "building") == "building":
                out.append((SUBTYPES[f["properties"]["subtype"]], shape(f["geometry"])))
        return meta, out
    for f in doc["features"]["xy"]:
        out.append((SUBTYPES[f["properties"]["subtype"]], wkt.loads(f["wkt"])))
    return meta, out


def cache(root, rel):
    doc = load(root, rel)
    meta = doc["metadata"]
    out = []
    for f in doc["features"]:
        if f["properties"]["feature_type"] == "building":
            out.append((SUBTYPES[f["properties"]["subtype"]], shape(f["geometry"])))
    return meta, out


def png_size(root, rel):
    with Image.open(os.path.join(root, rel)) as im:
        assert im.format == "PNG"
        return im.size


def summary(meta, bs):
    counts = [0] * 5
    g2 = meta["gsd"] * meta["gsd"]
    areas = {"severe": 0.0, "major": 0.0, "destroyed": 0.0, "total": 0.0}
    for c, p in bs:
        counts[c] += 1
        a = p.area * g2
        areas["total"] += a
        if c == 2:
            areas["major"] += a
            areas["severe"] += a
        if c == 3:
            areas["destroyed"] += a
            areas["severe"] += a
    classified = sum(counts[:4])
    damaged = counts[1] + counts[2] + counts[3]
    severe = counts[2] + counts[3]
    pct = lambda n: round(100 * n / classified, 2) if classified else 0
    s = {
        "total_buildings": len(bs), "class_counts": dict(zip(CLASSES, counts)),
        "classified_buildings": classified, "damaged_buildings": damaged, "severe_buildings": severe,
        "damaged_pct": pct(damaged), "severe_pct": pct(severe),
    }
    return s, counts, areas


def cells(meta, bs, n):
    """Centroid-assigned counts and clipped severe areas per cell."""
    step = FRAME // n
    out = []
    for r in range(n):
        for c in range(n):
            cid = "Q%d" % (r * 2 + c) if n == 2 else "R%dC%d" % (r, c)
            out.append({"id": cid, "counts": [0] * 5, "severe": 0, "area": 0.0,
                        "box": box(c * step, r * step, (c + 1) * step, (r + 1) * step)})
    g2 = meta["gsd"] * meta["gsd"]
    idx = lambda v: min(max(int(math.floor(v / step)), 0), n - 1)
    for cls, p in bs:
        ct = p.centroid
        cell = out[idx(ct.y) * n + idx(ct.x)]
        cell["counts"][cls] += 1
        if cls in (2, 3):
            cell["severe"] += 1
    for cls, p in bs:
        if cls in (2, 3):
            for cell in out:
                cell["area"] += p.intersection(cell["box"]).area * g2
    return out


def concentration(quads):
    total = sum(q["severe"] for q in quads)
    out = {"grid": "2x2", "quadrant_severe_counts": {q["id"]: q["severe"] for q in quads},
           "total_severe_buildings": total, "concentration_score": None, "worst_quadrant": None,
           "top_tied_quadrants": []}
    if total == 0:
        return out, "no_severe_damage", False
    mx = max(q["severe"] for q in quads)
    tied = sorted(q["id"] for q in quads if q["severe"] == mx)
    frac = Fraction(mx, total)
    pattern = ("highly_concentrated" if frac >= Fraction(7, 10) else
               "moderately_concentrated" if frac >= Fraction(45, 100) else "spatially_dispersed")
    # Unrounded: the spec states the ratio and no rounding for it.
    out.update(concentration_score=mx / total, worst_quadrant=tied[0], top_tied_quadrants=tied)
    return out, pattern, len(tied) > 1


def check_image(rec, root, meta, handle="image_1"):
    assert png_size(root, find(rec, handle, ".png")) == (meta["width"], meta["height"])


def xbd_q1(rec, root):
    meta, bs = labels(root, find(rec, "damage_labels_1", "building_damage_xy.geojson"))
    check_image(rec, root, meta)
    s, _, areas = summary(meta, bs)
    s["severe_footprint_area_m2"] = round(areas["severe"], 4)
    s["area_method"] = METHOD
    return s


def xbd_q2(rec, root):
    meta, bs = cache(root, find(rec, "quadrants_1", "quadrants.geojson"))
    check_image(rec, root, meta)
    quads = cells(meta, bs, 2)
    best = sorted(quads, key=lambda q: (-q["area"], q["id"]))[0]
    return {"quadrant_id": best["id"], "severe_building_count": best["severe"],
            "severe_footprint_area_m2": round(best["area"], 4)}


def xbd_q3(rec, root):
    meta, bs = cache(root, find(rec, "grid_1", "grid_4x4.geojson"))
    check_image(rec, root, meta)
    el = []
    for c in cells(meta, bs, 4):
        k = c["counts"]
        classified = sum(k[:4])
        if classified:
            el.append((Fraction(k[1] + 2 * k[2] + 3 * k[3], 3 * classified), c["id"], classified, k))
    el.sort(key=lambda e: (-e[0], e[1]))
    if not el:
        return {"grid": "4x4", "status": "no_classified_buildings", "top_cell_id": None, "severity_score": None,
                "top_tied_cell_ids": [], "top_k_cells": [], "eligible_cell_count": 0}
    disp = lambda f: round(f.numerator / f.denominator, 6)
    rows = [{"cell_id": e[1], "severity_score": disp(e[0]), "classified_buildings": e[2],
             "minor_damage": e[3][1], "major_damage": e[3][2], "destroyed": e[3][3]} for e in el[:3]]
    return {"grid": "4x4", "status": "ranked", "top_cell_id": el[0][1], "severity_score": disp(el[0][0]),
            "top_tied_cell_ids": [e[1] for e in el if e[0] == el[0][0]], "top_k_cells": rows,
            "eligible_cell_count": len(el)}


def xbd_q4(rec, root):
    scenes = []
    for h in ("scene_a_1", "scene_b_1"):
        meta, bs = labels(root, find(rec, h, "building_damage_xy.geojson"))
        check_image(rec, root, meta, h)
        s, counts, areas = summary(meta, bs)
        scenes.append({"scene_id": meta["img_name"][:-len("_post_disaster.png")], "total_buildings": s["total_buildings"],
                       "class_counts": s["class_counts"], "classified_buildings": s["classified_buildings"],
                       "severe_buildings": s["severe_buildings"], "severe_pct": s["severe_pct"],
                       "severe_footprint_area_m2": areas["severe"],
                       "status": "ok" if s["classified_buildings"] else "no_classified_buildings"})

    def compare(key, eligible):
        vals = [(s[key], s["scene_id"]) for s in scenes if eligible(s)]
        if not vals:
            return {"winner": None, "tied_scene_ids": [], "status": "no_eligible_scene"}
        best = max(v for v, _ in vals)
        top = sorted(i for v, i in vals if v == best)
        if len(top) == 1:
            return {"winner": top[0], "tied_scene_ids": [], "status": "unique_winner"}
        return {"winner": None, "tied_scene_ids": top, "status": "tie"}

    return {"scenes": scenes,
            "severe_pct_comparison": compare("severe_pct", lambda s: s["classified_buildings"] > 0),
            "severe_footprint_area_comparison": compare("severe_footprint_area_m2", lambda s: True)}


def xbd_q5(rec, root):
    meta, bs = labels(root, find(rec, "damage_labels_1", "building_damage_xy.geojson"))
    check_image(rec, root, meta)
    g2 = meta["gsd"] * meta["gsd"]
    major = sum(p.area * g2 for c, p in bs if c == 2)
    destroyed = sum(p.area * g2 for c, p in bs if c == 3)
    return {"severe_building_count": sum(1 for c, _ in bs if c in (2, 3)),
            "severe_footprint_area_m2": round(major + destroyed, 4),
            "major_damage_area_m2": round(major, 4), "destroyed_area_m2": round(destroyed, 4),
            "source": "building_damage_xy.geojson", "filter": "major_or_destroyed", "area_method": METHOD}


def xbd_q7(rec, root):
    meta, bs = cache(root, find(rec, "quadrants_1", "quadrants.geojson"))
    check_image(rec, root, meta)
    quads = cells(meta, bs, 2)
    out, pattern, tb = concentration(quads)
    out["ranked_quadrants"] = [{"quadrant_id": q["id"], "severe_count": q["severe"]}
                               for q in sorted(quads, key=lambda q: (-q["severe"], q["id"]))]
    out["spatial_pattern"] = pattern
    out["tie_break_applied"] = tb
    return out


def xbd_q8(rec, root):
    meta, bs = labels(root, find(rec, "damage_labels_1", "building_damage_xy.geojson"))
    check_image(rec, root, meta)
    s, counts, areas = summary(meta, bs)
    # Concentration from the authoritative label polygons; the quadrant
    # cache must agree with them.
    qmeta, qbs = cache(root, find(rec, "mask_layers_1", "quadrants.geojson"))
    quads = cells(meta, bs, 2)
    assert [q["severe"] for q in quads] == [q["severe"] for q in cells(qmeta, qbs, 2)]
    conc, _, _ = concentration(quads)
    with Image.open(os.path.join(root, find(rec, "mask_layers_1", "post_target.png"))) as im:
        m = np.asarray(im)
    assert m.shape == (1024, 1024) and m.max() <= 4
    hist = np.bincount(m.ravel(), minlength=5)
    names = CLASSES[:4]
    poly = {n: counts[i] > 0 for i, n in enumerate(names)}
    mask = {n: bool(hist[i + 1] > 0) for i, n in enumerate(names)}
    return {
        "damage_summary": s,
        "footprint_areas": {"severe_footprint_area_m2": round(areas["severe"], 4), "major_damage_area_m2": round(areas["major"], 4),
                            "destroyed_area_m2": round(areas["destroyed"], 4), "total_footprint_area_m2": round(areas["total"], 4),
                            "area_method": METHOD},
        "severe_concentration": conc,
        "target_mask": {"encoding": ENCODING, "histogram": {str(k): int(hist[k]) for k in range(5)},
                        "total_pixels": int(hist.sum()), "severe_pixels": int(hist[3] + hist[4])},
        "class_presence": {"polygon": poly, "mask": mask, "class_presence_consistent": poly == mask},
    }


ANSWERS = {
    "xbd_q1": xbd_q1,
    "xbd_q2": xbd_q2,
    "xbd_q3": xbd_q3,
    "xbd_q4": xbd_q4,
    "xbd_q5": xbd_q5,
    "xbd_q7": xbd_q7,
    "xbd_q8": xbd_q8,
}
