#!/usr/bin/env bash
# Slurm job that merges the N shards of replay-array.sh once the array is
# done (whatever its tasks' states: merge itself refuses an incomplete set):
#
#   sbatch --dependency=afterany:ARRAY_JOB_ID docs/deploy/slurm/merge.sh BINARY RECORDS N OUT
#
# Writes OUT/merged (manifest.json last) and its log to
# OUT/logs/merge-<job>.log. Exit 0: merged, every record correct; 1: merged,
# some records failed or scored incorrect; 5: refused (a shard is missing,
# unfinished, duplicated or of another corpus: the log names each; rerun
# those indexes, then submit this job again); 2: usage.
#SBATCH --job-name=geodisaster-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
set -euo pipefail
usage="usage: sbatch --dependency=afterany:JOB merge.sh BINARY RECORDS N OUT"
bin=${1:?$usage}
records=${2:?$usage}
n=${3:?$usage}
out=${4:?$usage}
case $n in ''|*[!0-9]*|0) echo "merge.sh: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
mkdir -p "$out/logs"
exec >>"$out/logs/merge-${SLURM_JOB_ID:-local}.log" 2>&1
# Every shard directory is named, so that one that never ran is reported
# as missing rather than silently left out.
shards=()
for ((i = 0; i < n; i++)); do shards+=("$out/shard-$i"); done
exec "$bin" merge --output-dir "$out/merged" --input "$records" "${shards[@]}"
