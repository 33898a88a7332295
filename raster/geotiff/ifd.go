package geotiff

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// TIFF tag numbers the reader and the writer use (baseline TIFF, GeoTIFF
// and GDAL's private tags).
const (
	TagNewSubfileType   = 254
	TagImageWidth       = 256
	TagImageLength      = 257
	TagBitsPerSample    = 258
	TagCompression      = 259
	TagPhotometric      = 262
	TagImageDescription = 270
	TagStripOffsets     = 273
	TagSamplesPerPixel  = 277
	TagRowsPerStrip     = 278
	TagStripByteCounts  = 279
	TagPlanarConfig     = 284
	TagSoftware         = 305
	TagPredictor        = 317
	TagColorMap         = 320
	TagTileWidth        = 322
	TagTileLength       = 323
	TagTileOffsets      = 324
	TagTileByteCounts   = 325
	TagExtraSamples     = 338
	TagSampleFormat     = 339
	TagJPEGTables       = 347
	TagYCbCrSubsampling = 530
	TagModelPixelScale  = 33550
	TagModelTiepoint    = 33922
	TagModelTransform   = 34264
	TagGeoKeyDirectory  = 34735
	TagGeoDoubleParams  = 34736
	TagGeoASCIIParams   = 34737
	TagGDALMetadata     = 42112
	TagGDALNoData       = 42113
	TagLERCParams       = 50674
)

// The bounds ReadIFD and Reader.Image enforce against hostile files, and
// the header sizes.
const (
	MaxIFDEntries     = 4096     // entries per directory
	MaxTagBytes       = 64 << 20 // value bytes per tag
	MaxIFDsFollowed   = 1024     // directories followed along the chain
	ClassicHeaderSize = 8
	BigTIFFHeaderSize = 16
)

// TIFF field types.
const (
	TypeByte      = 1
	TypeASCII     = 2
	TypeShort     = 3
	TypeLong      = 4
	TypeRational  = 5
	TypeSByte     = 6
	TypeUndefined = 7
	TypeSShort    = 8
	TypeSLong     = 9
	TypeSRational = 10
	TypeFloat     = 11
	TypeDouble    = 12
	TypeIFD       = 13
	TypeLong8     = 16
	TypeSLong8    = 17
	TypeIFD8      = 18
)

