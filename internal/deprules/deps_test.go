// Package deprules holds the test of the repository's one-way import
// rule (docs/architecture.md): cmd -> runtime -> workers/<family> ->
// workers -> {raster, vector, crs, geodesy}.
package deprules

import (
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/geodisaster/engine"

// imports returns the non-test imports of every package of the module,
// keyed by import path.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil {
			return nil // no buildable Go files here
		}
		rel, _ := filepath.Rel(root, p)
		out[module+"/"+filepath.ToSlash(rel)] = pkg.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found only %d packages under %s", len(out), root)
	}
	return out
}

// deps returns the module packages pkg depends on, directly or not.
func deps(all map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, q := range all[p] {
			if strings.HasPrefix(q, module+"/") && !seen[q] {
				seen[q] = true
				walk(q)
			}
		}
	}
	walk(pkg)
	out := make([]string, 0, len(seen))
	for q := range seen {
		out = append(out, q)
	}
	sort.Strings(out)
	return out
}

func under(p, dir string) bool {
	d := module + "/" + dir
	return p == d || strings.HasPrefix(p, d+"/")
}

func TestLibraryPackagesImportNothingOfTheBenchmark(t *testing.T) {
	all := imports(t)
	for p := range all {
		if !under(p, "raster") && !under(p, "vector") && !under(p, "crs") && !under(p, "geodesy") {
			continue
		}
		for _, q := range deps(all, p) {
			if !under(q, "raster") && !under(q, "vector") && !under(q, "crs") && !under(q, "geodesy") && !under(q, "internal") {
				t.Errorf("library package %s depends on %s", p, q)
			}
		}
	}
}

func TestRuntimeImportsNoConformance(t *testing.T) {
	all := imports(t)
	for p := range all {
		if !under(p, "runtime") {
			continue
		}
		for _, q := range deps(all, p) {
			if under(q, "conformance") || under(q, "cmd") {
				t.Errorf("%s depends on %s", p, q)
			}
		}
	}
}

func TestFamiliesImportOnlyTheKernelAndLibraries(t *testing.T) {
	all := imports(t)
	fams := 0
	for p := range all {
		rest, ok := strings.CutPrefix(p, module+"/workers/")
		if !ok || strings.Contains(rest, "/") || rest == "families" || rest == "workertest" {
			continue
		}
		fams++
		for _, q := range all[p] {
			if !strings.HasPrefix(q, module+"/") {
				continue // standard library and modules
			}
			if q == module+"/workers" || under(q, "internal") || under(q, "raster") || under(q, "vector") || under(q, "crs") || under(q, "geodesy") {
				continue
			}
			t.Errorf("family %s imports %s", p, q)
		}
	}
	if fams != 5 {
		t.Errorf("%d family packages under workers/, want 5", fams)
	}
}

func TestKernelImportsNoFamily(t *testing.T) {
	all := imports(t)
	for _, q := range deps(all, module+"/workers") {
		if under(q, "workers") || under(q, "runtime") || under(q, "conformance") {
			t.Errorf("the worker kernel depends on %s", q)
		}
	}
}
