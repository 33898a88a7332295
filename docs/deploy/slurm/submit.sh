#!/usr/bin/env bash
# Submits a sharded replay and its merge to Slurm: the array 0..N-1 of
# replay-array.sh and a merge.sh job that starts when the whole array has
# ended (--dependency=afterany). Prints the two job ids.
#
#   docs/deploy/slurm/submit.sh BINARY RECORDS N OUT [DATASET_ROOT] [-- SBATCH_OPTIONS...]
#
# BINARY, RECORDS, OUT (and DATASET_ROOT) must be on storage every node
# sees; Slurm's own output files go to OUT/logs as well.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: submit.sh BINARY RECORDS N OUT [DATASET_ROOT] [-- SBATCH_OPTIONS...]"
bin=${1:?$usage}
records=${2:?$usage}
n=${3:?$usage}
out=${4:?$usage}
shift 4
root=$(dirname "$records")
if [ $# -gt 0 ] && [ "$1" != "--" ]; then root=$1; shift; fi
[ "${1:-}" = "--" ] && shift
case $n in ''|*[!0-9]*|0) echo "submit.sh: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "submit.sh: $bin is not an executable" >&2; exit 5; }
[ -r "$records" ] || { echo "submit.sh: cannot read $records" >&2; exit 5; }
mkdir -p "$out/logs"
array=$(sbatch --parsable "$@" --array="0-$((n - 1))" --output="$out/logs/slurm-%A_%a.out" \
  "$here/replay-array.sh" "$bin" "$records" "$n" "$out" "$root")
array=${array%%;*}
merge=$(sbatch --parsable "$@" --dependency="afterany:$array" --output="$out/logs/slurm-merge-%j.out" \
  "$here/merge.sh" "$bin" "$records" "$n" "$out")
merge=${merge%%;*}
echo "array $array merge $merge"
