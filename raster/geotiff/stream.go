package geotiff

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// Large strips and tiles. A block is normally read whole and decompressed
// into a scratch buffer (or straight into the output). A block whose
// decoded or stored size exceeds Limits.StreamBlockBytes, such as a 17000 x 17000
// image stored as one 289 MB strip, is instead decoded as a stream: its
// stored bytes are read from the file in pieces, decompressed a chunk of
// rows at a time into the output, and rows below the window are never
// decoded. Memory is then the output plus a few MB, whatever the block's
// size. A large block whose compressed bytes are few and that decodes
// straight into the output is still decoded whole (wholeIntoOutput), which
// is faster and costs only those bytes. JPEG and WebP blocks cannot be
// streamed; they are bounded by Limits.MaxBlockBytes instead.

const (
	// streamChunkBytes is the decoded size of the rows a streamed block
	// is decoded in at a time (at least one row).
	streamChunkBytes = 1 << 20
	// streamReadBytes is the size of the pieces its stored bytes are read
	// in.
	streamReadBytes = 1 << 20
)

// rowBytes64 is rowBytes in 64-bit arithmetic.
func (d *Image) rowBytes64() int64 {
	return (int64(d.blockW)*int64(d.blockSamples())*int64(d.bps) + 7) / 8
}

// blockBytes64 returns the decoded size of a full block, saturated at
// math.MaxInt64.
func (d *Image) blockBytes64() int64 {
	rb := d.rowBytes64()
	if rb > 0 && int64(d.blockH) > math.MaxInt64/rb {
		return math.MaxInt64
	}
	return rb * int64(d.blockH)
}

// streamed reports whether a block of cnt stored bytes is decoded as a
// stream (but see wholeIntoOutput).
func (br *BlockReader) streamed(cnt uint64) bool {
	d, above := br.img, br.lim.StreamBlockBytes
	return d.streamable && (d.blockBytes64() > above || cnt > uint64(above))
}

// wholeIntoOutput reports whether a large block of cnt stored bytes that
// decodes straight into the output is better decoded whole: its stored
// bytes are few (at most Limits.StreamBlockBytes) and its codec's whole-block
// decoder uses the output itself as its window or table (DEFLATE, LZW,
// PackBits, ZSTD; not LZMA, whose dictionary would double the memory).
// Such a block costs the output and its stored bytes, and decodes about
// eight times faster than through a streaming DEFLATE reader.
func (br *BlockReader) wholeIntoOutput(cnt uint64) bool {
	switch br.img.compression {
	case CompressionDeflate, CompressionDeflate2, CompressionLZW, CompressionPackBits, CompressionZSTD:
		return cnt <= uint64(br.lim.StreamBlockBytes)
	}
	return false
}

// checkBlocks completes the block tables of a parsed image: a row must be
// addressable on this platform, and the byte count of a single strip that
// libtiff finds implausible is estimated as libtiff estimates it (GDAL
// then reads the strip).
func (d *Image) checkBlocks() error {
	if rb := d.rowBytes64(); rb > math.MaxInt/8 {
		return UnsupportedError(fmt.Sprintf("block rows of %d bytes", rb))
	}
	if d.tiled || d.blocksDown != 1 || d.planar {
		return nil
	}
	off, cnt, size := d.offsets[0], d.counts[0], uint64(d.size)
	if off == 0 {
		return nil
	}
	if d.compression == CompressionNone {
		want := uint64(d.rowBytes64()) * uint64(d.height)
		if cnt == 0 || (off <= size && cnt > size-off) || cnt < want {
			d.counts[0] = want
		}
	} else if cnt == 0 && off < size {
		d.counts[0] = size - off
	}
	return nil
}

// blockExtent returns block idx's stored offset and byte count, checked:
// a count of 0 is a sparse block (whatever its offset, as GDAL reads it),
// an offset of 0 with data would be the TIFF header and is refused (GDAL
// decodes the header bytes and fails, or returns them as pixels when
// uncompressed), and the data must lie inside the file.
func (d *Image) blockExtent(idx int) (off, cnt uint64, err error) {
	off, cnt = d.offsets[idx], d.counts[idx]
	switch {
	case cnt == 0:
		return off, 0, nil
	case off == 0:
		return 0, 0, FormatError(fmt.Sprintf("block %d has offset 0 (the TIFF header) with %d bytes", idx, cnt))
	case cnt > uint64(d.size) || off > uint64(d.size)-cnt:
		return 0, 0, FormatError(fmt.Sprintf("block %d at offset %d (+%d bytes) lies past the end of the file (%d bytes)", idx, off, cnt, d.size))
	}
	return off, cnt, nil
}

