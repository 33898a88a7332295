package zstd

import (
	"bufio"
	"bytes"
	"io"
	"testing"
)

// TestRoundTrip encodes a block, decodes it whole (exactly, into a
// prefix, and rejecting a block that ends early) and as a stream.
func TestRoundTrip(t *testing.T) {
	raw := bytes.Repeat([]byte("zstd block "), 500)
	c := Codec()
	enc := c.NewEncoder()
	defer enc.Close()
	z, err := enc.Encode(raw)
	if err != nil {
		t.Fatal(err)
	}
	dec := c.NewDecoder()
	dst := make([]byte, len(raw))
	if err := dec.Decode(z, dst); err != nil || !bytes.Equal(dst, raw) {
		t.Fatalf("Decode: %v", err)
	}
	if err := dec.Decode(z, dst[:100]); err != nil || !bytes.Equal(dst[:100], raw[:100]) {
		t.Fatalf("prefix: %v", err)
	}
	if err := dec.Decode(z, make([]byte, len(raw)+1)); err == nil {
		t.Error("a block shorter than wanted accepted")
	}
	r, release, err := c.NewReader(bufio.NewReader(bytes.NewReader(z)), int64(len(raw)), 1<<24)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("stream: %v", err)
	}
}
