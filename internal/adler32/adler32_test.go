package adler32

import (
	"bytes"
	"hash/adler32"
	"math/rand"
	"testing"
)

func TestAdler32MatchesStdlib(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	buf := make([]byte, 200000)
	r.Read(buf)
	check := func(p []byte) {
		t.Helper()
		if got, want := Checksum(p), adler32.Checksum(p); got != want {
			t.Fatalf("%d bytes: Checksum %08x, hash/adler32 %08x", len(p), got, want)
		}
	}
	for n := 0; n <= 70000; n++ {
		off := r.Intn(16)
		check(buf[off : off+n])
		if n > 300 {
			n += r.Intn(97)
		}
	}
	// Worst cases for the sums: all 0xff, long enough for many blocks.
	ff := bytes.Repeat([]byte{0xff}, 1<<20+13)
	for _, n := range []int{adlerBlock - 1, adlerBlock, adlerBlock + 1, 5552, 5553, 1 << 20, len(ff)} {
		check(ff[:n])
		check(buf[:min(n, len(buf))])
	}
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, 256<<10)
	rand.New(rand.NewSource(1)).Read(p)
	b.SetBytes(int64(len(p)))
	for i := 0; i < b.N; i++ {
		Checksum(p)
	}
}

func BenchmarkAdler32Stdlib(b *testing.B) {
	p := make([]byte, 256<<10)
	rand.New(rand.NewSource(1)).Read(p)
	b.SetBytes(int64(len(p)))
	for i := 0; i < b.N; i++ {
		adler32.Checksum(p)
	}
}

// TestUpdateContinues checks that Update continues a checksum across
// arbitrary splits.
func TestUpdateContinues(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	buf := make([]byte, 100000)
	r.Read(buf)
	for trial := 0; trial < 200; trial++ {
		n := r.Intn(len(buf))
		cut := r.Intn(n + 1)
		if got, want := Update(Checksum(buf[:cut]), buf[cut:n]), adler32.Checksum(buf[:n]); got != want {
			t.Fatalf("%d bytes cut at %d: %08x, want %08x", n, cut, got, want)
		}
	}
}
