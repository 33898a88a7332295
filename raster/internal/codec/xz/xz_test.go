package xz

import (
	"errors"
	"testing"
)

// TestHeaderErrors checks that streams without a usable block header fail
// with typed errors before any decoding.
func TestHeaderErrors(t *testing.T) {
	hdr := []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0, 0, 0xff, 0x12, 0xd9, 0x41}
	for name, src := range map[string][]byte{
		"empty":          nil,
		"not xz":         []byte("hello, world"),
		"no block":       append(append([]byte(nil), hdr...), 0),
		"truncated head": append(append([]byte(nil), hdr...), 2),
	} {
		err := Codec().NewDecoder().Decode(src, make([]byte, 16))
		var fe FormatError
		var ue UnsupportedError
		if !errors.As(err, &fe) && !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a typed error", name, err)
		}
	}
}
