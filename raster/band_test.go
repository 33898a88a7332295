package raster

import (
	"testing"
)

func TestDataTypes(t *testing.T) {
	want := map[DataType][2]any{Uint8: {"uint8", 1}, Int8: {"int8", 1}, Uint16: {"uint16", 2}, Int16: {"int16", 2},
		Uint32: {"uint32", 4}, Int32: {"int32", 4}, Float32: {"float32", 4}, Float64: {"float64", 8}}
	for dt, w := range want {
		if dt.String() != w[0] || dt.Size() != w[1] {
			t.Errorf("%d: %s %d", dt, dt, dt.Size())
		}
		if p, err := ParseDataType(dt.String()); err != nil || p != dt {
			t.Errorf("ParseDataType(%s) = %v %v", dt, p, err)
		}
	}
	if Unknown.Size() != 0 || DataType(99).String() != "DataType(99)" {
		t.Error("unknown types")
	}
	if _, err := ParseDataType("complex64"); err == nil {
		t.Error("complex64 parsed")
	}
}

func TestBandAccessors(t *testing.T) {
	for _, dt := range []DataType{Uint8, Int8, Uint16, Int16, Uint32, Int32, Float32, Float64} {
		b, err := NewBand(3, 2, dt)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Validate(); err != nil || b.Len() != 6 || len(b.Bytes()) != 6*dt.Size() {
			t.Fatalf("%v: %v", dt, err)
		}
		b.Set(4, 7)
		b.Set(5, 2.5)
		if b.At(4) != 7 || b.Float64s()[4] != 7 || b.At(0) != 0 {
			t.Errorf("%v: At/Float64s %v %v", dt, b.At(4), b.Float64s())
		}
		if want := map[bool]float64{false: 2, true: 2.5}[dt == Float32 || dt == Float64]; b.At(5) != want {
			t.Errorf("%v: Set(5, 2.5) reads back %v, want %v (Go's conversion)", dt, b.At(5), want)
		}
		le := LittleEndianBytes(b)
		if len(le) != 6*dt.Size() {
			t.Errorf("%v: LittleEndianBytes length %d", dt, len(le))
		}
	}
	if _, err := NewBand(-1, 2, Uint8); err == nil {
		t.Error("negative size accepted")
	}
	if _, err := NewBand(2, 2, Unknown); err == nil {
		t.Error("unknown type accepted")
	}
	bad := &Band{Width: 2, Height: 2, Type: Float32, Data: []float64{1, 2, 3, 4}}
	if bad.Validate() == nil {
		t.Error("type mismatch accepted")
	}
}