// checkInMemory bounds a block decoded whole: only blocks that cannot be
// streamed (JPEG, WebP, registered schemes) can exceed
// Limits.StreamBlockBytes there.
func (br *BlockReader) checkInMemory(idx int, cnt uint64) error {
	d := br.img
	if d.streamable {
		return nil
	}
	lim := br.lim.MaxBlockBytes
	need := d.blockBytes64()
	if cnt > uint64(need) {
		need = int64(min(cnt, math.MaxInt64))
	}
	if need > lim {
		return &LimitError{What: fmt.Sprintf("%s block %d", d.codecs.Name(d.compression), idx), Field: "MaxBlockBytes", Need: need, Max: lim}
	}
	return nil
}

// readBlockStreamed is readBlock for a streamed block (see streamed).
func (br *BlockReader) readBlockStreamed(idx, plane, bx, by, rows int, bands []int, w Window, outs [][]byte, c0, r0, c1, r1 int) error {
	d, st := br.img, &br.st
	s, err := br.openBlockStream(idx, int64(rows)*d.rowBytes64())
	if err != nil {
		return err
	}
	defer s.close()
	rowLen := d.rowBytes(d.blockW)
	if dst, ok := d.directOutput(plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1); ok {
		// Decode straight into the output; directOutput excludes the
		// layouts whose samples are unpacked or widened, so finishing the
		// rows is done in place.
		chunk := max(1, streamChunkBytes/rowLen)
		for r := 0; r < rows; r += chunk {
			n := min(chunk, rows-r)
			part := dst[r*rowLen : (r+n)*rowLen]
			if err := s.read(part); err != nil {
				return fmt.Errorf("block %d: %w", idx, err)
			}
			d.finishRows(st, part, n, false)
		}
		return nil
	}
	y0 := by * d.blockH
	err = s.decodeRows(st, d, r1-y0, func(blk []byte, r int) {
		d.copyBlockRows(blk, y0+r, plane, bx, bands, w, outs, c0, r0, c1, r1)
	})
	if err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	return nil
}

// A blockStream is a block's decompressed bytes being read.
type blockStream struct {
	r      io.Reader
	src    *sourceReader
	codec  string
	want   int64 // decoded bytes of the block's encoded rows
	done   int64 // decoded bytes read so far
	closer func()
}

// sourceReader reads a block's stored bytes and remembers the first read
// error that is not the end of the data, so that an I/O failure is not
// reported as corrupt data.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// openBlockStream starts decoding block idx (its extent already checked),
// whose encoded rows decode to want bytes.
func (br *BlockReader) openBlockStream(idx int, want int64) (*blockStream, error) {
	d, lim := br.img, br.lim.MaxBlockBytes
	if rb := d.rowBytes64(); rb > lim {
		return nil, &LimitError{What: fmt.Sprintf("a row of block %d", idx), Field: "MaxBlockBytes", Need: rb, Max: lim}
	}
	off, cnt := d.offsets[idx], d.counts[idx]
	src := &sourceReader{r: io.NewSectionReader(d.r, int64(off), int64(cnt))}
	s := &blockStream{src: src, codec: d.codecs.Name(d.compression), want: want, closer: func() {}}
	if d.compression == CompressionNone {
		s.r = src
		return s, nil
	}
	buffered := bufio.NewReaderSize(src, streamReadBytes)
	fail := func(err error) (*blockStream, error) {
		if src.err != nil {
			return nil, fmt.Errorf("raster: reading block %d: %w", idx, src.err)
		}
		return nil, FormatError(fmt.Sprintf("block %d: %s: %v", idx, s.codec, err))
	}
	c := d.codecs.Lookup(d.compression)
	if c == nil || c.NewReader == nil {
		return nil, UnsupportedError(fmt.Sprintf("compression %d (%s)", d.compression, s.codec))
	}
	r, closer, err := c.NewReader(buffered, want, lim)
	if err != nil {
		var fe FormatError
		var ue UnsupportedError
		if errors.As(err, &fe) || errors.As(err, &ue) {
			return nil, fmt.Errorf("block %d: %w", idx, err)
		}
		return fail(err)
	}
	s.r, s.closer = r, closer
	return s, nil
}

