package xbd

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"

	engineadler32 "github.com/geodisaster/engine/internal/adler32"
)

// pngChunkBytes encodes one PNG chunk.
func pngChunkBytes(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

// grayPNGParts builds the pieces of an 8-bit gray PNG from raw filtered
// rows: the signature and IHDR, and the zlib stream of the rows.
func grayPNGParts(w, h int, raw []byte) (head, stream []byte) {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	head = append([]byte(pngSignature), pngChunkBytes("IHDR", ihdr)...)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	return head, z.Bytes()
}

// grayPNG is a PNG of raw filtered rows with the stream split into IDAT
// chunks of at most split bytes (one chunk when split is 0).
func grayPNG(w, h int, raw []byte, split int) []byte {
	head, stream := grayPNGParts(w, h, raw)
	b := head
	if split <= 0 {
		split = len(stream) + 1
	}
	for len(stream) > 0 {
		n := min(split, len(stream))
		b = append(b, pngChunkBytes("IDAT", stream[:n])...)
		stream = stream[n:]
	}
	return append(b, pngChunkBytes("IEND", nil)...)
}

func refPaeth(a, b, c int) int {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// filterRows filters the rows of pix (w bytes each) with the PNG filter
// types fts (one per row), the spec's reference arithmetic.
func filterRows(pix []byte, w int, fts []byte) []byte {
	h := len(pix) / w
	out := make([]byte, 0, h*(w+1))
	at := func(x, y int) int {
		if x < 0 || y < 0 {
			return 0
		}
		return int(pix[y*w+x])
	}
	for y := 0; y < h; y++ {
		ft := fts[y]
		out = append(out, ft)
		for x := 0; x < w; x++ {
			a, b, c := at(x-1, y), at(x, y-1), at(x-1, y-1)
			var pred int
			switch ft {
			case 1:
				pred = a
			case 2:
				pred = b
			case 3:
				pred = (a + b) / 2
			case 4:
				pred = refPaeth(a, b, c)
			}
			out = append(out, byte(at(x, y)-pred))
		}
	}
	return out
}

// blockyPixels is a w x h frame of background 0 with random rectangles of
// values from vals, the shape of a damage mask.
func blockyPixels(rng *rand.Rand, w, h, rects int, vals []byte) []byte {
	pix := make([]byte, w*h)
	for range rects {
		x0, y0 := rng.IntN(w), rng.IntN(h)
		x1, y1 := min(w, x0+1+rng.IntN(40)), min(h, y0+1+rng.IntN(40))
		v := vals[rng.IntN(len(vals))]
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				pix[y*w+x] = v
			}
		}
	}
	return pix
}

func TestUnfilterGray8MatchesImagePNG(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, w := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 100, 1024} {
		for trial := 0; trial < 20; trial++ {
			h := 1 + rng.IntN(12)
			raw := make([]byte, 0, h*(w+1))
			for y := 0; y < h; y++ {
				raw = append(raw, byte(rng.IntN(5)))
				for x := 0; x < w; x++ {
					// Mostly zero deltas (the fast runs), some small, some any byte.
					var v byte
					switch r := rng.IntN(10); {
					case r < 6:
					case r < 9:
						v = byte(rng.IntN(5))
					default:
						v = byte(rng.IntN(256))
					}
					raw = append(raw, v)
				}
			}
			img, err := png.Decode(bytes.NewReader(grayPNG(w, h, raw, 0)))
			if err != nil {
				t.Fatal(err)
			}
			want := img.(*image.Gray).Pix
			pr := make([]byte, w)
			got := make([]byte, 0, w*h)
			for y := 0; y < h; y++ {
				row := append([]byte(nil), raw[y*(w+1):(y+1)*(w+1)]...)
				if !unfilterGray8(row[0], row[1:], pr) {
					t.Fatalf("filter %d refused", row[0])
				}
				got = append(got, row[1:]...)
				pr = row[1:]
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("w=%d h=%d: rows differ from image/png", w, h)
			}
		}
	}
	if unfilterGray8(5, make([]byte, 3), make([]byte, 3)) {
		t.Fatal("filter type 5 accepted")
	}
}

// refCounts is the histogram of row's codes 0-4 (false for another byte).
func refCounts(row []byte) ([5]int64, bool) {
	var h [5]int64
	for _, v := range row {
		if v > 4 {
			return h, false
		}
		h[v]++
	}
	return h, true
}

func TestRecountRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 100; n++ {
		prev, row := make([]byte, n), make([]byte, n)
		for i := range row {
			prev[i] = byte(rng.IntN(5))
			row[i] = prev[i]
			if rng.IntN(4) == 0 {
				row[i] = byte(rng.IntN(5))
			}
		}
		var last rowCounts
		last, ok := recountRow(prev, make([]byte, n), last)
		if want, _ := refCounts(prev); !ok || last.histogram(int64(n)) != want {
			t.Fatalf("n=%d: from zeros %v, want %v", n, last.histogram(int64(n)), want)
		}
		rc, ok := recountRow(row, prev, last)
		if want, _ := refCounts(row); !ok || rc.histogram(int64(n)) != want {
			t.Fatalf("n=%d: %v, want %v", n, rc.histogram(int64(n)), want)
		}
		// Up deltas onto the row above give the same counts.
		up := append([]byte(nil), prev...)
		delta := make([]byte, n)
		for i := range delta {
			delta[i] = row[i] - prev[i]
		}
		if urc, ok := unfilterUpCounted(delta, up, last); !ok || urc != rc || !bytes.Equal(up, row) {
			t.Fatalf("n=%d: Up %v %v", n, urc.histogram(int64(n)), ok)
		}
		for i := range row {
			for _, v := range []byte{5, 7, 8, 0x7f, 0x80, 0x84, 0x85, 0xfb, 0xff} {
				bad := append([]byte(nil), row...)
				bad[i] = v
				if _, ok := recountRow(bad, prev, last); ok {
					t.Fatalf("n=%d: byte %d = %d accepted", n, i, v)
				}
				up := append([]byte(nil), prev...)
				delta[i] = v - prev[i]
				if _, ok := unfilterUpCounted(delta, up, last); ok {
					t.Fatalf("n=%d: Up byte %d = %d accepted", n, i, v)
				}
				delta[i] = row[i] - prev[i]
			}
		}
	}
}

// TestRowSumAndZeroTest checks the two per-row steps of the row decoder:
// internal/adler32 summed in pieces, and allZero.
func TestRowSumAndZeroTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 1025, 1 << 14, 1<<14 + 3, 100000} {
		p := make([]byte, n)
		for i := range p {
			if rng.IntN(20) == 0 {
				p[i] = byte(rng.IntN(256))
			}
		}
		// In pieces, as rows are summed.
		sum, zero := uint32(1), true
		for q := p; len(q) > 0; {
			k := min(len(q), 1+rng.IntN(3000))
			sum = engineadler32.Update(sum, q[:k])
			zero = zero && allZero(q[:k])
			q = q[k:]
		}
		if sum != adler32.Checksum(p) || zero != !slices.ContainsFunc(p, func(c byte) bool { return c != 0 }) {
			t.Fatalf("n=%d: %08x %v, want %08x", n, sum, zero, adler32.Checksum(p))
		}
	}
	if s, z := engineadler32.Checksum(make([]byte, 300000)), allZero(make([]byte, 300000)); s != adler32.Checksum(make([]byte, 300000)) || !z {
		t.Fatal("zeros")
	}
	ff := bytes.Repeat([]byte{0xff}, 300000)
	if s, z := engineadler32.Checksum(ff), allZero(ff); s != adler32.Checksum(ff) || z {
		t.Fatal("0xff")
	}
}

// targetVariants are PNG files around one mask: the row decoder's
// layouts (split IDAT runs, empty IDATs, skipped chunks, bytes after
// IEND) and files image/png decodes itself.
func targetVariants(t testing.TB, rng *rand.Rand, w, h int) map[string][]byte {
	pix := blockyPixels(rng, w, h, 1+w*h/200, []byte{1, 2, 3, 4})
	fts := make([]byte, h)
	for i := range fts {
		fts[i] = byte(rng.IntN(5))
	}
	raw := filterRows(pix, w, fts)
	head, stream := grayPNGParts(w, h, raw)
	iend := pngChunkBytes("IEND", nil)
	text := pngChunkBytes("tEXt", []byte("Comment\x00xbd"))
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	half := len(stream) / 2
	g := image.NewGray(image.Rect(0, 0, w, h))
	copy(g.Pix, pix)
	var enc bytes.Buffer
	if err := png.Encode(&enc, g); err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), pix...)
	bad[len(bad)/2] = 5
	return map[string][]byte{
		"one":        grayPNG(w, h, raw, 0),
		"split":      grayPNG(w, h, raw, 7),
		"encoded":    enc.Bytes(),
		"empty-idat": cat(head, pngChunkBytes("IDAT", nil), pngChunkBytes("IDAT", stream[:half]), pngChunkBytes("IDAT", nil), pngChunkBytes("IDAT", stream[half:]), pngChunkBytes("IDAT", nil), iend),
		"text-first": cat(head, text, pngChunkBytes("IDAT", stream), iend),
		"text-after": cat(head, pngChunkBytes("IDAT", stream), text, iend),
		"text-split": cat(head, pngChunkBytes("IDAT", stream[:half]), text, pngChunkBytes("IDAT", stream[half:]), iend),
		"trailing":   cat(grayPNG(w, h, raw, 0), []byte("garbage")),
		"extra-idat": cat(head, pngChunkBytes("IDAT", stream), pngChunkBytes("IDAT", []byte{1, 2, 3}), iend),
		"junk-tail":  cat(head, pngChunkBytes("IDAT", append(append([]byte(nil), stream...), 9, 9)), iend),
		"short":      cat(head, pngChunkBytes("IDAT", stream[:len(stream)-5]), iend),
		"no-iend":    cat(head, pngChunkBytes("IDAT", stream)),
		"code-5":     grayPNG(w, h, filterRows(bad, w, fts), 0),
		"trns":       cat(head, pngChunkBytes("tRNS", []byte{0, 0}), pngChunkBytes("IDAT", stream), iend),
		"plte":       cat(head, pngChunkBytes("PLTE", []byte{0, 0, 0}), pngChunkBytes("IDAT", stream), iend),
	}
}