// FieldTypeSize returns the byte size of one value of TIFF field type t, or 0
// for an unknown type.
func FieldTypeSize(t uint16) int {
	switch t {
	case TypeByte, TypeASCII, TypeSByte, TypeUndefined:
		return 1
	case TypeShort, TypeSShort:
		return 2
	case TypeLong, TypeSLong, TypeFloat, TypeIFD:
		return 4
	case TypeRational, TypeSRational, TypeDouble, TypeLong8, TypeSLong8, TypeIFD8:
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

// An IFD is one parsed image file directory: its tags and their values,
// decoded in the file's byte order.
type IFD struct {
	Offset uint64 // where the directory starts
	Next   uint64 // the next directory's offset, 0 for none
	bo     binary.ByteOrder
	fields map[uint16]field
}

// A Header describes a TIFF file's byte order and flavour.
type Header struct {
	ByteOrder binary.ByteOrder
	Big       bool   // BigTIFF
	FirstIFD  uint64 // the first directory's offset
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

// ReadHeader parses the TIFF or BigTIFF header of r, which is size bytes
// long.
func ReadHeader(r io.ReaderAt, size int64) (Header, error) {
	var b [BigTIFFHeaderSize]byte
	n := len(b)
	if size < int64(n) {
		n = int(size)
	}
	if n < ClassicHeaderSize {
		return Header{}, FormatError("file too short for a TIFF header")
	}
	if err := readFull(r, size, b[:n], 0, "TIFF header"); err != nil {
		return Header{}, err
	}
	var h Header
	switch string(b[:2]) {
	case "II":
		h.ByteOrder = binary.LittleEndian
	case "MM":
		h.ByteOrder = binary.BigEndian
	default:
		return Header{}, FormatError("not a TIFF file (bad byte-order mark)")
	}
	switch h.ByteOrder.Uint16(b[2:]) {
	case 42:
		h.FirstIFD = uint64(h.ByteOrder.Uint32(b[4:]))
	case 43:
		if n < BigTIFFHeaderSize {
			return Header{}, FormatError("file too short for a BigTIFF header")
		}
		if h.ByteOrder.Uint16(b[4:]) != 8 || h.ByteOrder.Uint16(b[6:]) != 0 {
			return Header{}, FormatError("BigTIFF header: unexpected offset size")
		}
		h.Big = true
		h.FirstIFD = h.ByteOrder.Uint64(b[8:])
	default:
		return Header{}, FormatError("not a TIFF file (bad version number)")
	}
	return h, nil
}

// ReadIFD parses the directory at off of the file r (size bytes, header h),
// loading every field's value bytes: a directory of more than
// MaxIFDEntries entries, a value of more than MaxTagBytes or one past the
// end of the file is a FormatError. Fields of an unknown type are skipped,
// as libtiff does.
func ReadIFD(r io.ReaderAt, size int64, h Header, off uint64) (*IFD, error) {
	countSize, entrySize, offSize := 2, 12, 4
	if h.Big {
		countSize, entrySize, offSize = 8, 20, 8
	}
	var cb [8]byte
	if err := readFull(r, size, cb[:countSize], off, "IFD entry count"); err != nil {
		return nil, err
	}
	var n uint64
	if h.Big {
		n = h.ByteOrder.Uint64(cb[:])
	} else {
		n = uint64(h.ByteOrder.Uint16(cb[:]))
	}
	if n == 0 {
		return nil, FormatError(fmt.Sprintf("IFD at offset %d has no entries", off))
	}
	if n > MaxIFDEntries {
		return nil, FormatError(fmt.Sprintf("IFD at offset %d has %d entries (limit %d)", off, n, MaxIFDEntries))
	}
	buf := make([]byte, int(n)*entrySize+offSize)
	if err := readFull(r, size, buf, off+uint64(countSize), "IFD entries"); err != nil {
		return nil, err
	}
	d := &IFD{Offset: off, bo: h.ByteOrder, fields: make(map[uint16]field, n)}
	for i := 0; i < int(n); i++ {
		e := buf[i*entrySize : (i+1)*entrySize]
		tag := h.ByteOrder.Uint16(e)
		typ := h.ByteOrder.Uint16(e[2:])
		ts := FieldTypeSize(typ)
		if ts == 0 {
			continue
		}
		var count uint64
		var val []byte
		if h.Big {
			count = h.ByteOrder.Uint64(e[4:])
			val = e[12:20]
		} else {
			count = uint64(h.ByteOrder.Uint32(e[4:]))
			val = e[8:12]
		}
		if count > MaxTagBytes/uint64(ts) {
			return nil, FormatError(fmt.Sprintf("tag %d: count %d too large", tag, count))
		}
		nbytes := count * uint64(ts)
		var data []byte
		if nbytes <= uint64(offSize) {
			data = append([]byte(nil), val[:nbytes]...)
		} else {
			var voff uint64
			if h.Big {
				voff = h.ByteOrder.Uint64(val)
			} else {
				voff = uint64(h.ByteOrder.Uint32(val))
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
	if h.Big {
		d.Next = h.ByteOrder.Uint64(nb)
	} else {
		d.Next = uint64(h.ByteOrder.Uint32(nb))
	}
	return d, nil
}

// Has reports whether the directory holds tag.
func (d *IFD) Has(tag uint16) bool { _, ok := d.fields[tag]; return ok }

// Uints returns the values of an integer-typed field (signed types
// sign-extended), nil when the tag is absent; a field of another type is
// a FormatError.
func (d *IFD) Uints(tag uint16) ([]uint64, error) {
	bo := d.bo
	f, ok := d.fields[tag]
	if !ok {
		return nil, nil
	}
	out := make([]uint64, f.count)
	switch f.typ {
	case TypeByte, TypeUndefined:
		for i := range out {
			out[i] = uint64(f.data[i])
		}
	case TypeSByte:
		for i := range out {
			out[i] = uint64(int64(int8(f.data[i])))
		}
	case TypeShort:
		for i := range out {
			out[i] = uint64(bo.Uint16(f.data[2*i:]))
		}
	case TypeSShort:
		for i := range out {
			out[i] = uint64(int64(int16(bo.Uint16(f.data[2*i:]))))
		}
	case TypeLong, TypeIFD:
		for i := range out {
			out[i] = uint64(bo.Uint32(f.data[4*i:]))
		}
	case TypeSLong:
		for i := range out {
			out[i] = uint64(int64(int32(bo.Uint32(f.data[4*i:]))))
		}
	case TypeLong8, TypeIFD8, TypeSLong8:
		for i := range out {
			out[i] = bo.Uint64(f.data[8*i:])
		}
	default:
		return nil, FormatError(fmt.Sprintf("tag %d: field type %d is not an integer type", tag, f.typ))
	}
	return out, nil
}

// Uint returns the first value of an integer field, or def when absent.
func (d *IFD) Uint(tag uint16, def uint64) (uint64, error) {
	v, err := d.Uints(tag)
	if err != nil {
		return 0, err
	}
	if len(v) == 0 {
		return def, nil
	}
	return v[0], nil
}

// Floats returns a numeric field's values as float64 (rationals divided
// out), nil when the tag is absent.
func (d *IFD) Floats(tag uint16) ([]float64, error) {
	bo := d.bo
	f, ok := d.fields[tag]
	if !ok {
		return nil, nil
	}
	out := make([]float64, f.count)
	switch f.typ {
	case TypeDouble:
		for i := range out {
			out[i] = math.Float64frombits(bo.Uint64(f.data[8*i:]))
		}
	case TypeFloat:
		for i := range out {
			out[i] = float64(math.Float32frombits(bo.Uint32(f.data[4*i:])))
		}
	case TypeRational:
		for i := range out {
			num, den := bo.Uint32(f.data[8*i:]), bo.Uint32(f.data[8*i+4:])
			out[i] = float64(num) / float64(den)
		}
	case TypeSRational:
		for i := range out {
			num, den := int32(bo.Uint32(f.data[8*i:])), int32(bo.Uint32(f.data[8*i+4:]))
			out[i] = float64(num) / float64(den)
		}
	default:
		u, err := d.Uints(tag)
		if err != nil {
			return nil, FormatError(fmt.Sprintf("tag %d: field type %d is not numeric", tag, f.typ))
		}
		for i, v := range u {
			out[i] = float64(v)
		}
	}
	return out, nil
}

// ASCII returns an ASCII field's value without its trailing NUL bytes, ""
// when the tag is absent.
func (d *IFD) ASCII(tag uint16) string {
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

// Bytes returns a field's raw value bytes in the file's byte order (nil
// when the tag is absent); they are shared, not copied.
func (d *IFD) Bytes(tag uint16) []byte {
	return d.fields[tag].data
}