// close releases the decompressor.
func (s *blockStream) close() { s.closer() }

// read fills p with the next decoded bytes.
func (s *blockStream) read(p []byte) error {
	n, err := io.ReadFull(s.r, p)
	s.done += int64(n)
	if err == nil {
		return nil
	}
	if s.src.err != nil {
		return fmt.Errorf("raster: reading block data: %w", s.src.err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return FormatError(fmt.Sprintf("%s: block decodes to %d bytes, want %d", s.codec, s.done, s.want))
	}
	return FormatError(fmt.Sprintf("%s: %v", s.codec, err))
}

// decodeRows decodes the block's first need rows a chunk at a time and
// calls fn with each chunk's finished samples (native order, of the
// DataType) and the index in the block of its first row. The chunks are
// in st.buf or st.exp, valid until fn returns.
func (s *blockStream) decodeRows(st *blockState, d *Image, need int, fn func(blk []byte, r int)) error {
	rowLen := d.rowBytes(d.blockW)
	chunk := max(1, streamChunkBytes/rowLen)
	for r := 0; r < need; r += chunk {
		n := min(chunk, need-r)
		st.buf = grow(st.buf, n*rowLen)
		if err := s.read(st.buf); err != nil {
			return err
		}
		fn(d.finishRows(st, st.buf, n, false), r)
	}
	return nil
}

// Streams reports whether the image's full blocks are larger than
// Limits.StreamBlockBytes, so that ReadRows bounds the memory of a block
// that ReadWindow and ReadBlock would hold whole.
func (br *BlockReader) Streams() bool { return br.streamed(0) }

// ReadRows decodes the part of block (plane, bx, by) inside the image, of
// band (1-based), a chunk of rows at a time, calling fn with each chunk's
// samples (native order, of the DataType) and the window of the image they
// cover; the samples are valid until fn returns. A large block costs a
// few MB this way whatever its size; a sparse block reads as the nodata
// value, or 0.
func (br *BlockReader) ReadRows(plane, bx, by, band int, fn func(samples []byte, w Window)) (err error) {
	d, st := br.img, &br.st
	if plane < 0 || bx < 0 || by < 0 || bx >= d.blocksAcross || by >= d.blocksDown || (plane > 0 && (!d.planar || plane >= d.spp)) {
		return fmt.Errorf("raster: block %d,%d of plane %d out of range", bx, by, plane)
	}
	if band < 1 || band > d.spp || (d.planar && band-1 != plane) {
		return fmt.Errorf("raster: band %d is not in plane %d", band, plane)
	}
	defer func() {
		if p := recover(); p != nil {
			err = FormatError(fmt.Sprintf("internal error while decoding: %v", p))
		}
	}()
	size := d.dtype.Size()
	bands := []int{band}
	idx := plane*d.blocksAcross*d.blocksDown + by*d.blocksAcross + bx
	x0, y0 := bx*d.blockW, by*d.blockH
	w := Window{x0, y0, min(d.blockW, d.width-x0), min(d.blockH, d.height-y0)}
	_, cnt, err := d.blockExtent(idx)
	if err != nil {
		return err
	}
	chunk := max(1, streamChunkBytes/max(1, w.Width*size))
	if cnt == 0 {
		for r := y0; r < y0+w.Height; r += chunk {
			r1 := min(r+chunk, y0+w.Height)
			cw := Window{w.Col, r, w.Width, r1 - r}
			st.exp = grow(st.exp, cw.Height*w.Width*size)
			d.fillSparse(bands, plane, cw, [][]byte{st.exp}, w.Col, r, w.Col+w.Width, r1)
			fn(st.exp, cw)
		}
		return nil
	}
	s, err := br.openBlockStream(idx, int64(d.blockRows(by))*d.rowBytes64())
	if err != nil {
		return err
	}
	defer s.close()
	err = s.decodeRows(st, d, w.Height, func(blk []byte, r int) {
		n := len(blk) / (d.blockW * d.blockSamples() * size)
		cw := Window{w.Col, y0 + r, w.Width, n}
		st.rows = grow(st.rows, n*w.Width*size)
		d.copyBlockRows(blk, y0+r, plane, bx, bands, cw, [][]byte{st.rows}, cw.Col, cw.Row, cw.Col+cw.Width, cw.Row+n)
		fn(st.rows, cw)
	})
	if err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	return nil
}