// sameTarget fails unless DecodeXBDTarget and image/png's decoding agree
// on b: histogram, frame and error text.
func sameTarget(t testing.TB, name string, b []byte) bool {
	h1, w1, ht1, err1 := DecodeXBDTarget("m.png", b)
	h2, w2, ht2, err2 := decodeXBDTargetImage("m.png", b)
	if h1 != h2 || w1 != w2 || ht1 != ht2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
		t.Fatalf("%s: row decoder %v %dx%d %v, image/png %v %dx%d %v", name, h1, w1, ht1, err1, h2, w2, ht2, err2)
	}
	return err1 == nil
}

func TestDecodeXBDTargetRowDecoderAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fast := map[string]bool{"one": true, "split": true, "encoded": true, "empty-idat": true, "text-first": true, "text-after": true, "trailing": true}
	for _, dim := range [][2]int{{1, 1}, {3, 2}, {8, 8}, {13, 9}, {64, 33}, {256, 256}} {
		for name, b := range targetVariants(t, rng, dim[0], dim[1]) {
			ok := sameTarget(t, name, b)
			_, _, _, rows := gray8TargetHistogram(b)
			if rows != fast[name] {
				t.Errorf("%dx%d %s: row decoder took it %v, want %v", dim[0], dim[1], name, rows, fast[name])
			}
			if rows && !ok {
				t.Errorf("%s: row decoder took a file image/png refuses", name)
			}
			// Damaged copies: a flipped byte anywhere, a flipped byte in
			// a chunk whose CRC is then made good again, and truncations.
			for k := 0; k < 60; k++ {
				d := append([]byte(nil), b...)
				d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
				sameTarget(t, name+" flipped", d)
				sameTarget(t, name+" re-CRCed", flipInChunk(rng, b))
				sameTarget(t, name+" cut", b[:rng.IntN(len(b))])
			}
		}
	}
}

// flipInChunk flips one byte of a random chunk's data (or its length or
// type; in IHDR a byte after the frame size) in a copy of the PNG b and
// rewrites that chunk's CRC.
func flipInChunk(rng *rand.Rand, b []byte) []byte {
	d := append([]byte(nil), b...)
	var starts []int
	for i := len(pngSignature); i+12 <= len(d); {
		n := int(binary.BigEndian.Uint32(d[i:]))
		if i+12+n > len(d) {
			break
		}
		starts = append(starts, i)
		i += 12 + n
	}
	if len(starts) == 0 {
		return d
	}
	i := starts[rng.IntN(len(starts))]
	n := int(binary.BigEndian.Uint32(d[i:]))
	if string(d[i+4:i+8]) == "IHDR" {
		// Not the frame size: image/png would allocate what it says.
		d[i+16+rng.IntN(5)] ^= byte(1 + rng.IntN(255))
	} else {
		d[i+rng.IntN(8+n)] ^= byte(1 + rng.IntN(255))
	}
	if m := int(binary.BigEndian.Uint32(d[i:])); i+12+m <= len(d) {
		binary.BigEndian.PutUint32(d[i+8+m:], crc32.ChecksumIEEE(d[i+4:i+8+m]))
	}
	return d
}

func FuzzDecodeXBDTarget(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, b := range targetVariants(f, rng, 9, 5) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err == nil && cfg.Width*cfg.Height > 1<<22 {
			t.Skip("image/png would allocate the declared frame")
		}
		sameTarget(t, "fuzz", b)
	})
}

// benchTarget is a 1024 x 1024 damage mask as image/png encodes it.
func benchTarget(b *testing.B) []byte {
	rng := rand.New(rand.NewPCG(11, 12))
	g := image.NewGray(image.Rect(0, 0, 1024, 1024))
	copy(g.Pix, blockyPixels(rng, 1024, 1024, 400, []byte{1, 2, 3, 4}))
	var enc bytes.Buffer
	if err := png.Encode(&enc, g); err != nil {
		b.Fatal(err)
	}
	return enc.Bytes()
}

func BenchmarkDecodeXBDTarget(b *testing.B) {
	data := benchTarget(b)
	for _, bc := range []struct {
		name   string
		decode func(string, []byte) ([5]int64, int, int, error)
	}{{"rows", DecodeXBDTarget}, {"image", decodeXBDTargetImage}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(1024 * 1024)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := bc.decode("m.png", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
