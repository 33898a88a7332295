package geotiff

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/raster/internal/tiff"
)

func TestEncodeSampleClamps(t *testing.T) {
	b := make([]byte, 8)
	encodeSample(b, Uint8, -9999)
	if b[0] != 0 {
		t.Errorf("uint8(-9999) = %d", b[0])
	}
	encodeSample(b, Int16, 1e9)
	if int16(tiff.U16s(b)[0]) != 32767 {
		t.Errorf("int16(1e9) = %d", int16(tiff.U16s(b)[0]))
	}
	encodeSample(b, Float32, math.NaN())
	if v := math.Float32frombits(tiff.U32s(b)[0]); v == v {
		t.Errorf("float32 NaN = %v", v)
	}
	if halfToFloat32Bits(0x3c00) != math.Float32bits(1) || halfToFloat32Bits(0xc000) != math.Float32bits(-2) ||
		halfToFloat32Bits(0x0001) != math.Float32bits(5.960464477539063e-08) || halfToFloat32Bits(0x7c00) != math.Float32bits(float32(math.Inf(1))) {
		t.Error("half float conversion")
	}
}
