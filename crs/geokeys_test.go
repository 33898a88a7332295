package crs

import "testing"

func TestGeoKeysEPSG(t *testing.T) {
	cases := []struct {
		name    string
		dir     []uint16
		doubles []float64
		want    int
	}{
		{"geographic code", []uint16{1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326}, nil, 4326},
		{"projected code", []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 32618}, nil, 32618},
		{"user geographic WGS84 datum", []uint16{1, 1, 0, 3, 1024, 0, 1, 2, 2048, 0, 1, 32767, 2050, 0, 1, 6326}, nil, 4326},
		{"user projected UTM via ProjectionGeoKey", []uint16{1, 1, 0, 4, 1024, 0, 1, 1, 2048, 0, 1, 4326, 3072, 0, 1, 32767, 3074, 0, 1, 16133}, nil, 32733},
		{"user projected TM with UTM parameters", []uint16{1, 1, 0, 9, 1024, 0, 1, 1, 2048, 0, 1, 4269, 3072, 0, 1, 32767, 3074, 0, 1, 32767, 3075, 0, 1, 1,
			3080, 34736, 1, 0, 3081, 34736, 1, 1, 3082, 34736, 1, 2, 3092, 34736, 1, 3}, []float64{-75, 0, 500000, 0.9996}, 26918},
		{"TM not UTM", []uint16{1, 1, 0, 7, 1024, 0, 1, 1, 2048, 0, 1, 4326, 3072, 0, 1, 32767, 3075, 0, 1, 1,
			3080, 34736, 1, 0, 3082, 34736, 1, 1, 3092, 34736, 1, 2}, []float64{-74, 500000, 0.9996}, 0},
		{"projected in feet unknown", []uint16{1, 1, 0, 4, 1024, 0, 1, 1, 2048, 0, 1, 4326, 3074, 0, 1, 16018, 3076, 0, 1, 9002}, nil, 0},
		{"no model type", []uint16{1, 1, 0, 1, 2048, 0, 1, 4269}, nil, 4269},
		{"geocentric", []uint16{1, 1, 0, 1, 1024, 0, 1, 3}, nil, 0},
	}
	for _, c := range cases {
		g, err := ParseGeoKeyDirectory(c.dir, c.doubles, "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := g.EPSG(); got != c.want {
			t.Errorf("%s: EPSG %d, want %d", c.name, got, c.want)
		}
	}
}

func TestGeoKeysErrors(t *testing.T) {
	if _, err := ParseGeoKeyDirectory([]uint16{1, 1}, nil, ""); err == nil {
		t.Error("short directory accepted")
	}
	if _, err := ParseGeoKeyDirectory([]uint16{1, 1, 0, 2, 1024, 0, 1, 2}, nil, ""); err == nil {
		t.Error("directory with missing keys accepted")
	}
	if _, err := ParseGeoKeyDirectory([]uint16{1, 1, 0, 1, 3080, 34736, 2, 0}, []float64{1}, ""); err == nil {
		t.Error("double out of range accepted")
	}
	g, err := ParseGeoKeyDirectory([]uint16{1, 1, 0, 2, 1025, 0, 1, 2, 1026, 34737, 6, 0}, nil, "WGS84|")
	if err != nil {
		t.Fatal(err)
	}
	if !g.PixelIsPoint() || g.ASCII[GTCitationGeoKey] != "WGS84" {
		t.Errorf("PixelIsPoint %v citation %q", g.PixelIsPoint(), g.ASCII[GTCitationGeoKey])
	}
}

func TestGeoKeysForEPSG(t *testing.T) {
	for _, code := range []int{4326, 4269, 32618, 3857, 32733, 4087} {
		dir, err := GeoKeysForEPSG(code)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ParseGeoKeyDirectory(dir, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := g.EPSG(); got != code {
			t.Errorf("round trip of EPSG:%d gave %d", code, got)
		}
		wantGeo := code == 4326 || code == 4269
		if IsGeographicEPSG(code) != wantGeo {
			t.Errorf("IsGeographicEPSG(%d) = %v", code, !wantGeo)
		}
	}
	if _, err := GeoKeysForEPSG(0); err == nil {
		t.Error("EPSG 0 accepted")
	}
}
