package runtime

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

func TestReadHashedMatchesReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 100, 256 << 10, 512<<10 - 1, 512 << 10, 512<<10 + 1, 1500000, 3 << 20} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*31 + i>>9)
		}
		p := filepath.Join(dir, "f")
		os.WriteFile(p, b, 0o644)
		got, sum, err := readHashed(p, nil, nil)
		if err != nil || !bytes.Equal(got, b) || sum != sha256.Sum256(b) {
			t.Fatalf("%d: %v", n, err)
		}
	}
	if _, _, err := readHashed(filepath.Join(dir, "nope"), nil, nil); err == nil {
		t.Fatal("no error")
	} else {
		_, e2 := os.ReadFile(filepath.Join(dir, "nope"))
		if err.Error() != e2.Error() {
			t.Fatal(err, e2)
		}
	}
	if _, _, err := readHashed(dir, nil, nil); err == nil {
		t.Fatal("dir")
	} else {
		_, e2 := os.ReadFile(dir)
		if err.Error() != e2.Error() {
			t.Fatal(err, e2)
		}
	}
}
