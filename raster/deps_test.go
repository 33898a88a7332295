package raster

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyRule checks the one-way rule: raster and its sub-packages
// import nothing of the benchmark (workers, runtime, conformance, scoring,
// the commands), only the library packages and the module's internal
// helpers, so they can be used without the engine.
func TestDependencyRule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command("go", "list", "-deps", "-test=false", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/geodisaster/engine/"
	forbidden := []string{"workers", "runtime", "conformance", "scoring", "cmd"}
	n := 0
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, module)
		if !ok {
			continue
		}
		n++
		top, _, _ := strings.Cut(rel, "/")
		for _, f := range forbidden {
			if top == f {
				t.Errorf("raster depends on %s", p)
			}
		}
	}
	if n == 0 {
		t.Fatal("go list found no packages of the module")
	}
}

// TestGeoTIFFImports checks that raster/geotiff stands alone: raster
// imports it, never the reverse, and of the module it uses only crs, the
// number formatting and checksum helpers and raster's internal codecs and
// predictors.
func TestGeoTIFFImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command("go", "list", "-deps", "-test=false", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./geotiff").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/geodisaster/engine/"
	allowed := []string{"raster/geotiff", "crs", "crs/", "internal/cfmt", "internal/adler32", "raster/internal/"}
	n := 0
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, module)
		if !ok {
			continue
		}
		n++
		ok = false
		for _, a := range allowed {
			if rel == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(rel, a)) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("raster/geotiff depends on %s", p)
		}
	}
	if n == 0 {
		t.Fatal("go list found no packages of the module")
	}
}
