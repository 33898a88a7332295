package workers

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	gojson "github.com/goccy/go-json"

	"github.com/geodisaster/engine/raster"
)

// Scene is ReadData's payload: the declared files of one input handle,
// checked and described, with the question's declared parameters.
type Scene struct {
	// Role and Time are ReadData's role and time arguments.
	Role, Time string
	// Handle is the input handle that was read.
	Handle string
	// Question is the parsed question sidecar JSON.
	Question map[string]any
	// Files are the handle's declared files in declaration order.
	Files []SceneFile
	// Options are ReadData's other arguments (such as "sources").
	Options map[string]any

	// memo holds values workers parsed from the scene's declared files
	// (see Scene.parsed); a scene lives for one session.
	memoMu sync.Mutex
	memo   map[string]sceneMemo
}

// sceneMemo is one parsed value and the bytes it was parsed from.
type sceneMemo struct {
	data []byte
	v    any
	err  error
}

// Memo returns parse's result for key, calling parse only the first time
// the key is asked for with these bytes: the same declared file, read
// through the gate by every call that needs it (so each call's read trace
// is unchanged), is parsed once per session. The bytes are the session's
// cached file content, so identity (same backing array and length) means
// same content; different bytes are parsed afresh. The parsed value must
// be treated as read-only by its users.
func (s *Scene) Memo(key string, data []byte, parse func() (any, error)) (any, error) {
	s.memoMu.Lock()
	defer s.memoMu.Unlock()
	if m, ok := s.memo[key]; ok && sameBytes(m.data, data) {
		return m.v, m.err
	}
	v, err := parse()
	if s.memo == nil {
		s.memo = map[string]sceneMemo{}
	}
	s.memo[key] = sceneMemo{data: data, v: v, err: err}
	return v, err
}

// sameBytes reports whether a and b are the same slice of the same array.
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// SceneFile is one declared file as ReadData found it.
type SceneFile struct {
	FileCard
	SHA256 string
	Size   int64
	// Raster describes a GeoTIFF (nil for other files).
	Raster *RasterInfo
	// JSON is the parsed content of a .json or .geojson file.
	JSON any
}

// Base returns the file's base name.
func (f *SceneFile) Base() string { return path.Base(f.Path) }

// File returns the first declared file whose path ends with suffix.
func (s *Scene) File(suffix string) (*SceneFile, bool) {
	for i := range s.Files {
		if strings.HasSuffix(s.Files[i].Path, suffix) {
			return &s.Files[i], true
		}
	}
	return nil, false
}

// Require returns the declared file ending with suffix or an error naming it.
func (s *Scene) Require(suffix string) (*SceneFile, error) {
	if f, ok := s.File(suffix); ok {
		return f, nil
	}
	return nil, fmt.Errorf("input handle %s declares no file ending in %q", s.Handle, suffix)
}

// RequireBand returns the declared GeoTIFF ending with suffix and one
// band (1-based) of it, decoded through env; the error names the missing
// file or the failed read.
func (s *Scene) RequireBand(env Env, suffix string, band int) (*SceneFile, *raster.Band, RasterInfo, error) {
	f, err := s.Require(suffix)
	if err != nil {
		return nil, nil, RasterInfo{}, err
	}
	b, info, err := env.Band(f.Path, band)
	if err != nil {
		return nil, nil, RasterInfo{}, err
	}
	return f, b, info, nil
}

// Param returns a declared question parameter.
func (s *Scene) Param(name string) (any, bool) {
	if p, ok := s.Question["parameters"].(map[string]any); ok {
		v, ok := p[name]
		return v, ok
	}
	return nil, false
}

var handleStemRE = regexp.MustCompile(`^(.*)_[0-9]+$`)

// handleStem returns a handle name without its _N suffix.
func HandleStem(name string) string {
	if m := handleStemRE.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return name
}

