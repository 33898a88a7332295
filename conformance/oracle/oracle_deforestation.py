"""Oracle answers of the deforestation family (types 1-8).

Independent of the Go engine: rasterio reads the written GeoTIFFs and NumPy
computes as a NumPy reference would: bands are cast to float32, per-pixel
NDVI/NBR are float32, every per-file mean is ndarray.mean() of a float32
array reported as a Python float, and group means (np.mean over those
floats), differences, scores and threshold comparisons are float64. Areas sum WGS84 cell areas
(common.cell_area_grid) on geographic grids and count times |det| on
projected grids; hectares use Python's round(x, 6).
"""
import os

import numpy as np
import rasterio

from common import cell_area_grid, find, read_band

EPOCHS = ["pre_3", "pre_2", "pre_1", "post_1", "post_2", "post_3"]

R1 = "hansen_loss_area_ha>=0.5 and treecover2000_mean_pct>=50 -> deforestation"
R2 = "hansen_loss_area_ha>=0.5 and treecover2000_mean_pct<50 -> plantation_harvest"
R3 = "hansen_loss_area_ha<0.5 and ndvi_drop>0.25 and sar_vh_delta_db<-1.5 -> deforestation"
FLAG = "missing_hansen_confirmation"
R4 = "hansen_loss_area_ha<0.5 and sar_vv_post_mean_db<-16 -> water_flood_edge"
R5 = "hansen_loss_area_ha<0.5 and nbr_drop>0.20 and nbr_drop>ndvi_drop -> burn_bare_soil"
R6 = "hansen_loss_area_ha<0.5 and ndvi_drop>0.10 -> agriculture"
R7 = "otherwise -> no_change"


def cards(rec, handle):
    return rec["handles"][handle]["files"]


def event_year(rec, root):
    import json
    q = cards(rec, "question_1")[0]["path"]
    with open(os.path.join(root, q)) as f:
        return int(json.load(f)["parameters"]["event_year"])


def valid_mask(a, nodata):
    v = np.isfinite(a)
    if nodata is not None and not np.isnan(nodata):
        v &= a != nodata
    return v


def area_ha(mask, transform, crs):
    if crs.is_geographic:
        m2 = float(cell_area_grid(transform, *mask.shape)[mask].sum())
    else:
        m2 = float(np.count_nonzero(mask)) * abs(transform.a * transform.e - transform.b * transform.d)
    return round(m2 / 10000.0, 6)


def hansen_valid(a, nodata):
    return valid_mask(a, nodata) & (a != 255)


def event_loss(rec, root, handle, year):
    """Event-year loss mask and hectares, with the lossyear.tif fallback."""
    ann, nd, tr, crs = read_band(root, find(rec, handle, "loss_year_%d.tif" % year))
    ann = ann.astype(np.float32)
    v = hansen_valid(ann, nd)
    if v.any():
        mask = v & (ann > 0)
    else:
        ly, nd, tr, crs = read_band(root, find(rec, handle, "lossyear.tif"))
        ly = ly.astype(np.float32)
        lv = hansen_valid(ly, nd)
        assert lv.any()
        mask = lv & (ly == year - 2000)
    return mask, area_ha(mask, tr, crs)


def s2_epochs(rec, handle):
    out = {}
    for c in cards(rec, handle):
        if c["path"].endswith(".tif"):
            out[c.get("epoch") or os.path.basename(c["path"])[:-4]] = c
    return [(e, out[e]) for e in EPOCHS if e in out]


def epoch_means(root, card, region):
    names = card["band_names"]
    with rasterio.open(os.path.join(root, card["path"])) as ds:
        nodata = ds.nodata
        b = {n: ds.read(names.index(n) + 1).astype(np.float32) for n in ("B4", "B8", "B12")}
    ok = {n: valid_mask(x, nodata) for n, x in b.items()}

    def nd(x, y, vx, vy):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = (x - y) / (x + y)
        sel = vx & vy & np.isfinite(r)
        if region is not None:
            sel &= region
        vals = r[sel]
        return float(vals.mean()) if vals.size else float("nan")

    return nd(b["B8"], b["B4"], ok["B8"], ok["B4"]), nd(b["B8"], b["B12"], ok["B8"], ok["B12"])


