package workers

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/geodisaster/engine/raster"
)

// Multi-hazard family (spec question types 9-28).

func multiHazardVariants() []Variant {
	return []Variant{
		ReadDataVariant(ReadSpec{
			Role:        "wildfire",
			Times:       []string{"event"},
			HandleStems: []string{"hazard_stack", "agreement_sources"},
			Extra:       []Param{{Name: "sources", Kind: KindString, Enum: []string{"all"}, Doc: "read every declared agreement source"}},
			Check:       checkHazardScene,
		}),
		PrepareSceneVariant(PrepareSpec{
			Mode:     "wildfire_burn",
			Slots:    map[string][]string{"hazard": {"wildfire"}},
			Required: []string{"hazard"},
		}),
		{
			Tool: "ComputeStats", Value: "burned_area",
			Params: []Param{
				{Name: "input", Kind: KindHandle, Required: true, Doc: "work handle from PrepareScene(mode=wildfire_burn)"},
				{Name: "metrics", Kind: KindFlags, Required: true, Enum: []string{"burned_area"}},
				{Name: "region", Kind: KindString, Required: true, Enum: []string{"aoi"}},
			},
			Run: computeBurnedArea,
		},
	}
}

// checkHazardScene verifies a multi-hazard scene: every declared GeoTIFF
// has its JSON sidecar, whose recorded SHA-256 (when present) matches the
// raster bytes, and, when the handle carries available_handles.json, every
// raster's source handle is listed in it.
func checkHazardScene(env Env, s *Scene) error {
	var inventory map[string]bool
	if inv, ok := s.File("available_handles.json"); ok {
		inventory = map[string]bool{}
		m, _ := inv.JSON.(map[string]any)
		list, _ := m["handles"].([]any)
		for _, h := range list {
			if name, ok := h.(string); ok {
				inventory[name] = true
			}
		}
		if len(inventory) == 0 {
			return fmt.Errorf("%s lists no cached handles", inv.Path)
		}
	}
	for i := range s.Files {
		f := &s.Files[i]
		if f.Raster == nil {
			continue
		}
		src := strings.TrimSuffix(f.Base(), path.Ext(f.Path))
		if inventory != nil && !inventory[src] {
			return fmt.Errorf("raster %s: source handle %q is not in the handle inventory", f.Path, src)
		}
		side, ok := s.File(strings.TrimSuffix(f.Path, path.Ext(f.Path)) + ".json")
		if !ok {
			return fmt.Errorf("raster %s has no declared JSON sidecar", f.Path)
		}
		meta, _ := side.JSON.(map[string]any)
		if meta == nil {
			return fmt.Errorf("sidecar %s is not a JSON object", side.Path)
		}
		if want, ok := meta["sha256"].(string); ok && want != f.SHA256 {
			return fmt.Errorf("raster %s: SHA-256 %s does not match its sidecar (%s)", f.Path, f.SHA256, want)
		}
		if shape, ok := meta["shape"].([]any); ok && len(shape) == 2 {
			h, _ := shape[0].(float64)
			w, _ := shape[1].(float64)
			if int(h) != f.Raster.Height || int(w) != f.Raster.Width {
				return fmt.Errorf("raster %s is %dx%d but its sidecar declares shape %v", f.Path, f.Raster.Height, f.Raster.Width, shape)
			}
		}
	}
	return nil
}

// HazardMask is a validated binary hazard mask on its grid.
type HazardMask struct {
	Path   string
	Info   RasterInfo
	Band   *raster.Band
	Valid  int   // number of valid pixels
	Ones   []int // row-major indices of valid pixels equal to 1
	Handle string
}

// sidecarNoData returns the nodata a raster's JSON sidecar declares.
func sidecarNoData(s *Scene, f *SceneFile) (float64, bool) {
	side, ok := s.File(strings.TrimSuffix(f.Path, path.Ext(f.Path)) + ".json")
	if !ok {
		return 0, false
	}
	meta, _ := side.JSON.(map[string]any)
	v, ok := meta["nodata"].(float64)
	return v, ok
}

// loadBinaryMask reads a declared binary 0/1 mask: its declared finite
// nodata (TIFF tag or sidecar) and non-finite pixels are invalid, every
// valid value must be exactly 0 or 1, and at least one pixel must be valid.
func loadBinaryMask(env Env, s *Scene, file string) (*HazardMask, error) {
	f, err := s.Require(file)
	if err != nil {
		return nil, err
	}
	b, info, err := env.Band(f.Path, 1)
	if err != nil {
		return nil, err
	}
	nd, hasND := info.NoData, info.HasNoData
	if v, ok := sidecarNoData(s, f); ok {
		if hasND && v != nd && !(math.IsNaN(v) && math.IsNaN(nd)) {
			return nil, fmt.Errorf("%s: sidecar nodata %v disagrees with the raster's %v", f.Path, v, nd)
		}
		nd, hasND = v, true
	}
	m := &HazardMask{Path: f.Path, Info: info, Band: b, Handle: strings.TrimSuffix(f.Base(), path.Ext(f.Path))}
	n := b.Width * b.Height
	for i := 0; i < n; i++ {
		v := b.At(i)
		if math.IsNaN(v) || math.IsInf(v, 0) || (hasND && v == nd) {
			continue
		}
		m.Valid++
		switch v {
		case 1:
			m.Ones = append(m.Ones, i)
		case 0:
		default:
			return nil, fmt.Errorf("%s: pixel %d has value %v; a binary mask holds only 0 and 1", f.Path, i, v)
		}
	}
	if m.Valid == 0 {
		return nil, fmt.Errorf("%s: no valid pixels", f.Path)
	}
	return m, nil
}

// AreaStats is the payload of a hazard area measurement.
type AreaStats struct {
	Metric      string
	Handle      string
	PixelCount  int
	ValidPixels int
	AreaM2      float64
	AreaHa      float64 // rounded to three decimals
	Method      string
}

// computeBurnedArea implements type 9: the MCD64A1 event mask's burned
// (value 1) cells summed as grid-cell areas, in hectares rounded to three
// decimals.
func computeBurnedArea(env Env, a Args) (*Result, error) {
	w, _, err := OpenResult[*Work](env, a, "input", "work (PrepareScene mode=wildfire_burn)")
	if err != nil {
		return nil, err
	}
	if w.Mode != "wildfire_burn" {
		return nil, a.Errorf("input", "burned_area needs a wildfire_burn work context, got mode %s", w.Mode)
	}
	m, err := loadBinaryMask(env, w.Scenes["hazard"], "mcd64a1__event.tif")
	if err != nil {
		return nil, err
	}
	ga, err := NewGridAreas(m.Info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	m2 := ga.Sum(m.Ones)
	ha := RoundHalfEven(m2/10000, 3)
	st := &AreaStats{Metric: "burned_area", Handle: m.Handle, PixelCount: len(m.Ones), ValidPixels: m.Valid, AreaM2: m2, AreaHa: ha, Method: ga.Method}
	return &Result{
		Evidence: map[string]any{
			"metric": "burned_area", "region": "aoi", "source_handle": m.Handle,
			"burned_pixel_count": len(m.Ones), "valid_pixel_count": m.Valid,
			"area_ha": ha, "units": "ha", "area_method": ga.Method,
			"mask_contract": "finite 1 = burned, 0 = valid unburned, declared nodata excluded",
		},
		Payload: st,
	}, nil
}