// ReadSpec declares one ReadData role.
type ReadSpec struct {
	// Role is the role argument's value.
	Role string
	// Times are the accepted "time" values; empty means "time" is not
	// accepted.
	Times []string
	// HandleStems are the accepted input handle names without their _N
	// suffix, such as "forest_mask".
	HandleStems []string
	// Extra declares further accepted arguments.
	Extra []Param
	// Check validates the scene (required files, metadata).
	Check func(env Env, s *Scene) error
	// TypedJSON marks roles whose workers decode their declared JSON files
	// into typed values themselves (routing): ReadData still rejects a
	// .json/.geojson file that is not valid JSON, but leaves SceneFile.JSON
	// nil instead of decoding it into generic values nobody reads.
	TypedJSON bool
	// Bands are the bands (1-based) of each declared GeoTIFF that the
	// role's later workers decode. ReadData names them to an environment
	// that implements BandPrefetcher before it reads the file, so decoding
	// can start as soon as the bytes are in memory, while they are still
	// being hashed. Naming a band the chain does not use costs CPU only.
	Bands []int
}

// BandPrefetcher is implemented by environments that can decode the bands
// of a declared GeoTIFF ahead of the Band calls that will ask for them.
type BandPrefetcher interface {
	// PrefetchBands declares that bands (1-based) of the GeoTIFF at path
	// will be read through Band. It does not read the file and never
	// fails: a later ReadFile, RasterInfo or Band call of path performs
	// the read (through the read gate) and reports any error.
	PrefetchBands(path string, bands []int)
}

// ReadDataVariant builds the ReadData variant for one role. It opens the
// question and input handles, reads every declared file of the input
// handle through the read gate (a missing file is an error), describes
// GeoTIFFs, parses JSON files and runs the role's check.
func ReadDataVariant(spec ReadSpec) Variant {
	params := []Param{
		{Name: "question", Kind: KindHandle, Required: true, Doc: "the question handle, e.g. question_1"},
		{Name: "handle", Kind: KindHandle, Required: true, Doc: "the declared input handle to open"},
		Choice("role", spec.Role),
	}
	if len(spec.Times) > 0 {
		params = append(params, Param{Name: "time", Kind: KindString, Enum: spec.Times, Doc: "temporal selection"})
	}
	params = append(params, spec.Extra...)
	return Variant{
		Tool: "ReadData", Value: spec.Role, Params: params,
		Run: func(env Env, a Args) (*Result, error) {
			q, err := env.Open(a.String("question"))
			if err != nil {
				return nil, err
			}
			if q.Kind != KindQuestion {
				return nil, a.Errorf("question", "handle %s is a %s handle, not the question", q.Name, q.Kind)
			}
			h, err := env.Open(a.String("handle"))
			if err != nil {
				return nil, err
			}
			if h.Kind != KindInput {
				return nil, a.Errorf("handle", "%s is a %s handle; ReadData opens declared input handles", h.Name, h.Kind)
			}
			if stem := HandleStem(h.Name); !InEnum(spec.HandleStems, stem) {
				return nil, a.Errorf("role", "role %s does not apply to handle %s (it reads %s)", spec.Role, h.Name, strings.Join(spec.HandleStems, ", "))
			}
			sc := &Scene{Role: spec.Role, Time: a.String("time"), Handle: h.Name, Options: map[string]any{}}
			for k, v := range a.Map() {
				if k != "question" && k != "handle" && k != "role" && k != "time" {
					sc.Options[k] = v
				}
			}
			for _, f := range q.Files {
				b, err := env.ReadFile(f.Path)
				if err != nil {
					return nil, err
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					return nil, fmt.Errorf("question sidecar %s: %w", f.Path, err)
				}
				sc.Question = m
			}
			if pf, ok := env.(BandPrefetcher); ok && len(spec.Bands) > 0 {
				for _, card := range h.Files {
					if ext := strings.ToLower(path.Ext(card.Path)); ext == ".tif" || ext == ".tiff" {
						pf.PrefetchBands(card.Path, spec.Bands)
					}
				}
			}
			for _, card := range h.Files {
				sf, err := describeSceneFile(env, card, spec.TypedJSON)
				if err != nil {
					return nil, err
				}
				sc.Files = append(sc.Files, sf)
			}
			if spec.Check != nil {
				if err := spec.Check(env, sc); err != nil {
					return nil, fmt.Errorf("ReadData(role=%s) %s: %w", spec.Role, h.Name, err)
				}
			}
			return &Result{Evidence: sceneEvidence(sc), Payload: sc}, nil
		},
	}
}

