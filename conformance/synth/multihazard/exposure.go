package multihazard

import (
	"fmt"
	"math"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/multihazard"
)

// Multi-hazard task shape D generators (types 12, 16, 20, 24, 28).

// exposureTypeD describes a D-shape type.
type exposureTypeD struct {
	qt, role, mode string
	// hazard is ScoreHazard's hazard= argument ("" when the spec's call
	// omits it).
	hazard    string
	footprint string
	// exposure is EstimateExposure's exposure= value ("" for the type-12
	// call EstimateExposure(within_km=5)).
	exposure   string
	cats       []string
	provenance string
	// derivation describes the prepared mask in its sidecar.
	derivation string
	// allowEmpty lets some records have a valid measured-zero footprint.
	allowEmpty bool
	question   string
}

// osmFeature is one generated cached OSM representative point.
type osmFeature struct {
	id       string
	cat      string
	name     any // string, nil (JSON null) or absent (noName)
	noName   bool
	lon, lat float64
	// geom is the feature's GeoJSON LineString or Polygon when it is not
	// a Point (user-shaped corpora); lon, lat are then its representative
	// point.
	geom map[string]any
}

// genExposureD builds a D record: a binary footprint (nodata strip in some
// records, measured-zero footprints where allowed), a co-registered
// float32 WorldPop raster (declared -99999 nodata cells in some records)
// and osm/pois.geojson with representative points inside positive cells,
// elsewhere in the AOI, outside the AOI within and beyond 5 km, duplicate
// ids (counted once), null and absent names and misleading row/col hints.
func genExposureD(t exposureTypeD) func(g *core.Gen, i int) (workers.Record, error) {
	return func(g *core.Gen, i int) (workers.Record, error) {
		r, err := newMH(g, t.qt, i)
		if err != nil {
			return workers.Record{}, err
		}
		w, h, T := r.grid.W, r.grid.H, r.grid.T
		set := r.blobs(1+g.Rng.IntN(3), 0.12)
		if t.allowEmpty && i%3 == 2 {
			set = make([]bool, r.n())
		}
		var nd []bool
		var ndv *float64
		if i%2 == 1 {
			nd, ndv = r.stripe(2), core.F64(255)
		}
		fb, ones, err := r.binaryBand(set, nd)
		if err != nil {
			return workers.Record{}, err
		}
		isSet := make([]bool, r.n())
		for _, k := range ones {
			isSet[k] = true
		}
		// WorldPop people per pixel.
		pop, err := r.band(raster.Float32)
		if err != nil {
			return workers.Record{}, err
		}
		popND := i%3 == 0
		popOK := make([]bool, r.n())
		for k := 0; k < r.n(); k++ {
			if popND && g.Rng.IntN(40) == 0 {
				pop.Set(k, -99999)
				continue
			}
			v := 0.0
			if g.Rng.IntN(4) != 0 {
				v = 300 * g.Rng.Float64() * g.Rng.Float64()
			}
			pop.Set(k, v)
			popOK[k] = true
		}
		var pv []float32
		for _, k := range ones {
			if popOK[k] {
				pv = append(pv, pop.Data.([]float32)[k])
			}
		}
		population := workers.RoundHalfEven(float64(numpy.SumFloat32(pv)), 3)
		// OSM representative points.
		var feats []osmFeature
		next := 1000 + 37*i
		add := func(cat string, lon, lat float64) {
			next++
			f := osmFeature{id: fmt.Sprintf("way/%d", next), cat: cat, lon: lon, lat: lat, name: fmt.Sprintf("%s %d", cat, next)}
			switch next % 5 {
			case 0:
				f.name = nil
			case 1:
				f.noName = true
			}
			feats = append(feats, f)
		}
		west, north := T[2], T[5]
		east, south := west+float64(T[0]*float64(w)), north+float64(T[4]*float64(h))
		noHighway := t.exposure == "nearest_highway" && i%4 == 3
		for _, cat := range append(append([]string{}, t.cats...), "fuel") {
			if cat == "highway" && noHighway {
				continue
			}
			for k := 0; k < 2+g.Rng.IntN(3) && len(ones) > 0; k++ { // in positive cells
				c := ones[g.Rng.IntN(len(ones))]
				lon, lat := T.Apply(float64(c%w)+0.15+float64(0.7*g.Rng.Float64()), float64(c/w)+0.15+float64(0.7*g.Rng.Float64()))
				add(cat, lon, lat)
			}
			for k := 0; k < 3+g.Rng.IntN(5); k++ { // anywhere in the AOI
				add(cat, west+float64((east-west)*g.Rng.Float64()), south+float64((north-south)*g.Rng.Float64()))
			}
			for k := 0; k < 2+g.Rng.IntN(3); k++ { // just outside the AOI (east), some within 5 km
				add(cat, east+0.002+float64(0.05*g.Rng.Float64()), south+float64((north-south)*g.Rng.Float64()))
			}
			add(cat, west-0.2-float64(0.1*g.Rng.Float64()), north+0.1) // far outside
		}
		if len(feats) > 2 {
			dup := feats[1]
			dup.lon, dup.lat = east+0.5, north+0.5 // same id again: not a distinct feature
			feats = append(feats, dup)
		}
		if g.UserShaped {
			if err := osmShapes(g, feats); err != nil {
				return workers.Record{}, err
			}
		}
		// Gold geometry: AOI-centred aeqd, positive cell centres.
		lon0, lat0 := T.Apply(float64(w)/2, float64(h)/2)
		local, err := crs.NewAzimuthalEquidistant(lat0, lon0)
		if err != nil {
			return workers.Record{}, err
		}
		var cx, cy []float64
		for _, k := range ones {
			x, y := T.Apply(float64(k%w)+0.5, float64(k/w)+0.5)
			px, py, err := local.FromLonLat(x, y)
			if err != nil {
				return workers.Record{}, err
			}
			cx, cy = append(cx, px), append(cy, py)
		}
		seen := map[string]bool{}
		assets := map[string]any{}
		type ctx struct {
			count, in, within int
			best              float64
			name              any
		}
		stats := map[string]*ctx{}
		for _, c := range t.cats {
			stats[c] = &ctx{best: math.Inf(1)}
		}
		for _, f := range feats {
			if seen[f.id] {
				continue
			}
			seen[f.id] = true
			st, ok := stats[f.cat]
			if !ok {
				continue
			}
			st.count++
			col, row := math.Floor((f.lon-T[2])/T[0]), math.Floor((f.lat-T[5])/T[4])
			if col >= 0 && row >= 0 && col < float64(w) && row < float64(h) && isSet[int(row)*w+int(col)] {
				st.in++
			}
			px, py, err := local.FromLonLat(f.lon, f.lat)
			if err != nil {
				return workers.Record{}, err
			}
			d := math.Inf(1)
			for k := range cx {
				d = math.Min(d, math.Sqrt(float64((px-cx[k])*(px-cx[k]))+float64((py-cy[k])*(py-cy[k]))))
			}
			if d <= worker.ContextKM*1000 {
				st.within++
			}
			if d < st.best {
				st.best = d
				st.name = f.name
				if f.noName {
					st.name = nil
				}
			}
		}
		for _, c := range t.cats {
			st := stats[c]
			var dist any
			if !math.IsInf(st.best, 1) {
				dist = workers.RoundHalfEven(st.best, 3)
			} else {
				st.name = nil
			}
			assets[c] = map[string]any{"feature_count": st.count, "in_footprint_count": st.in, "within_5km_count": st.within,
				"nearest_name": st.name, "nearest_distance_m": dist}
		}
		fpArea := workers.RoundHalfEven(r.areaHa(ones), 3)
		ev := map[string]any{"footprint_handle": t.footprint, "footprint_pixel_count": len(ones), "footprint_area_ha": fpArea,
			"population_in_footprint": population, "within_km": worker.ContextKM, "distance_method": worker.DistanceMethod,
			"assets": assets}
		side := map[string]any{"units": "binary_mask"}
		if t.provenance != "" {
			ev["threshold_provenance"] = t.provenance
			side["threshold_contract"] = t.provenance
			side["fit_split"] = "train"
			side["derivation"] = t.derivation
		}
		var ans map[string]any
		switch t.exposure {
		case "":
			ans = map[string]any{"value": stats["highway"].within, "units": "osm_highway_features"}
		case "nearest_highway":
			st := stats["highway"]
			status := "measured"
			var dist any
			switch {
			case st.count == 0:
				status = "no_cached_highway_representative"
			case math.IsInf(st.best, 1):
				status = "no_footprint_cell"
			default:
				dist = workers.RoundHalfEven(st.best, 3)
			}
			ans = map[string]any{"distance_m": dist, "units": "m", "availability_status": status}
		case "schools":
			ans = map[string]any{"value": stats["school"].in, "units": "osm_school_features"}
		default:
			ans = map[string]any{"value": population, "units": "people"}
		}
		// Files.
		fc, err := r.raster(t.footprint, fb, ndv, side)
		if err != nil {
			return workers.Record{}, err
		}
		var popNDV *float64
		if popND {
			popNDV = core.F64(-99999)
		}
		pc, err := r.raster("worldpop__2020", pop, popNDV, map[string]any{"product": "WorldPop/GP/100m/pop", "year": 2020, "units": "people per pixel"})
		if err != nil {
			return workers.Record{}, err
		}
		gj, err := r.g.WriteJSON(r.base+"osm/pois.geojson", osmCollection(feats, w, h, g))
		if err != nil {
			return workers.Record{}, err
		}
		inv, err := r.inventory(t.footprint, "worldpop__2020", "osm_pois")
		if err != nil {
			return workers.Record{}, err
		}
		r.input("hazard_stack_1", append([]workers.FileCard{inv}, fc...)...)
		r.input("exposure_context_1", append(pc, gj)...)
		score := map[string]any{"input": "work_1", "scale": "impact_footprint"}
		if t.hazard != "" {
			score["hazard"] = t.hazard
		}
		expo := map[string]any{"input": "score_1"}
		if t.exposure == "" {
			expo["within_km"] = worker.ContextKM
		} else {
			expo["exposure"] = t.exposure
		}
		return r.record(t.question, []workers.Step{
			readHazard(t.role),
			core.Step("ReadData", map[string]any{"question": "question_1", "handle": "exposure_context_1", "role": "exposure"}, "scene_2"),
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1", "exposure": "scene_2"}, "mode": t.mode}, "work_1"),
			core.Step("ScoreHazard", score, "score_1"),
			core.Step("EstimateExposure", expo, "exposure_1"),
			core.TaskComplete(),
		}, map[string]any{"status": "TASK_COMPLETE", "answer": ans, "evidence": ev})
	}
}

