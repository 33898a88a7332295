package codec

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	enc := func() Encoder { return nil }
	dec := func() Decoder { return nil }
	r := NewRegistry(
		&Codec{Code: 8, Name: "DEFLATE", NewDecoder: dec, NewEncoder: enc},
		&Codec{Code: 1, Name: "NONE", NewDecoder: dec, NewEncoder: enc},
		&Codec{Code: 7, Name: "JPEG", Image: true},
		&Codec{Code: 6, Name: "OJPEG"},
	)
	if got := r.Name(7); got != "JPEG" {
		t.Errorf("Name(7) = %q", got)
	}
	if got := r.Name(99); got != "unknown" {
		t.Errorf("Name(99) = %q", got)
	}
	if r.Lookup(99) != nil || r.Lookup(6).Decodes() || !r.Lookup(7).Decodes() || !r.Lookup(8).Decodes() {
		t.Error("Lookup/Decodes disagree with the registered codecs")
	}
	var names []string
	for _, c := range r.Encoders() {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "NONE,DEFLATE" {
		t.Errorf("Encoders in code order: %v", names)
	}
	if c := r.Encoder("deflate"); c == nil || c.Code != 8 {
		t.Errorf("Encoder(deflate) = %v", c)
	}
	if r.Encoder("jpeg") != nil {
		t.Error("a codec without an encoder found by name")
	}
	r.Register(&Codec{Code: 6, Name: "OLDJPEG"})
	if r.Name(6) != "OLDJPEG" {
		t.Error("Register did not replace the codec of a code")
	}
}

func TestReadBlock(t *testing.T) {
	dst := make([]byte, 4)
	if err := ReadBlock(bytes.NewReader([]byte{1, 2, 3, 4, 5}), dst, "X"); err != nil || dst[3] != 4 {
		t.Fatalf("%v %v", err, dst)
	}
	err := ReadBlock(bytes.NewReader([]byte{1, 2}), dst, "X")
	var fe FormatError
	if !errors.As(err, &fe) || err.Error() != "raster: invalid format: X: block decodes to 2 bytes, want 4" {
		t.Fatalf("short data: %v", err)
	}
}
