package deflate

import (
	"fmt"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

func TestInflateMatchesStdlib(t *testing.T) {
	var f inflater
	for i, in := range codectest.Samples() {
		for _, level := range []int{0, 1, 6, 9, -2} {
			z := codectest.ZlibCompress(t, in, level)
			codectest.CheckDecoder(t, fmt.Sprintf("sample %d level %d", i, level), f.inflateZlib, z, in)
			dst := make([]byte, len(in))
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
