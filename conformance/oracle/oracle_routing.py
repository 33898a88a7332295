"""Oracle answers of the routing family (types 36-38).

Independent of the Go engine: it re-reads the declared GeoJSON/JSON inputs,
decomposes every packaged candidate into its road edges, recomputes the
metrics with Python's left-to-right sum() and selects the winners; for the
overlay receipt it opens the RGB chip with rasterio and maps WGS84 positions
into pixels with pyproj and the inverse affine transform.
"""
import json
import os

import rasterio
from pyproj import Transformer

from common import find

HANDLE = "route_inputs_1"
STRATEGIES = ("fastest", "safest", "balanced")
LAYERS = ["rgb", "roads", "flood", "blocked_roads", "origin", "shelter", "routes", "labels"]
K = {"fastest": None, "safest": 10, "balanced": 4}


def load(rec, root, suffix):
    with open(os.path.join(root, find(rec, HANDLE, suffix)), "rb") as f:
        return json.load(f)


def scene(rec, root):
    meta = load(rec, root, "metadata.json")
    roads = {}
    for f in load(rec, root, "roads.geojson")["features"]:
        p = f["properties"]
        assert p["edge_id"] not in roads
        assert p["length_m"] > 0 and p["travel_time_min"] > 0 and 0 <= p["flood_risk"] <= 1
        roads[p["edge_id"]] = dict(p, coords=f["geometry"]["coordinates"])
    cands = []
    for f in load(rec, root, "candidate_routes.geojson")["features"]:
        p = f["properties"]
        cands.append(dict(p, coords=f["geometry"]["coordinates"]))
    return meta, roads, cands


def metrics(c, roads, meta):
    """Walk the candidate's edges from the origin node to the shelter node."""
    assert c["shelter_id"] == meta["shelter"]["shelter_id"]
    node = meta["origin"]["node_id"]
    walk = []
    edges = []
    for eid in c["edge_ids"]:
        e = roads[eid]
        coords = e["coords"]
        if e["u"] == node:
            node = e["v"]
        elif e["v"] == node:
            node = e["u"]
            coords = coords[::-1]
        else:
            raise AssertionError("route %s breaks at edge %s" % (c["route_id"], eid))
        walk.extend(coords if not walk else coords[1:])
        edges.append(e)
    assert node == meta["shelter"]["node_id"]
    assert len(walk) == len(c["coords"])
    for a, b in zip(walk, c["coords"]):
        assert abs(a[0] - b[0]) <= 1e-7 and abs(a[1] - b[1]) <= 1e-7
    dist = sum(e["length_m"] for e in edges)
    eta = sum(e["travel_time_min"] for e in edges)
    risk = sum(e["length_m"] * e["flood_risk"] for e in edges) / dist
    cost = {
        "fastest": sum(e["travel_time_min"] for e in edges),
        "safest": sum(e["travel_time_min"] * (1 + 10 * e["flood_risk"]) for e in edges),
        "balanced": sum(e["travel_time_min"] * (1 + 4 * e["flood_risk"]) for e in edges),
    }
    blocked = sum(1 for e in edges if e["blocked"])
    return {"route_id": c["route_id"], "strategy": c["strategy"], "dist": dist, "eta": eta, "risk": risk,
            "cost": cost, "blocked": blocked, "nodes": len(edges) + 1, "key": tuple(c["edge_ids"])}


def winners(rec, root):
    meta, roads, cands = scene(rec, root)
    ms = [metrics(c, roads, meta) for c in cands]
    out = {}
    for st in STRATEGIES:
        el = [m for m in ms if m["strategy"] == st and m["blocked"] == 0]
        assert el, "no eligible %s candidate" % st
        out[st] = min(el, key=lambda m: (m["cost"][st], m["eta"], m["dist"], m["route_id"]))
    return meta, out, cands


def shelter(meta):
    s = meta["shelter"]
    return {"shelter_id": s["shelter_id"], "name": s["name"], "lon": s["lon"], "lat": s["lat"]}


def route(m, st, nodes=True):
    r = {"route_id": m["route_id"], "distance_m": round(m["dist"], 6), "eta_min": round(m["eta"], 6),
         "blocked_edge_count": m["blocked"], "length_weighted_flood_risk": round(m["risk"], 6),
         "objective_cost": round(m["cost"][st], 6)}
    if nodes:
        r["node_count"] = m["nodes"]
    return r


def nearest_shelter(rec, root):
    meta, w, _ = winners(rec, root)
    ans = route(w["fastest"], "fastest", nodes=False)
    ans.update(shelter=shelter(meta), confidence=meta["confidence"])
    return {"answer": ans, "terminated": True}


def fastest_safest(rec, root):
    meta, w, _ = winners(rec, root)
    ans = {st: route(w[st], st) for st in STRATEGIES}
    f, s = w["fastest"], w["safest"]
    ans["tradeoff"] = {"distance_delta_m": round(s["dist"] - f["dist"], 6), "eta_delta_min": round(s["eta"] - f["eta"], 6),
                       "mean_risk_reduction": round(f["risk"] - s["risk"], 6), "same_geometry": s["key"] == f["key"]}
    ans.update(shelter=shelter(meta), confidence=meta["confidence"])
    return {"answer": ans, "terminated": True}


