"""Oracle answers of the multi-hazard family (types 9-28).

Independent of the Go engine: rasterio reads the written GeoTIFFs, NumPy does
the statistics in the dtype the reference would (float32 arrays stay
float32), pyproj's azimuthal equidistant projection measures distances.
"""
import csv
import json
import os

import numpy as np
from shapely.geometry import shape

from common import cell_area_grid, find, masked_area_m2, read_band, same_grid


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
        ha = round(masked_area_m2(sel, transform, crs) / 10000.0, 3)
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


# ---- C: multi-source agreement ----------------------------------------------

PAIRS = [(0, 1), (0, 2), (1, 2)]


def support_stats(a, av, b, bv):
    common = av & bv
    n = int(common.sum())
    assert n > 0
    a, b = a & common, b & common
    n11 = int((a & b).sum())
    union = int((a | b).sum())
    n00 = n - union
    iou = 1.0 if union == 0 else n11 / union
    po = (n11 + n00) / n
    pa, pb = int(a.sum()) / n, int(b.sum()) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    kappa = None if pe == 1 else round((po - pe) / (1 - pe), 6)
    return round(iou, 6), round(po, 6), kappa


AREA_C = {
    "wildfire_c": (["mcd64a1__event", "s2_burn_support", "nifc_perimeter__event"], [1, 1, 1], 20.0),
    "hazard_deforestation_c": (["hansen_loss__event", "tmf_loss__event", "radd_alerts__event"], [1, 1, 2], 25.0),
    "urban_expansion_c": (["built_gain", "ghsl_built_gain", "worldcover_built_gain"], [1, 1, 1], 30.0),
}


def area_c(rec, root):
    srcs, codes, limit = AREA_C[rec["question_type"]]
    masks = [binary_mask(root, find(rec, "agreement_sources_1", s + ".tif"), c) for s, c in zip(srcs, codes)]
    t0 = masks[0][2]
    assert all(m[2] == t0 and m[0].shape == masks[0][0].shape and m[3] == masks[0][3] for m in masks)
    areas = [area_ha(m[0], t0) for m in masks]
    pct, sup, ds = {}, {}, []
    for i, j in PAIRS:
        a, b = areas[i], areas[j]
        d = 0.0 if a == 0 and b == 0 else abs(a - b) / ((a + b) / 2) * 100
        ds.append(d)
        key = "%s__vs__%s" % (srcs[i], srcs[j])
        pct[key] = round(d, 3)
        iou, agr, kap = support_stats(masks[i][0], masks[i][1], masks[j][0], masks[j][1])
        sup[key] = {"iou": iou, "binary_state_agreement": agr, "cohen_kappa": kap}
    med = float(np.median(ds))
    return {"status": "TASK_COMPLETE",
            "answer": {"decision": "sources_agree" if med <= limit else "sources_disagree", "metric": "area_agreement",
                       "median_pct_delta": round(med, 3), "agreement_score_0_100": round(max(0.0, 100 - med), 3)},
            "evidence": {"maximum_median_pct_delta": limit, "score_contract": "max(0,100-median_pct_delta)",
                         "median_area_ha": round(float(np.median(areas)), 3),
                         "source_areas_ha": {s: round(a, 3) for s, a in zip(srcs, areas)},
                         "pairwise_pct_delta": pct, "spatial_support": sup}}


def drought_c(rec, root):
    srcs = ["chirps_spi__event", "modis_ndvi__event", "era5_soil_moisture__event"]
    nz = load_json(root, find(rec, "hazard_stack_1", "drought_normalization.json"))
    assert nz["fit_split"] == "train" and rec["sample_id"] not in nz["fit_aois"]
    sets, oks, thr, areas, t0 = [], [], {}, {}, None
    for s in srcs:
        a, nodata, transform, _ = read_band(root, find(rec, "agreement_sources_1", s + ".tif"))
        t0 = t0 or transform
        assert same_grid(t0, transform, a.shape[1], a.shape[0])
        assert not sets or a.shape == sets[0].shape
        ok = valid_of(a, nodata)
        q = nz["sources"][s]["q25"]
        m = ok & (a < q)
        sets.append(m)
        oks.append(ok)
        thr[s] = q
        areas[s] = round(area_ha(m, transform), 3)
    ious = {}
    vals = []
    for i, j in PAIRS:
        iou, _, _ = support_stats(sets[i], oks[i], sets[j], oks[j])
        ious["%s__vs__%s" % (srcs[i], srcs[j])] = iou
        vals.append(iou)
    med = float(np.median(vals))
    return {"status": "TASK_COMPLETE",
            "answer": {"decision": "sources_agree" if med >= 0.3 else "sources_disagree", "median_iou": med},
            "evidence": {"metric": "iou", "minimum_iou": 0.3, "threshold_contract": "per_source_train_pixel_q25_v1",
                         "normalization_fit_split": "train", "source_q25_thresholds": thr,
                         "source_mask_areas_ha": areas, "pairwise_iou": ious}}


