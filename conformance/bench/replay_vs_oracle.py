#!/usr/bin/python3
"""Times the Go replay and the native-stack oracle on the same records.

For each family: the Go engine replays the family's records (GT chains,
projection, scoring: `geodisaster replay --family F --workers W`), and the
Python oracle recomputes the same answers from the same files
(`oracle.py --family F`, single process). Both run in this one invocation on
the same corpus; the ratio is oracle seconds / Go seconds (above 1: Go is
faster). Both wall-clock and CPU (user + system of the child process)
seconds are reported: the oracle is one single-threaded Python process, the
replay uses --workers records in parallel, so the CPU ratio is the
like-for-like one. The oracle does less than the replay (no sessions, gate,
schemas, traces, artifacts or scoring), so the ratios understate the
engine's advantage; the oracle's interpreter and library import time
(about a second) is included, as a Go process's start is.

    go build -o /tmp/geodisaster ./cmd/geodisaster
    /tmp/geodisaster synth --out /tmp/bench_corpus --per-type 10 --seed 5
    /usr/bin/python3 conformance/bench/replay_vs_oracle.py --bin /tmp/geodisaster \
        --corpus /tmp/bench_corpus --workers 2

With --per-type N the script times a stratified sample instead: the first N
records (by id) of every question type in the corpus, written to a temporary
records file that both sides read (the corpus stays the dataset root). On
the full-size release (`geodisaster synth --full`) this compares realistic
input sizes without a two-hour oracle run:

    /usr/bin/python3 conformance/bench/replay_vs_oracle.py --bin /tmp/geodisaster \
        --corpus /tmp/full --per-type 10 --workers 2 [--baseline /tmp/geodisaster-main]

With --baseline, a second binary replays the same records right after
--bin, family by family, and its oracle/CPU and baseline/bin CPU ratios
are printed too: a before/after comparison from the same run.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle", "oracle.py")
FAMILIES = ["deforestation", "multi_hazard", "xbd", "routing", "sen1_flood"]


def timed(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds, CompletedProcess)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return dt, cpu, p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--baseline", help="a second geodisaster binary timed in the same run (e.g. main's): its CPU ratio to --bin is printed too")
    ap.add_argument("--per-type", type=int, default=0,
                    help="time a stratified sample: the first N records (by id) of each type")
    args = ap.parse_args()
    records = os.path.join(args.corpus, "records.jsonl")
    sample_dir = None
    if args.per_type > 0:
        sample_dir = tempfile.mkdtemp(prefix="bench_sample_")
        records = stratified_sample(records, args.per_type, os.path.join(sample_dir, "records.jsonl"))
    try:
        run(args, records)
    finally:
        if sample_dir:
            shutil.rmtree(sample_dir, ignore_errors=True)


def stratified_sample(src, per_type, dst):
    """Writes the first per_type records (by id) of each type in src to dst."""
    by_type = {}
    with open(src) as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                by_type.setdefault(rec["question_type"], []).append((rec["id"], line if line.endswith("\n") else line + "\n"))
    with open(dst, "w") as f:
        for t in sorted(by_type):
            for _, line in sorted(by_type[t])[:per_type]:
                f.write(line)
    return dst


def go_replay(binary, args, records, fam):
    """Replays fam's records with binary; returns (wall, CPU, record count)."""
    out = tempfile.mkdtemp(prefix="bench_replay_")
    try:
        dt, cpu, p = timed([binary, "replay", "--input", records, "--dataset-root", args.corpus,
                            "--family", fam, "--workers", str(args.workers), "--output-dir", out, "--json"])
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if p.returncode != 0:
        sys.exit("go replay (%s) failed for %s: %s" % (binary, fam, p.stderr.decode()[-2000:]))
    rep = json.loads(p.stdout)
    n = rep["by_family"][fam]["records"]
    assert rep["by_family"][fam]["correct"] == n, "replay not all correct"
    return dt, cpu, n


def run(args, records):
    rows = []
    for fam in FAMILIES:
        go_best = py_best = go_cpu = py_cpu = base_best = base_cpu = None
        n = None
        for _ in range(args.repeat):
            dt, cpu, n = go_replay(args.bin, args, records, fam)
            go_best = dt if go_best is None else min(go_best, dt)
            go_cpu = cpu if go_cpu is None else min(go_cpu, cpu)
            if args.baseline:
                dt, cpu, _ = go_replay(args.baseline, args, records, fam)
                base_best = dt if base_best is None else min(base_best, dt)
                base_cpu = cpu if base_cpu is None else min(base_cpu, cpu)
            dt, cpu, p = timed(["/usr/bin/python3", ORACLE, "--corpus", args.corpus, "--records", records,
                                "--family", fam])
            if p.returncode != 0:
                sys.exit("oracle failed for %s: %s" % (fam, p.stderr.decode()[-2000:]))
            py_best = dt if py_best is None else min(py_best, dt)
            py_cpu = cpu if py_cpu is None else min(py_cpu, cpu)
        rows.append((fam, n, go_best, py_best, go_cpu, py_cpu, base_best, base_cpu))
    print("machine: %d cores, load %.2f %.2f %.2f (ratios are from this one run)" % ((os.cpu_count(),) + os.getloadavg()))
    hdr = "%-14s %8s %8s %10s %8s %8s %10s %9s" % ("family", "records", "go_s", "oracle_s", "ratio", "go_cpu", "oracle_cpu", "cpu_ratio")
    if args.baseline:
        hdr += " %9s %10s %14s" % ("base_cpu", "base_ratio", "base/go_cpu")
    print(hdr)
    for fam, n, g, py, gc, pc, bg, bc in rows:
        line = "%-14s %8d %8.3f %10.3f %8.2f %8.3f %10.3f %9.2f" % (fam, n, g, py, py / g, gc, pc, pc / gc)
        if args.baseline:
            line += " %9.3f %10.2f %14.2f" % (bc, pc / bc, bc / gc)
        print(line)
    print(json.dumps({"workers": args.workers, "families": [
        dict({"family": f, "records": n, "go_seconds": g, "oracle_seconds": py, "ratio": py / g,
              "go_cpu_seconds": gc, "oracle_cpu_seconds": pc, "cpu_ratio": pc / gc},
             **({"baseline_cpu_seconds": bc, "baseline_cpu_ratio": pc / bc} if args.baseline else {}))
        for f, n, g, py, gc, pc, bg, bc in rows]}))


if __name__ == "__main__":
    main()
