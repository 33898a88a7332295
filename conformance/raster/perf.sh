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
# with the ratios Go / GDAL 2 threads (below 1: Go is faster), and checks that the STATISTICS_* lines of both tools are identical.
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
  # Decode: GDAL 1 and 2 threads and Go, interleaved run by run.
  g1=(); g2=(); gw=(); gc=()
  for i in $(seq "$runs"); do
    g1+=("$($py conformance/raster/gdalread.py "$file" 1 1 | awk '{print $6}')")
    g2+=("$($py conformance/raster/gdalread.py "$file" 2 1 | awk '{print $6}')")
    read -r w c < <(GEODISASTER_BENCH_TIFF="$file" "$bin/raster.test" -test.run '^$' -test.bench 'ReadBandBig' -test.benchtime 1x |
      awk '/^Benchmark/ { printf "%.3f %.3f\n", $3/1e9, $7 }')
    gw+=("$w"); gc+=("$c")
  done
  b1=$(printf '%s\n' "${g1[@]}" | best); b2=$(printf '%s\n' "${g2[@]}" | best); bw=$(printf '%s\n' "${gw[@]}" | best); bc=$(printf '%s\n' "${gc[@]}" | best)
  echo "$f decode: gdal ReadAsArray best wall 1 thread ${b1}s, 2 threads ${b2}s; go ReadBand best wall ${bw}s (cpu ${bc}s); ratio go/gdal-2-threads $(echo "scale=2; $bw/$b2" | bc)"
done
