#!/usr/bin/env bash
# Cross-architecture hash comparison (about 2 minutes on 2 cores).
#
# Builds conformance/crossarch for the host (linux/amd64) and for
# linux/arm64, synthesizes one record of every question type, replays the
# SAME corpus natively and under Debian's qemu-user-static, and requires
# byte-identical SHA-256 for every answer and every generated artifact
# (masks, GeoJSON, PNG, ...). It also synthesizes the corpus on arm64 and
# requires byte-identical generated inputs too: the generator rounds every
# product explicitly so arm64 cannot fuse it into a multiply-add
# (conformance/crossarch's TestNoFusedMultiplyAdd guards that without
# qemu).
#
# qemu-user-static is installed with apt-get when missing. When it cannot
# be installed the step fails, except when apt itself cannot reach its
# repositories: then it prints SKIP and exits 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=0

host=$(go env GOARCH)
case "$host" in
  amd64) other=arm64; qemu=qemu-aarch64-static ;;
  arm64) other=amd64; qemu=qemu-x86_64-static ;;
  *) echo "crossarch: FAIL: unsupported host architecture $host"; exit 1 ;;
esac

if ! command -v "$qemu" >/dev/null 2>&1; then
  echo "   $qemu missing: installing qemu-user-static"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      echo "crossarch: FAIL: $qemu is missing and this user can neither install packages nor sudo"; exit 1
    fi
  fi
  if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/tmp/crossarch-apt.log 2>&1; then
    if grep -qiE "could not resolve|temporary failure|failed to fetch|unable to connect|network is unreachable|connection (refused|timed out)" /tmp/crossarch-apt.log; then
      echo "crossarch: SKIP: apt cannot reach its repositories, so qemu-user-static cannot be installed:"
      tail -5 /tmp/crossarch-apt.log
      exit 0
    fi
    echo "crossarch: FAIL: apt-get update failed:"; tail -20 /tmp/crossarch-apt.log; exit 1
  fi
  if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >>/tmp/crossarch-apt.log 2>&1; then
    echo "crossarch: FAIL: apt-get install qemu-user-static failed:"; tail -20 /tmp/crossarch-apt.log; exit 1
  fi
  command -v "$qemu" >/dev/null 2>&1 || { echo "crossarch: FAIL: qemu-user-static installed but $qemu is not on PATH"; exit 1; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/crossarch-$host" ./conformance/crossarch
GOARCH=$other go build -o "$work/crossarch-$other" ./conformance/crossarch

start=$SECONDS
"$work/crossarch-$host" --synth-only "$work/corpus" >"$work/inputs-$host.txt"
"$work/crossarch-$host" --corpus "$work/corpus" >"$work/outputs-$host.txt"
"$qemu" "$work/crossarch-$other" --corpus "$work/corpus" >"$work/outputs-$other.txt"
"$qemu" "$work/crossarch-$other" --synth-only "$work/corpus-$other" >"$work/inputs-$other.txt"

answers=$(grep -c '^answer ' "$work/outputs-$host.txt" || true)
artifacts=$(grep -c '^artifact ' "$work/outputs-$host.txt" || true)
inputs=$(grep -c '^input ' "$work/inputs-$host.txt" || true)
if [ "$answers" -eq 0 ] || [ "$artifacts" -eq 0 ]; then
  echo "crossarch: FAIL: nothing to compare ($answers answers, $artifacts artifacts)"; exit 1
fi
status=0
if diff -u "$work/outputs-$host.txt" "$work/outputs-$other.txt" >"$work/outputs.diff"; then
  echo "   linux/$host = linux/$other (qemu): $answers answers and $artifacts artifacts byte-identical ($(tail -1 "$work/outputs-$host.txt"))"
else
  echo "crossarch: FAIL: answers or artifacts differ between linux/$host and linux/$other:"
  grep '^[-+][a-z]' "$work/outputs.diff" | head -40
  status=1
fi
if diff -u "$work/inputs-$host.txt" "$work/inputs-$other.txt" >"$work/inputs.diff"; then
  echo "   synthesized corpus identical on both: $inputs input files"
else
  n=$(grep -c '^-input ' "$work/inputs.diff" || true)
  echo "crossarch: FAIL: the synthesized corpus differs on linux/$other in $n of $inputs files (a fused multiply-add in the generator? see TestNoFusedMultiplyAdd; answers and artifacts above were compared on one corpus):"
  grep '^-input ' "$work/inputs.diff" | head -20
  status=1
fi
echo "   crossarch comparison took $((SECONDS - start)) s"
exit $status
