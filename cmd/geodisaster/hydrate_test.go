package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

func TestHydrateUsage(t *testing.T) {
	if code, _, _ := runCLI(t, "", "hydrate"); code != kit.ExitUsage {
		t.Errorf("no dataset: exit %d", code)
	}
	if code, _, errb := runCLI(t, "", "hydrate", "sen2floods"); code != kit.ExitUsage || !strings.Contains(errb, "unknown dataset") {
		t.Errorf("unknown dataset: exit %d %s", code, errb)
	}
	if code, _, _ := runCLI(t, "", "hydrate", "sen1floods11", "--source", "x"); code != kit.ExitUsage {
		t.Errorf("no --dest: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "hydrate", "--help"); code != kit.ExitOK {
		t.Errorf("--help: exit %d", code)
	}
	dest := t.TempDir()
	if code, _, errb := runCLI(t, "", "hydrate", "sen1floods11", "--dest", dest, "--verify-only"); code != kit.ExitCannotRun || !strings.Contains(errb, "missing") {
		t.Errorf("verify-only on an empty destination: exit %d %s", code, errb)
	}
}

func TestHydrateRealChip(t *testing.T) {
	src := filepath.Join("..", "..", "..", "shared", "data", "sen1floods11")
	if _, err := os.Stat(filepath.Join(src, "Spain_7370579", "S1Hand.tif")); err != nil {
		t.Skipf("corpus absent: %s", src)
	}
	dest := t.TempDir()
	code, out, errb := runCLI(t, "", "hydrate", "sen1floods11", "--source", src, "--dest", dest, "--json")
	if code != kit.ExitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var rep struct {
		OK    bool `json:"ok"`
		Files []struct {
			Path, Status, SHA256 string
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || !rep.OK || len(rep.Files) != 1 || rep.Files[0].Status != "written" {
		t.Fatalf("%s %v", out, err)
	}
	if code, out, _ := runCLI(t, "", "hydrate", "sen1floods11", "--dest", dest, "--verify-only"); code != kit.ExitOK || !strings.Contains(out, "verified") {
		t.Errorf("verify-only: exit %d %s", code, out)
	}
	p := filepath.Join(dest, filepath.FromSlash(rep.Files[0].Path))
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errb := runCLI(t, "", "hydrate", "sen1floods11", "--source", src, "--dest", dest); code != kit.ExitFailure || !strings.Contains(errb, "refusing to overwrite") {
		t.Errorf("tampered destination: exit %d %s", code, errb)
	}
}
