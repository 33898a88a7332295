package geotiff

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

// TestEncodeReadIFD writes a classic and a BigTIFF directory with inline
// and out-of-line values and reads them back.
func TestEncodeReadIFD(t *testing.T) {
	for _, big := range []bool{false, true} {
		var file []byte
		if big {
			file = []byte{'I', 'I', 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0}
		} else {
			file = []byte{'I', 'I', 42, 0, 8, 0, 0, 0}
		}
		es := []Entry{
			ShortsEntry(TagImageWidth, 300),
			LongEntry(TagImageLength, 70000),
			ShortsEntry(TagBitsPerSample, 16, 16, 16, 16, 16),
			DoublesEntry(TagModelPixelScale, 0.5, 0.25, 0),
			ASCIIEntry(TagSoftware, "geodisaster"),
		}
		file = append(file, EncodeIFD(es, uint64(len(file)), big)...)
		r := bytes.NewReader(file)
		h, err := ReadHeader(r, int64(len(file)))
		if err != nil || h.Big != big || h.ByteOrder != binary.LittleEndian {
			t.Fatalf("big=%v: header %+v %v", big, h, err)
		}
		d, err := ReadIFD(r, int64(len(file)), h, h.FirstIFD)
		if err != nil {
			t.Fatalf("big=%v: %v", big, err)
		}
		if w, _ := d.Uint(TagImageWidth, 0); w != 300 {
			t.Errorf("width %d", w)
		}
		if l, _ := d.Uint(TagImageLength, 0); l != 70000 {
			t.Errorf("length %d", l)
		}
		if bps, _ := d.Uints(TagBitsPerSample); !slices.Equal(bps, []uint64{16, 16, 16, 16, 16}) {
			t.Errorf("bits per sample %v", bps)
		}
		if s, _ := d.Floats(TagModelPixelScale); !slices.Equal(s, []float64{0.5, 0.25, 0}) {
			t.Errorf("pixel scale %v", s)
		}
		if d.ASCII(TagSoftware) != "geodisaster" || !d.Has(TagSoftware) || d.Has(TagPredictor) || d.Next != 0 {
			t.Errorf("software %q, next %d", d.ASCII(TagSoftware), d.Next)
		}
	}
	var fe FormatError
	if _, err := ReadHeader(bytes.NewReader([]byte("MM\x00")), 3); !errors.As(err, &fe) {
		t.Errorf("short header: %v", err)
	}
}
