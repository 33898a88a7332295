// Package workertest provides an in-memory workers.Env, GeoTIFF fixtures
// and record helpers for the tests of the worker families and of the
// runtime that replays them.
package workertest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Env is an in-memory workers.Env: files by path and handles by name.
type Env struct {
	Files   map[string][]byte
	Handles map[string]*workers.Handle
}

// NewEnv returns an empty Env.
func NewEnv() *Env {
	return &Env{Files: map[string][]byte{}, Handles: map[string]*workers.Handle{}}
}

// Context returns context.Background().
func (m *Env) Context() context.Context { return context.Background() }

// Logger returns a logger that discards.
func (m *Env) Logger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Open returns the named handle.
func (m *Env) Open(name string) (*workers.Handle, error) {
	h, ok := m.Handles[name]
	if !ok {
		return nil, fmt.Errorf("unknown handle %q", name)
	}
	return h, nil
}

// ReadFile returns a stored file.
func (m *Env) ReadFile(p string) ([]byte, error) {
	b, ok := m.Files[p]
	if !ok {
		return nil, fmt.Errorf("reading declared file %s: missing", p)
	}
	return b, nil
}

func (m *Env) dataset(p string) (*raster.Dataset, workers.RasterInfo, error) {
	b, err := m.ReadFile(p)
	if err != nil {
		return nil, workers.RasterInfo{}, err
	}
	ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, workers.RasterInfo{}, err
	}
	info := workers.RasterInfo{Width: ds.Width(), Height: ds.Height(), Count: ds.Count(), DataType: ds.DataType(), EPSG: ds.EPSG()}
	info.Transform, info.HasTransform = ds.Transform()
	info.NoData, info.HasNoData = ds.NoData()
	for i := 1; i <= info.Count; i++ {
		info.Descriptions = append(info.Descriptions, ds.BandDescription(i))
	}
	return ds, info, nil
}

// Band decodes one band of a stored GeoTIFF.
func (m *Env) Band(p string, band int) (*raster.Band, workers.RasterInfo, error) {
	ds, info, err := m.dataset(p)
	if err != nil {
		return nil, info, err
	}
	b, err := ds.ReadBand(context.Background(), band)
	return b, info, err
}

// RasterInfo describes a stored GeoTIFF.
func (m *Env) RasterInfo(p string) (workers.RasterInfo, error) {
	_, info, err := m.dataset(p)
	return info, err
}

// WriteArtifact reports the artifact without storing it.
func (m *Env) WriteArtifact(name string, data []byte, sum func() [32]byte) (workers.Artifact, error) {
	return Artifact(name, data, sum), nil
}

// Artifact is the artifact an in-memory Env reports for data: its SHA-256
// from sum when given, else computed.
func Artifact(name string, data []byte, sum func() [32]byte) workers.Artifact {
	var s [32]byte
	if sum != nil {
		s = sum()
	} else {
		s = sha256.Sum256(data)
	}
	return workers.Artifact{Name: name, SHA256: hex.EncodeToString(s[:]), Size: int64(len(data))}
}

// Grids used by the fixtures: a geographic 0.00025-degree grid and a
// 10 m UTM grid.
var (
	GeoT  = crs.Affine{0.00025, 0, -60, 0, -0.00025, -5}
	UTM10 = crs.Affine{10, 0, 500000, 0, -10, 8800000}
)

// PutTIFF writes bands (row-major values) as a GeoTIFF into the env and
// returns its described scene file.
func (m *Env) PutTIFF(t testing.TB, card workers.FileCard, w, h int, dt raster.DataType, epsg int, tr crs.Affine, nodata *float64, bands ...[]float64) workers.SceneFile {
	t.Helper()
	var bs []*raster.Band
	for _, vals := range bands {
		b, err := raster.NewBand(w, h, dt)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			b.Set(i, v)
		}
		bs = append(bs, b)
	}
	m.Files[card.Path] = EncodeTIFF(t, bs, raster.WriteOptions{EPSG: epsg, Transform: tr, NoData: nodata})
	sf, err := workers.DescribeFile(m, card)
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

