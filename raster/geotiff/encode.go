package geotiff

import (
	"encoding/binary"
	"math"
)

// Entry is one IFD entry to write, its value already encoded
// little-endian.
type Entry struct {
	Tag   uint16
	Type  uint16 // field type
	Count uint64
	Data  []byte
}

// ShortsEntry is a SHORT entry of the values v.
func ShortsEntry(tag uint16, v ...uint16) Entry {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return Entry{tag, TypeShort, uint64(len(v)), b}
}

// LongEntry is a LONG entry of one value.
func LongEntry(tag uint16, v uint32) Entry {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint32(b, v)
	return Entry{tag, TypeLong, 1, b}
}

// DoublesEntry is a DOUBLE entry of the values v.
func DoublesEntry(tag uint16, v ...float64) Entry {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return Entry{tag, TypeDouble, uint64(len(v)), b}
}

// ASCIIEntry is an ASCII entry of s and its terminating NUL.
func ASCIIEntry(tag uint16, s string) Entry {
	b := append([]byte(s), 0)
	return Entry{tag, TypeASCII, uint64(len(b)), b}
}

// EncodeIFD encodes entries (sorted by tag) as an IFD at offset off
// followed by their out-of-line values (word-aligned), with no next IFD.
func EncodeIFD(es []Entry, off uint64, big bool) []byte {
	entrySize, inline, countSize := 12, 4, 2
	if big {
		entrySize, inline, countSize = 20, 8, 8
	}
	head := uint64(countSize + len(es)*entrySize + inline)
	var out, extra []byte
	if big {
		out = binary.LittleEndian.AppendUint64(out, uint64(len(es)))
	} else {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(es)))
	}
	for _, e := range es {
		out = binary.LittleEndian.AppendUint16(out, e.Tag)
		out = binary.LittleEndian.AppendUint16(out, e.Type)
		if big {
			out = binary.LittleEndian.AppendUint64(out, e.Count)
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(e.Count))
		}
		if len(e.Data) <= inline {
			v := make([]byte, inline)
			copy(v, e.Data)
			out = append(out, v...)
			continue
		}
		if len(extra)%2 == 1 {
			extra = append(extra, 0)
		}
		vo := off + head + uint64(len(extra))
		if big {
			out = binary.LittleEndian.AppendUint64(out, vo)
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(vo))
		}
		extra = append(extra, e.Data...)
	}
	out = append(out, make([]byte, inline)...) // next IFD: none
	if len(extra)%2 == 1 {
		extra = append(extra, 0)
	}
	return append(out, extra...)
}
