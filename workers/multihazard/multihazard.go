package multihazard

import (
	"embed"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Multi-hazard family (spec question types 9-28): five hazards (wildfire,
// deforestation, urban expansion, drought, air pollution) times four task
// shapes (A measurement, B class table, C multi-source agreement, D
// exposure). Every multi-hazard GeoTIFF is an EPSG:4326 AOI grid with a JSON
// sidecar (sha256, shape, nodata) and the hazard handle carries the cached
// handle inventory available_handles.json ({"handles": [...]}).

// hazardDomain binds one hazard's declared vocabulary: its ReadData role
// (also ScoreHazard's hazard= value), its PrepareScene modes and the source
// handles each task shape consumes.
type hazardDomain struct {
	// Hazard is the role and hazard name.
	Hazard string
	// Mode is the A/B PrepareScene mode; ExposureMode the D mode;
	// MultiMode the C mode.
	Mode, ExposureMode, MultiMode string
	// Sources are the three C-shape agreement sources in declared order.
	Sources []string
	// Footprint is the D-shape binary footprint handle.
	Footprint string
	// ThresholdProvenance is the train-only threshold contract the D
	// footprint's sidecar must declare ("" when the footprint is a source
	// product rather than a thresholded continuous raster).
	ThresholdProvenance string
	// Rasters are every source handle a scene of this role may declare;
	// ReadData rejects a raster of another domain.
	Rasters []string
}

// hazardDomains lists the five hazards in the spec's order.
var hazardDomains = []hazardDomain{
	{Hazard: "wildfire", Mode: "wildfire_burn", ExposureMode: "wildfire_burn_exposure", MultiMode: "multisource_hazard",
		Sources: []string{"mcd64a1__event", "s2_burn_support", "nifc_perimeter__event"}, Footprint: "mcd64a1__event",
		Rasters: []string{"mcd64a1__event", "dnbr", "s2_burn_support", "nifc_perimeter__event"}},
	{Hazard: "deforestation", Mode: "forest_loss", ExposureMode: "forest_loss_exposure", MultiMode: "multisource",
		Sources: []string{"hansen_loss__event", "tmf_loss__event", "radd_alerts__event"}, Footprint: "hansen_loss__event",
		Rasters: []string{"hansen_loss__event", "ndvi_change", "tmf_loss__event", "radd_alerts__event"}},
	{Hazard: "urban_expansion", Mode: "built_up_gain", ExposureMode: "built_up_gain_exposure", MultiMode: "multisource_hazard",
		Sources: []string{"built_gain", "ghsl_built_gain", "worldcover_built_gain"}, Footprint: "built_gain",
		Rasters: []string{"built_gain", "ndbi_change", "ghsl_built_gain", "worldcover_built_gain"}},
	{Hazard: "drought", Mode: "drought_anomaly", ExposureMode: "drought_anomaly_exposure", MultiMode: "multisource_hazard",
		Sources: []string{"chirps_spi__event", "modis_ndvi__event", "era5_soil_moisture__event"}, Footprint: "low_chirps_spi",
		ThresholdProvenance: "train_only_chirps_spi_pixel_q25_v1",
		Rasters:             []string{"modis_ndvi__target", "chirps_spi__event", "modis_ndvi__event", "era5_soil_moisture__event", "low_chirps_spi"}},
	{Hazard: "air_pollution", Mode: "pollution_peak", ExposureMode: "pollution_peak_exposure", MultiMode: "multisource_hazard",
		Sources: []string{"s5p_no2__peak", "cams_no2__peak", "modis_aod__peak"}, Footprint: "high_no2_column",
		ThresholdProvenance: "train_only_s5p_pixel_q75_v1",
		Rasters:             []string{"s5p_no2__peak", "cams_no2__peak", "modis_aod__peak", "high_no2_column"}},
}

// hazardNames returns the five hazard names in order.
func hazardNames() []string {
	out := make([]string, len(hazardDomains))
	for i, d := range hazardDomains {
		out[i] = d.Hazard
	}
	return out
}

// lookupHazard returns the domain of a hazard name.
func lookupHazard(name string) (hazardDomain, bool) {
	for _, d := range hazardDomains {
		if d.Hazard == name {
			return d, true
		}
	}
	return hazardDomain{}, false
}

// ExposureRole is the ReadData role of the D-shape exposure context handle
// (WorldPop raster and sidecar plus the cached OSM GeoJSON).
const ExposureRole = "exposure"

func multiHazardVariants() []workers.Variant {
	var vs []workers.Variant
	multi := map[string][]string{}
	for _, d := range hazardDomains {
		vs = append(vs,
			workers.ReadDataVariant(workers.ReadSpec{
				Role:        d.Hazard,
				Times:       []string{"event"},
				HandleStems: []string{"hazard_stack", "agreement_sources"},
				Extra:       []workers.Param{{Name: "sources", Kind: workers.KindString, Enum: []string{"all"}, Doc: "read every declared agreement source"}},
				Check:       hazardSceneCheck(d),
			}),
			workers.PrepareSceneVariant(workers.PrepareSpec{
				Mode:     d.Mode,
				Slots:    map[string][]string{"hazard": {d.Hazard}},
				Required: []string{"hazard"},
			}),
			workers.PrepareSceneVariant(workers.PrepareSpec{
				Mode:     d.ExposureMode,
				Slots:    map[string][]string{"hazard": {d.Hazard}, "exposure": {ExposureRole}},
				Required: []string{"hazard", "exposure"},
				Check:    checkExposureWork,
			}),
		)
		multi[d.MultiMode] = append(multi[d.MultiMode], d.Hazard)
	}
	modes := make([]string, 0, len(multi))
	for m := range multi {
		modes = append(modes, m)
	}
	sort.Strings(modes)
	for _, m := range modes {
		vs = append(vs, workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     m,
			Slots:    map[string][]string{"hazard": multi[m], "sources": multi[m]},
			Required: []string{"hazard", "sources"},
			Check:    checkMultiSourceWork,
		}))
	}
	vs = append(vs, workers.ReadDataVariant(workers.ReadSpec{
		Role:        ExposureRole,
		HandleStems: []string{"exposure_context"},
		Check:       checkExposureScene,
	}))
	vs = append(vs, areaStatsVariants()...)
	vs = append(vs, classVariants()...)
	vs = append(vs, agreementVariants()...)
	vs = append(vs, exposureVariants()...)
	return vs
}