// EncodeTIFF encodes bands as a GeoTIFF with opts. A failure fails t.
func EncodeTIFF(t testing.TB, bands []*raster.Band, opts raster.WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := raster.Write(&buf, bands, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Fill returns n copies of v.
func Fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// NoData returns a pointer to v, for WriteOptions.NoData.
func NoData(v float64) *float64 { return &v }

// CheckFamily checks a family declaration against the kernel's tables:
// its projectors cover exactly the question types the kernel assigns to
// the family, each has an answer schema that compiles (and no schema is
// left without a type), and every variant names a known tool and a
// runner, with no (tool, value) pair declared twice.
func CheckFamily(t testing.TB, def workers.FamilyDef, want workers.Family) {
	t.Helper()
	if def.Name != want {
		t.Errorf("family name %q, want %q", def.Name, want)
	}
	var types []string
	for _, q := range workers.QuestionTypes() {
		if q.Family == want {
			types = append(types, q.ID)
		}
	}
	if got := workers.SortedKeys(def.Projectors); !slices.Equal(got, slicesSorted(types)) {
		t.Errorf("projectors for %v, want %v", got, slicesSorted(types))
	}
	names, err := fs.Glob(def.Schemas, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, ok := def.Projectors[strings.TrimSuffix(n, ".json")]; !ok {
			t.Errorf("schema %s has no question type in the family", n)
		}
	}
	c := jsonschema.NewCompiler()
	for _, typ := range types {
		doc, err := fs.ReadFile(def.Schemas, typ+".json")
		if err != nil {
			t.Errorf("question type %s: %v", typ, err)
			continue
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			t.Errorf("schema %s: %v", typ, err)
			continue
		}
		url := "mem:///" + typ + ".json"
		if err := c.AddResource(url, v); err != nil {
			t.Errorf("schema %s: %v", typ, err)
			continue
		}
		if _, err := c.Compile(url); err != nil {
			t.Errorf("schema %s: %v", typ, err)
		}
	}
	seen := map[string]bool{}
	vs := def.Variants()
	if len(vs) == 0 {
		t.Errorf("family %s declares no variants", want)
	}
	for _, v := range vs {
		if _, ok := workers.LookupTool(v.Tool); !ok {
			t.Errorf("variant %s=%q: unknown tool", v.Tool, v.Value)
		}
		if v.Run == nil {
			t.Errorf("variant %s=%q has no runner", v.Tool, v.Value)
		}
		key := v.Tool + "\x00" + v.Value
		if seen[key] {
			t.Errorf("variant %s=%q declared twice", v.Tool, v.Value)
		}
		seen[key] = true
	}
}

func slicesSorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// View is an in-memory workers.View: the latest handle of each kind and
// whether the task is complete.
type View struct {
	ByKind map[string]*workers.Handle
	Done   bool
}

// NewView returns a completed View holding one handle per payload, keyed
// by kind and named <kind>_1.
func NewView(payloads map[string]any) *View {
	v := &View{ByKind: map[string]*workers.Handle{}, Done: true}
	for kind, p := range payloads {
		v.ByKind[kind] = &workers.Handle{Name: kind + "_1", Kind: kind, Result: &workers.Result{Kind: kind, Payload: p}}
	}
	return v
}

// Latest returns the handle of kind, or nil.
func (v *View) Latest(kind string) *workers.Handle { return v.ByKind[kind] }

// Completed reports Done.
func (v *View) Completed() bool { return v.Done }

// CheckWaitsForTaskComplete fails the test unless projection p, given v
// before TaskComplete, returns neither an answer nor an error; it leaves v
// completed.
func CheckWaitsForTaskComplete(t testing.TB, p workers.Projector, v *View) {
	t.Helper()
	v.Done = false
	if got, err := p(v); got != nil || err != nil {
		t.Fatalf("before TaskComplete: %v %v, want no answer yet", got, err)
	}
	v.Done = true
}
