package conformance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/hydrate"
	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/sen1flood"
)

// sen1Data is the upstream sample folder (../shared/data from the project
// root; tests run in conformance/).
const sen1Data = "../../shared/data/sen1floods11"

// sen1Golden is the shape of conformance/goldens/oracle_sen1flood.json and
// sen1flood_real.json (written by conformance/oracle/oracle_sen1flood.py).
type sen1Golden struct {
	RecordsSHA256 string                     `json:"records_sha256"`
	SourceSHA256  string                     `json:"source_sha256"`
	Answers       map[string]json.RawMessage `json:"answers"`
	Diagnostics   map[string]struct {
		Threshold      float64 `json:"threshold"`
		MaskSHA256     string  `json:"mask_sha256"`
		ValidPixels    int     `json:"valid_pixels"`
		FloodPixels    int     `json:"flood_pixels"`
		ComponentCount int     `json:"component_count"`
		PolygonCount   int     `json:"polygon_count"`
		PolygonDigest  string  `json:"polygon_digest"`
	} `json:"diagnostics"`
}

// readGolden decodes the JSON file at path (a golden or a pin file).
func readGolden[T any](t *testing.T, path string) *T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g T
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &g
}

// checkSen1Diagnostics recomputes, per record, the threshold, mask
// SHA-256, counts, components and polygons with the library functions
// (polygons both by Polygonize of the labels and as the worker makes them,
// traced outlines grouped by the run labelling) and compares them with the
// native stack's.
func checkSen1Diagnostics(t *testing.T, dir string, recs []workers.Record, g *sen1Golden) {
	t.Helper()
	for _, rec := range recs {
		want, ok := g.Diagnostics[rec.ID]
		if !ok {
			t.Errorf("%s: no native diagnostics", rec.ID)
			continue
		}
		path := filepath.Join(dir, rec.Handles["s1_image_1"].Files[0].Path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		vv, _ := ds.ReadBand(context.Background(), 1)
		vh, _ := ds.ReadBand(context.Background(), 2)
		info := workers.RasterInfo{Width: ds.Width(), Height: ds.Height(), Count: 2, DataType: ds.DataType(), EPSG: ds.EPSG()}
		info.Transform, info.HasTransform = ds.Transform()
		info.NoData, info.HasNoData = ds.NoData()
		m, err := sen1flood.PredictFlood(vv.Data.([]float32), vh.Data.([]float32), info)
		if err != nil {
			t.Fatalf("%s: %v", rec.ID, err)
		}
		fg := make([]bool, len(m.Mask))
		for i, v := range m.Mask {
			fg[i] = v == sen1flood.MaskFlood
		}
		labels, n, _ := regions.Label(fg, info.Width, info.Height, regions.Connect8)
		polys, err := regions.Polygonize(labels, info.Width, info.Height, n)
		if err != nil {
			t.Fatalf("%s: %v", rec.ID, err)
		}
		// The worker's own path: outlines traced from the mask, grouped
		// by the run labelling.
		rl, err := regions.LabelRuns(m.Mask, sen1flood.MaskFlood, info.Width, info.Height)
		if err != nil {
			t.Fatalf("%s: %v", rec.ID, err)
		}
		outlines, err := regions.TraceOutlines(m.Mask, sen1flood.MaskFlood, info.Width, info.Height)
		if err != nil {
			t.Fatalf("%s: %v", rec.ID, err)
		}
		traced, err := outlines.PolygonsAt(rl.At, rl.Count())
		if err != nil {
			t.Fatalf("%s: %v", rec.ID, err)
		}
		if rl.Count() != want.ComponentCount || polygonDigest(traced) != want.PolygonDigest {
			t.Errorf("%s: traced outlines: %d components, %d polygons, digest %s; native %d, %d, %s",
				rec.ID, rl.Count(), len(traced), polygonDigest(traced), want.ComponentCount, want.PolygonCount, want.PolygonDigest)
		}
		if math.Float32bits(m.Threshold) != math.Float32bits(float32(want.Threshold)) || m.MaskSHA256 != want.MaskSHA256 ||
			m.Valid != want.ValidPixels || m.Flood != want.FloodPixels || n != want.ComponentCount || len(polys) != want.PolygonCount ||
			polygonDigest(polys) != want.PolygonDigest {
			t.Errorf("%s: go threshold %v mask %s valid %d flood %d components %d polygons %d; native %v %s %d %d %d %d",
				rec.ID, m.Threshold, m.MaskSHA256, m.Valid, m.Flood, n, len(polys),
				want.Threshold, want.MaskSHA256, want.ValidPixels, want.FloodPixels, want.ComponentCount, want.PolygonCount)
		}
	}
}

// canonicalRing mirrors oracle_sen1flood.py's _canonical_ring: no closing
// or collinear points, positive (x, row-down) shoelace, smallest rotation
// by numeric (x, y) order.
func canonicalRing(r regions.PixelRing) string {
	pts := append([]regions.PixelPoint(nil), r...)
	for changed := true; changed && len(pts) > 2; {
		changed = false
		for i := range pts {
			a, b, c := pts[(i+len(pts)-1)%len(pts)], pts[i], pts[(i+1)%len(pts)]
			if (b.X-a.X)*(c.Y-b.Y)-(b.Y-a.Y)*(c.X-b.X) == 0 {
				pts = append(pts[:i], pts[i+1:]...)
				changed = true
				break
			}
		}
	}
	if regions.PixelRing(pts).SignedArea2() < 0 {
		slices.Reverse(pts)
	}
	less := func(s, u int) bool {
		for k := range pts {
			p, q := pts[(s+k)%len(pts)], pts[(u+k)%len(pts)]
			if p != q {
				return p.X < q.X || p.X == q.X && p.Y < q.Y
			}
		}
		return false
	}
	best := 0
	for s := 1; s < len(pts); s++ {
		if less(s, best) {
			best = s
		}
	}
	var sb strings.Builder
	for k := range pts {
		p := pts[(best+k)%len(pts)]
		fmt.Fprintf(&sb, "%d,%d;", p.X, p.Y)
	}
	return sb.String()
}

// polygonDigest mirrors oracle_sen1flood.py's polygon_digest.
func polygonDigest(polys []regions.PixelPolygon) string {
	var all []string
	for _, p := range polys {
		var holes []string
		for _, h := range p.Holes {
			holes = append(holes, canonicalRing(h))
		}
		sort.Strings(holes)
		all = append(all, canonicalRing(p.Exterior)+"|"+strings.Join(holes, "|"))
	}
	sort.Strings(all)
	s := sha256.Sum256([]byte(strings.Join(all, "\n")))
	return hex.EncodeToString(s[:])
}

// TestSen1FloodSyntheticDiagnostics checks the synthetic corpus's
// thresholds, mask hashes, component and polygon counts against the
// native stack (the answers are checked by TestReplayMatchesNativeOracle).
func TestSen1FloodSyntheticDiagnostics(t *testing.T) {
	g := readGolden[sen1Golden](t, "goldens/oracle_sen1flood.json")
	dir := t.TempDir()
	recs, m := synthtest.Generate(t, dir, synth.Options{Types: []string{"sen1_flood_a", "sen1_flood_b", "sen1_flood_c", "sen1_flood_d", "sen1_flood_e"}, Seed: 1})
	if m.RecordsSHA256 != g.RecordsSHA256 {
		t.Fatalf("goldens/oracle_sen1flood.json is stale (corpus %s, goldens %s)", m.RecordsSHA256, g.RecordsSHA256)
	}
	checkSen1Diagnostics(t, dir, recs, g)
}

// TestSen1FloodRealChip hydrates the real Sen1Floods11 sample chip, builds
// records of types 39-43 over it and its deterministic variants, replays
// them and requires the Go answers, thresholds, mask hashes, component and
// polygon counts to equal the native stack's (goldens/sen1flood_real.json,
// made by rasterio + scikit-image + SciPy + GDAL from the same files).
//
// To regenerate the goldens:
//
//	GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./conformance/ -run TestSen1FloodRealChip
//	/usr/bin/python3 conformance/oracle/oracle_sen1flood.py --corpus /tmp/c_sen1_real \
//	    --source-sha256 6c24bf791372da5e93450195eac8d676a7ef917884dfb479dafe4a565543b19a \
//	    > conformance/goldens/sen1flood_real.json
func TestSen1FloodRealChip(t *testing.T) {
	man, portable := hydratedChip(t)
	dir := os.Getenv("GEODISASTER_SEN1_REAL_OUT")
	if dir == "" {
		dir = t.TempDir()
	}
	sum, recs := realChipCorpus(t, dir, portable)
	// The original chip's records declare exactly the hydrated bytes.
	for _, r := range recs {
		if r.SampleID == "Spain_7370579" && r.Handles["s1_image_1"].Files[0].SHA256 != man.Chips[0].Portable.SHA256 {
			t.Errorf("%s declares %s, not the hydrated S1Portable.tif", r.ID, r.Handles["s1_image_1"].Files[0].SHA256)
		}
	}
	if os.Getenv("GEODISASTER_SEN1_REAL_OUT") != "" {
		t.Logf("wrote the real-chip corpus to %s (records sha256 %s)", dir, sum)
	}
	g := readGolden[sen1Golden](t, "goldens/sen1flood_real.json")
	if g.RecordsSHA256 != sum {
		t.Fatalf("goldens/sen1flood_real.json is stale (corpus %s, goldens %s)", sum, g.RecordsSHA256)
	}
	if g.SourceSHA256 != man.Chips[0].Source.SHA256 {
		t.Errorf("goldens were made from S1Hand %s, the manifest pins %s", g.SourceSHA256, man.Chips[0].Source.SHA256)
	}
	checkSen1Diagnostics(t, dir, recs, g)
	replayAgainstOracle(t, dir, recs, g.Answers)
	d := g.Diagnostics["sen1_flood_a__Spain_7370579"]
	var a map[string]any
	_ = json.Unmarshal(g.Answers["sen1_flood_a__Spain_7370579"], &a)
	t.Logf("real chip Spain_7370579: Otsu threshold %v dB, %d components, flood %v%% (Go equals native)", d.Threshold, d.ComponentCount, a["flood_percentage"])
}

// sen1ArtifactPins is conformance/goldens/sen1flood_artifacts.json:
// record id -> artifact extension -> SHA-256.
const sen1ArtifactPins = "goldens/sen1flood_artifacts.json"

// artifactHashes replays records and returns each one's artifact hashes,
// after checking that each artifact's file holds the bytes they hash.
func artifactHashes(t *testing.T, dir string, recs []workers.Record) map[string]map[string]string {
	t.Helper()
	adir := filepath.Join(t.TempDir(), "a")
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir, ArtifactDir: adir})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, r := range eng.Replay(context.Background(), recs, runtime.ReplayOptions{Workers: 1}) {
		if r.Status != "ok" {
			t.Fatalf("%s: %s", r.ID, *r.Error)
		}
		m := map[string]string{}
		for _, c := range r.Calls {
			for _, a := range c.Artifacts {
				m[filepath.Ext(a.Name)] = a.SHA256
				b, err := os.ReadFile(filepath.Join(adir, r.ID, a.Name))
				if err != nil {
					t.Fatalf("%s: artifact %s: %v", r.ID, a.Name, err)
				}
				if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != a.SHA256 || int64(len(b)) != a.Size {
					t.Errorf("%s: artifact %s on disk (%d bytes) is not the one reported (%d bytes, sha256 %s)", r.ID, a.Name, len(b), a.Size, a.SHA256)
				}
			}
		}
		out[r.ID] = m
	}
	return out
}

