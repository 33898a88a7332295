"""Oracle answers of the multi-hazard family (types 9-28)."""
import numpy as np

from common import cell_area_grid, find, read_band


def binary_mask(root, rel):
    a, nodata, transform, crs = read_band(root, rel)
    a = a.astype(np.float64)
    valid = np.isfinite(a)
    if nodata is not None and not np.isnan(nodata):
        valid &= a != nodata
    assert valid.any()
    assert np.isin(a[valid], [0, 1]).all()
    return (a == 1) & valid, transform, crs


def wildfire_a(rec, root):
    sel, transform, crs = binary_mask(root, find(rec, "hazard_stack_1", "mcd64a1__event.tif"))
    assert crs.to_epsg() == 4326
    areas = cell_area_grid(transform, *sel.shape)
    ha = round(float(areas[sel].sum()) / 10000.0, 3)
    return {"status": "TASK_COMPLETE", "answer": {"value": ha, "units": "ha"},
            "evidence": {"primary_area_ha": ha, "primary_handle": "mcd64a1__event"}}


ANSWERS = {
    "wildfire_a": wildfire_a,
}
