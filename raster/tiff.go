package raster

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// TIFF tag numbers used by the reader and the writer.
const (
	tagNewSubfileType    = 254
	tagImageWidth        = 256
	tagImageLength       = 257
	tagBitsPerSample     = 258
	tagCompression       = 259
	tagPhotometric       = 262
	tagImageDescription  = 270
	tagStripOffsets      = 273
	tagSamplesPerPixel   = 277
	tagRowsPerStrip      = 278
	tagStripByteCounts   = 279
	tagPlanarConfig      = 284
	tagSoftware          = 305
	tagPredictor         = 317
	tagColorMap          = 320
	tagTileWidth         = 322
	tagTileLength        = 323
	tagTileOffsets       = 324
	tagTileByteCounts    = 325
	tagExtraSamples      = 338
	tagSampleFormat      = 339
	tagJPEGTables        = 347
	tagYCbCrSubsampling  = 530
	tagModelPixelScale   = 33550
	tagModelTiepoint     = 33922
	tagModelTransform    = 34264
	tagGeoKeyDirectory   = 34735
	tagGeoDoubleParams   = 34736
	tagGeoASCIIParams    = 34737
	tagGDALMetadata      = 42112
	tagGDALNoData        = 42113
	tagLERCParams        = 50674
	maxIFDEntries        = 4096
	maxTagBytes          = 64 << 20
	maxIFDsFollowed      = 1024
	classicHeaderSize    = 8
	bigTIFFHeaderSize    = 16
	defaultHeaderReadLen = 16
)

// TIFF field types.
const (
	dtByte      = 1
	dtASCII     = 2
	dtShort     = 3
	dtLong      = 4
	dtRational  = 5
	dtSByte     = 6
	dtUndefined = 7
	dtSShort    = 8
	dtSLong     = 9
	dtSRational = 10
	dtFloat     = 11
	dtDouble    = 12
	dtIFD       = 13
	dtLong8     = 16
	dtSLong8    = 17
	dtIFD8      = 18
)

// fieldTypeSize returns the byte size of one value of TIFF field type t, or 0
// for an unknown type.
func fieldTypeSize(t uint16) int {
	switch t {
	case dtByte, dtASCII, dtSByte, dtUndefined:
		return 1
	case dtShort, dtSShort:
		return 2
	case dtLong, dtSLong, dtFloat, dtIFD:
		return 4
	case dtRational, dtSRational, dtDouble, dtLong8, dtSLong8, dtIFD8:
		return 8
	}
	return 0
}

// field is one decoded IFD entry: its type, count and raw value bytes in the
// file's byte order.
type field struct {
	typ   uint16
	count uint64
	data  []byte
}

// ifd is one parsed image file directory.
type ifd struct {
	offset uint64
	fields map[uint16]field
	next   uint64
}

// header describes a TIFF file's byte order and flavour.
type header struct {
	bo       binary.ByteOrder
	big      bool
	firstIFD uint64
}

// readFull reads exactly len(p) bytes at off, turning short reads and reads
// past size into FormatErrors.
func readFull(r io.ReaderAt, size int64, p []byte, off uint64, what string) error {
	if off > uint64(size) || uint64(len(p)) > uint64(size)-off {
		return FormatError(fmt.Sprintf("%s at offset %d (+%d bytes) lies past the end of the file (%d bytes)", what, off, len(p), size))
	}
	n, err := r.ReadAt(p, int64(off))
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return FormatError(fmt.Sprintf("%s at offset %d: short read (%d of %d bytes)", what, off, n, len(p)))
	}
	return fmt.Errorf("raster: reading %s at offset %d: %w", what, off, err)
}

// readHeader parses the TIFF or BigTIFF header.
func readHeader(r io.ReaderAt, size int64) (header, error) {
	var b [bigTIFFHeaderSize]byte
	n := len(b)
	if size < int64(n) {
		n = int(size)
	}
	if n < classicHeaderSize {
		return header{}, FormatError("file too short for a TIFF header")
	}
	if err := readFull(r, size, b[:n], 0, "TIFF header"); err != nil {
		return header{}, err
	}
	var h header
	switch string(b[:2]) {
	case "II":
		h.bo = binary.LittleEndian
	case "MM":
		h.bo = binary.BigEndian
	default:
		return header{}, FormatError("not a TIFF file (bad byte-order mark)")
	}
	switch h.bo.Uint16(b[2:]) {
	case 42:
		h.firstIFD = uint64(h.bo.Uint32(b[4:]))
	case 43:
		if n < bigTIFFHeaderSize {
			return header{}, FormatError("file too short for a BigTIFF header")
		}
		if h.bo.Uint16(b[4:]) != 8 || h.bo.Uint16(b[6:]) != 0 {
			return header{}, FormatError("BigTIFF header: unexpected offset size")
		}
		h.big = true
		h.firstIFD = h.bo.Uint64(b[8:])
	default:
		return header{}, FormatError("not a TIFF file (bad version number)")
	}
	return h, nil
}

