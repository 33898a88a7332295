package raster

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/geodisaster/engine/raster/internal/tiff"
)

// Window is a rectangular region of a raster in pixel coordinates: columns
// [Col, Col+Width) and rows [Row, Row+Height).
type Window struct{ Col, Row, Width, Height int }

// Band is one band of samples, row-major. Data is []uint8, []int8,
// []uint16, []int16, []uint32, []int32, []float32 or []float64 according to
// Type, with Width*Height elements.
type Band struct {
	Width, Height int
	Type          DataType
	Data          any
}

// NewBand allocates a zero-filled band of the given size and type.
func NewBand(width, height int, t DataType) (*Band, error) {
	if width < 0 || height < 0 {
		return nil, fmt.Errorf("raster: negative band size %dx%d", width, height)
	}
	n := width * height
	if height != 0 && n/height != width {
		return nil, fmt.Errorf("raster: band size %dx%d overflows", width, height)
	}
	b := &Band{Width: width, Height: height, Type: t}
	switch t {
	case Uint8:
		b.Data = make([]uint8, n)
	case Int8:
		b.Data = make([]int8, n)
	case Uint16:
		b.Data = make([]uint16, n)
	case Int16:
		b.Data = make([]int16, n)
	case Uint32:
		b.Data = make([]uint32, n)
	case Int32:
		b.Data = make([]int32, n)
	case Float32:
		b.Data = make([]float32, n)
	case Float64:
		b.Data = make([]float64, n)
	default:
		return nil, fmt.Errorf("raster: cannot allocate band of type %v", t)
	}
	adviseHugePages(b.Bytes())
	return b, nil
}

// newBandAlloc is NewBand with the samples stored in memory from alloc
// (NewBand's own when alloc is nil or returns an unusable slice).
func newBandAlloc(width, height int, t DataType, alloc func(n int) []byte) (*Band, error) {
	if alloc == nil || width <= 0 || height <= 0 {
		return NewBand(width, height, t)
	}
	n := width * height
	size := t.Size()
	if n/height != width || size <= 0 || n > math.MaxInt/size {
		return NewBand(width, height, t)
	}
	buf := alloc(n * size)
	if len(buf) < n*size || uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%8 != 0 {
		return NewBand(width, height, t)
	}
	m := n * size
	return &Band{Width: width, Height: height, Type: t, Data: typedView(buf[:m:m], t)}, nil
}

// Len returns the number of samples (Width*Height).
func (b *Band) Len() int { return b.Width * b.Height }

// Validate reports an error when Data's element type or length does not
// match Type, Width and Height.
func (b *Band) Validate() error {
	var n int
	var t DataType
	switch s := b.Data.(type) {
	case []uint8:
		n, t = len(s), Uint8
	case []int8:
		n, t = len(s), Int8
	case []uint16:
		n, t = len(s), Uint16
	case []int16:
		n, t = len(s), Int16
	case []uint32:
		n, t = len(s), Uint32
	case []int32:
		n, t = len(s), Int32
	case []float32:
		n, t = len(s), Float32
	case []float64:
		n, t = len(s), Float64
	default:
		return fmt.Errorf("raster: band data has unsupported type %T", b.Data)
	}
	if t != b.Type {
		return fmt.Errorf("raster: band data is %T but Type is %v", b.Data, b.Type)
	}
	if b.Width < 0 || b.Height < 0 || n != b.Width*b.Height {
		return fmt.Errorf("raster: band data has %d samples, want %dx%d", n, b.Width, b.Height)
	}
	return nil
}

// Bytes returns the band's samples as a byte slice sharing its memory, in
// the host's byte order. It returns nil for an empty or invalid band.
func (b *Band) Bytes() []byte {
	return sampleBytes(b.Data)
}

// sampleBytes views a typed sample slice as bytes (host order).
func sampleBytes(data any) []byte {
	switch s := data.(type) {
	case []uint8:
		return s
	case []int8:
		return bytesOf(s)
	case []uint16:
		return bytesOf(s)
	case []int16:
		return bytesOf(s)
	case []uint32:
		return bytesOf(s)
	case []int32:
		return bytesOf(s)
	case []float32:
		return bytesOf(s)
	case []float64:
		return bytesOf(s)
	}
	return nil
}

// bytesOf views s as bytes, nil when it is empty.
func bytesOf[T number](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// typedView views native-order sample bytes as a slice of t's Go type
// (b must be 8-byte aligned, as make returns it); nil when b is empty.
func typedView(b []byte, t DataType) any {
	if len(b) == 0 {
		return nil
	}
	switch t {
	case Uint8:
		return b
	case Int8:
		return viewAs[int8](b)
	case Uint16:
		return viewAs[uint16](b)
	case Int16:
		return viewAs[int16](b)
	case Uint32:
		return viewAs[uint32](b)
	case Int32:
		return viewAs[int32](b)
	case Float32:
		return viewAs[float32](b)
	case Float64:
		return viewAs[float64](b)
	}
	return nil
}

// viewAs views b as samples of type T.
func viewAs[T number](b []byte) []T {
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(zero)))
}

// At returns sample i (row-major index) converted to float64. It panics if
// i is out of range, like a slice index.
func (b *Band) At(i int) float64 {
	switch s := b.Data.(type) {
	case []uint8:
		return float64(s[i])
	case []int8:
		return float64(s[i])
	case []uint16:
		return float64(s[i])
	case []int16:
		return float64(s[i])
	case []uint32:
		return float64(s[i])
	case []int32:
		return float64(s[i])
	case []float32:
		return float64(s[i])
	case []float64:
		return s[i]
	}
	panic(fmt.Sprintf("raster: Band.At on data of type %T", b.Data))
}

// Set stores v at sample i (row-major index), converted as Go converts a
// float64 to the band's type: At's inverse for values the type holds. It
// panics if i is out of range, like a slice index.
func (b *Band) Set(i int, v float64) {
	switch d := b.Data.(type) {
	case []uint8:
		d[i] = uint8(v)
	case []int8:
		d[i] = int8(v)
	case []uint16:
		d[i] = uint16(v)
	case []int16:
		d[i] = int16(v)
	case []uint32:
		d[i] = uint32(v)
	case []int32:
		d[i] = int32(v)
	case []float32:
		d[i] = float32(v)
	case []float64:
		d[i] = v
	default:
		panic(fmt.Sprintf("raster: Band.Set on data of type %T", b.Data))
	}
}

// Float64s returns a converted copy of the samples as float64 (nil for an
// invalid band).
func (b *Band) Float64s() []float64 {
	switch s := b.Data.(type) {
	case []uint8:
		return convert(s)
	case []int8:
		return convert(s)
	case []uint16:
		return convert(s)
	case []int16:
		return convert(s)
	case []uint32:
		return convert(s)
	case []int32:
		return convert(s)
	case []float32:
		return convert(s)
	case []float64:
		return append([]float64(nil), s...)
	}
	return nil
}

// number is the set of sample element types.
type number interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~float32 | ~float64
}

func convert[T number](s []T) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

// LittleEndianBytes returns the band's samples as little-endian bytes,
// row-major: the input of the band_sha256 checksum. On little-endian hosts
// the result shares the band's memory.
func LittleEndianBytes(b *Band) []byte {
	raw := b.Bytes()
	if tiff.NativeLE || b.Type.Size() <= 1 {
		return raw
	}
	out := append([]byte(nil), raw...)
	tiff.SwapBytes(out, b.Type.Size())
	return out
}
