package deflate

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// FuzzInflate checks the DEFLATE decoder against the standard library:
// arbitrary input never panics, and whenever the standard library decodes
// a stream to at least n bytes, our first n bytes agree.
func FuzzInflate(f *testing.F) {
	for _, s := range codectest.Samples()[:12] {
		f.Add(codectest.ZlibCompress(f, s, 6), uint16(len(s)))
	}
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		var inf inflater
		dst := make([]byte, n)
		err := inf.inflateZlib(src, dst)
		r, zerr := zlib.NewReader(bytes.NewReader(src))
		if zerr != nil {
			return
		}
		want := make([]byte, n)
		k, rerr := io.ReadFull(r, want)
		if rerr == nil && k == int(n) && err == nil && !bytes.Equal(dst, want) {
			t.Fatalf("output differs from compress/zlib")
		}
		if rerr == nil && k == int(n) && err != nil && n > 0 {
			// compress/zlib only verifies the checksum at EOF; ours may
			// reject a stream it would have read a prefix of.
			if _, ok := err.(FormatError); !ok {
				t.Fatalf("untyped error %v", err)
			}
		}
	})
}