def air_pollution_c(rec, root):
    srcs = ["s5p_no2__peak", "cams_no2__peak", "modis_aod__peak"]
    nz = load_json(root, find(rec, "hazard_stack_1", "normalization.json"))
    assert nz["fit_split"] == "train" and rec["sample_id"] not in nz["fit_aois"]
    out, states = {}, []
    for s in srcs:
        a, nodata, _, _ = read_band(root, find(rec, "agreement_sources_1", s + ".tif"))
        m = a[valid_of(a, nodata)].mean()
        tm = np.array(nz["sources"][s]["train_aoi_means"], dtype=np.float64)
        mu, sd = tm.mean(), tm.std()
        z = (float(m) - mu) / sd
        st = "below_training_typical" if z < -0.5 else ("above_training_typical" if z > 0.5 else "training_typical")
        states.append(st)
        out[s] = {"aoi_mean": round(float(m), 6), "training_mean": round(float(mu), 6), "training_std": round(float(sd), 6),
                  "z_score": round(float(z), 6), "state": st}
    best = max(states.count(x) for x in set(states))
    return {"status": "TASK_COMPLETE",
            "answer": {"decision": "sources_agree" if best / 3 >= 1.0 else "sources_disagree",
                       "agreement_fraction": round(best / 3, 6)},
            "evidence": {"criterion": "benchmark_relative_intensity_agreement", "required_agreement_fraction": 1.0,
                         "normalization_fit_split": "train", "sources": out}}


for _qt in AREA_C:
    ANSWERS[_qt] = area_c
ANSWERS["drought_c"] = drought_c
ANSWERS["air_pollution_c"] = air_pollution_c


# ---- D: exposure -------------------------------------------------------------

EXPOSURE_D = {
    # type: (footprint handle, categories, threshold provenance)
    "wildfire_d": ("mcd64a1__event", ["highway"], None),
    "hazard_deforestation_d": ("hansen_loss__event", ["highway"], None),
    "urban_expansion_d": ("built_gain", ["hospital", "school"], None),
    "drought_d": ("low_chirps_spi", ["school"], "train_only_chirps_spi_pixel_q25_v1"),
    "air_pollution_d": ("high_no2_column", ["hospital", "school"], "train_only_s5p_pixel_q75_v1"),
}


def exposure_d(rec, root):
    from pyproj import Transformer

    qt = rec["question_type"]
    handle, cats, prov = EXPOSURE_D[qt]
    fp, _, t, crs = binary_mask(root, find(rec, "hazard_stack_1", handle + ".tif"))
    assert crs.to_epsg() == 4326
    pop, pnd, pt, pcrs = read_band(root, find(rec, "exposure_context_1", "worldpop__2020.tif"))
    assert pop.shape == fp.shape and pcrs == crs and same_grid(t, pt, fp.shape[1], fp.shape[0])
    pok = valid_of(pop, pnd)
    assert (pop[pok] >= 0).all()
    population = round(float(pop[fp & pok].sum()), 3)
    h, w = fp.shape
    lon0, lat0 = t * (w / 2, h / 2)
    tr = Transformer.from_crs("EPSG:4326", "+proj=aeqd +lat_0=%r +lon_0=%r +datum=WGS84 +units=m +no_defs" % (lat0, lon0),
                              always_xy=True)
    rows, cols = np.nonzero(fp)
    clon, clat = t * (cols + 0.5, rows + 0.5)
    cx, cy = tr.transform(clon, clat)
    cx, cy = np.asarray(cx, dtype=np.float64), np.asarray(cy, dtype=np.float64)
    gj = load_json(root, find(rec, "exposure_context_1", "pois.geojson"))
    inv = ~t
    seen, per = set(), {c: [] for c in cats}
    for f in gj["features"]:
        if f["id"] in seen:
            continue
        seen.add(f["id"])
        c = f["properties"].get("category")
        if c in per:
            per[c].append(f)
    assets = {}
    for c in cats:
        n_in = n_within = 0
        best, best_name = None, None
        for f in per[c]:
            # Each authoritative geometry's representative point (spec type
            # 28): a Point itself, a line or polygon by Shapely.
            rp = shape(f["geometry"]).representative_point()
            lon, lat = rp.x, rp.y
            col, row = inv * (lon, lat)  # raster CRS is EPSG:4326: GeoJSON lon/lat map through the inverse affine
            col, row = int(np.floor(col)), int(np.floor(row))
            if 0 <= row < h and 0 <= col < w and fp[row, col]:
                n_in += 1
            if cx.size:
                px, py = tr.transform(lon, lat)
                d = float(np.sqrt((cx - px) ** 2 + (cy - py) ** 2).min())
                if d <= 5000.0:
                    n_within += 1
                if best is None or d < best:
                    best, best_name = d, f["properties"].get("name")
        assets[c] = {"feature_count": len(per[c]), "in_footprint_count": n_in, "within_5km_count": n_within,
                     "nearest_name": best_name, "nearest_distance_m": None if best is None else round(best, 3)}
    ev = {"footprint_handle": handle, "footprint_pixel_count": int(fp.sum()),
          "footprint_area_ha": round(area_ha(fp, t), 3), "population_in_footprint": population,
          "within_km": 5.0, "distance_method": "local_aeqd_positive_cell_centres", "assets": assets}
    if prov:
        side = load_json(root, find(rec, "hazard_stack_1", handle + ".json"))
        assert side["threshold_contract"] == prov
        ev["threshold_provenance"] = prov
    if qt == "wildfire_d":
        ans = {"value": assets["highway"]["within_5km_count"], "units": "osm_highway_features"}
    elif qt == "hazard_deforestation_d":
        a = assets["highway"]
        if a["feature_count"] == 0:
            ans = {"distance_m": None, "units": "m", "availability_status": "no_cached_highway_representative"}
        elif a["nearest_distance_m"] is None:
            ans = {"distance_m": None, "units": "m", "availability_status": "no_footprint_cell"}
        else:
            ans = {"distance_m": a["nearest_distance_m"], "units": "m", "availability_status": "measured"}
    elif qt == "drought_d":
        ans = {"value": assets["school"]["in_footprint_count"], "units": "osm_school_features"}
    else:
        ans = {"value": population, "units": "people"}
    return {"status": "TASK_COMPLETE", "answer": ans, "evidence": ev}


for _qt in EXPOSURE_D:
    ANSWERS[_qt] = exposure_d
