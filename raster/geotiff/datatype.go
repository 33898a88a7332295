package geotiff

import (
	"fmt"
	"unsafe"
)

// DataType is the numeric type of a band's samples.
type DataType uint8

// The sample types images are read as and written from. 1-bit and other
// sub-byte integer rasters are surfaced as Uint8, 9..15-bit as Uint16 and
// 17..31-bit as Uint32, as GDAL does; 16-bit floats are widened to
// Float32.
const (
	Unknown DataType = iota
	Uint8
	Int8
	Uint16
	Int16
	Uint32
	Int32
	Float32
	Float64
)

var dataTypeNames = [...]string{"unknown", "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "float64"}

var dataTypeSizes = [...]int{0, 1, 1, 2, 2, 4, 4, 4, 8}

// String returns NumPy's name of the type ("uint8", "float32", ...).
func (t DataType) String() string {
	if int(t) < len(dataTypeNames) {
		return dataTypeNames[t]
	}
	return fmt.Sprintf("DataType(%d)", uint8(t))
}

// Size returns the size of one sample in bytes (0 for Unknown).
func (t DataType) Size() int {
	if int(t) < len(dataTypeSizes) {
		return dataTypeSizes[t]
	}
	return 0
}

// IsFloat reports whether t is Float32 or Float64.
func (t DataType) IsFloat() bool { return t == Float32 || t == Float64 }

// IsSigned reports whether t is a signed integer or floating-point type.
func (t DataType) IsSigned() bool {
	return t == Int8 || t == Int16 || t == Int32 || t == Float32 || t == Float64
}

// ParseDataType returns the DataType named by NumPy's name ("uint8", ...).
func ParseDataType(name string) (DataType, error) {
	for i, n := range dataTypeNames {
		if i > 0 && n == name {
			return DataType(i), nil
		}
	}
	return Unknown, fmt.Errorf("raster: unknown data type %q", name)
}

// Sample is the set of Go types of samples, one per DataType.
type Sample interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | float32 | float64
}

// dataTypeOf returns the DataType of samples of type T.
func dataTypeOf[T Sample]() DataType {
	var v T
	switch any(v).(type) {
	case uint8:
		return Uint8
	case int8:
		return Int8
	case uint16:
		return Uint16
	case int16:
		return Int16
	case uint32:
		return Uint32
	case int32:
		return Int32
	case float32:
		return Float32
	}
	return Float64
}

// asBytes views samples as bytes in the host's byte order.
func asBytes[T Sample](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
