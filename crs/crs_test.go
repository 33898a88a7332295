package crs

import (
	"errors"
	"math"
	"testing"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
)

func TestParse(t *testing.T) {
	for _, s := range []string{"EPSG:4326", "epsg:32633", "EPSG:32760", "3857", "aeqd:45.5,-7.25", "EPSG:25832", "EPSG:27700"} {
		c, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if c.String() == "" {
			t.Errorf("%s: empty String", s)
		}
	}
	c, _ := Parse("aeqd: 45.5 , -7.25")
	if c.String() != "aeqd:45.5,-7.25" || c.EPSG() != 0 {
		t.Errorf("aeqd String %q", c.String())
	}
	c, _ = Parse("epsg:32633")
	if c.String() != "EPSG:32633" || c.EPSG() != 32633 || c.Geographic() || c.Unit() != Metre {
		t.Errorf("UTM metadata %v %v %v %v", c, c.EPSG(), c.Geographic(), c.Unit())
	}
	for _, s := range []string{"", "EPSG:", "EPSG:12345", "EPSG:32600", "EPSG:4978", "aeqd:1", "aeqd:x,y", "aeqd:91,0", "aeqd:NaN,0", "wgs84"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
	projs := map[string]string{
		"+proj=aeqd +lat_0=45 +lon_0=7 +datum=WGS84 +units=m +no_defs":                                                     "aeqd:45,7",
		"+proj=aeqd +lat_0=-3.5 +lon_0=120.25 +ellps=WGS84":                                                                "aeqd:-3.5,120.25",
		"+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs +type=crs":                                                      "EPSG:32633",
		"+proj=utm +zone=18 +south +datum=WGS84":                                                                           "EPSG:32718",
		"+proj=longlat +datum=WGS84 +no_defs":                                                                              "EPSG:4326",
		"+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs": "EPSG:3857",
	}
	for in, want := range projs {
		c, err := Parse(in)
		if err != nil || c.String() != want {
			t.Errorf("%q: %v %v want %s", in, c, err, want)
		}
	}
	// PROJ strings of user-defined systems read back as the same system.
	for _, in := range []string{
		"+proj=aeqd +lat_0=45 +lon_0=7 +ellps=GRS80",
		"+proj=aeqd +lat_0=45 +lon_0=7 +datum=WGS84 +x_0=100",
		"+proj=utm +zone=33 +datum=NAD83",
		"+proj=tmerc +datum=WGS84",
		"+proj=longlat +datum=WGS84 +towgs84=1,2,3",
		"+proj=lcc +lat_1=33 +lat_2=45 +lat_0=40 +lon_0=-97 +x_0=0 +y_0=0 +datum=WGS84 +units=us-ft",
	} {
		c, err := Parse(in)
		if err != nil || c.EPSG() != 0 {
			t.Errorf("%q: %v %v", in, c, err)
			continue
		}
		back, err := Parse(c.String())
		if err != nil || back.String() != c.String() {
			t.Errorf("%q: String %q reads back as %v (%v)", in, c.String(), back, err)
		}
	}
	for _, in := range []string{
		"+proj=utm +datum=WGS84",
		"+proj=utm +zone=61 +datum=WGS84",
		"+proj=aeqd +lat_0=abc +lon_0=7 +datum=WGS84",
		"+proj=aeqd +lat_0=95 +lon_0=7 +datum=WGS84",
		"+proj=longlat +datum=WGS84 +nadgrids=@conus",
		"+proj=tmerc +datum=WGS84 +foo=1",
		"+proj=bogus +datum=WGS84",
		"+proj=longlat +datum=Mars",
		"+proj=longlat +ellps=WGS84 +towgs84=1,2",
	} {
		if c, err := Parse(in); err == nil {
			t.Errorf("%q accepted as %v", in, c)
		}
	}
	if _, err := FromEPSG(9999); !errors.Is(err, ErrUnknownCRS) {
		t.Errorf("unknown EPSG error %v", err)
	}
}

func TestRoundTrip(t *testing.T) {
	wgs := WGS84LonLat()
	type tc struct {
		crs                    string
		lon0, lon1, lat0, lat1 float64
	}
	cases := []tc{
		{"EPSG:32633", 11.5, 18.5, 0, 84},
		{"EPSG:32733", 11.5, 18.5, -80, 0},
		{"EPSG:32601", -180, -174, -10, 70},
		{"EPSG:32660", 174, 180, -80, 84},
		{"EPSG:3857", -180, 180, -85, 85},
		{"aeqd:45,7", 2, 12, 41, 49},
		{"aeqd:89.5,120", -180, 180, 86, 90},
		{"aeqd:-10,179.9", 177, 183, -13, -7},
		{"EPSG:25832", 6, 12, 40, 70},
		{"EPSG:27700", -6, 1, 50, 58},
		{"EPSG:2154", -4, 8, 43, 51},
	}
	var worst, worstShifted float64
	for _, c := range cases {
		to, err := Parse(c.crs)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= 20; i++ {
			for j := 0; j <= 20; j++ {
				lon := c.lon0 + (c.lon1-c.lon0)*float64(i)/20
				lat := c.lat0 + (c.lat1-c.lat0)*float64(j)/20
				x, y, err := Transform(wgs, to, lon, lat)
				if err != nil {
					t.Fatalf("%s (%v, %v): %v", c.crs, lon, lat, err)
				}
				blon, blat, err := Transform(to, wgs, x, y)
				if err != nil {
					t.Fatalf("%s back (%v, %v): %v", c.crs, x, y, err)
				}
				d := math.Abs(blat - lat)
				if math.Abs(lat) < 90 {
					d = math.Max(d, math.Abs(proj.Wrap180(blon-lon)))
				}
				tol := 1e-8
				if helmertShifted(to) {
					// A 2-D datum shift drops the ellipsoidal height it
					// creates (as PROJ does), so the way back starts from
					// a point up to ~50 m off the surface: ~1e-8 degrees.
					tol = 1e-7
				}
				if d > tol {
					t.Errorf("%s (%v, %v) -> (%v, %v) -> (%v, %v): %g deg", c.crs, lon, lat, x, y, blon, blat, d)
				}
				if helmertShifted(to) {
					worstShifted = math.Max(worstShifted, d)
				} else {
					worst = math.Max(worst, d)
				}
			}
		}
	}
	t.Logf("worst round trip %.3g deg (Helmert-shifted datums %.3g deg)", worst, worstShifted)
}

func TestBadCoordinates(t *testing.T) {
	wgs := WGS84LonLat()
	utm33, _ := FromEPSG(32633)
	merc := WebMercator()
	aeqd, _ := core.NewAzimuthalEquidistant(45, 7)
	nan := math.NaN()
	cases := []struct {
		name     string
		from, to CRS
		x, y     float64
		want     error
	}{
		{"lat>90", wgs, utm33, 15, 90.5, ErrInvalidCoordinate},
		{"lat<-90", wgs, merc, 0, -91, ErrInvalidCoordinate},
		{"NaN lon", wgs, aeqd, nan, 0, ErrInvalidCoordinate},
		{"Inf northing", utm33, wgs, 5e5, math.Inf(1), ErrInvalidCoordinate},
		{"mercator pole", wgs, merc, 0, 90, ErrOutsideDomain},
		{"utm far", wgs, utm33, 100, 0, ErrOutsideDomain},
		{"utm far west", wgs, utm33, -60, 10, ErrOutsideDomain},
		{"utm beyond pole", utm33, wgs, 5e5, 2.1e7, ErrOutsideDomain},
		{"utm far easting", utm33, wgs, 5e7, 0, ErrOutsideDomain},
		{"aeqd beyond antipode", aeqd, wgs, 2e7, 2e7, ErrOutsideDomain},
		{"NaN identity", wgs, wgs, nan, 0, ErrInvalidCoordinate},
	}
	for _, c := range cases {
		_, _, err := Transform(c.from, c.to, c.x, c.y)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	if _, _, err := Transform(nil, wgs, 0, 0); err == nil {
		t.Error("nil CRS accepted")
	}
}

func TestSpecialPoints(t *testing.T) {
	wgs := WGS84LonLat()
	utm33, _ := FromEPSG(32633)
	x, y, err := Transform(wgs, utm33, 15, 0)
	if err != nil || math.Abs(x-500000) > 1e-9 || y != 0 {
		t.Errorf("central meridian at equator: %v %v %v", x, y, err)
	}
	// The pole maps onto the central meridian at the quarter meridian.
	x, y, err = Transform(wgs, utm33, 15, 90)
	if err != nil || math.Abs(x-500000) > 1e-9 || math.Abs(y-9997964.943020998) > 1e-6 {
		t.Errorf("pole: %v %v %v", x, y, err)
	}
	lon, lat, err := Transform(utm33, wgs, 500000, 9997964.943020998)
	if err != nil || math.Abs(lat-90) > 1e-9 {
		t.Errorf("pole back: %v %v %v", lon, lat, err)
	}
	a, _ := core.NewAzimuthalEquidistant(10, 20)
	x, y, err = Transform(wgs, a, 20, 10)
	if err != nil || x != 0 || y != 0 {
		t.Errorf("aeqd centre: %v %v %v", x, y, err)
	}
	lon, lat, err = Transform(a, wgs, 0, 0)
	if err != nil || lon != 20 || lat != 10 {
		t.Errorf("aeqd centre back: %v %v %v", lon, lat, err)
	}
	// Identity keeps the input bit for bit, including longitudes beyond 180.
	lon, lat, _ = Transform(wgs, wgs, 190, 5)
	if lon != 190 || lat != 5 {
		t.Errorf("identity %v %v", lon, lat)
	}
	if z := UTMZone(15.2); z != 33 {
		t.Errorf("UTMZone(15.2) = %d", z)
	}
	if z := UTMZone(180); z != 60 {
		t.Errorf("UTMZone(180) = %d", z)
	}
	if z := UTMZone(-180); z != 1 {
		t.Errorf("UTMZone(-180) = %d", z)
	}
}

// footCRS is a test CRS in US survey feet.
type footCRS struct{ CRS }

func (footCRS) Unit() Unit { return USSurveyFoot }

func TestPixelAreaM2(t *testing.T) {
	utm33, _ := FromEPSG(32633)
	a, err := PixelAreaM2(Affine{10, 0, 500000, 0, -10, 4e6}, utm33)
	if err != nil || a != 100 {
		t.Errorf("10 m pixel: %v %v", a, err)
	}
	a, err = PixelAreaM2(Affine{30, 0, 0, 0, -30, 0}, footCRS{utm33})
	want := 900 * (1200.0 / 3937) * (1200.0 / 3937)
	if err != nil || math.Abs(a-want) > 1e-12 {
		t.Errorf("US survey foot pixel %v want %v (%v)", a, want, err)
	}
	// Rotated grids use |det|.
	a, _ = PixelAreaM2(Affine{6, 8, 0, -8, 6, 0}, utm33)
	if a != 100 {
		t.Errorf("rotated pixel %v", a)
	}
	if _, err := PixelAreaM2(Affine{1, 0, 0, 0, -1, 0}, WGS84LonLat()); err == nil {
		t.Error("geographic pixel area accepted")
	}
	if _, err := PixelAreaM2(Affine{0, 0, 0, 0, 0, 0}, utm33); err == nil {
		t.Error("singular transform accepted")
	}
	if _, err := PixelAreaM2(Affine{math.NaN(), 0, 0, 0, -1, 0}, utm33); err == nil {
		t.Error("NaN transform accepted")
	}
}

// TestBaseGeographicDirect checks that a conversion between a projected
// CRS and its own base geographic CRS is the projection alone: DHDN
// (EPSG:4314) to DHDN / 3-degree Gauss-Kruger zone 3 (EPSG:31467) gives
// what the projection gives on the DHDN datum, and differs from a path
// through WGS 84 (a Helmert shift there and back, about 1 mm apart).
func TestBaseGeographicDirect(t *testing.T) {
	geo, err := FromEPSG(4314)
	if err != nil {
		t.Fatal(err)
	}
	gk, err := FromEPSG(31467)
	if err != nil {
		t.Fatal(err)
	}
	maxViaWGS84 := 0.0
	for _, p := range [][2]float64{{9, 50}, {8.2, 48.1}, {10.4, 53.5}, {9.7, 51.3}} {
		// Transform's x, y are longitude, latitude for a geographic CRS.
		x, y, err := Transform(geo, gk, p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		wx, wy, err := gk.(core.OnDatum).FromDatum(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		if x != wx || y != wy {
			t.Errorf("%v: Transform gives (%v, %v), the projection on DHDN (%v, %v)", p, x, y, wx, wy)
		}
		lon, lat, _ := geo.ToLonLat(p[0], p[1])
		vx, vy, _ := gk.FromLonLat(lon, lat)
		maxViaWGS84 = math.Max(maxViaWGS84, math.Hypot(vx-x, vy-y))
		bx, by, err := Transform(gk, geo, x, y)
		if err != nil || math.Abs(bx-p[0]) > 1e-11 || math.Abs(by-p[1]) > 1e-11 {
			t.Errorf("%v: back to DHDN (%v, %v) %v", p, bx, by, err)
		}
	}
	if maxViaWGS84 == 0 {
		t.Error("the path through WGS 84 gives the same result: the test proves nothing")
	}
	t.Logf("through WGS 84 the points would move by up to %.2g m", maxViaWGS84)
}
