package crs

import "testing"

// benchLonLat returns n deterministic points within about 50 km of
// (12, 45), the same arrays conformance/geodesy/bench.py builds.
func benchLonLat(n int) (lon, lat []float64) {
	lon, lat = make([]float64, n), make([]float64, n)
	for i := range n {
		lat[i] = 44.6 + 0.8*(float64(i)/float64(n))
		lon[i] = 11.6 + 0.8*(float64((i*7919)%n)/float64(n))
	}
	return lon, lat
}

func BenchmarkAeqdForward1e6(b *testing.B) {
	const n = 1000000
	lon, lat := benchLonLat(n)
	p, err := NewAzimuthalEquidistant(45, 12)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for i := range n {
			if _, _, err := p.FromLonLat(lon[i], lat[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkUTMForward1e6(b *testing.B) {
	const n = 1000000
	lon, lat := benchLonLat(n)
	p, err := FromEPSG(32632)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for i := range n {
			if _, _, err := p.FromLonLat(lon[i], lat[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