// readIFD parses the IFD at off, loading every field's value bytes. Fields
// of an unknown type are skipped, as libtiff does.
func readIFD(r io.ReaderAt, size int64, h header, off uint64) (*ifd, error) {
	countSize, entrySize, offSize := 2, 12, 4
	if h.big {
		countSize, entrySize, offSize = 8, 20, 8
	}
	var cb [8]byte
	if err := readFull(r, size, cb[:countSize], off, "IFD entry count"); err != nil {
		return nil, err
	}
	var n uint64
	if h.big {
		n = h.bo.Uint64(cb[:])
	} else {
		n = uint64(h.bo.Uint16(cb[:]))
	}
	if n == 0 {
		return nil, FormatError(fmt.Sprintf("IFD at offset %d has no entries", off))
	}
	if n > maxIFDEntries {
		return nil, FormatError(fmt.Sprintf("IFD at offset %d has %d entries (limit %d)", off, n, maxIFDEntries))
	}
	buf := make([]byte, int(n)*entrySize+offSize)
	if err := readFull(r, size, buf, off+uint64(countSize), "IFD entries"); err != nil {
		return nil, err
	}
	d := &ifd{offset: off, fields: make(map[uint16]field, n)}
	for i := 0; i < int(n); i++ {
		e := buf[i*entrySize : (i+1)*entrySize]
		tag := h.bo.Uint16(e)
		typ := h.bo.Uint16(e[2:])
		ts := fieldTypeSize(typ)
		if ts == 0 {
			continue
		}
		var count uint64
		var val []byte
		if h.big {
			count = h.bo.Uint64(e[4:])
			val = e[12:20]
		} else {
			count = uint64(h.bo.Uint32(e[4:]))
			val = e[8:12]
		}
		if count > maxTagBytes/uint64(ts) {
			return nil, FormatError(fmt.Sprintf("tag %d: count %d too large", tag, count))
		}
		nbytes := count * uint64(ts)
		var data []byte
		if nbytes <= uint64(offSize) {
			data = append([]byte(nil), val[:nbytes]...)
		} else {
			var voff uint64
			if h.big {
				voff = h.bo.Uint64(val)
			} else {
				voff = uint64(h.bo.Uint32(val))
			}
			if voff > uint64(size) || nbytes > uint64(size)-voff {
				return nil, FormatError(fmt.Sprintf("tag %d: value at offset %d (+%d bytes) lies past the end of the file", tag, voff, nbytes))
			}
			data = make([]byte, nbytes)
			if err := readFull(r, size, data, voff, fmt.Sprintf("tag %d value", tag)); err != nil {
				return nil, err
			}
		}
		d.fields[tag] = field{typ: typ, count: count, data: data}
	}
	nb := buf[int(n)*entrySize:]
	if h.big {
		d.next = h.bo.Uint64(nb)
	} else {
		d.next = uint64(h.bo.Uint32(nb))
	}
	return d, nil
}

// has reports whether the IFD holds tag.
func (d *ifd) has(tag uint16) bool { _, ok := d.fields[tag]; return ok }

// uints returns an integer-typed field's values.
func (d *ifd) uints(bo binary.ByteOrder, tag uint16) ([]uint64, error) {
	f, ok := d.fields[tag]
	if !ok {
		return nil, nil
	}
	out := make([]uint64, f.count)
	switch f.typ {
	case dtByte, dtUndefined:
		for i := range out {
			out[i] = uint64(f.data[i])
		}
	case dtSByte:
		for i := range out {
			out[i] = uint64(int64(int8(f.data[i])))
		}
	case dtShort:
		for i := range out {
			out[i] = uint64(bo.Uint16(f.data[2*i:]))
		}
	case dtSShort:
		for i := range out {
			out[i] = uint64(int64(int16(bo.Uint16(f.data[2*i:]))))
		}
	case dtLong, dtIFD:
		for i := range out {
			out[i] = uint64(bo.Uint32(f.data[4*i:]))
		}
	case dtSLong:
		for i := range out {
			out[i] = uint64(int64(int32(bo.Uint32(f.data[4*i:]))))
		}
	case dtLong8, dtIFD8, dtSLong8:
		for i := range out {
			out[i] = bo.Uint64(f.data[8*i:])
		}
	default:
		return nil, FormatError(fmt.Sprintf("tag %d: field type %d is not an integer type", tag, f.typ))
	}
	return out, nil
}

// uint returns the first value of an integer field, or def when absent.
func (d *ifd) uint(bo binary.ByteOrder, tag uint16, def uint64) (uint64, error) {
	v, err := d.uints(bo, tag)
	if err != nil {
		return 0, err
	}
	if len(v) == 0 {
		return def, nil
	}
	return v[0], nil
}

// floats returns a numeric field's values as float64.
func (d *ifd) floats(bo binary.ByteOrder, tag uint16) ([]float64, error) {
	f, ok := d.fields[tag]
	if !ok {
		return nil, nil
	}
	out := make([]float64, f.count)
	switch f.typ {
	case dtDouble:
		for i := range out {
			out[i] = math.Float64frombits(bo.Uint64(f.data[8*i:]))
		}
	case dtFloat:
		for i := range out {
			out[i] = float64(math.Float32frombits(bo.Uint32(f.data[4*i:])))
		}
	case dtRational:
		for i := range out {
			num, den := bo.Uint32(f.data[8*i:]), bo.Uint32(f.data[8*i+4:])
			out[i] = float64(num) / float64(den)
		}
	case dtSRational:
		for i := range out {
			num, den := int32(bo.Uint32(f.data[8*i:])), int32(bo.Uint32(f.data[8*i+4:]))
			out[i] = float64(num) / float64(den)
		}
	default:
		u, err := d.uints(bo, tag)
		if err != nil {
			return nil, FormatError(fmt.Sprintf("tag %d: field type %d is not numeric", tag, f.typ))
		}
		for i, v := range u {
			out[i] = float64(v)
		}
	}
	return out, nil
}

// ascii returns an ASCII field's value without its trailing NUL bytes.
func (d *ifd) ascii(tag uint16) string {
	f, ok := d.fields[tag]
	if !ok {
		return ""
	}
	b := f.data
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return string(b)
}

// bytes returns a field's raw value bytes.
func (d *ifd) bytes(tag uint16) []byte {
	return d.fields[tag].data
}
