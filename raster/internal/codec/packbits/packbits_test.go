package packbits

import (
	"bufio"
	"bytes"
	"io"
	"testing"
)

// TestDecode decodes TIFF 6.0's PackBits example (section 9) whole and as
// a stream, and rejects data that ends early.
func TestDecode(t *testing.T) {
	src := []byte{0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7, 0xAA}
	want := []byte{0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
		0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA}
	c := Codec()
	dst := make([]byte, len(want))
	if err := c.NewDecoder().Decode(src, dst); err != nil || !bytes.Equal(dst, want) {
		t.Fatalf("Decode: %v %x", err, dst)
	}
	r, release, err := c.NewReader(bufio.NewReader(bytes.NewReader(src)), int64(len(want)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("stream: %v %x", err, got)
	}
	if err := c.NewDecoder().Decode(src[:8], dst); err == nil {
		t.Error("short data accepted")
	}
}
