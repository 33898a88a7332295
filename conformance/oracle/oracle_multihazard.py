"""Oracle answers of the multi-hazard family (types 9-28).

Independent of the Go engine: rasterio reads the written GeoTIFFs, NumPy does
the statistics in the dtype the reference would (float32 arrays stay
float32), pyproj's azimuthal equidistant projection measures distances.
"""
import csv
import json
import os

import numpy as np

from common import cell_area_grid, find, read_band


def valid_of(a, nodata):
    valid = np.isfinite(a)
    if nodata is not None and not np.isnan(nodata):
        valid &= a != nodata
    return valid


def binary_mask(root, rel, max_code=1):
    a, nodata, transform, crs = read_band(root, rel)
    valid = valid_of(a.astype(np.float64), nodata)
    assert valid.any()
    vals = a[valid].astype(np.float64)
    assert np.isin(vals, np.arange(max_code + 1)).all()
    return (a > 0) & valid, valid, transform, crs


def area_ha(sel, transform):
    assert sel.ndim == 2
    return float(cell_area_grid(transform, *sel.shape)[sel].sum()) / 10000.0


def area_answer(handle, hazard_handle="hazard_stack_1"):
    def fn(rec, root):
        sel, _, transform, crs = binary_mask(root, find(rec, hazard_handle, handle + ".tif"))
        assert crs.to_epsg() == 4326
        ha = round(area_ha(sel, transform), 3)
        return {"status": "TASK_COMPLETE", "answer": {"value": ha, "units": "ha"},
                "evidence": {"primary_area_ha": ha, "primary_handle": handle}}
    return fn


def drought_a(rec, root):
    a, nodata, _, _ = read_band(root, find(rec, "hazard_stack_1", "modis_ndvi__target.tif"))
    vals = a[valid_of(a, nodata)]
    assert vals.size and (vals >= -1).all() and (vals <= 1).all()
    target = vals.mean()
    base = []
    with open(os.path.join(root, find(rec, "hazard_stack_1", "modis_ndvi_anomaly.csv"))) as f:
        rows = list(csv.DictReader(f))
    assert sum(1 for r in rows if r["role"] == "target") == 1
    base = np.array([float(r["mean_ndvi"]) for r in rows if r["role"] == "baseline"])
    mean, std = base.mean(), base.std(ddof=1)
    z = (float(target) - mean) / std
    return {"status": "TASK_COMPLETE", "answer": {"value": round(float(z), 6), "units": "z_score"},
            "evidence": {"target_aoi_mean_ndvi": round(float(target), 6), "baseline_mean_ndvi": round(float(mean), 6),
                         "baseline_std_ndvi": round(float(std), 6), "baseline_count": int(base.size),
                         "primary_handle": "modis_ndvi__target"}}


def air_pollution_a(rec, root):
    a, nodata, _, _ = read_band(root, find(rec, "hazard_stack_1", "s5p_no2__peak.tif"))
    vals = a[valid_of(a, nodata)]
    mx = round(float(vals.max()), 6)
    p95 = round(float(np.percentile(vals, 95)), 6)
    return {"status": "TASK_COMPLETE", "answer": {"value": mx, "units": "µmol/m²"},
            "evidence": {"max_umol_m2": mx, "p95_umol_m2": p95, "primary_handle": "s5p_no2__peak"}}


ANSWERS = {
    "wildfire_a": area_answer("mcd64a1__event"),
    "hazard_deforestation_a": area_answer("hansen_loss__event"),
    "urban_expansion_a": area_answer("built_gain"),
    "drought_a": drought_a,
    "air_pollution_a": air_pollution_a,
}


# ---- B: class tables -------------------------------------------------------

FIXED_BINS = {
    "wildfire_b": ("dnbr", "mcd64a1__event", "mcd64_burn_footprint",
                   [("unburned", -np.inf, 0.10), ("low", 0.10, 0.27), ("moderate", 0.27, 0.44), ("high", 0.44, np.inf)]),
    "hazard_deforestation_b": ("ndvi_change", "hansen_loss__event", "hansen_loss_footprint",
                               [("none", -10, 0.15), ("minor", 0.15, 0.30), ("major", 0.30, 0.50), ("severe", 0.50, 10)]),
    "urban_expansion_b": ("ndbi_change", None, "whole_aoi",
                          [("contraction", -10, -0.02), ("stable", -0.02, 0.02), ("minor", 0.02, 0.18), ("major", 0.18, 10)]),
}
NORM_BINS = {
    "drought_b": ("chirps_spi__event", "drought_normalization.json"),
    "air_pollution_b": ("s5p_no2__peak", "normalization.json"),
}


def load_json(root, rel):
    with open(os.path.join(root, rel)) as f:
        return json.load(f)


def class_b(rec, root):
    qt = rec["question_type"]
    bounds = None
    if qt in FIXED_BINS:
        value, mask, scope, bins = FIXED_BINS[qt]
    else:
        value, norm = NORM_BINS[qt]
        mask, scope = None, "whole_aoi"
        nz = load_json(root, find(rec, "hazard_stack_1", norm))
        assert nz["fit_split"] == "train" and rec["sample_id"] not in nz["fit_aois"]
        s = nz["sources"][value]
        edges = [-1e30, s["q25"], s["q50"], s["q75"], 1e30]
        bins = [(s["classes"][k], edges[k], edges[k + 1]) for k in range(4)]
        bounds = [s["q25"], s["q50"], s["q75"]]
    a, nodata, transform, crs = read_band(root, find(rec, "hazard_stack_1", value + ".tif"))
    scope_mask = valid_of(a, nodata)
    ev = {}
    if mask:
        m, _, mt, _ = binary_mask(root, find(rec, "hazard_stack_1", mask + ".tif"))
        assert mt == transform
        ev["mask_pixel_count"] = int(m.sum())
        scope_mask &= m
    else:
        ev["valid_pixel_count"] = int(scope_mask.sum())
    areas = cell_area_grid(transform, *a.shape)
    total = int(scope_mask.sum())
    by, counts = {}, []
    covered = np.zeros_like(scope_mask)
    for label, lo, hi in bins:
        sel = scope_mask & (a >= lo) & (a < hi)  # float32 array vs Python float: compared in float32
        covered |= sel
        n = int(sel.sum())
        counts.append(n)
        by[label] = {"area_ha": round(float(areas[sel].sum()) / 10000.0, 3), "pixel_count": n,
                     "mean_value": round(float(a[sel].mean()), 6) if n else None}
    assert (covered == scope_mask).all() and sum(counts) == total
    dom = bins[int(np.argmax(counts))][0]  # argmax: first maximum in declared order
    ev.update({"dominant_class": dom, "by_class": by, "analysis_scope": scope})
    if bounds is not None:
        ev["boundaries"] = bounds
        ev["normalization_fit_split"] = "train"
    return {"status": "TASK_COMPLETE", "answer": {"class": dom, "dominant_fraction": round(max(counts) / total, 6)},
            "evidence": ev}


for _qt in list(FIXED_BINS) + list(NORM_BINS):
    ANSWERS[_qt] = class_b
