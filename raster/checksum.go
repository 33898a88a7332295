package raster

import (
	"fmt"
	"math"
)

// checksumPrimes are the moduli GDAL's checksum cycles through.
var checksumPrimes = [11]int32{7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43}

// Checksum returns GDAL's checksum of a band (GDALChecksumImage over the
// whole band, the value gdalinfo -checksum prints): a 16-bit sum of each
// sample, taken as a 32-bit integer, modulo a prime that cycles through
// 7, 11, ..., 43 in row-major order. Integer samples are taken as they
// are (uint32 values above 2^31-1 clamp to it); floating-point samples are
// rounded half up and clamped to ±(2^31-1), and NaN and infinities count
// as -2^31.
func Checksum(b *Band) (int, error) {
	if err := b.Validate(); err != nil {
		return 0, err
	}
	var c checksummer
	switch s := b.Data.(type) {
	case []uint8:
		checksumInts(&c, s)
	case []int8:
		checksumInts(&c, s)
	case []uint16:
		checksumInts(&c, s)
	case []int16:
		checksumInts(&c, s)
	case []int32:
		checksumInts(&c, s)
	case []uint32:
		for _, v := range s {
			c.add(int32(min(v, math.MaxInt32)))
		}
	case []float32:
		for _, v := range s {
			c.add(checksumFloat(float64(v)))
		}
	case []float64:
		for _, v := range s {
			c.add(checksumFloat(v))
		}
	default:
		return 0, fmt.Errorf("raster: Checksum of data of type %T", b.Data)
	}
	return int(c.sum), nil
}

// checksummer accumulates GDAL's checksum.
type checksummer struct {
	sum   int32
	prime int
}

func (c *checksummer) add(v int32) {
	c.sum = (c.sum + v%checksumPrimes[c.prime]) & 0xffff
	c.prime++
	if c.prime == len(checksumPrimes) {
		c.prime = 0
	}
}

func checksumInts[T uint8 | int8 | uint16 | int16 | int32](c *checksummer, s []T) {
	for _, v := range s {
		c.add(int32(v))
	}
}

// checksumFloat converts a sample as GDAL's checksum does.
func checksumFloat(v float64) int32 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.MinInt32
	}
	v += 0.5
	switch {
	case v < -2147483647.0:
		return -2147483647
	case v > 2147483647:
		return 2147483647
	}
	return int32(math.Floor(v))
}
