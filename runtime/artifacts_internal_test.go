package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteArtifactPaths writes artifacts through every way WriteArtifact
// has (small, large with and without the session's helper awake, a
// caller's digest) and checks each file, its mode, its digest and its
// locator, and that no temporary file is left.
func TestWriteArtifactPaths(t *testing.T) {
	out := t.TempDir()
	s, env := testSession(t, t.TempDir(), Config{ArtifactDir: out})
	large := bytes.Repeat([]byte("0123456789abcdef"), hashAsideMin/8)
	for _, c := range []struct {
		name   string
		data   []byte
		team   bool
		digest bool
	}{
		{"small.json", []byte(`{"a":1}`), false, false},
		{"large.tif", large, false, false},
		{"large_team.tif", large[1:], true, false},
		{"summed.png", large[2:], false, true},
	} {
		if c.team {
			env.Team()
		}
		var sum func() [32]byte
		if c.digest {
			sum = func() [32]byte { return sha256.Sum256(c.data) }
		}
		art, err := env.WriteArtifact(c.name, c.data, sum)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := sha256.Sum256(c.data)
		if art.SHA256 != hex.EncodeToString(want[:]) || art.Size != int64(len(c.data)) || art.Name != c.name ||
			art.Locator != "generated-artifact://r_1/"+c.name {
			t.Errorf("%s: %+v", c.name, art)
		}
		p := filepath.Join(out, "r_1", c.name)
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, c.data) {
			t.Fatalf("%s: file %v", c.name, err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != OutputFileMode {
			t.Errorf("%s: mode %v", c.name, fi.Mode())
		}
	}
	ents, _ := os.ReadDir(filepath.Join(out, "r_1"))
	if len(ents) != 4 {
		t.Errorf("%d entries in the artifact directory, want 4 (no temporary files)", len(ents))
	}
	if u := s.Usage(); u.ArtifactBytes != int64(7+3*len(large)-3) {
		t.Errorf("usage %+v", u)
	}
}

// TestWriteArtifactKeepsOrReplaces checks a rerun into the same
// directory: an artifact that already holds the bytes is kept (the same
// inode), one that differs is replaced, and a symbolic link at the name is
// replaced by a file without its target being touched.
func TestWriteArtifactKeepsOrReplaces(t *testing.T) {
	out := t.TempDir()
	_, env := testSession(t, t.TempDir(), Config{ArtifactDir: out})
	adir := filepath.Join(out, "r_1")
	target := filepath.Join(t.TempDir(), "target")
	writeFiles(t, adir, map[string]string{"same.json": "same", "other.json": "old"})
	if err := os.WriteFile(target, []byte("link"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(adir, "link.json")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	before, _ := os.Stat(filepath.Join(adir, "same.json"))
	for name, data := range map[string]string{"same.json": "same", "other.json": "new", "link.json": "link"} {
		if _, err := env.WriteArtifact(name, []byte(data), nil); err != nil {
			t.Fatal(err)
		}
		li, err := os.Lstat(filepath.Join(adir, name))
		if err != nil || !li.Mode().IsRegular() {
			t.Fatalf("%s: %v %v", name, li, err)
		}
		if b, _ := os.ReadFile(filepath.Join(adir, name)); string(b) != data {
			t.Fatalf("%s holds %q", name, b)
		}
	}
	after, _ := os.Stat(filepath.Join(adir, "same.json"))
	if !os.SameFile(before, after) {
		t.Error("an identical artifact was rewritten")
	}
	if b, _ := os.ReadFile(target); string(b) != "link" {
		t.Error("the symbolic link's target was written")
	}
}

// TestWriteArtifactRefuses checks names that are not plain file names and
// an artifact over the session's limit: errors, with nothing written.
func TestWriteArtifactRefuses(t *testing.T) {
	out := t.TempDir()
	s, env := testSession(t, t.TempDir(), Config{ArtifactDir: out})
	for _, name := range []string{"", "a/b.json", "../x.json", "/abs.json", ".."} {
		if _, err := env.WriteArtifact(name, []byte("x"), nil); err == nil || !strings.Contains(err.Error(), "plain file name") {
			t.Errorf("name %q: %v", name, err)
		}
	}
	s.limits.ArtifactBytes = 10
	if _, err := env.WriteArtifact("ok.json", []byte("12345678"), nil); err != nil {
		t.Fatal(err)
	}
	var le *LimitError
	if _, err := env.WriteArtifact("over.json", []byte("123"), nil); !errors.As(err, &le) || le.Limit != LimitArtifactBytes || le.Used != 8 || le.Need != 3 {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "r_1", "over.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused artifact written: %v", err)
	}
}

// TestTemporaryArtifactDirectory checks that a session without an
// artifact directory writes into a temporary one that Close removes.
func TestTemporaryArtifactDirectory(t *testing.T) {
	s, env := testSession(t, t.TempDir(), Config{})
	if _, err := env.WriteArtifact("a.json", []byte("{}"), nil); err != nil {
		t.Fatal(err)
	}
	tmp := s.artifactDir
	if _, err := os.Stat(filepath.Join(tmp, "a.json")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary artifact directory left: %v", err)
	}
}
