#!/usr/bin/env python3
"""PROJ's descriptions of EPSG CRSs: WKT2:2019 (multi-line, as projinfo
prints it) and PROJJSON, one JSON object per code on stdout:

  {"code": 4326, "wkt": "GEOGCRS[...]", "projjson": {...}}

crs/wkt_test.go compares crs.WKT2 and crs.PROJJSON with them.

Usage: /usr/bin/python3 conformance/crs/describe.py [--all | --sample N
       [--seed S] | --codes C1,C2,...]
"""
import argparse
import json
import random
import sqlite3

import pyproj


def all_codes():
    db = sqlite3.connect(pyproj.datadir.get_data_dir() + "/proj.db")
    rows = db.execute(
        "SELECT code FROM projected_crs WHERE auth_name='EPSG' UNION "
        "SELECT code FROM geodetic_crs WHERE auth_name='EPSG' AND type='geographic 2D'").fetchall()
    return sorted(int(c) for (c,) in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--codes", default="")
    args = ap.parse_args()
    if args.codes:
        codes = [int(c) for c in args.codes.split(",")]
    else:
        codes = all_codes()
        if not args.all:
            codes = sorted(random.Random(args.seed).sample(codes, min(args.sample or 200, len(codes))))
    for code in codes:
        try:
            crs = pyproj.CRS.from_epsg(code)
            out = {"code": code, "wkt": crs.to_wkt("WKT2_2019", pretty=True), "projjson": crs.to_json_dict()}
        except Exception as exc:
            out = {"code": code, "error": str(exc)}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
