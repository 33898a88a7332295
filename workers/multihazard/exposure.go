package multihazard

import (
	"fmt"
	"math"
	"strings"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
)

// Multi-hazard task shape D: a binary hazard footprint (ScoreHazard
// scale=impact_footprint) joined with WorldPop and cached OpenStreetMap
// representative points (EstimateExposure) — types 12 wildfire_d, 16
// hazard_deforestation_d, 20 urban_expansion_d, 24 drought_d and 28
// air_pollution_d.

// ContextKM is the fixed, inclusive context radius of the D tasks.
const ContextKM = 5.0

// DistanceMethod names how the D tasks measure distances.
const DistanceMethod = "local_aeqd_positive_cell_centres"

// exposureRule binds an EstimateExposure variant to its hazard and the OSM
// categories it reports.
type exposureRule struct {
	Value      string
	Hazard     string
	Categories []string
}

// exposureRules are the spec's D-shape calls: type 12 EstimateExposure
// (within_km=5) (the default variant), 16 nearest_highway, 20
// population_in_footprint, 24 schools, 28 high_no2_column_population.
var exposureRules = []exposureRule{
	{"", "wildfire", []string{"highway"}},
	{"nearest_highway", "deforestation", []string{"highway"}},
	{"population_in_footprint", "urban_expansion", []string{"hospital", "school"}},
	{"schools", "drought", []string{"school"}},
	{"high_no2_column_population", "air_pollution", []string{"hospital", "school"}},
}

func exposureVariants() []workers.Variant {
	vs := []workers.Variant{{
		Tool: "ScoreHazard", Value: "impact_footprint",
		Params: []workers.Param{
			workers.Input("work handle from the hazard's *_exposure PrepareScene mode"),
			{Name: "hazard", Kind: workers.KindString, Enum: hazardNames(), Doc: "must match the work context's hazard when given"},
			workers.Choice("scale", "impact_footprint"),
		},
		Run: scoreImpactFootprint,
	}}
	for _, r := range exposureRules {
		r := r
		params := []workers.Param{
			workers.Input("score handle from ScoreHazard(scale=impact_footprint)"),
			{Name: "within_km", Kind: workers.KindNumber, Required: r.Value == "", Doc: "inclusive context radius; only 5 is declared"},
		}
		if r.Value != "" {
			params = append(params, workers.Choice("exposure", r.Value))
		}
		vs = append(vs, workers.Variant{
			Tool: "EstimateExposure", Value: r.Value, Params: params,
			Run: func(env workers.Env, a workers.Args) (*workers.Result, error) { return estimateExposure(env, a, r) },
		})
	}
	return vs
}

// checkExposureScene verifies the exposure context handle: exactly one
// WorldPop raster with its checked sidecar and one cached OSM GeoJSON.
func checkExposureScene(env workers.Env, s *workers.Scene) error {
	var rasters, geo int
	for i := range s.Files {
		f := &s.Files[i]
		switch {
		case f.Raster != nil:
			if !strings.HasPrefix(f.Base(), "worldpop") {
				return fmt.Errorf("raster %s is not a WorldPop population raster", f.Path)
			}
			if _, err := rasterSidecar(s, f); err != nil {
				return err
			}
			rasters++
		case strings.HasSuffix(f.Path, ".geojson"):
			geo++
		}
	}
	if rasters != 1 || geo != 1 {
		return fmt.Errorf("exposure context needs one WorldPop raster and one OSM GeoJSON, found %d and %d", rasters, geo)
	}
	return nil
}

// Footprint is the D-shape payload of ScoreHazard(scale=impact_footprint).
type Footprint struct {
	Hazard string
	Mask   *HazardMask
	AreaM2 float64
	AreaHa float64 // three decimals
	// Provenance is the sidecar's train-only threshold contract ("" for
	// source-product footprints).
	Provenance string
	Work       *workers.Work
}

