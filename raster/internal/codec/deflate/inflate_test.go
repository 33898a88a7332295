package deflate

import (
	"bytes"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

func TestInflateMatchesStdlib(t *testing.T) {
	var f inflater
	for i, in := range codectest.Samples() {
		for _, level := range []int{0, 1, 6, 9, -2} {
			z := codectest.ZlibCompress(t, in, level)
			dst := make([]byte, len(in))
			if err := f.inflateZlib(z, dst); err != nil {
				t.Fatalf("sample %d (%d bytes) level %d: %v", i, len(in), level, err)
			}
			if !bytes.Equal(dst, in) {
				t.Fatalf("sample %d (%d bytes) level %d: output differs", i, len(in), level)
			}
			// Asking for less output than the stream holds is not an error.
			if len(in) > 10 {
				short := make([]byte, len(in)/2)
				if err := f.inflateZlib(z, short); err != nil || !bytes.Equal(short, in[:len(short)]) {
					t.Fatalf("sample %d level %d: prefix decode: %v", i, level, err)
				}
			}
			// Asking for more is.
			if err := f.inflateZlib(z, make([]byte, len(in)+1)); err == nil {
				t.Fatalf("sample %d level %d: over-long output accepted", i, level)
			}
			// Truncation and corruption are errors, never panics.
			if len(z) > 6 {
				if err := f.inflateZlib(z[:len(z)-5], dst); err == nil && len(in) > 0 {
					t.Fatalf("sample %d level %d: truncated stream accepted", i, level)
				}
				bad := append([]byte(nil), z...)
				bad[len(bad)-1] ^= 1
				if err := f.inflateZlib(bad, dst); err == nil {
					t.Fatalf("sample %d level %d: bad checksum accepted", i, level)
				}
			}
		}
	}
}
