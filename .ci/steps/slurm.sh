#!/usr/bin/env bash
# The documented Slurm recipe (docs/sharding.md, docs/deploy/slurm/) on a
# real single-node Slurm cluster on localhost, in about two minutes:
#
#  1. installs slurm-wlm and munge from Debian when missing;
#  2. starts munged, slurmctld and slurmd in the foreground of this script
#     (a private key, socket, ports and spool under a temporary directory;
#     nothing in /etc is used), and stops them by PID when it exits;
#  3. synthesizes a small corpus (geodisaster synth), replays it unsharded,
#     submits the documented array + merge (submit.sh, N=4) and requires
#     the merged results.jsonl byte-equal to the unsharded one;
#  4. submits again, cancels one array task while it replays (scancel),
#     requires the afterany merge job to refuse the missing shard (exit 5,
#     the shard named, no merged output), reruns that index as documented
#     (sbatch --array=I + a merge job depending on it) and requires
#     byte-equality again;
#  5. requires an array that does not fit N (--array=1-4 for N=4) to fail
#     with exit 2 and write no shard.
#
# This sandbox allows ProctrackType=proctrack/linuxproc, TaskPlugin=task/none
# and JobAcctGatherType=jobacct_gather/none (no cgroups needed). Runs as
# root without standard input.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
cd "$(dirname "$0")/../.."
repo=$(pwd)
export CGO_ENABLED=0

need=()
for c in munged slurmctld slurmd sbatch; do command -v "$c" >/dev/null 2>&1 || need+=("$c"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "   missing: ${need[*]}"
  apt_install slurm slurm-wlm munge
fi
[ "$(id -u)" = 0 ] || { echo "slurm: FAIL: the single-node cluster runs its daemons as root"; exit 1; }

start=$SECONDS
work=$(mktemp -d /tmp/geodisaster-slurm-XXXXXX)
chmod 0755 "$work"
pids=()
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ $rc -ne 0 ]; then
    echo "   --- slurmctld log"; tail -30 "$work/slurmctld.log" 2>/dev/null || true
    echo "   --- slurmd log"; tail -30 "$work/slurmd.log" 2>/dev/null || true
    echo "   --- job logs"; tail -n 20 "$work"/out*/logs/* 2>/dev/null || true
  fi
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
fail() { echo "slurm: FAIL: $*"; exit 1; }

# The binary and the corpus live on "shared storage": on one node, any
# directory every daemon can read.
go build -o "$work/bin/geodisaster" ./cmd/geodisaster
bin=$work/bin/geodisaster
"$bin" synth --out "$work/corpus" --per-type 4 --seed 11 >/dev/null
records=$work/corpus/records.jsonl
"$bin" replay --input "$records" --workers 2 --output-dir "$work/whole" >/dev/null 2>"$work/whole.log" ||
  { cat "$work/whole.log"; fail "the unsharded replay failed"; }

# munge: a private key and socket.
mkdir -p "$work/munge" && chmod 0711 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/munge.key" && chmod 0400 "$work/munge/munge.key"
sock=$work/munge/munge.socket
munged -F --force --key-file="$work/munge/munge.key" --socket="$sock" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" >"$work/munge/munged.out" 2>&1 &
pids+=($!)

# slurm.conf: one node (this host, its real CPUs and memory), one partition.
host=$(hostname -s)
node=$(slurmd -C | head -1 | sed -e "s/^NodeName=[^ ]*/NodeName=$host/")
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=geodisaster-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=10
MinJobAge=600
SchedulerParameters=defer_batch
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "munged did not start: $(cat "$work/munge/munged.log" 2>/dev/null)"
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle after 20 s (state '$state')"
echo "   cluster up: $(sinfo -h -o '%P %D %T %c CPUs') (munged, slurmctld, slurmd PIDs ${pids[*]})"

