#!/usr/bin/python3
"""Inventory figures of a corpus, its replay and its export, beside the ones
the specification publishes (docs/inventory.md holds the table).

usage:
    geodisaster synth --full --out /tmp/full
    geodisaster replay --input /tmp/full/records.jsonl --output-dir /tmp/full-replay --workers 2
    geodisaster export --dataset-root /tmp/full --input /tmp/full/records.jsonl --output-dir /tmp/full-export
    /usr/bin/python3 conformance/inventory/inventory.py --corpus /tmp/full --replay /tmp/full-replay --export /tmp/full-export

Prints one JSON object: every figure, keyed as in docs/inventory.md. Uses the
standard library only.
"""
import argparse
import collections
import json
import os
import sys


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="synth output: records.jsonl, corpus.json and the files")
    ap.add_argument("--replay", help="geodisaster replay --output-dir (traces/, results.jsonl)")
    ap.add_argument("--export", help="geodisaster export --output-dir (export.json)")
    a = ap.parse_args()

    recs = list(read_jsonl(os.path.join(a.corpus, "records.jsonl")))
    by_split = collections.Counter(r["split"] for r in recs)
    refs = 0
    paths = set()
    sidecars, dm_sidecars = set(), set()
    test_paths = set()
    sen1_paths = set()
    mh_tifs, mh_samples = set(), set()
    for r in recs:
        for h in r["handles"].values():
            for f in h["files"]:
                refs += 1
                paths.add(f["path"])
                if h["kind"] == "question":
                    sidecars.add(f["path"])
                    if r["family"] in ("deforestation", "multi_hazard"):
                        dm_sidecars.add(f["path"])
                if r["split"] == "test":
                    test_paths.add(f["path"])
                if r["family"] == "sen1_flood" and h["kind"] == "input":
                    sen1_paths.add(f["path"])
                if r["family"] == "multi_hazard" and f["path"].endswith(".tif"):
                    mh_tifs.add(f["path"])
                    mh_samples.add(r["sample_id"])
    worker_calls = sum(1 for r in recs for s in r["gt_chain"] if s["tool"] not in ("TaskComplete", "Terminate", "FinalAnswer"))
    test_calls = sum(1 for r in recs if r["split"] == "test" for s in r["gt_chain"] if s["tool"] not in ("TaskComplete", "Terminate", "FinalAnswer"))
    manifest = json.load(open(os.path.join(a.corpus, "corpus.json")))
    out = {
        "records": len(recs),
        "question_types": len({r["question_type"] for r in recs}),
        "train": by_split["train"],
        "test": by_split["test"],
        "corpus_files": manifest["files"],
        "path_references": refs,
        "unique_paths": len(paths),
        "question_sidecars": len(sidecars),
        "question_sidecars_deforestation_multi_hazard": len(dm_sidecars),
        "test_bundle_files": len(test_paths),
        "sen1_flood_records": sum(1 for r in recs if r["family"] == "sen1_flood"),
        "sen1_flood_input_paths": len(sen1_paths),
        "multi_hazard_geotiffs": len(mh_tifs),
        "multi_hazard_samples": len(mh_samples),
        "non_terminal_calls_in_chains": worker_calls,
        "test_non_terminal_calls_in_chains": test_calls,
    }
    if a.replay:
        gold = {r["id"]: r for r in recs}
        calls = reads = unique_reads = arts = nonempty = 0
        tcalls = treads = tunique = 0
        for r in recs:
            t = json.load(open(os.path.join(a.replay, "traces", r["id"] + ".json")))
            for c in t["calls"]:
                if c["tool"] in ("TaskComplete", "Terminate", "FinalAnswer"):
                    continue
                n, u = len(c["reads"]), len({x["path"] for x in c["reads"]})
                calls += 1
                reads += n
                unique_reads += u
                arts += len(c["artifacts"])
                nonempty += sum(1 for x in c["artifacts"] if x["size"] > 0)
                if r["split"] == "test":
                    tcalls += 1
                    treads += n
                    tunique += u
        identical = correct = 0
        for res in read_jsonl(os.path.join(a.replay, "results.jsonl")):
            correct += bool(res["correct"])
            if res["answer"] == gold[res["id"]]["answer"]:
                identical += 1
        out.update({
            "replay_sessions": len(recs),
            "replay_non_terminal_calls": calls,
            "replay_reads": reads,
            "replay_reads_unique_per_call": unique_reads,
            "replay_artifacts": arts,
            "replay_artifacts_nonempty": nonempty,
            "test_replay_sessions": by_split["test"],
            "test_replay_calls": tcalls,
            "test_replay_reads": treads,
            "test_replay_reads_unique_per_call": tunique,
            "replay_correct": correct,
            "answers_value_identical_to_gold": identical,
            "answers_within_tolerance_only": correct - identical,
        })
    if a.export:
        e = json.load(open(os.path.join(a.export, "export.json")))
        for name, p in e["projections"].items():
            out[name + "_train"], out[name + "_test"] = p["train"], p["test"]
        for k in ("sft_rows", "terminal_targets", "duplicate_trajectory_groups", "duplicate_trajectory_records", "cross_split_trajectory_groups"):
            out[k] = e[k]
    json.dump(out, sys.stdout, indent=2, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