// hazardSceneCheck returns ReadData's check for one hazard role: the
// generic scene checks plus the rule that every declared raster and every
// inventory handle is one of the role's source handles (WorldPop and OSM
// exposure handles aside), so a cross-domain read is rejected.
func hazardSceneCheck(d hazardDomain) func(env workers.Env, s *workers.Scene) error {
	return func(env workers.Env, s *workers.Scene) error {
		for _, f := range s.Files {
			if f.Raster != nil && !workers.InEnum(d.Rasters, stem(f.Path)) {
				return fmt.Errorf("raster %s is not a %s source (expected one of %s)", f.Path, d.Hazard, strings.Join(d.Rasters, ", "))
			}
		}
		inv, err := sceneInventory(s)
		if err != nil {
			return err
		}
		for h := range inv {
			exposure := strings.HasPrefix(h, "worldpop") || strings.HasPrefix(h, "osm")
			if !exposure && !workers.InEnum(d.Rasters, h) {
				return fmt.Errorf("inventory handle %s is not a %s source (expected one of %s)", h, d.Hazard, strings.Join(d.Rasters, ", "))
			}
		}
		return checkHazardScene(env, s)
	}
}

// checkHazardScene verifies a multi-hazard scene: a hazard_stack handle
// carries the cached handle inventory available_handles.json; every
// declared GeoTIFF has its JSON sidecar, whose recorded SHA-256 (when
// present) matches the raster bytes and whose shape matches the raster;
// and, when the handle carries the inventory, every raster's source handle
// is listed in it.
func checkHazardScene(env workers.Env, s *workers.Scene) error {
	inventory, err := sceneInventory(s)
	if err != nil {
		return err
	}
	if inventory == nil && workers.HandleStem(s.Handle) == "hazard_stack" {
		return fmt.Errorf("hazard handle %s declares no available_handles.json inventory", s.Handle)
	}
	for i := range s.Files {
		f := &s.Files[i]
		if f.Raster == nil {
			continue
		}
		src := stem(f.Path)
		if inventory != nil && !inventory[src] {
			return fmt.Errorf("raster %s: source handle %q is not in the handle inventory", f.Path, src)
		}
		if _, err := rasterSidecar(s, f); err != nil {
			return err
		}
	}
	return nil
}