// osmCollection renders the features as a GeoJSON FeatureCollection with
// non-authoritative (deliberately wrong) row/col hints.
func osmCollection(feats []osmFeature, w, h int, g *core.Gen) map[string]any {
	out := make([]any, 0, len(feats))
	for _, f := range feats {
		props := map[string]any{"category": f.cat, "osm_type": "way", "row": g.Rng.IntN(h), "col": g.Rng.IntN(w)}
		if !f.noName {
			props["name"] = f.name
		}
		geom := f.geom
		if geom == nil {
			geom = map[string]any{"type": "Point", "coordinates": []float64{f.lon, f.lat}}
		}
		out = append(out, map[string]any{"type": "Feature", "id": f.id, "geometry": geom, "properties": props})
	}
	return map[string]any{"type": "FeatureCollection", "features": out}
}

var genWildfireD = genExposureD(exposureTypeD{qt: "wildfire_d", role: "wildfire", mode: "wildfire_burn_exposure",
	footprint: "mcd64a1__event", cats: []string{"highway"},
	question: "How many distinct cached OSM highway representative points lie within 5 km of the MODIS burn footprint?"})

var genDeforestationD = genExposureD(exposureTypeD{qt: "hazard_deforestation_d", role: "deforestation", mode: "forest_loss_exposure",
	footprint: "hansen_loss__event", exposure: "nearest_highway", cats: []string{"highway"},
	question: "How far is the nearest cached OSM highway representative point from the Hansen 2022 loss footprint?"})

