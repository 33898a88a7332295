#!/usr/bin/python3
"""Times the sen1_flood_e chain on the real chip with the Go engine and with
the Python reference stack side by side, in one run, rounds interleaved.

Each round runs the Python chain (conformance/oracle/bench_sen1flood.py's
chain(): rasterio, scikit-image, SciPy, Shapely, Pillow; one process, one
thread) --runs times in this process, then the Go benchmark
BenchmarkSen1FloodTypeE (one record at a time through the whole runtime:
read gate, SHA-256 of every read and artifact, schemas, scoring) for
--go-runs iterations in a test binary built once. Wall time is the median
chain on both sides (the Go benchmark also reports its mean, which includes
the process's warm-up). CPU time is Python's median chain and Go's mean
per chain (user+system over all its threads; getrusage has no per-chain
split across threads). The report gives per-round medians and
the ratios Python / Go: of the medians over all rounds, and the median
of each round's own ratio (paired: the two sides of a round run seconds apart,
on a machine at about the same speed).

    GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./conformance/ -run TestSen1FloodRealChip
    /usr/bin/python3 conformance/bench/sen1flood_vs_python.py --corpus /tmp/c_sen1_real --rounds 5 --runs 30
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "conformance", "oracle"))

import bench_sen1flood  # noqa: E402  (the Python chain)

BENCH_LINE = re.compile(r"^BenchmarkSen1FloodTypeE/(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op\s+([\d.]+) cpu-ms/op\s+([\d.]+) median-ms")


def python_round(s1, jrc, out, runs):
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        bench_sen1flood.chain(s1, jrc, out)
        wall.append(1000 * (time.perf_counter() - t0))
        cpu.append(1000 * (time.process_time() - c0))
    return statistics.median(wall), statistics.median(cpu)


def go_round(binary, runs):
    p = subprocess.run([binary, "-test.run", "^$", "-test.bench", "Sen1FloodTypeE", "-test.benchtime", "%dx" % runs],
                       cwd=os.path.join(REPO, "conformance"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("go benchmark failed:\n" + p.stdout[-3000:])
    res = {}
    for line in p.stdout.splitlines():
        m = BENCH_LINE.match(line.strip())
        if m:
            # (median wall, mean CPU, mean wall) per record
            res[m.group(1)] = (float(m.group(4)), float(m.group(3)), float(m.group(2)) / 1e6)
    if not res:
        sys.exit("no BenchmarkSen1FloodTypeE result in:\n" + p.stdout[-3000:])
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True, help="the real-chip corpus (TestSen1FloodRealChip's GEODISASTER_SEN1_REAL_OUT)")
    ap.add_argument("--record", default="sen1_flood_e__Spain_7370579")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=30, help="Python chains per round")
    ap.add_argument("--go-runs", type=int, default=100,
                    help="Go records per round (a fresh test process each round; more records amortize its warm-up)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    rec = None
    with open(os.path.join(a.corpus, "records.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r["id"] == a.record:
                rec = r
    if rec is None:
        sys.exit("no record %s in %s" % (a.record, a.corpus))
    s1 = os.path.join(a.corpus, rec["handles"]["s1_image_1"]["files"][0]["path"])
    jrc = os.path.join(a.corpus, rec["handles"]["jrc_water_1"]["files"][0]["path"])
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "conformance.test")
        subprocess.run(["go", "test", "-c", "-o", binary, "./conformance/"], cwd=REPO, check=True)
        out = os.path.join(tmp, "py")
        os.mkdir(out)
        bench_sen1flood.chain(s1, jrc, out)  # warm-up (imports, caches)
        py, go = [], []
        for i in range(a.rounds):
            py.append(python_round(s1, jrc, out, a.runs))
            go.append(go_round(binary, a.go_runs))
            print("round %d: python %.1f ms wall %.1f ms cpu; go %s" % (i + 1, py[-1][0], py[-1][1], ", ".join(
                "%s %.2f ms wall (mean %.2f) %.2f ms cpu" % (k, v[0], v[2], v[1]) for k, v in sorted(go[-1].items()))), file=sys.stderr)
    py_wall = statistics.median(w for w, _ in py)
    py_cpu = statistics.median(c for _, c in py)
    result = {"record": a.record, "rounds": a.rounds, "runs_per_round": a.runs, "go_runs_per_round": a.go_runs,
              "python_ms": {"wall": py_wall, "cpu": py_cpu}, "go": {}}
    for mode in sorted(go[0]):
        g_wall = statistics.median(r[mode][0] for r in go)
        g_cpu = statistics.median(r[mode][1] for r in go)
        g_mean = statistics.median(r[mode][2] for r in go)
        # The machine's speed drifts between rounds (here by up to 40%),
        # and both sides of a round see the same machine: the ratio of
        # each round's medians is the paired comparison.
        per_round = [p[0] / g[mode][0] for p, g in zip(py, go)]
        result["go"][mode] = {"wall_ms": g_wall, "mean_wall_ms": g_mean, "cpu_ms": g_cpu,
                              "ratio_wall": py_wall / g_wall, "ratio_mean_wall": py_wall / g_mean, "ratio_cpu": py_cpu / g_cpu,
                              "round_ratios_wall": per_round, "ratio_wall_paired": statistics.median(per_round)}
    if a.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    print("python reference stack: %.1f ms wall, %.1f ms CPU per chip (median of %d round medians)" % (py_wall, py_cpu, a.rounds))
    for mode, g in sorted(result["go"].items()):
        print("go %-9s: %.2f ms wall (median record; mean %.2f), %.2f ms CPU per chip -> %.1fx (wall), %.1fx (mean wall), %.1fx (CPU)" % (
            mode, g["wall_ms"], g["mean_wall_ms"], g["cpu_ms"], g["ratio_wall"], g["ratio_mean_wall"], g["ratio_cpu"]))
        print("    per-round wall ratios %s -> median %.1fx (paired), min %.1fx" % (
            " ".join("%.1f" % r for r in g["round_ratios_wall"]), g["ratio_wall_paired"], min(g["round_ratios_wall"])))


if __name__ == "__main__":
    main()