// DescribeFile reads a declared file's raster header into a SceneFile:
// its grid, data type, nodata and band descriptions.
func DescribeFile(env Env, card FileCard) (SceneFile, error) {
	return describeSceneFile(env, card, false)
}

// describeSceneFile reads and describes one declared file; with typedJSON
// a valid JSON file is not decoded (see ReadSpec.TypedJSON).
func describeSceneFile(env Env, card FileCard, typedJSON bool) (SceneFile, error) {
	b, err := env.ReadFile(card.Path)
	if err != nil {
		return SceneFile{}, err
	}
	sf := SceneFile{FileCard: card, SHA256: fileSHA256(env, card.Path, b), Size: int64(len(b))}
	switch strings.ToLower(path.Ext(card.Path)) {
	case ".tif", ".tiff":
		info, err := env.RasterInfo(card.Path)
		if err != nil {
			return SceneFile{}, err
		}
		sf.Raster = &info
	case ".json", ".geojson":
		// goccy/go-json decodes to the same values as encoding/json
		// (float64 numbers, map[string]any objects) several times faster,
		// which matters for large GeoJSON declared by routing scenes.
		if typedJSON && gojson.Valid(b) {
			break
		}
		var v any
		if err := gojson.Unmarshal(b, &v); err != nil {
			return SceneFile{}, fmt.Errorf("declared file %s is not valid JSON: %w", card.Path, err)
		}
		sf.JSON = v
	}
	return sf, nil
}

// FileHasher is implemented by environments that already know the SHA-256
// of a declared file they have read (the runtime hashes every file once per
// session at first read); ReadData then need not hash it again.
type FileHasher interface {
	// FileSHA256 returns the lowercase hex SHA-256 of the declared file's
	// bytes as last returned by ReadFile, and whether it is known.
	FileSHA256(path string) (string, bool)
}

// fileSHA256 returns the hex SHA-256 of b, the bytes env.ReadFile returned
// for path: the environment's digest when it has one, else computed.
func fileSHA256(env Env, path string, b []byte) string {
	if h, ok := env.(FileHasher); ok {
		if sum, ok := h.FileSHA256(path); ok {
			return sum
		}
	}
	return sha256Hex(b)
}

func sceneEvidence(sc *Scene) map[string]any {
	files := make([]any, 0, len(sc.Files))
	for _, f := range sc.Files {
		e := map[string]any{"path": f.Path, "sha256": f.SHA256, "bytes": f.Size}
		if f.Date != "" {
			e["date"] = f.Date
		}
		if f.TemporalRole != "" {
			e["temporal_role"] = f.TemporalRole
		}
		if f.Epoch != "" {
			e["epoch"] = f.Epoch
		}
		if r := f.Raster; r != nil {
			e["raster"] = map[string]any{
				"width": r.Width, "height": r.Height, "count": r.Count,
				"dtype": r.DataType.String(), "epsg": r.EPSG,
				"transform": r.Transform[:], "nodata": nodataEvidence(*r),
			}
		}
		files = append(files, e)
	}
	ev := map[string]any{"role": sc.Role, "handle": sc.Handle, "files": files}
	if sc.Time != "" {
		ev["time"] = sc.Time
	}
	return ev
}

func nodataEvidence(r RasterInfo) any {
	if !r.HasNoData {
		return nil
	}
	return JSONNumber(r.NoData)
}

// PrepareSpec declares one PrepareScene mode.
type PrepareSpec struct {
	// Mode is the mode argument's value.
	Mode string
	// Slots maps each accepted input slot to the scene roles it accepts.
	Slots map[string][]string
	// Required lists the slots that must be present.
	Required []string
	// Check validates the assembled work context.
	Check func(env Env, w *Work) error
}

