package release

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// Check is one verification step of the release layout.
type Check struct {
	// Name identifies the step: checksum, inventory, test_inputs, paths,
	// hydration_manifest, fixture_manifest, policy.
	Name string `json:"name"`
	// Status is pass, fail, absent or skipped.
	Status string `json:"status"`
	// Detail says what was verified or why it failed.
	Detail string `json:"detail"`
	// GatesReal is true when a failure of this check refuses REAL.
	GatesReal bool `json:"gates_real"`
}

// Check statuses.
const (
	CheckPass    = "pass"
	CheckFail    = "fail"
	CheckAbsent  = "absent"
	CheckSkipped = "skipped"
)

// listLimit bounds the example paths a report lists.
const listLimit = 20

// PathInventory is the audit of every declared path (spec section 4: "All
// source paths are repository-relative.").
type PathInventory struct {
	// References counts declared file cards.
	References int `json:"references"`
	// Unique counts distinct declared paths.
	Unique int `json:"unique"`
	// Present counts unique paths that resolve to a regular file inside
	// the root.
	Present int `json:"present"`
	// Missing counts absent unique paths outside the Sen1Floods11 payload.
	Missing int `json:"missing"`
	// MissingExamples lists the first absent paths.
	MissingExamples []string `json:"missing_examples"`
	// HydrationPending counts absent paths under source_assets/sen1_flood/,
	// the payload a public archive omits until hydrated.
	HydrationPending int `json:"hydration_pending"`
	// Invalid lists paths that are not repository-relative, resolve
	// outside the root (symlinks resolved) or are not regular files.
	Invalid []string `json:"invalid"`
	// BlockedRecords maps record id to its first absent path; such
	// records are not replayed.
	BlockedRecords map[string]string `json:"-"`
}

// auditPaths resolves every declared path of recs under root.
func auditPaths(root string, recs []workers.Record) *PathInventory {
	pi := &PathInventory{MissingExamples: []string{}, Invalid: []string{}, BlockedRecords: map[string]string{}}
	state := map[string]string{} // path -> "" ok, "missing", "pending", "invalid"
	for _, r := range recs {
		names := slices.Sorted(maps.Keys(r.Handles))
		for _, n := range names {
			for _, f := range r.Handles[n].Files {
				pi.References++
				st, seen := state[f.Path]
				if !seen {
					pi.Unique++
					st = classifyPath(root, f.Path, pi)
					state[f.Path] = st
				}
				// Absent inputs block a record; an invalid path does not:
				// the record is replayed and the read gate refuses it.
				if st == "missing" || st == "hydration pending" {
					if _, already := pi.BlockedRecords[r.ID]; !already {
						pi.BlockedRecords[r.ID] = f.Path + " (" + st + ")"
					}
				}
			}
		}
	}
	return pi
}

func classifyPath(root, rel string, pi *PathInventory) string {
	if err := workers.CheckRelativePath(rel); err != nil {
		addLimited(&pi.Invalid, err.Error())
		return "invalid"
	}
	real, err := resolveInside(root, rel)
	switch {
	case errors.Is(err, errOutsideRoot):
		addLimited(&pi.Invalid, err.Error())
		return "invalid"
	case errors.Is(err, fs.ErrNotExist):
		if strings.HasPrefix(rel, Sen1FloodAssetsPrefix) {
			pi.HydrationPending++
			return "hydration pending"
		}
		pi.Missing++
		addLimited(&pi.MissingExamples, rel)
		return "missing"
	case err != nil:
		addLimited(&pi.Invalid, fmt.Sprintf("%s: %v", rel, err))
		return "invalid"
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		addLimited(&pi.Invalid, rel+": not a regular file")
		return "invalid"
	}
	pi.Present++
	return ""
}

func addLimited(list *[]string, s string) {
	if len(*list) < listLimit {
		*list = append(*list, s)
	}
}

