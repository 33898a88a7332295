#!/usr/bin/env bash
# Slurm array job: one array task replays one shard of a corpus.
#
#   sbatch --array=0-$((N-1)) docs/deploy/slurm/replay-array.sh BINARY RECORDS N OUT [DATASET_ROOT]
#
# BINARY   absolute path of the geodisaster binary, readable on every node
# RECORDS  the records JSONL to replay (any corpus: a release's
#          data/core/geodisaster_2921_source_with_splits.jsonl, a synth
#          corpus's records.jsonl, ...)
# N        the number of shards; the array must be --array=0-(N-1), or a
#          subset of it when rerunning failed indexes
# OUT      output root on shared storage: shard i goes to OUT/shard-i, this
#          task's log to OUT/logs/replay-<job>_<index>.log
# DATASET_ROOT  where the records' declared paths resolve (default: the
#          directory of RECORDS); shared storage, read-only is enough
#
# Exit codes are the binary's (README "Exit codes"): 0 the shard is complete
# and correct; 1 the shard is complete but some records failed or scored
# incorrect (rerunning gives the same); 2 usage (fix the command; also a
# task id outside 0..N-1); 5 could not run (missing files, I/O: rerun the
# index once fixed); 143 cancelled or timed out (rerun the index). Only a
# shard directory with manifest.json is complete; merge refuses the rest.
#
# docs/sharding.md shows the submission with its merge job and how to
# rerun one index.
#SBATCH --job-name=geodisaster-replay
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=00:30:00
set -euo pipefail
usage="usage: sbatch --array=0-\$((N-1)) replay-array.sh BINARY RECORDS N OUT [DATASET_ROOT]"
bin=${1:?$usage}
records=${2:?$usage}
n=${3:?$usage}
out=${4:?$usage}
root=${5:-$(dirname "$records")}
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "replay-array.sh: not an array task; $usage" >&2; exit 2
fi
case $n in ''|*[!0-9]*|0) echo "replay-array.sh: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
mkdir -p "$out/logs"
exec >>"$out/logs/replay-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.log" 2>&1
# The array must not reach beyond 0..N-1 (SLURM_ARRAY_TASK_MAX is the
# largest index of this submission); a full submission (N tasks) then covers
# exactly 0..N-1, a smaller one is a rerun of some indexes.
min=${SLURM_ARRAY_TASK_MIN:-$SLURM_ARRAY_TASK_ID}
max=${SLURM_ARRAY_TASK_MAX:-$SLURM_ARRAY_TASK_ID}
count=${SLURM_ARRAY_TASK_COUNT:-1}
if [ "$min" -lt 0 ] || [ "$max" -ge "$n" ] || [ "$count" -gt "$n" ]; then
  echo "replay-array.sh: array indexes $min..$max ($count tasks) do not fit $n shards: submit --array=0-$((n-1)), or a subset to rerun failed indexes" >&2
  exit 2
fi
if [ "$count" -lt "$n" ]; then
  echo "replay-array.sh: this array covers $count of $n shards (a rerun); merge refuses until every shard 0..$((n-1)) has finished"
fi
echo "replay-array.sh: shard $SLURM_ARRAY_TASK_ID/$n of $records on $(hostname) (job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID})"
exec "$bin" replay \
  --input "$records" \
  --dataset-root "$root" \
  --workers "${SLURM_CPUS_PER_TASK:-1}" \
  --shard-count "$n" --shard-from-env SLURM_ARRAY_TASK_ID \
  --output-dir "$out/shard-{shard}"