// Work is PrepareScene's payload: a validated work context over scenes.
type Work struct {
	Mode string
	// Scenes maps slot names to the scenes bound to them.
	Scenes map[string]*Scene
	// Handles maps slot names to the scene handle names.
	Handles map[string]string
}

// PrepareSceneVariant builds the PrepareScene variant for one mode: it
// validates that every input is a scene handle with an accepted role and
// that the required slots are bound.
func PrepareSceneVariant(spec PrepareSpec) Variant {
	var slots []string
	for s := range spec.Slots {
		slots = append(slots, s)
	}
	sort.Strings(slots)
	return Variant{
		Tool: "PrepareScene", Value: spec.Mode,
		Params: []Param{
			{Name: "inputs", Kind: KindHandleMap, Required: true, Enum: slots, Doc: "slot: scene handle"},
			Choice("mode", spec.Mode),
		},
		Run: func(env Env, a Args) (*Result, error) {
			w := &Work{Mode: spec.Mode, Scenes: map[string]*Scene{}, Handles: map[string]string{}}
			in := a.HandleMap("inputs")
			for _, slot := range spec.Required {
				if _, ok := in[slot]; !ok {
					return nil, a.Errorf("inputs", "mode %s requires slot %q", spec.Mode, slot)
				}
			}
			keys := make([]string, 0, len(in))
			for k := range in {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, slot := range keys {
				h, err := env.Open(in[slot])
				if err != nil {
					return nil, err
				}
				var sc *Scene
				ok := false
				if h.Result != nil {
					sc, ok = h.Result.Payload.(*Scene)
				}
				if !ok {
					return nil, a.Errorf("inputs", "slot %q: %s is a %s handle; PrepareScene takes scene handles from ReadData", slot, h.Name, h.Kind)
				}
				if !InEnum(spec.Slots[slot], sc.Role) {
					return nil, a.Errorf("inputs", "slot %q of mode %s accepts roles %s, %s has role %s", slot, spec.Mode, strings.Join(spec.Slots[slot], ", "), h.Name, sc.Role)
				}
				w.Scenes[slot] = sc
				w.Handles[slot] = h.Name
			}
			if spec.Check != nil {
				if err := spec.Check(env, w); err != nil {
					return nil, fmt.Errorf("PrepareScene(mode=%s): %w", spec.Mode, err)
				}
			}
			inputs := map[string]any{}
			for k, v := range w.Handles {
				inputs[k] = v
			}
			return &Result{Evidence: map[string]any{"mode": spec.Mode, "inputs": inputs, "lineage": "validated"}, Payload: w}, nil
		},
	}
}

// OpenResult opens the handle named by the call's "input" argument and
// returns its payload as T, or an error naming the expected kind.
func OpenResult[T any](env Env, a Args, arg, want string) (T, *Handle, error) {
	var zero T
	h, err := env.Open(a.String(arg))
	if err != nil {
		return zero, nil, err
	}
	if h.Result == nil {
		return zero, nil, a.Errorf(arg, "%s is a declared %s handle; %s requires a %s result", h.Name, h.Kind, a.tool, want)
	}
	p, ok := h.Result.Payload.(T)
	if !ok {
		return zero, nil, a.Errorf(arg, "%s is a %s result; %s requires a %s result", h.Name, h.Kind, a.tool, want)
	}
	return p, h, nil
}

// OpenWork opens the handle named by the call's "input" argument as a
// PrepareScene work context of one of modes, or returns an error naming
// the modes accepted.
func OpenWork(env Env, a Args, modes ...string) (*Work, error) {
	w, _, err := OpenResult[*Work](env, a, "input", "work (PrepareScene mode="+strings.Join(modes, " or ")+")")
	if err != nil {
		return nil, err
	}
	if slices.Contains(modes, w.Mode) {
		return w, nil
	}
	return nil, a.Errorf("input", "needs a work context of mode %s, got mode %s", strings.Join(modes, " or "), w.Mode)
}
