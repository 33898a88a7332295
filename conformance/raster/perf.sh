#!/usr/bin/env bash
# Speed of the raster package against GDAL on the same files, same run.
#
#   conformance/raster/perf.sh [DIR] [RUNS]
#
# DIR (default /tmp/geodisaster-raster-perf) receives the 8192 x 8192
# float32 test files (mkbig.py) if they are missing. For each of DEFLATE
# predictor 3, LZW predictor 2 and ZSTD predictor 3 it reports the best of
# RUNS (default 3) runs, interleaved:
#   - geodisaster inspect --stats FILE    vs  GDAL_NUM_THREADS=2 gdalinfo -stats FILE
#   - Go decode benchmark (ReadBand)      vs  GDAL ReadAsArray, 1 and 2 threads
# and checks that the STATISTICS_* lines of both tools are identical.
# Needs Debian's gdal-bin and python3-gdal; run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-/tmp/geodisaster-raster-perf}
runs=${2:-3}
py=/usr/bin/python3
export GDAL_PAM_ENABLED=NO # no .aux.xml: gdalinfo must compute, not read cached stats
if [ ! -f "$dir/big_zstd_p3.tif" ]; then $py conformance/raster/mkbig.py "$dir"; fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
CGO_ENABLED=0 go build -o "$bin/geodisaster" ./cmd/geodisaster
CGO_ENABLED=0 go test -c -o "$bin/raster.test" ./raster/
best() { sort -n | head -1; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(gdalinfo --version)"
for f in deflate_p3 lzw_p2 zstd_p3; do
  file="$dir/big_$f.tif"
  g=(); o=()
  for i in $(seq "$runs"); do
    g+=("$( { /usr/bin/time -f %e env GDAL_NUM_THREADS=2 gdalinfo -stats "$file" > "$bin/gdal.txt"; } 2>&1 )")
    o+=("$( { /usr/bin/time -f %e "$bin/geodisaster" inspect --stats "$file" > "$bin/go.txt"; } 2>&1 )")
  done
  if diff <(grep STATISTICS_ "$bin/gdal.txt") <(grep STATISTICS_ "$bin/go.txt") > /dev/null; then same=identical; else same=DIFFERENT; fi
  gb=$(printf '%s\n' "${g[@]}" | best); ob=$(printf '%s\n' "${o[@]}" | best)
  echo "$f stats: gdalinfo -stats best ${gb}s, geodisaster inspect --stats best ${ob}s, ratio $(echo "scale=2; $ob/$gb" | bc) (STATISTICS_* $same)"
  for t in 1 2; do $py conformance/raster/gdalread.py "$file" $t "$runs" | sed "s/^/$f decode: /"; done
  GEODISASTER_BENCH_TIFF="$file" "$bin/raster.test" -test.run '^$' -test.bench 'ReadBandBig' -test.benchtime 1x -test.count "$runs" |
    awk -v f="$f" '/^Benchmark/ { w=$3/1e9; c=$7; if (bw==""||w<bw) bw=w; if (bc==""||c<bc) bc=c } END { printf "%s decode: go ReadBand best wall %.3f s cpu %.3f s\n", f, bw, bc }'
done
