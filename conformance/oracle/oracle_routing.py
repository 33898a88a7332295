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
        assert ds.count >= 3 and not ds.crs.is_geographic
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
