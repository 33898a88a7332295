"""Oracle answers of the deforestation family (types 1-8)."""
import numpy as np

from common import find, read_band


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
    "baseline_canopy_assessment": baseline_canopy_assessment,
}
