package episode_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

func corpus(t *testing.T) (string, workers.Record) {
	t.Helper()
	dir, recs := synthtest.Corpus(t, synth.Options{Types: []string{"nearest_shelter"}, PerType: 1, Seed: 3})
	return dir, recs[0]
}

// solve runs the record's chain in a session and records the single
// agent's conversation.
func solve(t *testing.T, eng *runtime.Engine, rec workers.Record) *episode.SingleAgentEpisode {
	t.Helper()
	ctx := context.Background()
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := episode.Start(episode.Single, rec)
	if err != nil {
		t.Fatal(err)
	}
	steps := append(append([]workers.Step{}, rec.GTChain...), workers.Step{Tool: runtime.ToolFinalAnswer, Args: map[string]any{"answer_ref": runtime.AnswerRef}})
	for i, st := range steps {
		c.Act(st.Tool, st.Args)
		if i == len(steps)-1 {
			break // the resolved answer is the evaluator's
		}
		res, err := s.Call(ctx, st.Tool, st.Args)
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Trace()
		text, err := episode.NewObservation(episode.Single, st.Tool, res, tr[len(tr)-1].Artifacts).Text()
		if err != nil {
			t.Fatal(err)
		}
		c.Observe(st.Tool, text, false)
	}
	ep, err := episode.NewSingleAgentEpisode(episode.IdentityOf(rec, "traj_pending"), c)
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// renamedCopy copies a record's files under a new sample directory and
// returns the record of the copy (path-renamed, same bytes).
func renamedCopy(t *testing.T, dir string, rec workers.Record, sample string) workers.Record {
	t.Helper()
	b, _ := json.Marshal(rec)
	var cp workers.Record
	json.Unmarshal([]byte(strings.ReplaceAll(string(b), rec.SampleID, sample)), &cp)
	for name, h := range rec.Handles {
		for i, f := range h.Files {
			data, err := os.ReadFile(filepath.Join(dir, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(dir, cp.Handles[name].Files[i].Path)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return cp
}

func TestSingleAgentEpisodeRoundTrip(t *testing.T) {
	dir, rec := corpus(t)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	v, err := episode.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	ep := solve(t, eng, rec)
	line, err := v.Encode(episode.SingleAgentEpisodeRow, ep)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(ep.ToolSequence), len(rec.GTChain)+1; got != want {
		t.Fatalf("tool sequence %d, want %d", got, want)
	}
	turns := ep.Turns()
	if len(turns) != len(ep.ToolSequence) {
		t.Fatalf("%d turns for %d actions", len(turns), len(ep.ToolSequence))
	}
	for i, tr := range turns {
		if _, err := v.Encode(episode.TurnRow, tr); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		if i > 0 && len(tr.Messages) != 2+2*i {
			t.Fatalf("turn %d has %d context messages", i, len(tr.Messages))
		}
	}
	// A path-renamed copy (other id, other sample, same bytes) has the
	// same trajectory group; an altered question does not.
	cp := renamedCopy(t, dir, rec, "copy_sample_9")
	epc := solve(t, eng, cp)
	lc, err := v.Encode(episode.SingleAgentEpisodeRow, epc)
	if err != nil {
		t.Fatal(err)
	}
	g1, err := ep.GroupID()
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := epc.GroupID()
	if g1 != g2 || !strings.HasPrefix(g1, "traj_") {
		t.Fatalf("renamed copy: group %s vs %s", g1, g2)
	}
	// The written row fingerprints alike (the audit reads rows).
	fp, err := scoring.TrajectoryFingerprint(line.Bytes())
	if err != nil || scoring.TrajectoryGroupID(fp) != g1 {
		t.Fatalf("row fingerprint %s (%v), episode group %s", fp, err, g1)
	}
	if strings.Contains(string(lc.Bytes()), rec.SampleID) {
		t.Fatal("the copy's episode names the original sample")
	}
	other := cp
	other.Question += " Explain briefly."
	if g3, _ := solve(t, eng, other).GroupID(); g3 == g1 {
		t.Fatal("a different question shares the trajectory group")
	}
	// Nothing of the gold reaches the conversation.
	gold, _ := json.Marshal(rec.GTChain)
	for _, m := range ep.Messages {
		if m.Role == episode.RoleUser && (strings.Contains(m.Content, `"gt_chain"`) || strings.Contains(m.Content, string(rec.Answer)) || strings.Contains(m.Content, string(gold))) {
			t.Fatal("the question view carries gold")
		}
	}
}

func TestSchemasRejectBadRows(t *testing.T) {
	v, err := episode.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	id := `"id":"a","sample_id":"s","family":"routing","question_type":"nearest_shelter","split":"train","training_weight":1,"split_group_id":"s","trajectory_content_group_id":"traj_0"`
	msgs := `[{"role":"system","content":"x"},{"role":"user","content":"q"}]`
	good := `{` + id + `,"format":"geodisaster_sft_turn_v1","agent":"single","turn":0,"messages":` + msgs + `,"target":{"tool":"ReadData","args":{}}}`
	if err := v.Validate(episode.TurnRow, []byte(good)); err != nil {
		t.Fatalf("good row: %v", err)
	}
	for name, row := range map[string]string{
		"weight 0":            strings.Replace(good, `"training_weight":1`, `"training_weight":0`, 1),
		"unknown split":       strings.Replace(good, `"split":"train"`, `"split":"dev"`, 1),
		"no sample_id":        strings.Replace(good, `"sample_id":"s",`, ``, 1),
		"extra field":         strings.Replace(good, `"turn":0`, `"turn":0,"answer":{"v":1}`, 1),
		"specialist no index": strings.Replace(good, `"agent":"single"`, `"agent":"GA"`, 1),
		"single with index":   strings.Replace(good, `"turn":0`, `"turn":0,"delegation":1`, 1),
		"assistant content":   strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"assistant","content":"q"}`, 1),
		"tool without name":   strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"tool","content":"q"}`, 1),
		"tool without text":   strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"tool","tool":"ReadData"}`, 1),
		"user with action":    strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"user","action":{"tool":"ReadData","args":{}}}`, 1),
		"user without text":   strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"user"}`, 1),
		"assistant both":      strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"assistant","content":"q","action":{"tool":"ReadData","args":{}}}`, 1),
		"error without tool":  strings.Replace(good, `{"role":"user","content":"q"}`, `{"role":"user","content":"q","is_error":true}`, 1),
		"target without args": strings.Replace(good, `{"tool":"ReadData","args":{}}`, `{"tool":"ReadData"}`, 1),
		"not JSON":            good[:20],
	} {
		err := v.Validate(episode.TurnRow, []byte(row))
		var ve *episode.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestWriterIsAtomic(t *testing.T) {
	v, err := episode.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.jsonl")
	w, err := episode.Create(path, episode.TurnRow)
	if err != nil {
		t.Fatal(err)
	}
	row := episode.Turn{Identity: episode.Identity{ID: "a", SampleID: "s", Family: "routing", QuestionType: "nearest_shelter", Split: "train", TrainingWeight: 1, SplitGroupID: "s", TrajectoryContentGroupID: "traj_0"},
		Format: episode.FormatTurn, Agent: episode.AgentSingle,
		Messages: []episode.Message{{Role: episode.RoleSystem, Content: "x"}, {Role: episode.RoleUser, Content: "<q>&"}},
		Target:   episode.Action{Tool: "ReadData", Args: map[string]any{}}}
	if err := w.Write(v, row); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("rows visible before Close")
	}
	bad := row
	bad.Split = "dev"
	if err := w.Write(v, bad); err == nil {
		t.Fatal("invalid row written")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), `"<q>&"`) {
		t.Fatalf("file %q %v", b, err)
	}
	w2, _ := episode.Create(filepath.Join(dir, "other.jsonl"), episode.TurnRow)
	w2.Write(v, row)
	w2.Abort()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("aborted writer left files: %v", entries)
	}
}