// HydrationReport is the verification of the Sen1Floods11 hydration
// manifest (spec sections 4 and 10).
type HydrationReport struct {
	// Path is the manifest's repository-relative path.
	Path string `json:"path"`
	// Entries counts the path/sha256 entries recognised.
	Entries int `json:"entries"`
	// Verified counts entries whose file exists with the pinned SHA-256.
	Verified int `json:"verified"`
	// Pending counts entries whose file is absent (not yet hydrated).
	Pending int `json:"pending"`
	// Mismatched lists entries whose file differs from its pin.
	Mismatched []string `json:"mismatched"`
	// Unrecognised says why the manifest could not be read, if so.
	Unrecognised string `json:"unrecognised,omitempty"`
}

// verifyHydration reads a hydration manifest of unknown exact layout: any
// JSON object, at any depth, with a string "path" (or "dest") and a
// 64-hex "sha256" is an entry. Entries whose path is outside the root or
// not repository-relative are mismatches.
func verifyHydration(root, rel string) (*HydrationReport, error) {
	hr := &HydrationReport{Path: rel, Mismatched: []string{}}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		hr.Unrecognised = "not JSON: " + err.Error()
		return hr, nil
	}
	type entry struct{ path, sum string }
	var entries []entry
	digestObjects(doc, func(obj map[string]any, sum string) {
		p, _ := obj["path"].(string)
		if p == "" {
			p, _ = obj["dest"].(string)
		}
		if p != "" {
			entries = append(entries, entry{p, sum})
		}
	})
	if len(entries) == 0 {
		hr.Unrecognised = "no object with a path and a sha256 member"
		return hr, nil
	}
	for _, e := range entries {
		hr.Entries++
		if err := workers.CheckRelativePath(e.path); err != nil {
			addLimited(&hr.Mismatched, err.Error())
			continue
		}
		real, err := resolveInside(root, e.path)
		if errors.Is(err, fs.ErrNotExist) {
			hr.Pending++
			continue
		}
		if err != nil {
			addLimited(&hr.Mismatched, err.Error())
			continue
		}
		sum, _, err := fileSHA256(real)
		if err != nil {
			addLimited(&hr.Mismatched, fmt.Sprintf("%s: %v", e.path, err))
			continue
		}
		if sum != e.sum {
			addLimited(&hr.Mismatched, fmt.Sprintf("%s: SHA-256 %s, pinned %s", e.path, sum, e.sum))
			continue
		}
		hr.Verified++
	}
	return hr, nil
}

// FixtureManifest is the manifest of a release-shaped synthetic corpus
// (BuildFixture). Its presence never makes a corpus REAL: it only lets a
// verified synthetic corpus say FIXTURE instead of DEGRADED.
type FixtureManifest struct {
	// Format is FixtureFormat.
	Format string `json:"format"`
	// Status is always FIXTURE.
	Status string `json:"status"`
	// Generator identifies the synthetic source.
	Generator string `json:"generator"`
	// Seed is the generator's seed.
	Seed uint64 `json:"seed"`
	// RecordsSHA256 pins the canonical-path records file.
	RecordsSHA256 string `json:"records_sha256"`
	// TestInputsSHA256 pins the test-inputs file.
	TestInputsSHA256 string `json:"test_inputs_sha256"`
	// Inventory is the corpus's own census.
	Inventory Inventory `json:"inventory"`
	// Files pins every other file of the corpus.
	Files []FixtureFile `json:"files"`
}

// FixtureFile is one pinned file of a fixture corpus.
type FixtureFile struct {
	// Path is repository-relative.
	Path string `json:"path"`
	// Size is the length in bytes.
	Size int64 `json:"size"`
	// SHA256 is the lowercase hex digest.
	SHA256 string `json:"sha256"`
}

// FixtureFormat identifies the fixture manifest format.
const FixtureFormat = "geodisaster_release_fixture_v1"

