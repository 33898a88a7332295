package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

// auditRecord is one canonical-format record line for the split audit.
func auditRecord(id, split, sample, question string, weight string) string {
	return `{"id":"` + id + `","sample_id":"` + sample + `","family":"xbd","question_type":"xbd_q1","split":"` + split +
		`","split_group_id":"xbd/` + sample + `","training_weight":` + weight + `,"question":"` + question +
		`","handles":{"img_1":{"kind":"input","files":[{"path":"source_assets/xbd/` + sample + `/post.tif"}]}},` +
		`"gt_chain":[{"tool":"ReadData","args":{"handle":"img_1"},"output":"scene_1"}],"answer":{"count":1}}`
}

func TestAuditSplitsCommand(t *testing.T) {
	dir := t.TempDir()
	clean := []string{
		auditRecord("a1", "train", "s1", "q one", "0.5"),
		auditRecord("a2", "train", "s2", "q one", "0.5"),
		auditRecord("b1", "test", "s3", "q two", "1"),
	}
	cleanPath := cmdtest.WriteFile(t, dir, "clean.jsonl", strings.Join(clean, "\n")+"\n")
	code, out, stderr := cmdtest.Run(t, Commands(), "", "audit-splits", "--records", cleanPath)
	if code != kit.ExitOK || !strings.Contains(out, "PASS") {
		t.Fatalf("clean corpus: exit %d\n%s%s", code, out, stderr)
	}
	// A deliberately leaked test record reusing train sample s1.
	leaked := append(clean, auditRecord("x1", "test", "s1", "q three", "1"))
	leakPath := cmdtest.WriteFile(t, dir, "leak.jsonl", strings.Join(leaked, "\n")+"\n")
	var a struct {
		OK         bool           `json:"ok"`
		LeakCounts map[string]int `json:"leak_counts"`
		Leaks      []struct {
			Kind string              `json:"kind"`
			IDs  map[string][]string `json:"ids"`
		} `json:"leaks"`
	}
	cmdtest.RunJSON(t, Commands(), kit.ExitFailure, &a, "audit-splits", "--records", leakPath, "--json")
	if a.OK || a.LeakCounts["split_group_id"] != 1 || a.LeakCounts["sample"] != 1 || a.LeakCounts["declared_path"] != 1 {
		t.Errorf("leak counts %v", a.LeakCounts)
	}
	for _, l := range a.Leaks {
		if strings.Join(l.IDs["test"], ",") != "x1" || strings.Join(l.IDs["train"], ",") != "a1" {
			t.Errorf("leak %+v does not name x1 and a1", l)
		}
	}
	empty := cmdtest.WriteFile(t, dir, "empty.jsonl", "")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"audit-splits"}, kit.ExitUsage},
		{[]string{"audit-splits", "--records", empty}, kit.ExitCannotRun},
		{[]string{"audit-splits", "--records", filepath.Join(dir, "absent")}, kit.ExitCannotRun},
	} {
		if code, _, _ := cmdtest.Run(t, Commands(), "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}

func TestSealCommands(t *testing.T) {
	root := t.TempDir()
	corpus := filepath.Join(root, "corpus")
	for p, data := range map[string]string{"a.txt": "aaaa", "sub/b.txt": "bbbb", "sub/c.txt": "cc", "d.txt": "d"} {
		full := filepath.Join(corpus, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seal := filepath.Join(root, "seal.json")
	if code, out, stderr := cmdtest.Run(t, Commands(), "", "seal", "--dir", corpus, "--out", seal); code != kit.ExitOK || !strings.Contains(out, "sealed 4 files") {
		t.Fatalf("seal: exit %d %s %s", code, out, stderr)
	}
	if code, out, _ := cmdtest.Run(t, Commands(), "", "verify-seal", "--dir", corpus, "--seal", seal); code != kit.ExitOK {
		t.Fatalf("verify intact: exit %d\n%s", code, out)
	}
	// The four deltas.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("aaab"), 0o644))      // changed
	must(os.WriteFile(filepath.Join(corpus, "sub/b.txt"), []byte("bbbbb"), 0o644)) // resized
	must(os.WriteFile(filepath.Join(corpus, "sub/new.txt"), []byte("n"), 0o644))   // added
	must(os.Remove(filepath.Join(corpus, "d.txt")))                                // removed
	var rep struct {
		OK bool `json:"ok"`
		D  struct {
			Changed, Resized, Added, Removed []string
		} `json:"diff"`
	}
	cmdtest.RunJSON(t, Commands(), kit.ExitFailure, &rep, "verify-seal", "--dir", corpus, "--seal", seal, "--json")
	got := strings.Join([]string{strings.Join(rep.D.Changed, ","), strings.Join(rep.D.Resized, ","), strings.Join(rep.D.Added, ","), strings.Join(rep.D.Removed, ",")}, "|")
	if rep.OK || got != "a.txt|sub/b.txt|sub/new.txt|d.txt" {
		t.Errorf("diff %s", got)
	}
	// Refusals: empty corpus, manifest inside the corpus, missing flags.
	emptyDir := filepath.Join(root, "empty")
	must(os.MkdirAll(filepath.Join(emptyDir, "sub"), 0o755))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"seal", "--dir", emptyDir, "--out", filepath.Join(root, "e.json")}, kit.ExitCannotRun},
		{[]string{"seal", "--dir", corpus, "--out", filepath.Join(corpus, "seal.json")}, kit.ExitUsage},
		{[]string{"seal", "--dir", corpus}, kit.ExitUsage},
		{[]string{"verify-seal", "--dir", corpus}, kit.ExitUsage},
		{[]string{"verify-seal", "--dir", corpus, "--seal", filepath.Join(root, "absent.json")}, kit.ExitCannotRun},
	} {
		if code, _, stderr := cmdtest.Run(t, Commands(), "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "e.json")); err == nil {
		t.Error("a seal was written for an empty corpus")
	}
}
