#!/usr/bin/python3
"""Native-stack oracle for the synthetic corpus.

Recomputes the final answers of a corpus independently of the Go engine, with
Debian's rasterio/NumPy/SciPy/scikit-image/pyproj/shapely, and writes them as
goldens that `go test ./conformance/` compares the Go replay against. CI does
not need Python: the goldens are committed.

    go run ./cmd/geodisaster synth --out /tmp/c --types TYPES --seed 1
    /usr/bin/python3 conformance/oracle/oracle.py --corpus /tmp/c --family FAMILY \
        > conformance/goldens/oracle_FAMILY.json

User-shaped corpora (synth's UserShaped option: OSM lines and polygons,
xBD labels as a FeatureCollection, routing chips in EPSG:4326) are written
by the Go test and answered with --user-shaped:

    GEODISASTER_USERSHAPED_OUT=/tmp/us go test ./conformance/ -run TestReplayMatchesNativeOracle
    /usr/bin/python3 conformance/oracle/oracle.py --corpus /tmp/us/FAMILY --family FAMILY --user-shaped \
        > conformance/goldens/oracle_usershaped_FAMILY.json

Each family's module (oracle_<family>.py) exports ANSWERS: a dict mapping a
question type to a function (record, root) -> answer. A record whose type has
no oracle function is an error, so goldens never silently skip a type.
"""
import argparse
import hashlib
import importlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MODULES = {
    "deforestation": "oracle_deforestation",
    "multi_hazard": "oracle_multihazard",
    "xbd": "oracle_xbd",
    "routing": "oracle_routing",
    "sen1_flood": "oracle_sen1flood",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True, help="directory with records.jsonl (also the dataset root)")
    ap.add_argument("--family", required=True, choices=sorted(MODULES))
    ap.add_argument("--records", help="records JSONL to answer (default: CORPUS/records.jsonl)")
    ap.add_argument("--user-shaped", action="store_true",
                    help="record that the corpus was generated with synth's UserShaped option")
    args = ap.parse_args()
    path = args.records or os.path.join(args.corpus, "records.jsonl")
    raw = open(path, "rb").read()
    mod = importlib.import_module(MODULES[args.family])
    answers, types = {}, set()
    for line in raw.decode().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec["family"] != args.family:
            continue
        fn = mod.ANSWERS.get(rec["question_type"])
        if fn is None:
            sys.exit("oracle: no oracle for question type %s" % rec["question_type"])
        answers[rec["id"]] = fn(rec, args.corpus)
        types.add(rec["question_type"])
    if not answers:
        sys.exit("oracle: no %s record in %s" % (args.family, path))
    import numpy, rasterio
    out = {
        "generator": "conformance/oracle/oracle.py",
        "stack": {"numpy": numpy.__version__, "rasterio": rasterio.__version__, "gdal": rasterio.__gdal_version__},
        "family": args.family,
        "types": sorted(types),
        "records_sha256": hashlib.sha256(raw).hexdigest(),
        "answers": answers,
    }
    if args.user_shaped:
        out["user_shaped"] = True
    json.dump(out, sys.stdout, indent=1, sort_keys=True, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