def drops(rec, root, handle, region):
    if region is not None and not region.any():
        region = None
    pn, qn, pb, qb = [], [], [], []
    for e, c in s2_epochs(rec, handle):
        n, b = epoch_means(root, c, region)
        pre = e.startswith("pre")
        if np.isfinite(n):
            (pn if pre else qn).append(n)
        if np.isfinite(b):
            (pb if pre else qb).append(b)
    f = lambda xs: float(np.mean(xs))
    return f(pn) - f(qn), f(pb) - f(qb)


def sar(rec, root, handle):
    groups = {"pre": ([], []), "post": ([], [])}
    for c in cards(rec, handle):
        names = c["band_names"]
        with rasterio.open(os.path.join(root, c["path"])) as ds:
            nodata = ds.nodata
            vv = ds.read(names.index("VV") + 1).astype(np.float32)
            vh = ds.read(names.index("VH") + 1).astype(np.float32)
        g = groups[c["temporal_role"]]
        g[0].append(float(vh[valid_mask(vh, nodata)].mean()))
        g[1].append(float(vv[valid_mask(vv, nodata)].mean()))
    f = lambda xs: float(np.mean(xs))
    assert groups["pre"][0] and groups["post"][0]
    return f(groups["post"][0]) - f(groups["pre"][0]), f(groups["post"][1])


def canopy(rec, root, handle):
    a, nodata, _, _ = read_band(root, find(rec, handle, "treecover2000.tif"))
    a = a.astype(np.float32)
    v = hansen_valid(a, nodata)
    return a[v].mean()


def cause_of(ha, can, nd, nb, vh, vv):
    if ha >= 0.5 and can >= 50:
        return "deforestation", [R1]
    if ha >= 0.5:
        return "plantation_harvest", [R2]
    if nd > 0.25 and vh < -1.5:
        return "deforestation", [R3, FLAG]
    if vv < -16:
        return "water_flood_edge", [R4]
    if nb > 0.20 and nb > nd:
        return "burn_bare_soil", [R5]
    if nd > 0.10:
        return "agriculture", [R6]
    return "no_change", [R7]


def cause_inputs(rec, root):
    year = event_year(rec, root)
    mask, ha = event_loss(rec, root, "forest_mask_1", year)
    nd, nb = drops(rec, root, "optical_stack_1", mask)
    vh, vv = sar(rec, root, "sar_stack_1")
    can = canopy(rec, root, "forest_mask_1")
    cause, fired = cause_of(ha, can, nd, nb, vh, vv)
    return ha, can, nd, nb, vh, vv, cause, fired


def forest_loss_detection(rec, root):
    ha, _, nd, _, vh, _, cause, fired = cause_inputs(rec, root)
    pos = cause == "deforestation"
    fired = fired + ["cause=deforestation -> deforestation" if pos else "cause!=deforestation -> no_deforestation"]
    return {"label": "deforestation" if pos else "no_deforestation",
            "evidence": {"hansen_loss_area_ha": ha, "ndvi_drop": float(nd), "rules_fired": fired, "sar_vh_delta_db": float(vh)}}


def false_positive_rejection(rec, root):
    ha, can, nd, nb, vh, vv, cause, fired = cause_inputs(rec, root)
    return {"cause": cause, "evidence": {
        "hansen_loss_area_ha": ha, "nbr_drop": float(nb), "ndvi_drop": float(nd), "rules_fired": fired,
        "sar_vh_delta_db": float(vh), "sar_vv_post_mean_db": float(vv), "treecover2000_mean_pct": float(can)}}


def area_estimation(rec, root):
    mask, ha = event_loss(rec, root, "forest_mask_1", event_year(rec, root))
    nd, nb = drops(rec, root, "optical_stack_1", mask)
    return {"loss_area_ha": ha, "evidence": {"hansen_loss_area_ha": ha, "ndvi_drop": float(nd), "nbr_drop": float(nb)}}


