#!/usr/bin/env bash
# Installs the native reference stack from Debian (GDAL 3.6, PROJ 9.1,
# GeographicLib, GEOS through Shapely, NumPy/SciPy/scikit-image, rasterio,
# pyproj) so that the tests which run gdalinfo, cs2cs, GeodSolve and the
# Python oracles compare against the tools themselves. Under CI=true those
# tests fail, never skip, when a tool is missing. Runs as root without
# standard input.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
pkgs=(gdal-bin python3-gdal python3-rasterio python3-skimage python3-scipy
      python3-pyproj python3-shapely proj-bin geographiclib-tools)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "   native stack present: $(gdalinfo --version), $(cs2cs 2>&1 | head -1)"
  exit 0
fi
apt_install native-stack "${missing[@]}"
echo "   native stack installed: $(gdalinfo --version)"