// verifyFixture checks a fixture manifest against the tree; it returns the
// manifest and the problems found (none means verified).
func verifyFixture(root string) (*FixtureManifest, []string, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(FixtureManifestPath)))
	if err != nil {
		return nil, nil, err
	}
	var m FixtureManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, []string{"fixture manifest is not valid JSON: " + err.Error()}, nil
	}
	var probs []string
	if m.Format != FixtureFormat || m.Status != runtime.StatusFixture {
		probs = append(probs, fmt.Sprintf("fixture manifest format %q status %q, want %s FIXTURE", m.Format, m.Status, FixtureFormat))
	}
	check := func(rel, want string) {
		sum, _, err := fileSHA256(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			probs = append(probs, fmt.Sprintf("%s: %v", rel, err))
		case sum != want:
			probs = append(probs, fmt.Sprintf("%s has SHA-256 %s, the fixture manifest pins %s", rel, sum, want))
		}
	}
	check(CanonicalRecordsPath, m.RecordsSHA256)
	check(TestInputsPath, m.TestInputsSHA256)
	bad := 0
	for _, f := range m.Files {
		if err := workers.CheckRelativePath(f.Path); err != nil {
			probs = append(probs, err.Error())
			continue
		}
		n := len(probs)
		check(f.Path, f.SHA256)
		if len(probs) > n {
			bad++
			if bad > listLimit {
				probs = probs[:n]
			}
		}
	}
	if bad > listLimit {
		probs = append(probs, fmt.Sprintf("... %d pinned files differ in all", bad))
	}
	return &m, probs, nil
}

// checkTestInputs verifies the agent-visible test file (spec section 2):
// exactly the test-split ids of the canonical file, without answers, GT
// chains or provenance.
func checkTestInputs(root string, recs []workers.Record) Check {
	c := Check{Name: "test_inputs", GatesReal: true}
	path := filepath.Join(root, filepath.FromSlash(TestInputsPath))
	f, err := os.Open(path)
	if err != nil {
		// The spec names this file as part of the release (section 2):
		// absent, the release is incomplete.
		c.Status, c.Detail = CheckFail, fmt.Sprintf("%s: %v", TestInputsPath, err)
		return c
	}
	defer f.Close()
	want := map[string]bool{}
	for _, r := range recs {
		if r.Split == "test" {
			want[r.ID] = true
		}
	}
	var probs []string
	got := map[string]bool{}
	err = jsonl.Scan(f, func(line int, b []byte) error {
		var obj map[string]json.RawMessage
		var id string
		if err := json.Unmarshal(b, &obj); err != nil || json.Unmarshal(obj["id"], &id) != nil || id == "" {
			probs = append(probs, fmt.Sprintf("line %d: not a JSON object with a string id", line))
			return nil
		}
		if got[id] {
			probs = append(probs, id+": duplicate id")
		}
		got[id] = true
		for _, k := range []string{"answer", "expected_answer", "gt_chain", "provenance", "correction_provenance"} {
			if _, has := obj[k]; has {
				probs = append(probs, fmt.Sprintf("%s: carries %q", id, k))
			}
		}
		return nil
	})
	if err != nil {
		probs = append(probs, err.Error())
	}
	for id := range got {
		if !want[id] {
			probs = append(probs, id+": not a test record of the canonical file")
		}
	}
	for id := range want {
		if !got[id] {
			probs = append(probs, id+": test record missing from the test inputs")
		}
	}
	sort.Strings(probs)
	if len(probs) > 0 {
		if len(probs) > listLimit {
			probs = append(probs[:listLimit], fmt.Sprintf("... %d problems in all", len(probs)))
		}
		c.Status, c.Detail = CheckFail, strings.Join(probs, "; ")
		return c
	}
	c.Status, c.Detail = CheckPass, fmt.Sprintf("%d gold-free test records, exactly the canonical test split", len(got))
	return c
}
