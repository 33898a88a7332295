#!/usr/bin/python3
"""Times sen1_flood_e through the command line against the Python chain,
side by side, rounds interleaved, and prints the ratio in one run.

Each round runs, for every chosen record (the real chip by default; its
held-out variants with --all-variants):
  - the Python chain (conformance/oracle/bench_sen1flood.py's chain():
    rasterio, scikit-image, SciPy, Shapely, Pillow; one process, one
    thread) --runs times in this process: median wall and CPU per chip;
  - `geodisaster replay --workers 1` of a records file holding --copies
    copies of the record (ids suffixed __copyNN), in a fresh process:
    wall and CPU (user + system) of the whole process, process start,
    record reading, read gate, hashing, artifacts, scoring and report
    writing included, divided by --copies.
The ratio of a round is Python's median chip / Go's per-record process
time; the report gives each round's ratio and their median (paired: both
sides of a round run seconds apart). The Python side is timed inside its
interpreter (no import time), so the ratio favours Python.

    GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./conformance/ -run TestSen1FloodRealChip
    go build -o /tmp/geodisaster ./cmd/geodisaster
    /usr/bin/python3 conformance/bench/sen1flood_cli_vs_python.py --bin /tmp/geodisaster \\
        --corpus /tmp/c_sen1_real --rounds 5 [--all-variants]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "conformance", "oracle"))

import bench_sen1flood  # noqa: E402  (the Python chain)
from sen1flood_vs_python import python_round  # noqa: E402  (median chain of a round)


def go_round(binary, corpus, records, copies, tmp):
    out = os.path.join(tmp, "replay")
    shutil.rmtree(out, ignore_errors=True)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([binary, "replay", "--input", records, "--dataset-root", corpus, "--workers", "1",
                        "--output-dir", out, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("geodisaster replay failed (%d): %s" % (p.returncode, p.stderr.decode()[-2000:]))
    rep = json.loads(p.stdout)
    fam = rep["by_family"]["sen1_flood"]
    if fam["records"] != copies or fam["correct"] != copies:
        sys.exit("replay: %d of %d records correct" % (fam["correct"], fam["records"]))
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return 1000 * wall / copies, 1000 * cpu / copies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the geodisaster binary")
    ap.add_argument("--corpus", required=True, help="the real-chip corpus (TestSen1FloodRealChip's GEODISASTER_SEN1_REAL_OUT)")
    ap.add_argument("--record", default="sen1_flood_e__Spain_7370579")
    ap.add_argument("--all-variants", action="store_true", help="every sen1_flood_e record of the corpus (the chip and its held-out variants)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=20, help="Python chains per round")
    ap.add_argument("--copies", type=int, default=40, help="copies of the record in each Go process")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    recs = []
    with open(os.path.join(a.corpus, "records.jsonl")) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if r["id"] == a.record or (a.all_variants and r.get("question_type") == "sen1_flood_e"):
                    recs.append(r)
    if not recs:
        sys.exit("no record %s in %s" % (a.record, a.corpus))
    result = {"rounds": a.rounds, "python_runs": a.runs, "copies": a.copies, "records": []}
    with tempfile.TemporaryDirectory() as tmp:
        pyout = os.path.join(tmp, "py")
        os.mkdir(pyout)
        for rec in recs:
            s1 = os.path.join(a.corpus, rec["handles"]["s1_image_1"]["files"][0]["path"])
            jrc = os.path.join(a.corpus, rec["handles"]["jrc_water_1"]["files"][0]["path"])
            records = os.path.join(tmp, "records.jsonl")
            with open(records, "w") as f:
                for k in range(a.copies):
                    c = dict(rec)
                    c["id"] = "%s__copy%02d" % (rec["id"], k)
                    f.write(json.dumps(c) + "\n")
            bench_sen1flood.chain(s1, jrc, pyout)  # warm-up (imports, caches)
            py, go = [], []
            for i in range(a.rounds):
                py.append(python_round(s1, jrc, pyout, a.runs))
                go.append(go_round(a.bin, a.corpus, records, a.copies, tmp))
                print("%s round %d: python %.1f ms wall %.1f ms cpu; go CLI %.2f ms wall %.2f ms cpu per record" % (
                    rec["id"], i + 1, py[-1][0], py[-1][1], go[-1][0], go[-1][1]), file=sys.stderr)
            ratios = [p[0] / g[0] for p, g in zip(py, go)]
            cpu_ratios = [p[1] / g[1] for p, g in zip(py, go)]
            result["records"].append({
                "record": rec["id"],
                "python_ms": {"wall": statistics.median(p[0] for p in py), "cpu": statistics.median(p[1] for p in py)},
                "go_cli_ms_per_record": {"wall": statistics.median(g[0] for g in go), "cpu": statistics.median(g[1] for g in go)},
                "round_ratios_wall": ratios, "ratio_wall": statistics.median(ratios),
                "ratio_cpu": statistics.median(cpu_ratios)})
    if a.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    for r in result["records"]:
        print("%s: python %.1f ms wall (%.1f cpu) per chip; go replay --workers 1 %.2f ms wall (%.2f cpu) per record, "
              "process included -> %.1fx wall (rounds %s, min %.1fx), %.1fx cpu" % (
                  r["record"], r["python_ms"]["wall"], r["python_ms"]["cpu"], r["go_cli_ms_per_record"]["wall"],
                  r["go_cli_ms_per_record"]["cpu"], r["ratio_wall"], " ".join("%.1f" % x for x in r["round_ratios_wall"]),
                  min(r["round_ratios_wall"]), r["ratio_cpu"]))


if __name__ == "__main__":
    main()
