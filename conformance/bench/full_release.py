#!/usr/bin/python3
"""Times the full release replay, the whole process, and checks the bar.

Runs `geodisaster replay --input CORPUS/records.jsonl --workers W` --runs
times in fresh processes (with --baseline, alternating with a second
binary, so both see the same machine) and reports per binary the process
wall seconds (start to exit, reports included), the replay's own wall
(report `wall_seconds`: first to last record), the time outside it
(the difference: process start, reading the records, writing reports), user+system CPU and the process's peak RSS
(wait4), with the best and median run; it checks every record correct and
prints whether the best run meets the bar (--max-seconds, --max-rss-mb).
With --baseline it prints the ratio baseline / binary of the best and
median process walls.

    go build -o /tmp/geodisaster ./cmd/geodisaster
    /tmp/geodisaster synth --full --out /tmp/full
    /usr/bin/python3 conformance/bench/full_release.py --bin /tmp/geodisaster --corpus /tmp/full \\
        --runs 3 [--baseline /tmp/geodisaster-main]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(binary, corpus, workers, out):
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, "replay", "--input", os.path.join(corpus, "records.jsonl"), "--dataset-root", corpus,
                          "--workers", str(workers), "--output-dir", out, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    stdout = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    rep = json.loads(stdout)
    bad = [f for f, v in rep["by_family"].items() if v["correct"] != v["records"]]
    return {"exit": p.returncode, "process_s": wall, "replay_s": rep["wall_seconds"], "outside_replay_s": wall - rep["wall_seconds"],
            "cpu_s": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024, "records": rep["records"],
            "all_correct": not bad and p.returncode == 0, "record_seconds_by_family": rep.get("record_seconds_by_family")}


def summary(name, runs, max_s, max_rss):
    best = min(runs, key=lambda r: r["process_s"])
    med = statistics.median(r["process_s"] for r in runs)
    ok = best["all_correct"] and best["process_s"] <= max_s and max(r["rss_mb"] for r in runs) <= max_rss
    print("%s: %d records, process wall best %.2f s median %.2f s (replay %.2f s, outside it: start, input, reports %.2f s), "
          "cpu %.2f s, peak RSS %.0f MB, all correct %s -> %s (bar: <= %.1f s, <= %.0f MB)" % (
              name, best["records"], best["process_s"], med, best["replay_s"], best["outside_replay_s"], best["cpu_s"],
              max(r["rss_mb"] for r in runs), all(r["all_correct"] for r in runs), "MEETS" if ok else "MISSES", max_s, max_rss))
    return best["process_s"], med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True, help="a synth --full corpus")
    ap.add_argument("--baseline", help="a second binary, run alternately")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--max-seconds", type=float, default=8.0)
    ap.add_argument("--max-rss-mb", type=float, default=300.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    bins = [("bin", a.bin)] + ([("baseline", a.baseline)] if a.baseline else [])
    runs = {name: [] for name, _ in bins}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.runs):
            for name, b in bins:
                r = run_once(b, a.corpus, a.workers, os.path.join(tmp, name))
                runs[name].append(r)
                print("run %d %s: process %.2f s, replay %.2f s, cpu %.2f s, rss %.0f MB, correct %s" % (
                    i + 1, name, r["process_s"], r["replay_s"], r["cpu_s"], r["rss_mb"], r["all_correct"]), file=sys.stderr)
    if a.json:
        json.dump({"machine_cores": os.cpu_count(), "load": os.getloadavg(), "runs": runs}, sys.stdout, indent=1)
        print()
        return
    print("machine: %d cores, load %.2f %.2f %.2f" % ((os.cpu_count(),) + os.getloadavg()))
    res = {name: summary(name, runs[name], a.max_seconds, a.max_rss_mb) for name, _ in bins}
    if a.baseline:
        print("ratio baseline / bin: best %.2fx, median %.2fx" % (res["baseline"][0] / res["bin"][0], res["baseline"][1] / res["bin"][1]))


if __name__ == "__main__":
    main()
