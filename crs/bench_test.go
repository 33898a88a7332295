package crs

import (
	"context"
	"testing"

	"github.com/geodisaster/engine/crs/internal/core"
)

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
	p, err := core.NewAzimuthalEquidistant(45, 12)
	benchForward1e6(b, p, err)
}

func BenchmarkUTMForward1e6(b *testing.B) {
	p, err := FromEPSG(32632)
	benchForward1e6(b, p, err)
}

// benchForward1e6 converts the million points of benchLonLat with p.
func benchForward1e6(b *testing.B, p CRS, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000000
	lon, lat := benchLonLat(n)
	for b.Loop() {
		for i := range n {
			if _, _, err := p.FromLonLat(lon[i], lat[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchGrid returns n deterministic points in the box lon0..lon0+dlon,
// lat0..lat0+dlat, the same arrays conformance/crs/bench_vs_pyproj.py
// builds.
func benchGrid(n int, lon0, lat0, dlon, dlat float64) (lon, lat []float64) {
	lon, lat = make([]float64, n), make([]float64, n)
	for i := range n {
		lat[i] = lat0 + dlat*(float64(i)/float64(n))
		lon[i] = lon0 + dlon*(float64((i*7919)%n)/float64(n))
	}
	return lon, lat
}

// projectedEPSG is the projected CRS EPSG:code. A failure fails tb.
func projectedEPSG(tb testing.TB, code int) *core.ProjectedCRS {
	tb.Helper()
	c, err := FromEPSG(code)
	if err != nil {
		tb.Fatal(err)
	}
	p, ok := c.(*core.ProjectedCRS)
	if !ok {
		tb.Fatalf("EPSG:%d is not a projected CRS", code)
	}
	return p
}

// benchConversion times 1e6 conversions from a projected CRS's base
// geographic CRS with Transform (lon/lat, always_xy order).
func benchConversion(b *testing.B, code int, lon0, lat0, dlon, dlat float64) {
	const n = 1000000
	p := projectedEPSG(b, code)
	base := CRS(p.Base)
	lon, lat := benchGrid(n, lon0, lat0, dlon, dlat)
	b.ResetTimer()
	for b.Loop() {
		for i := range n {
			if _, _, err := Transform(base, p, lon[i], lat[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTMForward1e6 is DHDN to DHDN / 3-degree Gauss-Kruger zone 3
// (EPSG:4314 to 31467) over southern Germany.
func BenchmarkTMForward1e6(b *testing.B) { benchConversion(b, 31467, 8, 48, 2, 2) }

// BenchmarkLCCForward1e6 is RGF93 v1 to Lambert-93 (EPSG:4171 to 2154)
// over France.
func BenchmarkLCCForward1e6(b *testing.B) { benchConversion(b, 2154, -1, 44, 6, 6) }

// BenchmarkPolarStereoForward1e6 is WGS 84 to Antarctic Polar
// Stereographic (EPSG:4326 to 3031).
func BenchmarkPolarStereoForward1e6(b *testing.B) { benchConversion(b, 3031, -180, -85, 360, 25) }

// BenchmarkTMInverse1e6 converts EPSG:31467 back to DHDN.
func BenchmarkTMInverse1e6(b *testing.B) {
	const n = 1000000
	p := projectedEPSG(b, 31467)
	x, y := benchGrid(n, 3400000, 5300000, 200000, 200000)
	b.ResetTimer()
	for b.Loop() {
		for i := range n {
			// Transform's x y order for 31467 is easting, northing.
			if _, _, err := Transform(p, p.Base, x[i], y[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTMForwardSlices1e6 is BenchmarkTMForward1e6 through
// Transformer.TransformSlices on every core.
func BenchmarkTMForwardSlices1e6(b *testing.B) { benchSlices(b, 31467, 8, 48, 2, 2) }

// BenchmarkLCCForwardSlices1e6 is BenchmarkLCCForward1e6 on every core.
func BenchmarkLCCForwardSlices1e6(b *testing.B) { benchSlices(b, 2154, -1, 44, 6, 6) }

// BenchmarkPolarStereoForwardSlices1e6 is BenchmarkPolarStereoForward1e6
// on every core.
func BenchmarkPolarStereoForwardSlices1e6(b *testing.B) {
	benchSlices(b, 3031, -180, -85, 360, 25)
}

func benchSlices(b *testing.B, code int, lon0, lat0, dlon, dlat float64) {
	const n = 1000000
	p := projectedEPSG(b, code)
	t, err := NewTransformer(p.Base, p)
	if err != nil {
		b.Fatal(err)
	}
	lon, lat := benchGrid(n, lon0, lat0, dlon, dlat)
	x, y := make([]float64, n), make([]float64, n)
	b.ResetTimer()
	for b.Loop() {
		copy(x, lon)
		copy(y, lat)
		if err := t.TransformSlices(context.Background(), x, y, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRegistry measures the one-time cost of indexing the
// embedded EPSG table (the first use of the registry pays it once per
// process; records are parsed on lookup).
func BenchmarkParseRegistry(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := core.ParseRegistry(epsgTables); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRegistryAll is BenchmarkParseRegistry followed by parsing
// every record, what a user of the whole registry (List, Identify of a
// user-defined CRS) pays once.
func BenchmarkParseRegistryAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := core.ParseRegistry(epsgTables)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.ParseAll(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstFromEPSG is what a process pays for the registry when it
// uses WGS 84 and a UTM zone: a fresh registry, then EPSG:4326 and
// EPSG:32633 built from it.
func BenchmarkFirstFromEPSG(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := core.ParseRegistry(epsgTables)
		if err != nil {
			b.Fatal(err)
		}
		for _, code := range []int{4326, 32633} {
			if _, err := r.FromEPSG(code); err != nil {
				b.Fatal(err)
			}
		}
	}
}