// sceneInventory returns the handle names listed by the scene's
// available_handles.json, or nil when the scene declares no inventory.
func sceneInventory(s *workers.Scene) (map[string]bool, error) {
	inv, ok := s.File("available_handles.json")
	if !ok {
		return nil, nil
	}
	inventory := map[string]bool{}
	m, _ := inv.JSON.(map[string]any)
	list, _ := m["handles"].([]any)
	for _, h := range list {
		if name, ok := h.(string); ok {
			inventory[name] = true
		}
	}
	if len(inventory) == 0 {
		return nil, fmt.Errorf("%s lists no cached handles", inv.Path)
	}
	return inventory, nil
}

// rasterSidecar returns a raster's parsed JSON sidecar after checking its
// recorded SHA-256 and shape against the raster.
func rasterSidecar(s *workers.Scene, f *workers.SceneFile) (map[string]any, error) {
	side, ok := s.File(strings.TrimSuffix(f.Path, path.Ext(f.Path)) + ".json")
	if !ok {
		return nil, fmt.Errorf("raster %s has no declared JSON sidecar", f.Path)
	}
	meta, _ := side.JSON.(map[string]any)
	if meta == nil {
		return nil, fmt.Errorf("sidecar %s is not a JSON object", side.Path)
	}
	if want, ok := meta["sha256"].(string); ok && want != f.SHA256 {
		return nil, fmt.Errorf("raster %s: SHA-256 %s does not match its sidecar (%s)", f.Path, f.SHA256, want)
	}
	if shape, ok := meta["shape"].([]any); ok && len(shape) == 2 {
		h, _ := shape[0].(float64)
		w, _ := shape[1].(float64)
		if int(h) != f.Raster.Height || int(w) != f.Raster.Width {
			return nil, fmt.Errorf("raster %s is %dx%d but its sidecar declares shape %v", f.Path, f.Raster.Height, f.Raster.Width, shape)
		}
	}
	return meta, nil
}

// stem returns a path's base name without its extension: the source handle
// a multi-hazard raster stands for.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

// checkMultiSourceWork verifies a C-shape work context: both scenes have
// the same hazard role, and every agreement raster is listed in the hazard
// handle's inventory.
func checkMultiSourceWork(env workers.Env, w *workers.Work) error {
	hz, src := w.Scenes["hazard"], w.Scenes["sources"]
	if hz.Role != src.Role {
		return fmt.Errorf("hazard scene has role %s but sources scene has role %s", hz.Role, src.Role)
	}
	if w.Handles["hazard"] == w.Handles["sources"] {
		return fmt.Errorf("hazard and sources slots bind the same scene %s", w.Handles["hazard"])
	}
	inv, err := sceneInventory(hz)
	if err != nil {
		return err
	}
	if inv == nil {
		return fmt.Errorf("hazard scene %s declares no available_handles.json", hz.Handle)
	}
	for _, f := range src.Files {
		if f.Raster != nil && !inv[stem(f.Path)] {
			return fmt.Errorf("agreement source %s is not in the hazard handle inventory", f.Path)
		}
	}
	return nil
}

