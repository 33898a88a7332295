package hashedread

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// pattern returns n bytes that differ from chunk to chunk.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + i>>9)
	}
	return b
}

func TestReadFileMatchesOSReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 100, chunk, 2*chunk - 1, 2 * chunk, 2*chunk + 1, 1500000, 3 << 20} {
		b := pattern(n)
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, sum, err := ReadFile(p, nil, nil)
		if err != nil || !bytes.Equal(got, b) || sum != sha256.Sum256(b) {
			t.Fatalf("%d: %v", n, err)
		}
	}
	// The errors are os.ReadFile's, word for word.
	for _, p := range []string{filepath.Join(dir, "nope"), dir} {
		_, _, err := ReadFile(p, nil, nil)
		_, want := os.ReadFile(p)
		if err == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v, want %v", p, err, want)
		}
	}
}

// TestReadFileUsesAllocAndReportsLoadedBytes checks that a large file is
// read into alloc's buffer and that loaded sees every byte, once, before
// ReadFile returns; a small file is read into alloc's buffer too.
func TestReadFileUsesAllocAndReportsLoadedBytes(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{1000, 300 << 10, 3 << 20} {
		b := pattern(n)
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var given []byte
		alloc := func(k int) []byte {
			given = make([]byte, k)
			for i := range given {
				given[i] = 0xAA // contents are unspecified
			}
			return given
		}
		var seen [][]byte
		got, sum, err := ReadFile(p, alloc, func(d []byte) { seen = append(seen, bytes.Clone(d)) })
		if err != nil || !bytes.Equal(got, b) || sum != sha256.Sum256(b) {
			t.Fatalf("%d: %v", n, err)
		}
		if len(seen) != 1 || !bytes.Equal(seen[0], b) {
			t.Fatalf("%d: loaded called %d times", n, len(seen))
		}
		if given == nil {
			t.Fatalf("%d: alloc not used", n)
		}
		if &got[0] != &given[0] {
			t.Fatalf("%d: the bytes are not in alloc's buffer", n)
		}
	}
}

func BenchmarkReadFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "f")
	data := pattern(4 << 20)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := ReadFile(p, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadFileOfUnknownSize reads a file whose size Stat does not know
// (Linux's /proc files report 0) into a buffer that grows past alloc's.
func TestReadFileOfUnknownSize(t *testing.T) {
	const p = "/proc/version"
	want, err := os.ReadFile(p)
	if err != nil || len(want) == 0 {
		t.Skipf("no %s here", p)
	}
	got, sum, err := ReadFile(p, func(n int) []byte { return make([]byte, n) }, nil)
	if err != nil || !bytes.Equal(got, want) || sum != sha256.Sum256(want) {
		t.Fatalf("read %q (%v), want %q", got, err, want)
	}
}

// BenchmarkReadFileSmall reads a 300 KB file (the size of a typical
// declared tile) with a fresh buffer per read and with a recycled one, as
// the runtime's buffer pool gives.
func BenchmarkReadFileSmall(b *testing.B) {
	p := filepath.Join(b.TempDir(), "f")
	data := pattern(300 << 10)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("make", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := ReadFile(p, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recycled", func(b *testing.B) {
		buf := make([]byte, 512<<10)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := ReadFile(p, func(n int) []byte { return buf[:n] }, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