def change_window_estimation(rec, root):
    year = event_year(rec, root)
    mask, ha = event_loss(rec, root, "forest_mask_1", year)
    nd, _ = drops(rec, root, "optical_timeseries_1", mask)
    vh, _ = sar(rec, root, "sar_timeseries_1")
    ev = {"hansen_loss_area_ha": ha, "ndvi_drop": float(nd), "sar_vh_delta_db": float(vh),
          "selected_window_ndvi_drop": None, "selected_window_nbr_drop": None, "composite_drop_score": None}
    if ha < 0.5:
        return {"label": "no_deforestation", "change_window": None, "evidence": ev}
    el = []
    for e, c in s2_epochs(rec, "optical_timeseries_1"):
        n, b = epoch_means(root, c, None)
        if np.isfinite(n) and np.isfinite(b):
            el.append((e, n, b))
    assert len(el) >= 2, "confirmed loss with fewer than two eligible epochs"
    best = None
    for (a, na, ba), (b, nb_, bb) in zip(el, el[1:]):
        dn, db = na - nb_, ba - bb
        score = dn + 0.5 * db
        if best is None or score > best[0]:
            best = (score, a, b, dn, db)
    score, a, b, dn, db = best
    ev.update(selected_window_ndvi_drop=float(dn), selected_window_nbr_drop=float(db), composite_drop_score=float(score))
    return {"label": "deforestation", "change_window": {"start_epoch": a, "end_epoch": b}, "evidence": ev}


def multi_year_loss_attribution(rec, root):
    a, nodata, tr, crs = read_band(root, find(rec, "forest_loss_history_1", "lossyear.tif"))
    a = a.astype(np.float32)
    v = hansen_valid(a, nodata)
    assert v.any(), "all-nodata loss-year raster"
    codes = a[v]
    assert ((codes >= 0) & (codes <= 25) & (codes == np.round(codes))).all()
    best = ("no_loss", 0.0)
    for c in range(1, 24):
        m = v & (a == c)
        if not m.any():
            continue
        ha = area_ha(m, tr, crs)
        if ha > best[1]:
            best = (2000 + c, ha)
    return {"year": best[0], "loss_ha": best[1]}


def cross_modal_concordance(rec, root):
    nd, nb = drops(rec, root, "optical_stack_1", None)
    vh, _ = sar(rec, root, "sar_stack_1")
    opt, s = nd > 0.10, vh < -1.0
    cls = "concordant" if opt and s else ("discordant" if opt or s else "no_change")
    return {"concordance": cls, "evidence": {"nbr_drop": float(nb), "ndvi_drop": float(nd), "vh_delta_db": float(vh)}}


def severity_proxy_numeric(rec, root):
    vh, _ = sar(rec, root, "sar_stack_1")
    d = float(vh)
    sev = "severe" if d < -3 else "moderate" if d < -1 else "mild" if d < 0 else "none"
    return {"vh_delta_db": d, "severity": sev}


def baseline_canopy_assessment(rec, root):
    a, nodata, _, _ = read_band(root, find(rec, "forest_mask_1", "treecover2000.tif"))
    a = a.astype(np.float32)
    valid = np.isfinite(a) & (a != 255)
    if nodata is not None and not np.isnan(nodata):
        valid &= a != nodata
    v = a[valid]
    assert v.size > 0 and ((v >= 0) & (v <= 100)).all()
    mean = v.mean()
    cls = "dense_forest" if mean > 60 else ("open_canopy" if mean >= 30 else "sparse")
    return {"baseline_class": cls, "treecover2000_mean_pct": float(mean)}


ANSWERS = {
    "forest_loss_detection": forest_loss_detection,
    "area_estimation": area_estimation,
    "change_window_estimation": change_window_estimation,
    "false_positive_rejection": false_positive_rejection,
    "baseline_canopy_assessment": baseline_canopy_assessment,
    "multi_year_loss_attribution": multi_year_loss_attribution,
    "cross_modal_concordance": cross_modal_concordance,
    "severity_proxy_numeric": severity_proxy_numeric,
}
