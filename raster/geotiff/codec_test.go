package geotiff

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// TestZstdOversizedThenDecodeAll decodes a ZSTD block holding more data
// than the block needs (the streaming path) and then a normal one with the
// same codec state: the stream must not be left open (DecodeAll would wait
// for it forever).
func TestZstdOversizedThenDecodeAll(t *testing.T) {
	big := make([]byte, 5000)
	for i := range big {
		big[i] = byte(i * 7 / 3)
	}
	enc, _ := zstd.NewWriter(nil)
	zbig := enc.EncodeAll(big, nil)
	zsmall := enc.EncodeAll(big[:1000], nil)
	enc.Close()
	done := make(chan error, 1)
	go func() {
		var c codecState
		dst := make([]byte, 1000)
		for i := 0; i < 3; i++ {
			for _, b := range []struct {
				name string
				z    []byte
			}{{"oversized", zbig}, {"normal", zsmall}} {
				clear(dst)
				if err := c.decompress(codecs, CompressionZSTD, b.z, dst); err != nil {
					done <- err
					return
				}
				if !bytes.Equal(dst, big[:1000]) {
					done <- fmt.Errorf("%s block: wrong bytes", b.name)
					return
				}
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ZSTD decoding hangs after an oversized block")
	}
}