def visual_overlay(rec, root):
    meta, w, cands = winners(rec, root)
    with rasterio.open(os.path.join(root, find(rec, HANDLE, "s2_rgb.tif"))) as ds:
        assert ds.count >= 3  # UTM as packaged, or EPSG:4326 as users export chips
        inv, width, height = ~ds.transform, ds.width, ds.height
        tr = Transformer.from_crs("EPSG:4326", ds.crs, always_xy=True)

    def inside(lon, lat):
        x, y = tr.transform(lon, lat)
        col, row = inv * (x, y)
        return 0 <= col < width and 0 <= row < height

    rendered = sorted(c["route_id"] for c in cands if any(inside(*p) for p in c["coords"]))
    return {
        "image": "<image>", "exists": True, "render_contract": "route_overlay_v1", "prepared_overlay_used": False,
        "current_handle": "route_compare_1",
        "selected_route_ids": {st: w[st]["route_id"] for st in STRATEGIES},
        "requested_layers": LAYERS, "rendered_route_ids": rendered, "rendered_label_ids": rendered,
        "origin_rendered": inside(meta["origin"]["lon"], meta["origin"]["lat"]),
        "shelter_rendered": inside(meta["shelter"]["lon"], meta["shelter"]["lat"]),
        "width": 912, "height": 512, "terminated": True,
    }


ANSWERS = {
    "nearest_shelter": nearest_shelter,
    "fastest_safest": fastest_safest,
    "visual_overlay": visual_overlay,
}


def check_artifacts(corpus, replay_dir):
    """Inspect the Go replay's type-38 artifacts with the native stack.

    For every visual_overlay record: the PNG is 912x512 8-bit RGB and its
    SHA-256 is the manifest's; the world file equals the raster affine
    scaled to the chip; the chip pixels that differ from the RGB raster
    resampled by nearest neighbour (read with rasterio) number exactly the
    manifest's changed_chip_pixels; and the origin and shelter markers sit
    at the pixels pyproj and the inverse affine give. Returns a list of
    problems (empty when every artifact checks out).
    """
    import hashlib
    import re

    import numpy as np
    from PIL import Image

    problems = []
    for line in open(os.path.join(corpus, "records.jsonl")):
        rec = json.loads(line)
        if rec["question_type"] != "visual_overlay":
            continue
        d = os.path.join(replay_dir, "artifacts", re.sub(r"[^A-Za-z0-9._-]", "_", rec["id"]))
        stem = os.path.join(d, "route_overlay_route_compare_1")
        try:
            raw = open(stem + ".png", "rb").read()
            man = json.load(open(stem + ".json"))
            wld = [float(v) for v in open(stem + ".pgw").read().split()]
        except OSError as e:
            problems.append("%s: %s" % (rec["id"], e))
            continue
        img = Image.open(stem + ".png")
        if img.size != (912, 512) or img.mode != "RGB":
            problems.append("%s: PNG is %s %s" % (rec["id"], img.size, img.mode))
        if hashlib.sha256(raw).hexdigest() != man["png"]["sha256"]:
            problems.append("%s: PNG SHA-256 differs from the manifest" % rec["id"])
        px = np.asarray(img.convert("RGB"))
        with rasterio.open(os.path.join(corpus, find(rec, HANDLE, "s2_rgb.tif"))) as ds:
            rgb = ds.read([1, 2, 3])
            t, w, h, crs = ds.transform, ds.width, ds.height, ds.crs
        c = man["chip"]
        x0, y0, cw, ch = c["x"], c["y"], c["width"], c["height"]
        want = [t.a * w / cw, t.d * w / cw, t.b * h / ch, t.e * h / ch]
        want += [t.c + want[0] * (0.5 - x0) + want[2] * (0.5 - y0), t.f + want[1] * (0.5 - x0) + want[3] * (0.5 - y0)]
        if any(abs(a - b) > 1e-6 for a, b in zip(wld, want)):
            problems.append("%s: world file %s, want %s" % (rec["id"], wld, want))
        cols = (2 * np.arange(cw) + 1) * w // (2 * cw)
        rows = (2 * np.arange(ch) + 1) * h // (2 * ch)
        base = rgb[:, rows][:, :, cols].transpose(1, 2, 0)
        chip = px[y0:y0 + ch, x0:x0 + cw]
        changed = int((chip != base).any(axis=2).sum())
        if changed != man["changed_chip_pixels"]:
            problems.append("%s: %d changed chip pixels, manifest says %d" % (rec["id"], changed, man["changed_chip_pixels"]))
        tr = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
        meta = load(rec, corpus, "metadata.json")
        for name in ("origin", "shelter"):
            col, row = ~t * tr.transform(meta[name]["lon"], meta[name]["lat"])
            if not (0 <= col < w and 0 <= row < h):
                continue
            x, y = int(np.floor(x0 + col * cw / w)), int(np.floor(y0 + row * ch / h))
            if tuple(px[y, x]) != (255, 255, 255):
                problems.append("%s: %s marker not at pixel (%d, %d): %s" % (rec["id"], name, x, y, tuple(px[y, x])))
    return problems


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3:
        sys.exit("usage: oracle_routing.py CORPUS_DIR REPLAY_OUTPUT_DIR")
    found = check_artifacts(sys.argv[1], sys.argv[2])
    for p in found:
        print(p)
    print("%d problem(s)" % len(found))
    sys.exit(1 if found else 0)
