package release

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// BuildFixture writes a synthetic corpus laid out like the release into
// dir: synth's records as data/core/geodisaster_2921_source_with_splits.jsonl,
// the gold-free projection of its test split as
// data/core/geodisaster_2921_test_inputs.jsonl, a Sen1Floods11 hydration
// manifest pinning every file under source_assets/sen1_flood/ at
// release_tools/manifests/sen1floods11_required_100.json, and its own
// manifest (FixtureManifestPath) pinning every file with its SHA-256. Run
// reports such a corpus as FIXTURE: its records digest is not canonical.
func BuildFixture(ctx context.Context, dir string, opts synth.Options) (*FixtureManifest, error) {
	sm, err := synth.Generate(ctx, dir, opts)
	if err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	core := filepath.Join(dir, filepath.FromSlash("data/core"))
	if err := os.MkdirAll(core, 0o755); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	canonical := filepath.Join(dir, filepath.FromSlash(CanonicalRecordsPath))
	if err := os.Rename(filepath.Join(dir, "records.jsonl"), canonical); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := os.Rename(filepath.Join(dir, "corpus.json"), filepath.Join(core, "synth_corpus.json")); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, "test_inputs.jsonl")); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	recs, err := workers.ReadRecordsFile(canonical, true)
	if err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	var test []workers.Record
	for _, r := range recs {
		if r.Split == "test" {
			test = append(test, r.TestInput())
		}
	}
	var sb strings.Builder
	if err := workers.WriteRecords(&sb, test); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(TestInputsPath)), []byte(sb.String()), 0o644); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := writeHydrationManifest(dir); err != nil {
		return nil, err
	}
	m := &FixtureManifest{Format: FixtureFormat, Status: runtime.StatusFixture, Generator: sm.Generator, Seed: sm.Seed, Inventory: inventoryOf(recs), Files: []FixtureFile{}}
	if m.RecordsSHA256, _, err = fileSHA256(canonical); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if m.TestInputsSHA256, _, err = fileSHA256(filepath.Join(dir, filepath.FromSlash(TestInputsPath))); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	skip := map[string]bool{CanonicalRecordsPath: true, TestInputsPath: true, FixtureManifestPath: true}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skip[rel] {
			return nil
		}
		sum, n, err := fileSHA256(p)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, FixtureFile{Path: rel, Size: n, SHA256: sum})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(FixtureManifestPath)), append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	return m, nil
}

// writeHydrationManifest pins every file under source_assets/sen1_flood/
// in a manifest of {"files": [{"path", "sha256", "bytes"}]}.
func writeHydrationManifest(dir string) error {
	type entry struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
		Bytes  int64  `json:"bytes"`
	}
	var files []entry
	base := filepath.Join(dir, filepath.FromSlash(Sen1FloodAssetsPrefix))
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		sum, n, err := fileSHA256(p)
		if err != nil {
			return err
		}
		files = append(files, entry{filepath.ToSlash(rel), sum, n})
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("fixture: hydration manifest: %w", err)
	}
	if len(files) == 0 {
		return nil
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	doc := map[string]any{"dataset": "sen1floods11", "note": "synthetic fixture: pins the generated Sen1Floods11-shaped inputs", "files": files}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return fmt.Errorf("fixture: hydration manifest: %w", err)
	}
	p := filepath.Join(dir, filepath.FromSlash(HydrationManifestPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("fixture: hydration manifest: %w", err)
	}
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("fixture: hydration manifest: %w", err)
	}
	return nil
}
