package geotiff

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// xorDecoder is a toy compression scheme for the registration test: each
// stored byte is the sample byte XOR 0x5A.
type xorDecoder struct{}

func (xorDecoder) Decode(src, dst []byte) error {
	if len(src) < len(dst) {
		return FormatError("xor: short block")
	}
	for i := range dst {
		dst[i] = src[i] ^ 0x5A
	}
	return nil
}

// xorFile returns a 4x2 8-bit strip image stored with compression 60000.
func xorFile() ([]byte, []byte) {
	pixels := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	file := []byte{'I', 'I', 42, 0, 8, 0, 0, 0}
	es := []Entry{
		LongEntry(TagImageWidth, 4),
		LongEntry(TagImageLength, 2),
		ShortsEntry(TagBitsPerSample, 8),
		ShortsEntry(TagCompression, 60000),
		ShortsEntry(TagPhotometric, 1),
		LongEntry(TagStripOffsets, 0), // patched below
		LongEntry(TagRowsPerStrip, 2),
		LongEntry(TagStripByteCounts, uint32(len(pixels))),
	}
	dataOff := uint32(len(file) + len(EncodeIFD(es, uint64(len(file)), false)))
	es[5] = LongEntry(TagStripOffsets, dataOff)
	file = append(file, EncodeIFD(es, uint64(len(file)), false)...)
	for _, p := range pixels {
		file = append(file, p^0x5A)
	}
	return file, pixels
}

// TestRegisterDecompressor decodes a scheme the package does not know
// once a Reader registers it, and checks that the registration stays with
// that Reader.
func TestRegisterDecompressor(t *testing.T) {
	file, pixels := xorFile()
	open := func(register bool) (*Image, error) {
		r, err := NewReader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		if register {
			r.RegisterDecompressor(60000, "XOR", func() BlockDecoder { return xorDecoder{} })
		}
		return r.Image()
	}
	var ue UnsupportedError
	if _, err := open(false); !errors.As(err, &ue) {
		t.Fatalf("unregistered scheme: %v, want an UnsupportedError", err)
	}
	img, err := open(true)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Structure().Compression; got != "XOR" {
		t.Errorf("compression name %q", got)
	}
	br := img.NewBlockReader(Limits{})
	defer br.Close()
	got := make([]uint8, 8)
	if err := ReadBlock(br, 0, 0, 0, got); err != nil || !bytes.Equal(got, pixels) {
		t.Fatalf("ReadBlock = %v, %v; want %v", got, err, pixels)
	}
	// A registered scheme has no streaming form: a block over the
	// streaming threshold is decoded whole, within MaxBlockBytes.
	big := img.NewBlockReader(Limits{StreamBlockBytes: 1})
	clear(got)
	if err := ReadBlock(big, 0, 0, 0, got); err != nil || !bytes.Equal(got, pixels) {
		t.Fatalf("ReadBlock over the streaming threshold = %v, %v", got, err)
	}
	big.Close()
	small := img.NewBlockReader(Limits{MaxBlockBytes: 4})
	var le *LimitError
	if err := ReadBlock(small, 0, 0, 0, got); !errors.As(err, &le) || !errors.As(err, &ue) {
		t.Fatalf("ReadBlock over MaxBlockBytes: %v, want a *LimitError", err)
	}
	small.Close()
	if err := ReadBlock(br, 0, 0, 0, make([]int16, 8)); err == nil {
		t.Error("a uint8 block read into []int16")
	}
	if err := ReadBlock(br, 0, 1, 0, got); err == nil {
		t.Error("block column 1 of 1 read")
	}
	if _, err := open(false); !errors.As(err, &ue) {
		t.Fatalf("a second Reader decodes the first one's scheme: %v", err)
	}
	if CompressionName(60000) != "unknown" {
		t.Error("the registration reached the package's table")
	}
}

// xorEncoder is xorDecoder's inverse.
type xorEncoder struct{}

func (xorEncoder) Encode(raw []byte) ([]byte, error) {
	out := make([]byte, len(raw))
	for i, b := range raw {
		out[i] = b ^ 0x5A
	}
	return out, nil
}

func (xorEncoder) Close() {}

// TestRegisterCompressor writes with a compressor an Encoder registers,
// reads the file back with the matching decompressor, and checks that the
// package's Write does not know the scheme.
func TestRegisterCompressor(t *testing.T) {
	band := []uint16{1, 2, 3, 500, 600, 700}
	opts := WriteOptions{Compression: "xor", TileSize: 16}
	if err := Write(&bytes.Buffer{}, PlanesOf(3, 2, band), opts); err == nil {
		t.Fatal("the package's Write accepted an unregistered compression")
	}
	e := NewEncoder()
	e.RegisterCompressor(60000, "XOR", func() BlockEncoder { return xorEncoder{} })
	var file bytes.Buffer
	if err := e.Write(&file, PlanesOf(3, 2, band), opts); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		t.Fatal(err)
	}
	r.RegisterDecompressor(60000, "XOR", func() BlockDecoder { return xorDecoder{} })
	img, err := r.Image()
	if err != nil {
		t.Fatal(err)
	}
	br := img.NewBlockReader(Limits{})
	defer br.Close()
	out := make([]byte, 3*2*2)
	if err := br.ReadWindow(0, 0, 0, []int{1}, Window{Width: 3, Height: 2}, [][]byte{out}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, asBytes(band)) {
		t.Errorf("read back %v", out)
	}
}

// TestReadBlockMatchesWindows reads the first block of every compact
// corpus file whole (ReadBlock, in memory and streamed) and checks it
// against per-band window reads of the same pixels.
func TestReadBlockMatchesWindows(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "conformance", "raster", "testdata", "*.tif"))
	if len(files) == 0 {
		t.Skip("compact corpus not found")
	}
	n := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		img, err := r.Image()
		if err != nil || img.DataType() != Uint8 {
			continue
		}
		bw, _ := img.BlockSize()
		rows, bs := img.BlockRows(0), img.BlockSamples()
		whole := map[int64][]uint8{}
		for _, stream := range []int64{0, 1} {
			br := img.NewBlockReader(Limits{StreamBlockBytes: stream})
			buf := make([]uint8, bw*rows*bs)
			err := ReadBlock(br, 0, 0, 0, buf)
			br.Close()
			if err != nil {
				t.Fatalf("%s (stream above %d): %v", filepath.Base(p), stream, err)
			}
			whole[stream] = buf
		}
		if !bytes.Equal(whole[0], whole[1]) {
			t.Errorf("%s: streamed ReadBlock differs", filepath.Base(p))
		}
		w := Window{Width: min(bw, img.Width()), Height: min(rows, img.Height())}
		br := img.NewBlockReader(Limits{})
		for s := 0; s < bs; s++ {
			out := make([]byte, w.Width*w.Height)
			if err := br.ReadWindow(0, 0, 0, []int{s + 1}, w, [][]byte{out}); err != nil {
				t.Fatalf("%s: %v", filepath.Base(p), err)
			}
			for y := 0; y < w.Height; y++ {
				for x := 0; x < w.Width; x++ {
					if got := whole[0][(y*bw+x)*bs+s]; got != out[y*w.Width+x] {
						t.Fatalf("%s: sample %d of pixel %d,%d: block %d, window %d", filepath.Base(p), s, x, y, got, out[y*w.Width+x])
					}
				}
			}
		}
		br.Close()
		n++
	}
	if n == 0 {
		t.Fatal("no uint8 corpus file read")
	}
	t.Logf("%d files", n)
}
