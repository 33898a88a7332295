package crs

// geographicWGS84 is EPSG:4326 with x = longitude, y = latitude.
type geographicWGS84 struct{}

// WGS84LonLat returns EPSG:4326, WGS84 geographic longitude/latitude in
// degrees (x = longitude, y = latitude).
func WGS84LonLat() CRS { return geographicWGS84{} }

func (geographicWGS84) String() string   { return "EPSG:4326" }
func (geographicWGS84) EPSG() int        { return 4326 }
func (geographicWGS84) Geographic() bool { return true }
func (geographicWGS84) Unit() Unit       { return Degree }

// ToLonLat checks the coordinate and returns it unchanged (longitudes are
// not wrapped).
func (geographicWGS84) ToLonLat(x, y float64) (float64, float64, error) {
	if err := checkLonLat(x, y); err != nil {
		return 0, 0, err
	}
	return x, y, nil
}

// FromLonLat checks the coordinate and returns it unchanged.
func (geographicWGS84) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := checkLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	return lon, lat, nil
}
