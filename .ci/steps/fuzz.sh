#!/usr/bin/env bash
# Brief fuzz runs of every parser the engine reads user files with: the
# GeoTIFF reader (raster's Dataset and raster/geotiff's Reader), codecs,
# labellings and nodata texts, vector's line GeoJSON decoder, and crs's
# GeoKey directories, PROJ strings and WKT, and geod's GeodSolve input lines
# (8 s each, about 100 s of fuzzing plus builds).
# A crasher is saved under <package>/testdata/fuzz/<target>/ and fails CI.
#
# Go's fuzzer can report "context deadline exceeded" when -fuzztime runs out
# while it is still minimizing a new interesting input (no failing input is
# written in that case); that is reported as a warning, not a failure. Any
# run that writes a failing input fails the step.
set -uo pipefail
cd "$(dirname "$0")/../.."
export CGO_ENABLED=0
status=0
# Each fuzz target beside the parser it exercises: package and target.
targets=(
  ./raster/ FuzzOpen
  ./raster/internal/codec/deflate/ FuzzInflate
  ./raster/geotiff/ FuzzReader
  ./raster/geotiff/ FuzzDecompress
  ./raster/ FuzzJPEG
  ./raster/regions/ FuzzLabelRuns
  ./raster/internal/codec/lzw/ FuzzLZW
  ./vector/ FuzzDecodeLineFeatures
  ./raster/geotiff/ FuzzNoDataText
  ./crs/ FuzzParseGeoKeyDirectory
  ./crs/ FuzzParse
  ./cmd/geodisaster/internal/geod/ FuzzGeodLine
)
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pkg=${targets[i]} target=${targets[i+1]}
  echo "   fuzz $pkg $target (8s)"
  out=$(go test -run='^$' -fuzz="^${target}\$" -fuzztime=8s -fuzzminimizetime=5s "$pkg" 2>&1)
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
