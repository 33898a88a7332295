package jpeg

import (
	"errors"
	"testing"
)

// TestDecodeRejects checks Decode's typed errors on streams that are not
// JPEG and on a progressive frame, which it leaves to image/jpeg.
func TestDecodeRejects(t *testing.T) {
	var fe FormatError
	if _, err := Decode([]byte("not a jpeg"), 16, 16); !errors.As(err, &fe) || IsUnsupported(err) {
		t.Errorf("garbage: %v", err)
	}
	// SOI, then SOF2 (progressive) for an 8x8 one-component frame.
	prog := []byte{0xFF, 0xD8, 0xFF, 0xC2, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0}
	if _, err := Decode(prog, 16, 16); !IsUnsupported(err) {
		t.Errorf("progressive: %v, want unsupported", err)
	}
}
