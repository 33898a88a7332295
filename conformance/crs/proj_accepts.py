#!/usr/bin/env python3
"""Does PROJ read the engine's descriptions of user-defined CRSs back as
the same CRS? Reads JSON lines {"def": PROJ string, "wkt": ..., "projjson":
..., "ignore_axis_order": bool, "also": [other definitions]} on stdin and
prints one line per input:

  {"def": ..., "wkt_ok": bool, "projjson_ok": bool, "error": "..."}

where *_ok means PROJ parsed the text and the result is equivalent
(pyproj CRS.equals) to PROJ's own CRS for the definition or one of the
"also" definitions (the axis order
of a geographic CRS ignored if asked: GDAL reads a GeoTIFF's latitude
first, PROJ strings are longitude first). Used by
crs/wkt_test.go.
"""
import json
import sys

from pyproj import CRS


def check(refs, text, loader, ignore_axis_order=False):
    try:
        ours = loader(text)
    except Exception as exc:  # PROJ refused it
        return False, str(exc)
    if any(ours.equals(ref, ignore_axis_order=ignore_axis_order) for ref in refs):
        return True, ""
    return False, "not equivalent: " + ours.to_proj4() if ours.to_proj4() else "not equivalent"


def main():
    for line in sys.stdin:
        item = json.loads(line)
        out = {"def": item["def"]}
        try:
            refs = [CRS.from_user_input(d) for d in [item["def"]] + item.get("also", [])]
        except Exception as exc:
            out["error"] = "PROJ cannot read the definition: %s" % exc
            print(json.dumps(out))
            continue
        ign = bool(item.get("ignore_axis_order"))
        out["wkt_ok"], e1 = check(refs, item["wkt"], CRS.from_wkt, ign)
        out["projjson_ok"], e2 = check(refs, item["projjson"], CRS.from_json, ign)
        out["error"] = "; ".join(e for e in (e1, e2) if e)
        print(json.dumps(out))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
