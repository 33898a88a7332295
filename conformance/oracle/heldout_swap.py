#!/usr/bin/python3
"""Held-out check: swap a synthetic corpus's input rasters for other
(real-derived) rasters, update file-card and sidecar checksums, recompute the
gold answers with the native-stack oracle, then replay with the Go engine.

    go build -o /tmp/geodisaster ./cmd/geodisaster
    /tmp/geodisaster synth --out /tmp/ho --types baseline_canopy_assessment,wildfire_a --per-type 4 --seed 11
    /usr/bin/python3 conformance/oracle/heldout_swap.py --corpus /tmp/ho \
        --swap baseline_canopy_assessment=forest_mask_1:0:/tmp/tc.tif,/tmp/tc_f32.tif \
        --swap wildfire_a=hazard_stack_1:1:/tmp/fire.tif
    /tmp/geodisaster replay --input /tmp/ho/records.jsonl --output-dir /tmp/ho_out

Each --swap is TYPE=HANDLE:FILE_INDEX:RASTER[,RASTER...]; records of TYPE take
the rasters in turn. A JSON sidecar next to a swapped raster (same stem) gets
its "sha256" updated and its "shape" dropped, as the file card's checksum.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--swap", action="append", required=True)
    args = ap.parse_args()
    swaps = {}
    for s in args.swap:
        t, rest = s.split("=", 1)
        handle, idx, rasters = rest.split(":", 2)
        swaps[t] = (handle, int(idx), rasters.split(","))
    path = os.path.join(args.corpus, "records.jsonl")
    recs = [json.loads(l) for l in open(path) if l.strip()]
    seen = {}
    for r in recs:
        t = r["question_type"]
        if t not in swaps:
            continue
        handle, idx, rasters = swaps[t]
        i = seen.get(t, 0)
        seen[t] = i + 1
        src = rasters[i % len(rasters)]
        files = r["handles"][handle]["files"]
        card = files[idx]
        shutil.copy(src, os.path.join(args.corpus, card["path"]))
        card["sha256"] = sha(src)
        stem = os.path.splitext(card["path"])[0]
        for side in files:
            if side["path"] == stem + ".json":
                p = os.path.join(args.corpus, side["path"])
                d = json.load(open(p))
                d["sha256"] = card["sha256"]
                d.pop("shape", None)
                open(p, "w").write(json.dumps(d))
                side["sha256"] = sha(p)
    families = sorted({r["family"] for r in recs if r["question_type"] in swaps})
    answers = {}
    open(path, "w").write("".join(json.dumps(r) + "\n" for r in recs))
    for fam in families:
        out = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "oracle.py"), "--corpus", args.corpus, "--family", fam],
                             stdout=subprocess.PIPE, check=True)
        answers.update(json.loads(out.stdout)["answers"])
    for r in recs:
        if r["id"] in answers:
            r["answer"] = answers[r["id"]]
    open(path, "w").write("".join(json.dumps(r) + "\n" for r in recs))
    print("swapped %d records; gold recomputed by the oracle for %s" % (sum(seen.values()), ", ".join(families)), file=sys.stderr)


if __name__ == "__main__":
    main()