// scoreImpactFootprint validates the hazard's binary footprint (a valid
// zero footprint is a measured zero, except for wildfire, whose type-D
// task requires a nonempty burn footprint) and measures its area. Drought
// and air-pollution footprints are prepared threshold masks whose sidecar
// must declare the train-only threshold contract.
func scoreImpactFootprint(env workers.Env, a workers.Args) (*workers.Result, error) {
	var modes []string
	for _, d := range hazardDomains {
		modes = append(modes, d.ExposureMode)
	}
	w, err := workers.OpenWork(env, a, modes...)
	if err != nil {
		return nil, err
	}
	d, err := workHazard(w)
	if err != nil {
		return nil, err
	}
	if a.Has("hazard") && a.String("hazard") != d.Hazard {
		return nil, a.Errorf("hazard", "hazard %s does not match the work context's %s footprint", a.String("hazard"), d.Hazard)
	}
	sc := w.Scenes["hazard"]
	m, err := loadBinaryMask(env, sc, d.Footprint+".tif")
	if err != nil {
		return nil, err
	}
	if err := requireGeoreferenced(m.Path, m.Info); err != nil {
		return nil, err
	}
	if d.Hazard == "wildfire" && len(m.Ones) == 0 {
		return nil, fmt.Errorf("%s: the wildfire impact footprint is empty", m.Path)
	}
	fp := &Footprint{Hazard: d.Hazard, Mask: m, Work: w}
	if d.ThresholdProvenance != "" {
		f, _ := sc.Require(d.Footprint + ".tif")
		meta, err := rasterSidecar(sc, f)
		if err != nil {
			return nil, err
		}
		if got, _ := meta["threshold_contract"].(string); got != d.ThresholdProvenance {
			return nil, fmt.Errorf("%s: sidecar threshold_contract %q, want %q", m.Path, got, d.ThresholdProvenance)
		}
		fp.Provenance = d.ThresholdProvenance
	}
	ga, err := workers.NewGridAreas(m.Info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	fp.AreaM2 = ga.Sum(m.Ones)
	fp.AreaHa = workers.RoundHalfEven(fp.AreaM2/10000, 3)
	ev := map[string]any{
		"scale": "impact_footprint", "hazard": d.Hazard, "footprint_handle": m.Handle,
		"footprint_pixel_count": len(m.Ones), "valid_pixel_count": m.Valid, "footprint_area_ha": fp.AreaHa,
		"area_method": ga.Method,
	}
	if fp.Provenance != "" {
		ev["threshold_provenance"] = fp.Provenance
	}
	return &workers.Result{Evidence: ev, Payload: fp}, nil
}

// AssetContext is the OSM context of one feature category.
type AssetContext struct {
	FeatureCount  int
	InFootprint   int
	WithinContext int
	NearestName   *string
	NearestM      *float64 // unrounded
}

// Exposure is the D-shape payload of EstimateExposure.
type Exposure struct {
	Variant          string
	Hazard           string
	FootprintHandle  string
	FootprintPixels  int
	FootprintAreaHa  float64
	Population       float64 // three decimals
	Categories       []string
	Assets           map[string]*AssetContext
	Provenance       string
	WithinKM         float64
	PopulationHandle string
}

// estimateExposure implements the D shape: WorldPop (co-registered with
// the footprint, no negative value) summed over the footprint's positive
// cells as NumPy sums pop[mask]; each distinct cached OSM feature's
// authoritative GeoJSON geometry stands for its representative point (a
// Point as given; a LineString or Polygon by Shapely's
// representative_point(), spec type 28: "each authoritative geometry's
// representative point"), which is in the footprint when the raster
// CRS and inverse affine place it in a positive cell (cached row/col hints
// are ignored); its distance is the minimum distance to positive cell
// centres in a local azimuthal equidistant CRS centred on the AOI, and the
// 5 km context is inclusive on the unrounded distance.
func estimateExposure(env workers.Env, a workers.Args, r exposureRule) (*workers.Result, error) {
	fp, _, err := workers.OpenResult[*Footprint](env, a, "input", "score (ScoreHazard scale=impact_footprint)")
	if err != nil {
		return nil, err
	}
	if fp.Hazard != r.Hazard {
		name := r.Value
		if name == "" {
			name = "within_km context"
		}
		return nil, a.Errorf("input", "exposure %s is declared for the %s footprint, got a %s footprint", name, r.Hazard, fp.Hazard)
	}
	if v, ok := a.Number("within_km"); ok && v != ContextKM {
		return nil, a.Errorf("within_km", "the declared context radius is %v km, got %v", ContextKM, v)
	}
	sc := fp.Work.Scenes["exposure"]
	if sc == nil {
		return nil, a.Errorf("input", "the footprint's work context has no exposure scene")
	}
	var popFile, geoFile *workers.SceneFile
	for i := range sc.Files {
		f := &sc.Files[i]
		if f.Raster != nil {
			popFile = f
		} else if strings.HasSuffix(f.Path, ".geojson") {
			geoFile = f
		}
	}
	if popFile == nil || geoFile == nil {
		return nil, fmt.Errorf("exposure scene %s lacks its WorldPop raster or OSM GeoJSON", sc.Handle)
	}
	pop, err := loadContinuous(env, sc, popFile.Base())
	if err != nil {
		return nil, err
	}
	m := fp.Mask
	if err := sameGrids([]string{m.Path, pop.Path}, []workers.RasterInfo{m.Info, pop.Info}); err != nil {
		return nil, err
	}
	if i, v := pop.firstValidOutside(0, math.Inf(1)); i >= 0 {
		return nil, fmt.Errorf("%s: negative population %v at pixel %d", pop.Path, v, i)
	}
	total := pop.sumValidAt(m.Ones)
	if err := workers.CheckFinite("population in footprint", total); err != nil {
		return nil, err
	}
	raw, err := env.ReadFile(geoFile.Path)
	if err != nil {
		return nil, err
	}
	pts, err := vector.RepresentativePoints(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", geoFile.Path, err)
	}
	pts = vector.Distinct(pts)
	geom, err := newFootprintGeometry(m)
	if err != nil {
		return nil, err
	}
	ex := &Exposure{Variant: r.Value, Hazard: r.Hazard, FootprintHandle: m.Handle, FootprintPixels: len(m.Ones),
		FootprintAreaHa: fp.AreaHa, Population: workers.RoundHalfEven(total, 3), Categories: r.Categories,
		Assets: map[string]*AssetContext{}, Provenance: fp.Provenance, WithinKM: ContextKM, PopulationHandle: pop.Handle}
	assets := map[string]any{}
	for _, cat := range r.Categories {
		ac := &AssetContext{}
		best := math.Inf(1)
		for _, p := range pts {
			if c, _ := p.Properties["category"].(string); c != cat {
				continue
			}
			ac.FeatureCount++
			in, err := geom.contains(p.Lon, p.Lat)
			if err != nil {
				return nil, fmt.Errorf("%s feature %s: %w", geoFile.Path, p.ID, err)
			}
			if in {
				ac.InFootprint++
			}
			dist, err := geom.nearest(p.Lon, p.Lat)
			if err != nil {
				return nil, fmt.Errorf("%s feature %s: %w", geoFile.Path, p.ID, err)
			}
			if dist <= ContextKM*1000 {
				ac.WithinContext++
			}
			if dist < best {
				best = dist
				d := dist
				ac.NearestM = &d
				if n, ok := p.Name(); ok {
					ac.NearestName = &n
				} else {
					ac.NearestName = nil
				}
			}
		}
		ex.Assets[cat] = ac
		assets[cat] = assetJSON(ac)
	}
	ev := map[string]any{
		"footprint_handle": m.Handle, "footprint_pixel_count": len(m.Ones), "footprint_area_ha": fp.AreaHa,
		"population_handle": pop.Handle, "population_in_footprint": ex.Population,
		"within_km": ContextKM, "distance_method": DistanceMethod, "assets": assets,
		"aeqd_centre_lat_lon": []float64{geom.lat0, geom.lon0},
		"geometry_authority":  "GeoJSON geometry: a Point as given, a line or polygon by its representative point (Shapely's representative_point); cached row/col hints ignored",
	}
	if r.Value != "" {
		ev["exposure"] = r.Value
	}
	if fp.Provenance != "" {
		ev["threshold_provenance"] = fp.Provenance
	}
	return &workers.Result{Evidence: ev, Payload: ex}, nil
}

// AssetJSON renders one category's context as answer evidence.
func assetJSON(ac *AssetContext) map[string]any {
	var name, dist any
	if ac.NearestName != nil {
		name = *ac.NearestName
	}
	if ac.NearestM != nil {
		dist = workers.RoundHalfEven(*ac.NearestM, 3)
	}
	return map[string]any{
		"feature_count": ac.FeatureCount, "in_footprint_count": ac.InFootprint,
		"within_5km_count": ac.WithinContext, "nearest_name": name, "nearest_distance_m": dist,
	}
}

// footprintGeometry places WGS84 points on a footprint grid and measures
// their distance to its positive cell centres in a local azimuthal
// equidistant CRS centred on the grid's centre.
type footprintGeometry struct {
	m      *HazardMask
	rc     crs.CRS
	inv    crs.Affine
	local  crs.CRS
	cx, cy []float64
	wgs84  crs.CRS
	// lat0, lon0 are the AOI centre the local CRS is centred on.
	lat0 float64
	lon0 float64
	w, h int
}

func newFootprintGeometry(m *HazardMask) (*footprintGeometry, error) {
	t := m.Info.Transform
	rc, err := crs.FromEPSG(m.Info.EPSG)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	wgs, err := crs.FromEPSG(4326)
	if err != nil {
		return nil, err
	}
	inv, err := t.Invert()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	g := &footprintGeometry{m: m, rc: rc, inv: inv, wgs84: wgs, w: m.Info.Width, h: m.Info.Height}
	x0, y0 := t.Apply(float64(g.w)/2, float64(g.h)/2)
	lon0, lat0, err := crs.Transform(rc, wgs, x0, y0)
	if err != nil {
		return nil, fmt.Errorf("%s: AOI centre: %w", m.Path, err)
	}
	g.lat0, g.lon0 = lat0, lon0
	if g.local, err = crs.NewAzimuthalEquidistant(lat0, lon0); err != nil {
		return nil, err
	}
	for _, i := range m.Ones {
		x, y := t.Apply(float64(i%g.w)+0.5, float64(i/g.w)+0.5)
		px, py, err := crs.Transform(rc, g.local, x, y)
		if err != nil {
			return nil, fmt.Errorf("%s: cell centre %d: %w", m.Path, i, err)
		}
		g.cx = append(g.cx, px)
		g.cy = append(g.cy, py)
	}
	return g, nil
}

// contains reports whether a WGS84 point falls in a positive footprint
// cell (through the raster's CRS and inverse affine).
func (g *footprintGeometry) contains(lon, lat float64) (bool, error) {
	x, y, err := crs.Transform(g.wgs84, g.rc, lon, lat)
	if err != nil {
		return false, err
	}
	c, r := g.inv.Apply(x, y)
	col, row := math.Floor(c), math.Floor(r)
	if col < 0 || row < 0 || col >= float64(g.w) || row >= float64(g.h) {
		return false, nil
	}
	return g.m.IsSet[int(row)*g.w+int(col)], nil
}

// nearest returns the distance (m) from a WGS84 point to the nearest
// positive cell centre, +Inf for an empty footprint.
func (g *footprintGeometry) nearest(lon, lat float64) (float64, error) {
	px, py, err := crs.Transform(g.wgs84, g.local, lon, lat)
	if err != nil {
		return 0, err
	}
	best := math.Inf(1)
	for k := range g.cx {
		dx, dy := px-g.cx[k], py-g.cy[k]
		if d := math.Sqrt(float64(dx*dx) + float64(dy*dy)); d < best {
			best = d
		}
	}
	return best, nil
}