// checkExposureWork verifies a D-shape work context: the exposure scene's
// WorldPop raster is listed in the hazard handle's inventory.
func checkExposureWork(env workers.Env, w *workers.Work) error {
	inv, err := sceneInventory(w.Scenes["hazard"])
	if err != nil {
		return err
	}
	if inv == nil {
		return fmt.Errorf("hazard scene %s declares no available_handles.json", w.Scenes["hazard"].Handle)
	}
	for _, f := range w.Scenes["exposure"].Files {
		if f.Raster != nil && !inv[stem(f.Path)] {
			return fmt.Errorf("exposure raster %s is not in the hazard handle inventory", f.Path)
		}
	}
	return nil
}

// HazardMask is a validated coded (binary or small-integer) hazard mask on
// its grid.
type HazardMask struct {
	Path   string
	Info   workers.RasterInfo
	Band   *raster.Band
	Valid  int    // number of valid pixels
	Ones   []int  // row-major indices of valid pixels with a positive code
	IsSet  []bool // per pixel: valid and positive
	OK     []bool // per pixel: valid
	Handle string
}

// sidecarNoData returns the nodata a raster's JSON sidecar declares.
func sidecarNoData(s *workers.Scene, f *workers.SceneFile) (float64, bool) {
	side, ok := s.File(strings.TrimSuffix(f.Path, path.Ext(f.Path)) + ".json")
	if !ok {
		return 0, false
	}
	meta, _ := side.JSON.(map[string]any)
	v, ok := meta["nodata"].(float64)
	return v, ok
}

// declaredNoData combines the raster's nodata tag with its sidecar's; the
// two must agree when both are present. The sidecar's value is taken as
// the band's samples hold it (rounded to float32 on a float32 raster, as
// GDAL reads the tag), so "-3.4e38" in both agrees.
func declaredNoData(s *workers.Scene, f *workers.SceneFile, info workers.RasterInfo) (float64, bool, error) {
	nd, hasND := info.NoData, info.HasNoData
	if v, ok := sidecarNoData(s, f); ok {
		v = raster.NoDataValue(info.DataType, v)
		if hasND && v != nd && !(math.IsNaN(v) && math.IsNaN(nd)) {
			return 0, false, fmt.Errorf("%s: sidecar nodata %v disagrees with the raster's %v", f.Path, v, nd)
		}
		nd, hasND = v, true
	}
	return nd, hasND, nil
}

// loadBinaryMask reads a declared binary 0/1 mask: its declared finite
// nodata (TIFF tag or sidecar) and non-finite pixels are invalid, every
// valid value must be exactly 0 or 1, and at least one pixel must be valid.
func loadBinaryMask(env workers.Env, s *workers.Scene, file string) (*HazardMask, error) {
	return loadCodedMask(env, s, file, 1)
}

// declaredSamples is band 1 of a scene's declared raster with the nodata
// its tag and sidecar declare.
type declaredSamples struct {
	file      *workers.SceneFile
	band      *raster.Band
	info      workers.RasterInfo
	nodata    float64
	hasNoData bool
}

// readDeclaredSamples reads band 1 of the scene's declared raster ending
// in file, checking its nodata declarations against each other.
func readDeclaredSamples(env workers.Env, s *workers.Scene, file string) (*declaredSamples, error) {
	f, b, info, err := s.RequireBand(env, file, 1)
	if err != nil {
		return nil, err
	}
	nd, hasND, err := declaredNoData(s, f, info)
	if err != nil {
		return nil, err
	}
	return &declaredSamples{file: f, band: b, info: info, nodata: nd, hasNoData: hasND}, nil
}

