#!/usr/bin/env bash
# Brief fuzz runs of the raster package's parsers and codecs (about 40 s of fuzzing plus builds).
# A crasher is saved under raster/testdata/fuzz/<target>/ and fails CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=0
for target in FuzzOpen FuzzInflate FuzzDecompress FuzzJPEG; do
  echo "   fuzz raster $target (8s)"
  go test -run='^$' -fuzz="^${target}\$" -fuzztime=8s ./raster/
done