var genUrbanD = genExposureD(exposureTypeD{qt: "urban_expansion_d", role: "urban_expansion", mode: "built_up_gain_exposure",
	hazard: "urban_expansion", footprint: "built_gain", exposure: "population_in_footprint", cats: []string{"hospital", "school"}, allowEmpty: true,
	question: "How many WorldPop 2020 people live in cells that became built-up between 2019 and 2024?"})

var genDroughtD = genExposureD(exposureTypeD{qt: "drought_d", role: "drought", mode: "drought_anomaly_exposure",
	hazard: "drought", footprint: "low_chirps_spi", exposure: "schools", cats: []string{"school"}, allowEmpty: true,
	provenance: "train_only_chirps_spi_pixel_q25_v1", derivation: "finite chirps_spi__event < training-pixel q25",
	question: "How many cached OSM school representative points fall inside the low-CHIRPS-SPI footprint?"})

var genAirD = genExposureD(exposureTypeD{qt: "air_pollution_d", role: "air_pollution", mode: "pollution_peak_exposure",
	hazard: "air_pollution", footprint: "high_no2_column", exposure: "high_no2_column_population", cats: []string{"hospital", "school"}, allowEmpty: true,
	provenance: "train_only_s5p_pixel_q75_v1", derivation: "finite s5p_no2__peak >= training-pixel q75 (inclusive)",
	question: "How many WorldPop people live inside the high-NO2-column footprint?"})

