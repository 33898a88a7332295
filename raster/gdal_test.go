package raster

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// requireGDALPython skips the test when Debian's GDAL Python bindings are
// absent, and fails it under CI=true (.ci/steps/00-native-stack.sh
// installs them there).
func requireGDALPython(t *testing.T) {
	t.Helper()
	if err := exec.Command(gdalPython, "-c", "from osgeo import gdal").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but GDAL's Python bindings are missing (%s -c 'from osgeo import gdal': %v): .ci/steps/00-native-stack.sh must install python3-gdal", gdalPython, err)
		}
		t.Skip("GDAL Python bindings absent: " + gdalPython + " -c 'from osgeo import gdal' fails")
	}
}

// runGDALPython runs a Python script with arguments and returns its
// standard output.
func runGDALPython(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(gdalPython, append([]string{"-c", script}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return out
}