// TestSen1FloodArtifactHashesPinned requires the mask GeoTIFF, polygon
// GeoJSON, PNG and manifest bytes of every synthetic type-E record (and
// of the real chip's when ../shared/data is present) to equal hashes
// pinned on linux/amd64, so a run on another OS or architecture (e.g.
// linux/arm64 under qemu-user-static) proves byte determinism. Set
// GEODISASTER_SEN1_PIN=1 to rewrite the pins.
func TestSen1FloodArtifactHashesPinned(t *testing.T) {
	dir, recs := synthtest.Corpus(t, synth.Options{Types: []string{"sen1_flood_e"}, Seed: 1})
	got := artifactHashes(t, dir, recs)
	if portable, src, ok := portableChip(t); ok {
		rdir := t.TempDir()
		_, all := realChipCorpus(t, rdir, portable)
		var e []workers.Record
		for _, r := range all {
			if r.QuestionType == "sen1_flood_e" {
				e = append(e, r)
			}
		}
		for k, v := range artifactHashes(t, rdir, e) {
			got[k] = v
		}
	} else {
		t.Logf("corpus absent: %s (real-chip artifact pins not checked)", src)
	}
	if os.Getenv("GEODISASTER_SEN1_PIN") != "" {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(sen1ArtifactPins, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := *readGolden[map[string]map[string]string](t, sen1ArtifactPins)
	for id, m := range got {
		for _, ext := range []string{".tif", ".geojson", ".png", ".json"} {
			if m[ext] == "" || m[ext] != want[id][ext] {
				t.Errorf("%s %s artifact: sha256 %s, pinned %s", id, ext, m[ext], want[id][ext])
			}
		}
	}
}

// TestSen1FloodLabelGrid runs types 42 and 43 on the real chip and its
// variants with known-water rasters made from the chip's real hand labels
// on LabelHand.tif's own transform (export noise away from S1Hand's grid,
// within the grid tolerance), and requires the answers, thresholds, masks
// and polygons to equal the native stack's (goldens/sen1flood_labelgrid.json).
// A known-water raster half a pixel off is refused, printing both grids.
//
// To regenerate the goldens:
//
//	GEODISASTER_SEN1_LABELGRID_OUT=/tmp/c_sen1_lg go test ./conformance/ -run TestSen1FloodLabelGrid
//	/usr/bin/python3 conformance/oracle/oracle_sen1flood.py --corpus /tmp/c_sen1_lg \
//	    --source-sha256 6c24bf791372da5e93450195eac8d676a7ef917884dfb479dafe4a565543b19a \
//	    > conformance/goldens/sen1flood_labelgrid.json
func TestSen1FloodLabelGrid(t *testing.T) {
	label, err := os.ReadFile(filepath.Join(sen1Data, "Spain_7370579", "LabelHand.tif"))
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	_, portable := hydratedChip(t)
	dir := os.Getenv("GEODISASTER_SEN1_LABELGRID_OUT")
	if dir == "" {
		dir = t.TempDir()
	}
	sum, err := synth.Sen1FloodLabelGridCorpus(context.Background(), dir, "Spain_7370579", portable, label)
	if err != nil {
		t.Fatal(err)
	}
	recs := synthtest.Records(t, dir)
	// The known-water rasters are not on the SAR transform bit for bit.
	for _, r := range recs {
		sar := rasterGrid(t, filepath.Join(dir, r.Handles["s1_image_1"].Files[0].Path))
		jrc := rasterGrid(t, filepath.Join(dir, r.Handles["jrc_water_1"].Files[0].Path))
		if sar.Transform == jrc.Transform {
			t.Fatalf("%s: the known-water raster is on the SAR transform exactly", r.ID)
		}
		if d := workers.GridDisplacement(sar, jrc); d > 1e-11 {
			t.Errorf("%s: known water %.3g pixel off the SAR grid", r.ID, d)
		}
	}
	if os.Getenv("GEODISASTER_SEN1_LABELGRID_OUT") != "" {
		t.Logf("wrote the label-grid corpus to %s (records sha256 %s)", dir, sum)
	}
	g := readGolden[sen1Golden](t, "goldens/sen1flood_labelgrid.json")
	if g.RecordsSHA256 != sum {
		t.Fatalf("goldens/sen1flood_labelgrid.json is stale (corpus %s, goldens %s)", sum, g.RecordsSHA256)
	}
	checkSen1Diagnostics(t, dir, recs, g)
	replayAgainstOracle(t, dir, recs, g.Answers)

	// Half a pixel off is a grid mismatch naming both grids.
	rec := recs[0]
	card := &rec.Handles["jrc_water_1"].Files[0]
	p := filepath.Join(dir, card.Path)
	ds, err := raster.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ds.ReadBand(context.Background(), 1)
	tr, _ := ds.Transform()
	nd, _ := ds.NoData()
	ds.Close()
	tr[2] += float64(0.5 * tr[0])
	var buf bytes.Buffer
	if err := raster.Write(&buf, []*raster.Band{b}, raster.WriteOptions{EPSG: 4326, Transform: tr, NoData: &nd}); err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	cp := func(rel string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(bad, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range rec.Handles {
		for _, f := range h.Files {
			data, err := os.ReadFile(filepath.Join(dir, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			cp(f.Path, data)
		}
	}
	cp(card.Path, buf.Bytes())
	s := sha256.Sum256(buf.Bytes())
	card.SHA256 = hex.EncodeToString(s[:])
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: bad, ArtifactDir: filepath.Join(bad, "_artifacts")})
	if err != nil {
		t.Fatal(err)
	}
	res := eng.Replay(context.Background(), []workers.Record{rec}, runtime.ReplayOptions{Workers: 1})
	if res[0].Status == "ok" || res[0].Error == nil || !strings.Contains(*res[0].Error, "grid mismatch") ||
		!strings.Contains(*res[0].Error, "0.5 pixels apart") || !strings.Contains(*res[0].Error, "S1Portable.tif (512x512, EPSG:4326, transform [") {
		t.Errorf("half a pixel off: %+v", res[0].Error)
	} else {
		t.Logf("refused: %s", *res[0].Error)
	}
}

// hydratedChip hydrates the real Sen1Floods11 sample chip (skipping the
// test when ../shared/data is absent) and returns the pinned manifest and
// the S1Portable.tif bytes.
func hydratedChip(t *testing.T) (*hydrate.Manifest, []byte) {
	t.Helper()
	src := filepath.Join(sen1Data, "Spain_7370579", "S1Hand.tif")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("corpus absent: %s", src)
	}
	man, err := hydrate.PinnedManifest()
	if err != nil {
		t.Fatal(err)
	}
	hyd := t.TempDir()
	if _, err := hydrate.Run(context.Background(), man, hydrate.Options{Source: sen1Data, Dest: hyd}); err != nil {
		t.Fatal(err)
	}
	portable, err := os.ReadFile(filepath.Join(hyd, filepath.FromSlash(man.Chips[0].Portable.Path)))
	if err != nil {
		t.Fatal(err)
	}
	return man, portable
}

// portableChip returns the real chip's S1Hand.tif (under ../shared/data)
// made portable, and its path; ok is false when the file is absent.
func portableChip(tb testing.TB) (portable []byte, src string, ok bool) {
	tb.Helper()
	src = filepath.Join(sen1Data, "Spain_7370579", "S1Hand.tif")
	hand, err := os.ReadFile(src)
	if err != nil {
		return nil, src, false
	}
	if portable, err = hydrate.Portable(hand); err != nil {
		tb.Fatal(err)
	}
	return portable, src, true
}

// realChipCorpus builds synth's records of types 39-43 over the portable
// real chip into dir and returns the records' digest and the records.
func realChipCorpus(tb testing.TB, dir string, portable []byte) (string, []workers.Record) {
	tb.Helper()
	sum, err := synth.Sen1FloodRealCorpus(context.Background(), dir, "Spain_7370579", portable)
	if err != nil {
		tb.Fatal(err)
	}
	return sum, synthtest.Records(tb, dir)
}

// rasterGrid reads a GeoTIFF's grid.
func rasterGrid(t *testing.T, path string) workers.RasterInfo {
	t.Helper()
	ds, err := raster.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	r := workers.RasterInfo{Width: ds.Width(), Height: ds.Height(), EPSG: ds.EPSG()}
	r.Transform, r.HasTransform = ds.Transform()
	return r
}
