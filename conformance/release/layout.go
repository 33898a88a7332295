package release

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Release layout (spec section 2, 6 and 10). Paths are repository-relative
// to the release root.
const (
	// CanonicalRecordsPath is the canonical file, the sole authority.
	CanonicalRecordsPath = "data/core/geodisaster_2921_source_with_splits.jsonl"
	// TestInputsPath is the agent-visible, gold-free test file.
	TestInputsPath = "data/core/geodisaster_2921_test_inputs.jsonl"
	// PolicyPath is the release's executable scoring authority.
	PolicyPath = "data/core/scoring_policy_43.json"
	// HydrationManifestPath is the pinned Sen1Floods11 manifest a public
	// release retains (spec section 10).
	HydrationManifestPath = "release_tools/manifests/sen1floods11_required_100.json"
	// FixtureManifestPath is the manifest of a synthetic release-shaped
	// corpus written by BuildFixture; the real release has none.
	FixtureManifestPath = "data/core/fixture_manifest.json"
	// Sen1FloodAssetsPrefix is the payload a public archive excludes and
	// the hydrator restores (spec section 10).
	Sen1FloodAssetsPrefix = "source_assets/sen1_flood/"

	// CanonicalSHA256 is the published SHA-256 of CanonicalRecordsPath.
	CanonicalSHA256 = "03988b960e6b09ae01fb622fe45b35d763eb705485cddc3cea68bcac7ae63fe1"
	// CanonicalSpecSentence is the spec sentence that publishes it.
	CanonicalSpecSentence = "Canonical SHA-256: `03988b960e6b09ae01fb622fe45b35d763eb705485cddc3cea68bcac7ae63fe1`"
)

// Inventory is a corpus's record census.
type Inventory struct {
	// Records is the number of records.
	Records int `json:"records"`
	// Types is the number of distinct question types.
	Types int `json:"types"`
	// Train counts the records of the train split.
	Train int `json:"train"`
	// Test counts the records of the test split.
	Test int `json:"test"`
	// OtherSplit counts records whose split is neither train nor test.
	OtherSplit int `json:"other_split"`
}

// CanonicalInventory returns the published inventory (spec section 2):
// "Inventory: 2,921 records, 43 logical question types, 2,629 train and
// 292 public-reference test records."
func CanonicalInventory() Inventory {
	return Inventory{Records: 2921, Types: 43, Train: 2629, Test: 292}
}

// InventorySpecSentence is the spec sentence CanonicalInventory encodes.
const InventorySpecSentence = "Inventory: 2,921 records, 43 logical question types, 2,629 train and 292 public-reference test records."

// Diff lists the fields of got that differ from want, as "field got G,
// want W" strings; it is empty when they agree.
func (want Inventory) Diff(got Inventory) []string {
	var out []string
	add := func(name string, g, w int) {
		if g != w {
			out = append(out, fmt.Sprintf("%s: got %d, want %d", name, g, w))
		}
	}
	add("records", got.Records, want.Records)
	add("types", got.Types, want.Types)
	add("train", got.Train, want.Train)
	add("test", got.Test, want.Test)
	add("other_split", got.OtherSplit, want.OtherSplit)
	return out
}

// fileSHA256 returns the hex SHA-256 and size of a file.
func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// resolveInside maps a repository-relative path to the file it names under
// root (root already symlink-resolved and absolute). It fails with
// errOutsideRoot when the path, after resolving symlinks, leaves the root,
// and with an os.ErrNotExist-wrapping error when it is absent.
func resolveInside(root, rel string) (string, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", err
	}
	inside, err := filepath.Rel(root, real)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
		return "", fmt.Errorf("%s resolves to %s: %w", rel, real, errOutsideRoot)
	}
	return real, nil
}

var errOutsideRoot = errors.New("outside the release root")
