#!/usr/bin/python3
"""Times the Go replay and the native-stack oracle on the same records.

For each family: the Go engine replays the family's records (GT chains,
projection, scoring: `geodisaster replay --family F --workers W`), and the
Python oracle recomputes the same answers from the same files
(`oracle.py --family F`, single process). Both run in this one invocation on
the same corpus; the ratio is oracle seconds / Go seconds (above 1: Go is
faster). The oracle does less than the replay (no sessions, gate, schemas or
scoring), so the ratio understates the engine's advantage.

    go build -o /tmp/geodisaster ./cmd/geodisaster
    /tmp/geodisaster synth --out /tmp/bench_corpus --per-type 10 --seed 5
    /usr/bin/python3 conformance/bench/replay_vs_oracle.py --bin /tmp/geodisaster \
        --corpus /tmp/bench_corpus --workers 2
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle", "oracle.py")
FAMILIES = ["deforestation", "multi_hazard", "xbd", "routing", "sen1_flood"]


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    return dt, p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    rows = []
    for fam in FAMILIES:
        go_best = py_best = None
        n = None
        for _ in range(args.repeat):
            out = tempfile.mkdtemp(prefix="bench_replay_")
            dt, p = timed([args.bin, "replay", "--input", os.path.join(args.corpus, "records.jsonl"),
                           "--family", fam, "--workers", str(args.workers), "--output-dir", out, "--json"])
            if p.returncode != 0:
                sys.exit("go replay failed for %s: %s" % (fam, p.stderr.decode()[-2000:]))
            rep = json.loads(p.stdout)
            n = rep["by_family"][fam]["records"]
            assert rep["by_family"][fam]["correct"] == n, "replay not all correct"
            go_best = dt if go_best is None else min(go_best, dt)
            dt, p = timed(["/usr/bin/python3", ORACLE, "--corpus", args.corpus, "--family", fam])
            if p.returncode != 0:
                sys.exit("oracle failed for %s: %s" % (fam, p.stderr.decode()[-2000:]))
            py_best = dt if py_best is None else min(py_best, dt)
        rows.append((fam, n, go_best, py_best))
    print("%-14s %8s %10s %12s %8s" % ("family", "records", "go_s", "oracle_s", "ratio"))
    for fam, n, g, py in rows:
        print("%-14s %8d %10.3f %12.3f %8.2f" % (fam, n, g, py, py / g))
    print(json.dumps({"workers": args.workers, "families": [
        {"family": f, "records": n, "go_seconds": g, "oracle_seconds": py, "ratio": py / g} for f, n, g, py in rows]}))


if __name__ == "__main__":
    main()
