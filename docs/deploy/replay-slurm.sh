#!/usr/bin/env bash
# Slurm array job: replays a corpus in N shards (one array task per shard).
#   sbatch --array=0-3 docs/deploy/replay-slurm.sh /path/to/release /path/to/out
# then, when all tasks are done:
#   geodisaster merge --output-dir /path/to/out/merged /path/to/out/shard-*
#SBATCH --job-name=geodisaster-replay
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=00:30:00
set -euo pipefail
release=${1:?release root}
out=${2:?output directory}
n=${SLURM_ARRAY_TASK_COUNT:?run as an array job}
i=${SLURM_ARRAY_TASK_ID:?run as an array job}
exec geodisaster replay \
  --dataset-root "$release" \
  --input "$release/data/core/geodisaster_2921_source_with_splits.jsonl" \
  --workers "${SLURM_CPUS_PER_TASK:-2}" \
  --shard "$i/$n" \
  --output-dir "$out/shard-$i"
