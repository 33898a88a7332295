package raster

import (
	"os/exec"
	"strings"
	"testing"
)

// moduleDeps returns the packages of the module pattern depends on (itself
// included), relative to the module path.
func moduleDeps(t *testing.T, pattern string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command("go", "list", "-deps", "-test=false", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pattern).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var rels []string
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, "github.com/geodisaster/engine/"); ok {
			rels = append(rels, rel)
		}
	}
	if len(rels) == 0 {
		t.Fatal("go list found no packages of the module")
	}
	return rels
}

// TestDependencyRule checks the one-way rule: raster and its sub-packages
// import nothing of the benchmark (workers, runtime, conformance, scoring,
// the commands), only the library packages and the module's internal
// helpers, so they can be used without the engine.
func TestDependencyRule(t *testing.T) {
	forbidden := []string{"workers", "runtime", "conformance", "scoring", "cmd"}
	for _, rel := range moduleDeps(t, "./...") {
		top, _, _ := strings.Cut(rel, "/")
		for _, f := range forbidden {
			if top == f {
				t.Errorf("raster depends on %s", rel)
			}
		}
	}
}

// TestGeoTIFFImports checks that raster/geotiff stands alone: raster
// imports it, never the reverse, and of the module it uses only crs, the
// number formatting and checksum helpers and raster's internal codecs and
// predictors.
func TestGeoTIFFImports(t *testing.T) {
	allowed := []string{"raster/geotiff", "crs", "crs/", "internal/cfmt", "internal/adler32", "raster/internal/"}
	for _, rel := range moduleDeps(t, "./geotiff") {
		ok := false
		for _, a := range allowed {
			ok = ok || rel == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(rel, a))
		}
		if !ok {
			t.Errorf("raster/geotiff depends on %s", rel)
		}
	}
}