# show JOBID: scontrol's one-line records of a job (every task of an
# array), retried while slurmctld does not answer (a loaded machine).
show() {
  local out
  for _ in $(seq 20); do
    if out=$(scontrol -o show job "$1" 2>/dev/null) && [ -n "$out" ]; then printf '%s\n' "$out"; return 0; fi
    sleep 0.5
  done
  fail "scontrol show job $1 gave no answer"
}
job_state() { show "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
job_exit() { show "$1" | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' | head -1; }
wait_done() { # JOBID TIMEOUT_S: waits until the job (every task of an array) has ended
  local t=0
  while show "$1" | grep -qE 'JobState=(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|RESIZING)'; do
    sleep 0.5; t=$((t + 1))
    [ $t -lt $(($2 * 2)) ] || fail "job $1 still running after $2 s"
  done
}
submit="$repo/docs/deploy/slurm/submit.sh"
n=4

# 1. The documented submission: array + merge; equal to the unsharded run.
out=$work/out1
read -r _ array _ merge < <("$submit" "$bin" "$records" $n "$out" -- --cpus-per-task=1)
wait_done "$merge" 240
[ "$(job_state "$merge")" = COMPLETED ] || fail "merge job $merge ended $(job_state "$merge") (exit $(job_exit "$merge"))"
cmp "$work/whole/results.jsonl" "$out/merged/results.jsonl" || fail "sharded results.jsonl differs from the unsharded run"
[ -f "$out/merged/manifest.json" ] || fail "no merged manifest"
echo "   sbatch array $array (4 shards) + afterany merge $merge: results.jsonl byte-equal to the unsharded replay ($(wc -l <"$out/merged/results.jsonl") records)"

# 2. Cancel one task while it replays; the merge must refuse; rerun it.
# On a fast machine the task may finish before the cancel reaches it:
# then the scenario is tried again with a fresh output root.
victim=2
for attempt in 1 2 3; do
  out=$work/out2-$attempt
  read -r _ array _ merge < <("$submit" "$bin" "$records" $n "$out" -- --cpus-per-task=1)
  t=0
  until compgen -G "$out/shard-$victim/.incomplete-*/artifacts/*" >/dev/null || [ -f "$out/shard-$victim/manifest.json" ]; do
    sleep 0.02; t=$((t + 1))
    [ $t -lt 6000 ] || fail "task ${array}_$victim never started replaying"
  done
  scancel "${array}_$victim"
  wait_done "${array}_$victim" 120
  wait_done "$merge" 240
  [ "$(job_state "${array}_$victim")" = CANCELLED ] && break
  [ "$(job_state "${array}_$victim")" = COMPLETED ] || fail "task ${array}_$victim ended $(job_state "${array}_$victim")"
  echo "   task ${array}_$victim finished before the cancel reached it (attempt $attempt); again"
  [ $attempt -lt 3 ] || fail "three times the task finished before it could be cancelled"
done
[ -e "$out/shard-$victim/manifest.json" ] && fail "the cancelled shard has a manifest"
[ -e "$out/shard-$victim/results.jsonl" ] && fail "the cancelled shard left results.jsonl"
[ "$(job_exit "$merge")" = 5 ] || fail "merge job after the cancel exited $(job_exit "$merge"), want 5"
grep -q "shard $victim/$n is missing" "$out"/logs/merge-"$merge".log || fail "the merge log does not name shard $victim/$n: $(cat "$out"/logs/merge-"$merge".log)"
[ -e "$out/merged" ] && fail "the refused merge left $out/merged"
echo "   scancel ${array}_$victim mid-run: no manifest; merge $merge refused (exit 5): $(grep -o "shard $victim/$n is missing" "$out"/logs/merge-"$merge".log)"
rerun=$(sbatch --parsable --cpus-per-task=1 --array=$victim --output="$out/logs/slurm-%A_%a.out" \
  "$repo/docs/deploy/slurm/replay-array.sh" "$bin" "$records" $n "$out")
merge2=$(sbatch --parsable --dependency="afterany:$rerun" --output="$out/logs/slurm-merge-%j.out" \
  "$repo/docs/deploy/slurm/merge.sh" "$bin" "$records" $n "$out")
wait_done "$merge2" 240
[ "$(job_state "$merge2")" = COMPLETED ] || fail "merge $merge2 after the rerun ended $(job_state "$merge2") (exit $(job_exit "$merge2"))"
cmp "$work/whole/results.jsonl" "$out/merged/results.jsonl" || fail "results.jsonl after the rerun differs from the unsharded run"
echo "   rerun sbatch --array=$victim ($rerun) + merge $merge2: results.jsonl byte-equal again"

# 3. An array that does not fit N is refused by every task.
out=$work/out3
bad=$(sbatch --parsable --cpus-per-task=1 --array=1-4 --output="$work/bad-%A_%a.out" \
  "$repo/docs/deploy/slurm/replay-array.sh" "$bin" "$records" $n "$out")
for i in 1 2 3 4; do
  wait_done "${bad}_$i" 120
  [ "$(job_exit "${bad}_$i")" = 2 ] || fail "task ${bad}_$i of --array=1-4 exited $(job_exit "${bad}_$i"), want 2"
done
compgen -G "$out/shard-*" >/dev/null && fail "--array=1-4 wrote shard directories"
echo "   --array=1-4 for N=4: every task exited 2, no shard written"
echo "   slurm step took $((SECONDS - start)) s"