// osmShapes gives two features in three the shape OSM draws them with
// around their position: a road as a LineString of 3 to 6 vertices, a
// building or campus as a Polygon (a rotated rectangle, an L shape, or a
// ring with a courtyard hole), 50 to 400 m across, coordinates at OSM's 7
// decimals. Each feature's position becomes its geometry's representative
// point (Shapely's representative_point(), which the workers and the
// native oracle take).
func osmShapes(g *core.Gen, feats []osmFeature) error {
	r7 := func(v float64) float64 { return math.Round(v*1e7) / 1e7 }
	for k := range feats {
		f := &feats[k]
		if k%3 == 0 {
			continue
		}
		size := 0.0005 + float64(0.003*g.Rng.Float64()) // degrees
		a := 2 * math.Pi * g.Rng.Float64()
		ca, sa := math.Cos(a), math.Sin(a)
		at := func(u, v float64) []float64 {
			return []float64{r7(f.lon + float64(size*(float64(u*ca)-float64(v*sa)))), r7(f.lat + float64(size*(float64(u*sa)+float64(v*ca))))}
		}
		var geom orb.Geometry
		if k%3 == 1 {
			n := 3 + g.Rng.IntN(4)
			var line [][]float64
			for j := 0; j < n; j++ {
				u := float64(g.Rng.Float64()) // rounded on its own (an inlined product)
				line = append(line, at(float64(j)/float64(n-1)-0.5, float64(0.3*(u-0.5))))
			}
			f.geom = map[string]any{"type": "LineString", "coordinates": line}
			ls := make(orb.LineString, len(line))
			for j, p := range line {
				ls[j] = orb.Point{p[0], p[1]}
			}
			geom = ls
		} else {
			var rings [][][]float64
			switch g.Rng.IntN(3) {
			case 0:
				w := 0.3 + float64(0.7*g.Rng.Float64())
				rings = [][][]float64{{at(-0.5, -w/2), at(0.5, -w/2), at(0.5, w/2), at(-0.5, w/2), at(-0.5, -w/2)}}
			case 1:
				rings = [][][]float64{{at(-0.5, -0.5), at(0.5, -0.5), at(0.5, 0), at(0, 0), at(0, 0.5), at(-0.5, 0.5), at(-0.5, -0.5)}}
			default:
				rings = [][][]float64{
					{at(-0.5, -0.5), at(0.5, -0.5), at(0.5, 0.5), at(-0.5, 0.5), at(-0.5, -0.5)},
					{at(-0.2, -0.2), at(-0.2, 0.2), at(0.2, 0.2), at(0.2, -0.2), at(-0.2, -0.2)},
				}
			}
			f.geom = map[string]any{"type": "Polygon", "coordinates": rings}
			poly := make(orb.Polygon, len(rings))
			for j, r := range rings {
				ring := make(orb.Ring, len(r))
				for q, p := range r {
					ring[q] = orb.Point{p[0], p[1]}
				}
				poly[j] = ring
			}
			geom = poly
		}
		p, ok := vector.InteriorPoint(geom)
		if !ok {
			return fmt.Errorf("OSM feature %s: no representative point", f.id)
		}
		f.lon, f.lat = p[0], p[1]
	}
	return nil
}
