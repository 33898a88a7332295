#!/usr/bin/env bash
# Brief fuzz runs of the crs package's readers: GeoKey directories, PROJ strings and WKT (about 16 s of fuzzing plus builds).
# A crasher is saved under crs/testdata/fuzz/<target>/ and fails CI.
#
# Go's fuzzer can report "context deadline exceeded" when -fuzztime runs out
# while it is still minimizing a new interesting input (no failing input is
# written in that case); that is reported as a warning, not a failure. Any
# run that writes a failing input fails the step.
set -uo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=0
status=0
for target in FuzzParseGeoKeyDirectory FuzzParse; do
  echo "   fuzz crs $target (8s)"
  out=$(go test -run='^$' -fuzz="^${target}\$" -fuzztime=8s -fuzzminimizetime=5s ./crs/ 2>&1)
  rc=$?
  echo "$out" | tail -4
  if [ $rc -ne 0 ]; then
    if echo "$out" | grep -q "Failing input written"; then
      echo "   $target found a failing input"; status=1
    elif echo "$out" | grep -q "context deadline exceeded"; then
      echo "   WARNING: $target stopped by the fuzz deadline during minimization (no failing input)"
    else
      echo "   $target failed"; status=1
    fi
  fi
done
exit $status
