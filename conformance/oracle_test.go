package conformance_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

type oracleGolden struct {
	Family        string                     `json:"family"`
	Types         []string                   `json:"types"`
	RecordsSHA256 string                     `json:"records_sha256"`
	UserShaped    bool                       `json:"user_shaped"`
	Answers       map[string]json.RawMessage `json:"answers"`
}

// userShapedOutEnv names a directory where TestReplayMatchesNativeOracle
// writes the user-shaped corpora (one subdirectory per family), for
// oracle.py --user-shaped to answer.
const userShapedOutEnv = "GEODISASTER_USERSHAPED_OUT"

// TestReplayMatchesNativeOracle regenerates each family's synthetic corpus,
// replays it with the Go engine and requires every answer to equal, under
// the v2 scorer, both the generator's gold and the answer the native-stack
// oracle computed from the same files. goldens/oracle_usershaped_*.json do
// the same on the user-shaped corpora (synth.Options.UserShaped: OSM lines
// and polygons for types 12-28 D, xBD labels as a FeatureCollection with
// the unrounded concentration of types 34-35, routing chips in EPSG:4326
// for types 36-38).
func TestReplayMatchesNativeOracle(t *testing.T) {
	files, _ := filepath.Glob("goldens/oracle_*.json")
	if len(files) == 0 {
		t.Fatal("no oracle goldens in conformance/goldens")
	}
	covered := map[string]bool{}
	for _, f := range files {
		g := readGolden[oracleGolden](t, f)
		name := g.Family
		if g.UserShaped {
			name += "/user_shaped"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if out := os.Getenv(userShapedOutEnv); out != "" && g.UserShaped {
				dir = filepath.Join(out, g.Family)
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
			}
			recs, m := synthtest.Generate(t, dir, synth.Options{Types: g.Types, Seed: 1, UserShaped: g.UserShaped})
			if m.RecordsSHA256 != g.RecordsSHA256 {
				t.Fatalf("%s is stale: the synthetic %s corpus changed (records sha256 %s, goldens made from %s); regenerate with conformance/oracle/oracle.py", f, g.Family, m.RecordsSHA256, g.RecordsSHA256)
			}
			for _, r := range replayAgainstOracle(t, dir, recs, g.Answers) {
				covered[r.QuestionType] = true
			}
		})
	}
	for _, typ := range synth.SupportedTypes() {
		if !covered[typ] {
			t.Errorf("synthetic type %s has no oracle goldens", typ)
		}
	}
}

// replayAgainstOracle replays the records of the corpus in dir (writing
// artifacts to dir/_artifacts) and requires every answer to equal, under
// the v2 scorer, both its gold and the native oracle's answer in answers,
// with no read denied; it returns the results.
func replayAgainstOracle(t *testing.T, dir string, recs []workers.Record, answers map[string]json.RawMessage) []runtime.RecordResult {
	t.Helper()
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir, ArtifactDir: filepath.Join(dir, "_artifacts")})
	if err != nil {
		t.Fatal(err)
	}
	results := eng.Replay(context.Background(), recs, runtime.ReplayOptions{Workers: 2})
	if len(results) != len(answers) {
		t.Fatalf("replayed %d records, goldens have %d", len(results), len(answers))
	}
	for _, r := range results {
		if r.Status != "ok" {
			t.Errorf("%s: %s", r.ID, *r.Error)
			continue
		}
		if !r.Correct {
			t.Errorf("%s: differs from the generator's gold: %s", r.ID, r.Reason)
		}
		want, ok := answers[r.ID]
		if !ok {
			t.Errorf("%s: no oracle answer", r.ID)
			continue
		}
		if v := scoring.ScoreV2(want, r.Answer, scoring.DefaultAbsTol); !v.Correct {
			t.Errorf("%s: differs from the native oracle at %s: %s\n go:     %s\n oracle: %s", r.ID, v.Path, v.Reason, r.Answer, want)
		}
		if len(r.Denials) != 0 {
			t.Errorf("%s: %d read denials in a GT replay", r.ID, len(r.Denials))
		}
	}
	return results
}
