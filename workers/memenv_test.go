package workers

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// memEnv is an in-memory Env for worker unit tests.
type memEnv struct {
	files   map[string][]byte
	handles map[string]*Handle
}

func newMemEnv() *memEnv {
	return &memEnv{files: map[string][]byte{}, handles: map[string]*Handle{}}
}

func (m *memEnv) Context() context.Context { return context.Background() }
func (m *memEnv) Logger() *slog.Logger     { return slog.New(slog.DiscardHandler) }
func (m *memEnv) Open(name string) (*Handle, error) {
	h, ok := m.handles[name]
	if !ok {
		return nil, fmt.Errorf("unknown handle %q", name)
	}
	return h, nil
}
func (m *memEnv) ReadFile(p string) ([]byte, error) {
	b, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("reading declared file %s: missing", p)
	}
	return b, nil
}
func (m *memEnv) dataset(p string) (*raster.Dataset, RasterInfo, error) {
	b, err := m.ReadFile(p)
	if err != nil {
		return nil, RasterInfo{}, err
	}
	ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, RasterInfo{}, err
	}
	info := RasterInfo{Width: ds.Width(), Height: ds.Height(), Count: ds.Count(), DataType: ds.DataType(), EPSG: ds.EPSG()}
	info.Transform, info.HasTransform = ds.Transform()
	info.NoData, info.HasNoData = ds.NoData()
	for i := 1; i <= info.Count; i++ {
		info.Descriptions = append(info.Descriptions, ds.BandDescription(i))
	}
	return ds, info, nil
}
func (m *memEnv) Band(p string, band int) (*raster.Band, RasterInfo, error) {
	ds, info, err := m.dataset(p)
	if err != nil {
		return nil, info, err
	}
	b, err := ds.ReadBand(context.Background(), band)
	return b, info, err
}
func (m *memEnv) RasterInfo(p string) (RasterInfo, error) {
	_, info, err := m.dataset(p)
	return info, err
}
func (m *memEnv) WriteArtifact(name string, data []byte, sum func() [32]byte) (Artifact, error) {
	return testArtifact(name, data, sum), nil
}

// testArtifact is the artifact an in-memory Env reports for data: its
// SHA-256 from sum when given, else computed.
func testArtifact(name string, data []byte, sum func() [32]byte) Artifact {
	a := Artifact{Name: name, SHA256: sha256Hex(data), Size: int64(len(data))}
	if sum != nil {
		s := sum()
		a.SHA256 = hex.EncodeToString(s[:])
	}
	return a
}

var (
	geoT  = crs.Affine{0.00025, 0, -60, 0, -0.00025, -5}
	utm10 = crs.Affine{10, 0, 500000, 0, -10, 8800000}
)

// putTIFF writes bands (row-major values) as a GeoTIFF into the env and
// returns its described scene file.
func (m *memEnv) putTIFF(t *testing.T, card FileCard, w, h int, dt raster.DataType, epsg int, tr crs.Affine, nodata *float64, bands ...[]float64) SceneFile {
	t.Helper()
	var bs []*raster.Band
	for _, vals := range bands {
		b, err := raster.NewBand(w, h, dt)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			switch d := b.Data.(type) {
			case []uint8:
				d[i] = uint8(v)
			case []uint16:
				d[i] = uint16(v)
			case []float32:
				d[i] = float32(v)
			}
		}
		bs = append(bs, b)
	}
	var buf bytes.Buffer
	if err := raster.Write(&buf, bs, raster.WriteOptions{EPSG: epsg, Transform: tr, NoData: nodata}); err != nil {
		t.Fatal(err)
	}
	m.files[card.Path] = buf.Bytes()
	sf, err := DescribeFile(m, card)
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

func fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func nd(v float64) *float64 { return &v }

func args(tool string, m map[string]any) Args { return Args{tool: tool, m: m} }
