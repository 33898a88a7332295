package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/testdir"
	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/workers"
)

// editLines replaces a file's rows by what edit returns.
func editLines(t *testing.T, path string, edit func(lines [][]byte) [][]byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")))
	if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rewrite changes the first row of a file for which change returns true;
// it returns the row's id.
func rewrite(t *testing.T, dir, rel string, change func(row map[string]any) bool) string {
	t.Helper()
	id := ""
	editLines(t, filepath.Join(dir, rel), func(lines [][]byte) [][]byte {
		for i, l := range lines {
			var row map[string]any
			if err := json.Unmarshal(l, &row); err != nil {
				t.Fatal(err)
			}
			if !change(row) {
				continue
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(row); err != nil {
				t.Fatal(err)
			}
			lines[i] = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			id = row["id"].(string)
			return lines
		}
		t.Fatalf("%s: no row to change", rel)
		return nil
	})
	return id
}

// dropRow removes the n-th row of a file and returns its id.
func dropRow(t *testing.T, dir, rel string, n int) string {
	t.Helper()
	var row struct{ ID string }
	editLines(t, filepath.Join(dir, rel), func(lines [][]byte) [][]byte {
		json.Unmarshal(lines[n], &row)
		return append(lines[:n], lines[n+1:]...)
	})
	return row.ID
}

// repeatRow writes row n of dir/rel a second time at the end of the
// file and returns its id.
func repeatRow(t *testing.T, dir, rel string, n int) string {
	t.Helper()
	var row struct{ ID string }
	editLines(t, filepath.Join(dir, rel), func(lines [][]byte) [][]byte {
		json.Unmarshal(lines[n], &row)
		return append(lines, lines[n])
	})
	return row.ID
}

func goldLeaf(t *testing.T, recs []workers.Record, id string) string {
	t.Helper()
	for _, r := range recs {
		if r.ID == id {
			var v map[string]any
			json.Unmarshal(r.Answer, &v)
			for _, k := range []string{"baseline_class", "answer", "status"} {
				if s, ok := v[k].(string); ok {
					return s
				}
			}
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	t.Fatalf("no record %s", id)
	return ""
}

// TestVerifyCatchesMutations checks that the zero-drift check finds each
// of the four mutations the issue names, and names the record, the field
// and the reason.
func TestVerifyCatchesMutations(t *testing.T) {
	f := newFixture(t)
	out, _ := f.export(t, f.recs)
	train := func(name string) string { return export.File(name, "train") }
	cases := []struct {
		name   string
		mutate func(dir string) string // returns the mutated record's id
		file   string
		field  string
		reason string
	}{
		{"core row drifted", func(dir string) string {
			return rewrite(t, dir, train(export.CoreTasks), func(row map[string]any) bool {
				row["gt_chain"].([]any)[0].(map[string]any)["tool"] = "PrepareScene"
				return true
			})
		}, train(export.CoreTasks), "gt_chain[0].tool", `"PrepareScene", the canonical record has "ReadData"`},
		{"core row dropped", func(dir string) string { return dropRow(t, dir, train(export.CoreTasks), 1) },
			train(export.CoreTasks), "", "missing: the canonical record has no core row"},
		{"core row in the other split", func(dir string) string {
			var row []byte
			editLines(t, filepath.Join(dir, train(export.CoreTasks)), func(lines [][]byte) [][]byte {
				row = lines[0]
				return lines[1:]
			})
			editLines(t, filepath.Join(dir, export.File(export.CoreTasks, "test")), func(lines [][]byte) [][]byte {
				return append([][]byte{row}, lines...)
			})
			var probe struct{ ID string }
			json.Unmarshal(row, &probe)
			return probe.ID
		}, train(export.CoreTasks), "", "missing: the canonical record has no core row"},
		{"argument changed in a tool sequence", func(dir string) string {
			return rewrite(t, dir, train(export.SingleAgentEpisodes), func(row map[string]any) bool {
				step := row["tool_sequence"].([]any)[0].(map[string]any)
				step["args"].(map[string]any)["role"] = "pre_post_altered"
				return true
			})
		}, train(export.SingleAgentEpisodes), "tool_sequence[0].args.role", "gt_chain[0] has"},
		{"argument changed in an SFT target", func(dir string) string {
			return rewrite(t, dir, train(export.PASFT), func(row map[string]any) bool {
				args := row["target"].(map[string]any)["args"].(map[string]any)
				if _, ok := args["input"]; !ok {
					return false
				}
				args["input"] = "work_9"
				return true
			})
		}, train(export.PASFT), "target.args.input", "its episode's action has"},
		{"single-agent episode repeated", func(dir string) string { return repeatRow(t, dir, train(export.SingleAgentEpisodes), 0) },
			train(export.SingleAgentEpisodes), "id", "a second single-agent episode of this record"},
		{"multi-agent episode repeated", func(dir string) string { return repeatRow(t, dir, train(export.MultiAgentEpisodes), 1) },
			train(export.MultiAgentEpisodes), "id", "a second multi-agent episode of this record"},
		{"row dropped", func(dir string) string { return dropRow(t, dir, train(export.GASFT), 2) },
			train(export.GASFT), "delegation 0 turn 2", "missing"},
		{"row dropped inside a conversation", func(dir string) string { return dropRow(t, dir, train(export.GASFT), 1) },
			train(export.GASFT), "delegation 0 turn 1", "missing"},
		{"weight changed", func(dir string) string {
			return rewrite(t, dir, train(export.MultiAgentEpisodes), func(row map[string]any) bool {
				row["training_weight"] = 0.5
				return true
			})
		}, train(export.MultiAgentEpisodes), "training_weight", "the canonical record has 1"},
		{"gold leaked into the question", func(dir string) string {
			var id string
			return rewrite(t, dir, train(export.SingleAgentEpisodes), func(row map[string]any) bool {
				id = row["id"].(string)
				m := row["messages"].([]any)[1].(map[string]any)
				m["content"] = strings.Replace(m["content"].(string), `"question":"`, `"question":"(reference: `+goldLeaf(t, f.recs, id)+`) `, 1)
				return true
			})
		}, train(export.SingleAgentEpisodes), "messages[1]", "leaks gold: gold value"},
		{"gold leaked into an observation", func(dir string) string {
			return rewrite(t, dir, train(export.SingleAgentSFT), func(row map[string]any) bool {
				msgs := row["messages"].([]any)
				if len(msgs) < 4 {
					return false
				}
				m := msgs[3].(map[string]any)
				var obs map[string]any
				json.Unmarshal([]byte(m["content"].(string)), &obs)
				for _, r := range f.recs {
					if r.ID == row["id"] {
						obs["answer"] = r.Answer
					}
				}
				b, _ := json.Marshal(obs)
				m["content"] = string(b)
				return true
			})
		}, train(export.SingleAgentSFT), "messages[3]", "leaks gold: the gold answer JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testdir.Copy(t, out)
			id := tc.mutate(dir)
			rep, err := export.Verify(dir, f.canon, f.val)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || len(rep.Drifts) == 0 {
				t.Fatal("mutation not caught")
			}
			d := rep.Drifts[0]
			if d.File != tc.file || d.ID != id || d.Field != tc.field || !strings.Contains(d.Reason, tc.reason) {
				t.Fatalf("first drift %q, want %s record %s field %s reason ~%q", d.String(), tc.file, id, tc.field, tc.reason)
			}
			t.Logf("caught: %s", d)
		})
	}
	// The unmutated export has zero drift, also when rows are written
	// with another key order.
	dir := testdir.Copy(t, out)
	rewrite(t, dir, train(export.ORCSFT), func(map[string]any) bool { return true })
	if rep, err := export.Verify(dir, f.canon, f.val); err != nil || len(rep.Drifts) != 1 || rep.Drifts[0].File != export.ManifestFile {
		t.Fatalf("re-encoded row: %v %+v", err, rep.Drifts)
	}
	if _, err := export.Verify(t.TempDir(), f.canon, f.val); err == nil {
		t.Fatal("a directory without a manifest verified")
	}
}