// loadCodedMask reads a declared mask whose valid values are the integers
// 0..maxCode (RADD alerts use 0 = none, 1 = low, 2 = high confidence); a
// positive code is inside the footprint. Nodata and non-finite pixels are
// invalid; an entirely invalid raster is an error.
func loadCodedMask(env workers.Env, s *workers.Scene, file string, maxCode int) (*HazardMask, error) {
	d, err := readDeclaredSamples(env, s, file)
	if err != nil {
		return nil, err
	}
	f := d.file
	m := &HazardMask{Path: f.Path, Info: d.info, Band: d.band, Handle: stem(f.Path)}
	if bad, v := bandCodedCells(m, d.band, d.nodata, d.hasNoData, maxCode); bad >= 0 {
		if maxCode == 1 {
			return nil, fmt.Errorf("%s: pixel %d has value %v; a binary mask holds only 0 and 1", f.Path, bad, v)
		}
		return nil, fmt.Errorf("%s: pixel %d has value %v; allowed codes are 0..%d", f.Path, bad, v, maxCode)
	}
	if m.Valid == 0 {
		return nil, fmt.Errorf("%s: no valid pixels", f.Path)
	}
	return m, nil
}

// Continuous is a validated continuous raster: its valid (finite,
// non-nodata) pixels.
type Continuous struct {
	Path   string
	Handle string
	Info   workers.RasterInfo
	Band   *raster.Band
	// F32 holds a float32 band's own samples (F64 is then nil); F64 holds
	// any other band's samples as float64, converted once (a float64
	// band's own samples). The per-pixel loops read the typed slice, never
	// Band.At; a value is compared as float64(v).
	F32 []float32
	F64 []float64
	// OK marks valid pixels; NValid counts them.
	OK     []bool
	NValid int
}

// loadContinuous reads a declared single-band continuous raster. Nodata
// (tag or sidecar) and non-finite pixels are invalid; at least one pixel
// must be valid.
func loadContinuous(env workers.Env, s *workers.Scene, file string) (*Continuous, error) {
	if f, ok := s.File(file); ok && f.Raster != nil && f.Raster.Count != 1 {
		return nil, fmt.Errorf("%s: expected a single-band raster, got %d bands", f.Path, f.Raster.Count)
	}
	d, err := readDeclaredSamples(env, s, file)
	if err != nil {
		return nil, err
	}
	f := d.file
	c := &Continuous{Path: f.Path, Handle: stem(f.Path), Info: d.info, Band: d.band}
	bandContinuousCells(c, d.band, d.nodata, d.hasNoData)
	if c.NValid == 0 {
		return nil, fmt.Errorf("%s: no finite valid pixels", f.Path)
	}
	return c, nil
}

// isF32 reports whether the samples are float32 (in c.F32).
func (c *Continuous) isF32() bool { _, ok := c.Band.Data.([]float32); return ok }

// validMean returns NumPy's mean of the valid pixels' values in
// row-major order (float32 pairwise for float32 rasters, float64
// otherwise) as float64; a raster without invalid pixels is averaged in
// place.
func (c *Continuous) validMean() float64 {
	if c.isF32() {
		x := c.F32
		if c.NValid != len(x) {
			x = gatherValid(make([]float32, 0, c.NValid), c.F32, c.OK)
		}
		return float64(numpy.MeanFloat32(x))
	}
	x := c.F64
	if c.NValid != len(x) {
		x = gatherValid(make([]float64, 0, c.NValid), c.F64, c.OK)
	}
	return numpy.MeanFloat64(x)
}

// validFloat64s returns the valid pixels' values in row-major order as
// float64.
func (c *Continuous) validFloat64s() []float64 {
	out := make([]float64, 0, c.NValid)
	if c.isF32() {
		return gatherValid(out, c.F32, c.OK)
	}
	return gatherValid(out, c.F64, c.OK)
}

// firstValidOutside returns the first valid pixel whose value is below lo
// or above hi, and the value (-1 when there is none).
func (c *Continuous) firstValidOutside(lo, hi float64) (int, float64) {
	if c.isF32() {
		return firstValidOutside(c.F32, c.OK, lo, hi)
	}
	return firstValidOutside(c.F64, c.OK, lo, hi)
}

