package crs

import (
	"fmt"
	"math"
	"sort"

	"github.com/wroge/wgs84"
)

// datumCRS is one of the non-WGS84 systems of github.com/wroge/wgs84's EPSG
// registry: a datum (ellipsoid plus 7-parameter Helmert shift to WGS84,
// none for ETRS89/NAD83/RGF93, which PROJ also treats as WGS84 without a
// grid) and a projection. Transverse Mercator systems use our Krüger
// series; Lambert conformal conic, Albers and Lambert azimuthal equal-area
// use wroge's formulas; Helmert shifts are ours (PROJ's conventions, exact
// inverse).
type datumCRS struct {
	code    int
	datum   wgs84.Datum         // ellipsoid (and area) of the system
	helmert *helmertDatum       // shift to WGS84; nil for ETRS89/NAD83/RGF93
	tm      *transverseMercator // transverse Mercator systems
	proj    wgs84.Projection    // other projected systems; nil with tm for geographic
}

// otherCRS returns the wroge-registered system with the given code.
func otherCRS(code int) (CRS, bool) {
	ctor, ok := otherCodes()[code]
	if !ok {
		return nil, false
	}
	c := ctor()
	c.code = code
	return c, true
}

// OtherCodes lists the EPSG codes FromEPSG serves besides 4326, 3857,
// 900913 and the WGS84 UTM zones, in increasing order.
func OtherCodes() []int {
	m := otherCodes()
	codes := make([]int, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	return codes
}

// tmOn returns a transverse Mercator system on datum d.
func tmOn(d wgs84.Datum, lon0, lat0, k0, fe, fn float64) datumCRS {
	c := datumCRS{datum: d, tm: newTransverseMercator(d.A(), 1/d.Fi(), lat0, lon0, k0, fe, fn)}
	switch d.A() {
	case osgb36Helmert.a:
		c.helmert = &osgb36Helmert
	case mgiHelmert.a: // Bessel: MGI or DHDN, told apart by the caller
		c.helmert = &mgiHelmert
	}
	return c
}

// otherCodes builds the registry; parameters follow wroge/wgs84 v1.1.7's
// EPSG table (with EPSG:6414's Albers parameters in their proper order).
func otherCodes() map[int]func() datumCRS {
	m := map[int]func() datumCRS{
		4258: func() datumCRS { return datumCRS{datum: wgs84.ETRS89()} },
		4314: func() datumCRS { return datumCRS{datum: wgs84.DHDN2001(), helmert: &dhdnHelmert} },
		4277: func() datumCRS { return datumCRS{datum: wgs84.OSGB36(), helmert: &osgb36Helmert} },
		4171: func() datumCRS { return datumCRS{datum: wgs84.RGF93()} },
		4269: func() datumCRS { return datumCRS{datum: wgs84.NAD83()} },
		3416: func() datumCRS {
			return datumCRS{datum: wgs84.ETRS89(), proj: wgs84.ETRS89AustriaLambert().Projection}
		},
		3035: func() datumCRS {
			return datumCRS{datum: wgs84.ETRS89(), proj: wgs84.ETRS89LambertAzimuthalEqualArea().Projection}
		},
		31287: func() datumCRS {
			return datumCRS{datum: wgs84.MGI(), helmert: &mgiHelmert, proj: wgs84.MGIAustriaLambert().Projection}
		},
		31284: func() datumCRS { return tmOn(wgs84.MGI(), 10+1.0/3, 0, 1, 150000, 0) },
		31285: func() datumCRS { return tmOn(wgs84.MGI(), 13+1.0/3, 0, 1, 450000, 0) },
		31286: func() datumCRS { return tmOn(wgs84.MGI(), 16+1.0/3, 0, 1, 750000, 0) },
		31257: func() datumCRS { return tmOn(wgs84.MGI(), 10+1.0/3, 0, 1, 150000, -5000000) },
		31258: func() datumCRS { return tmOn(wgs84.MGI(), 13+1.0/3, 0, 1, 450000, -5000000) },
		31259: func() datumCRS { return tmOn(wgs84.MGI(), 16+1.0/3, 0, 1, 750000, -5000000) },
		27700: func() datumCRS { return tmOn(wgs84.OSGB36(), -2, 49, 0.9996012717, 400000, -100000) },
		2154: func() datumCRS {
			return datumCRS{datum: wgs84.RGF93(), proj: wgs84.RGF93FranceLambert().Projection}
		},
		6355: func() datumCRS { return tmOn(wgs84.NAD83(), -85-50.0/60, 30.5, 0.99996, 200000, 0) },
		6356: func() datumCRS { return tmOn(wgs84.NAD83(), -87.5, 30, 0.999933333, 600000, 0) },
		6414: func() datumCRS {
			d := wgs84.NAD83()
			return datumCRS{datum: d, proj: d.AlbersEqualAreaConic(-120, 0, 34, 40.5, 0, -4000000).Projection}
		},
	}
	for z := 42; z <= 50; z++ {
		lat := float64(z)
		m[3900+z] = func() datumCRS {
			return datumCRS{datum: wgs84.RGF93(), proj: wgs84.RGF93CC(lat).Projection}
		}
	}
	for z := 2; z <= 5; z++ {
		zone := float64(z)
		m[31464+z] = func() datumCRS {
			c := tmOn(wgs84.DHDN2001(), zone*3, 0, 1, float64(zone*1000000)+500000, 0)
			c.helmert = &dhdnHelmert
			return c
		}
	}
	for z := 28; z <= 38; z++ {
		cm := float64(z*6 - 183)
		m[25800+z] = func() datumCRS { return tmOn(wgs84.ETRS89(), cm, 0, 0.9996, 500000, 0) }
	}
	return m
}

func (c datumCRS) String() string   { return fmt.Sprintf("EPSG:%d", c.code) }
func (c datumCRS) EPSG() int        { return c.code }
func (c datumCRS) Geographic() bool { return c.tm == nil && c.proj == nil }

// Unit is metre for the projected systems, degree for the geographic ones.
func (c datumCRS) Unit() Unit {
	if c.Geographic() {
		return Degree
	}
	return Metre
}

// ToLonLat converts to datum longitude/latitude, then shifts to WGS84.
func (c datumCRS) ToLonLat(x, y float64) (float64, float64, error) {
	var lon, lat float64
	var err error
	switch {
	case c.tm != nil:
		lon, lat, err = c.tm.inverse(x, y)
	case c.proj != nil:
		if err = finite2(x, y); err == nil {
			lon, lat = c.proj.ToLonLat(x, y, c.datum)
			if err = checkLonLat(lon, lat); err != nil {
				err = fmt.Errorf("%w: (%v, %v) has no inverse", ErrOutsideDomain, x, y)
			}
		}
	default:
		lon, lat, err = x, y, checkLonLat(x, y)
	}
	if err != nil {
		return 0, 0, err
	}
	if c.helmert != nil {
		lon, lat = c.helmert.toWGS84(lon, lat)
	}
	return lon, lat, nil
}

// FromLonLat shifts WGS84 longitude/latitude to the datum, then projects.
func (c datumCRS) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := checkLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	if c.helmert != nil {
		lon, lat = c.helmert.fromWGS84(lon, lat)
	}
	switch {
	case c.tm != nil:
		return c.tm.forward(lon, lat)
	case c.proj != nil:
		x, y := c.proj.FromLonLat(lon, lat, c.datum)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return 0, 0, fmt.Errorf("%w: (%v, %v) in %s", ErrOutsideDomain, lon, lat, c)
		}
		return x, y, nil
	}
	return lon, lat, nil
}