// gatherBuf is a reusable buffer for the values of an index list.
type gatherBuf struct {
	f32 []float32
	f64 []float64
}

// meanAt returns NumPy's mean of the values at idx (float32 pairwise for
// float32 rasters, float64 otherwise) as float64, gathering them into g.
func (c *Continuous) meanAt(idx []int, g *gatherBuf) float64 {
	if c.isF32() {
		g.f32 = gatherAt(slices.Grow(g.f32[:0], len(idx)), c.F32, idx)
		return float64(numpy.MeanFloat32(g.f32))
	}
	g.f64 = gatherAt(slices.Grow(g.f64[:0], len(idx)), c.F64, idx)
	return numpy.MeanFloat64(g.f64)
}

// sumValidAt returns NumPy's sum of the values at the valid pixels among
// idx, in idx's order (float32 pairwise for float32 rasters), as float64.
func (c *Continuous) sumValidAt(idx []int) float64 {
	if c.isF32() {
		return float64(numpy.SumFloat32(gatherValidAt(make([]float32, 0, len(idx)), c.F32, c.OK, idx)))
	}
	return numpy.SumFloat64(gatherValidAt(make([]float64, 0, len(idx)), c.F64, c.OK, idx))
}

// validBelow returns the valid pixels whose value is below q, and their
// count.
func (c *Continuous) validBelow(q float64) ([]bool, int) {
	set := make([]bool, len(c.OK))
	if c.isF32() {
		return set, validBelow(set, c.F32, c.OK, q)
	}
	return set, validBelow(set, c.F64, c.OK, q)
}

// classify is classifyCells over c's samples.
func (c *Continuous) classify(idx []int, lower, upper []float64) (members [][]int, n, bad int, badV float64) {
	if c.isF32() {
		return classifyCells(c.F32, c.OK, idx, lower, upper)
	}
	return classifyCells(c.F64, c.OK, idx, lower, upper)
}

// asDtype rounds a Python float threshold to the raster's sample type, as
// NumPy 1.x does when it compares an array with a Python scalar (a float32
// array compares in float32).
func (c *Continuous) asDtype(t float64) float64 {
	if c.Band.Type == raster.Float32 {
		return float64(float32(t))
	}
	return t
}

// sameGrids requires every raster to share the first one's shape, CRS and
// affine transform (spec section 8: comparisons require declared shape,
// CRS and affine compatibility).
func sameGrids(paths []string, infos []workers.RasterInfo) error {
	for i := 1; i < len(infos); i++ {
		if err := workers.CheckSameGrid(paths[0], infos[0], paths[i], infos[i]); err != nil {
			return err
		}
	}
	return nil
}

// requireGeoreferenced rejects a raster without transform or CRS: a
// synthetic origin-zero transform is never assumed (spec section 8).
func requireGeoreferenced(p string, info workers.RasterInfo) error {
	if !info.HasTransform {
		return fmt.Errorf("%s has no geotransform; refusing to assume one", p)
	}
	if info.EPSG == 0 {
		return fmt.Errorf("%s has no identifiable CRS", p)
	}
	return nil
}

// workHazard returns the hazard domain of a work context's hazard scene.
func workHazard(w *workers.Work) (hazardDomain, error) {
	sc := w.Scenes["hazard"]
	if sc == nil {
		return hazardDomain{}, fmt.Errorf("work context of mode %s has no hazard scene", w.Mode)
	}
	d, ok := lookupHazard(sc.Role)
	if !ok {
		return hazardDomain{}, fmt.Errorf("work context hazard role %s is not a multi-hazard domain", sc.Role)
	}
	return d, nil
}

// schemaFiles holds schemas/<question_type>.json, the answer schemas.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the multi-hazard family (question types 9-28).
func Def() workers.FamilyDef {
	return workers.NewFamilyDef(workers.MultiHazard, multiHazardVariants, multiHazardProjectors(), schemaFiles)
}
