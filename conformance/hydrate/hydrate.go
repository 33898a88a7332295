// Package hydrate materializes the Sen1Floods11 inputs that the public
// GeoDisaster release leaves out (spec sections 4, 8 and 10): it fetches the
// official S1Hand.tif chips from a local folder or an http(s) base URL laid
// out like the official bucket, verifies them against a pinned manifest of
// SHA-256 digests, and derives S1Portable.tif (NaN nodata replaced by the
// finite nodata -9999; finite pixels, size, CRS, transform and band names
// unchanged), whose digests are pinned too.
//
// Nothing is written unless every check passes, each file is written
// atomically (temporary file, then rename), and a destination file that
// exists with other bytes is never overwritten.
package hydrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/internal/atomicfile"
	"github.com/geodisaster/engine/raster"
)

// PortableNoData is the finite nodata of S1Portable.tif.
const PortableNoData = -9999

// maxSourceBytes bounds a downloaded chip (the official chips are ~1.5 MB).
const maxSourceBytes = 64 << 20

//go:embed sen1floods11_manifest.json
var manifestJSON []byte

// Manifest pins the upstream chips and their derivatives.
type Manifest struct {
	Dataset string `json:"dataset"`
	// OfficialBaseURL is the official bucket's base URL for the
	// hand-labelled chips.
	OfficialBaseURL string `json:"official_base_url"`
	Chips           []Chip `json:"chips"`
}

// Chip is one pinned Sen1Floods11 chip.
type Chip struct {
	// Name is the chip id, such as "Spain_7370579".
	Name string `json:"chip"`
	// Source is the upstream S1Hand.tif.
	Source SourceFile `json:"source"`
	// Portable is the derived S1Portable.tif.
	Portable DerivedFile `json:"portable"`
}

// SourceFile is a pinned upstream file.
type SourceFile struct {
	// Layouts are the source-relative paths tried in order: the official
	// bucket layout ("S1Hand/<chip>_S1Hand.tif") and the per-chip folder
	// layout ("<chip>/S1Hand.tif").
	Layouts []string `json:"layouts"`
	SHA256  string   `json:"sha256"`
	Bytes   int64    `json:"bytes"`
}

// DerivedFile is a pinned deterministic derivative.
type DerivedFile struct {
	// Path is relative to the destination (the dataset root).
	Path       string `json:"path"`
	SHA256     string `json:"sha256"`
	Derivation string `json:"derivation"`
}

// PinnedManifest returns the embedded manifest.
func PinnedManifest() (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(manifestJSON, &m); err != nil {
		return nil, fmt.Errorf("hydrate: embedded manifest: %w", err)
	}
	if len(m.Chips) == 0 {
		return nil, errors.New("hydrate: embedded manifest pins no chip")
	}
	return &m, nil
}

// Options configures a hydration run.
type Options struct {
	// Source is a local directory or an http(s) base URL.
	Source string
	// Dest is the dataset root the derivatives are written under.
	Dest string
	// VerifyOnly checks the destination files against the manifest
	// without fetching or writing anything.
	VerifyOnly bool
	// Client is the HTTP client for URL sources (http.DefaultClient when
	// nil).
	Client *http.Client
	// Progress, when not nil, is called after each chip with the chips
	// done and the total.
	Progress func(done, total int)
}

// FileStatus reports what happened to one destination file.
type FileStatus struct {
	Chip   string `json:"chip"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Status is "written", "present" (already hydrated, verified) or
	// "verified" (--verify-only).
	Status string `json:"status"`
	// Source is where the upstream bytes came from (empty when not
	// fetched).
	Source string `json:"source,omitempty"`
}

// ChecksumError reports bytes whose SHA-256 differs from the manifest.
type ChecksumError struct {
	What, Got, Want string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("hydrate: %s has SHA-256 %s, the pinned manifest says %s", e.What, e.Got, e.Want)
}

// Run hydrates (or verifies) every chip of the manifest.
func Run(ctx context.Context, m *Manifest, opts Options) ([]FileStatus, error) {
	if opts.Dest == "" {
		return nil, errors.New("hydrate: no destination directory")
	}
	if !opts.VerifyOnly && opts.Source == "" {
		return nil, errors.New("hydrate: no source")
	}
	var out []FileStatus
	for _, c := range m.Chips {
		st, err := hydrateChip(ctx, c, opts)
		if err != nil {
			return out, fmt.Errorf("chip %s: %w", c.Name, err)
		}
		out = append(out, st)
		if opts.Progress != nil {
			opts.Progress(len(out), len(m.Chips))
		}
	}
	return out, nil
}

func hydrateChip(ctx context.Context, c Chip, opts Options) (FileStatus, error) {
	rel := c.Portable.Path
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return FileStatus{}, fmt.Errorf("manifest path %q is not a relative path inside the destination", rel)
	}
	dst := filepath.Join(opts.Dest, filepath.FromSlash(rel))
	st := FileStatus{Chip: c.Name, Path: rel, SHA256: c.Portable.SHA256}
	existing, err := os.ReadFile(dst)
	switch {
	case err == nil:
		if got := sum(existing); got != c.Portable.SHA256 {
			return st, fmt.Errorf("%s exists with other content (%w); refusing to overwrite it", dst, &ChecksumError{What: rel, Got: got, Want: c.Portable.SHA256})
		}
		st.Status = "present"
		if opts.VerifyOnly {
			st.Status = "verified"
		}
		return st, nil
	case !errors.Is(err, os.ErrNotExist):
		return st, fmt.Errorf("reading %s: %w", dst, err)
	}
	if opts.VerifyOnly {
		return st, fmt.Errorf("%s is missing (run hydrate without --verify-only)", dst)
	}
	src, from, err := fetchSource(ctx, c, opts)
	if err != nil {
		return st, err
	}
	st.Source = from
	portable, err := Portable(src)
	if err != nil {
		return st, fmt.Errorf("deriving %s from %s: %w", rel, from, err)
	}
	if got := sum(portable); got != c.Portable.SHA256 {
		return st, &ChecksumError{What: "derived " + rel, Got: got, Want: c.Portable.SHA256}
	}
	if err := writeAtomic(dst, portable); err != nil {
		return st, err
	}
	st.Status = "written"
	return st, nil
}

// fetchSource returns the verified upstream bytes of a chip, trying each
// declared layout.
func fetchSource(ctx context.Context, c Chip, opts Options) ([]byte, string, error) {
	var errs []error
	for _, layout := range c.Source.Layouts {
		b, from, err := fetch(ctx, opts, layout)
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return nil, from, err
		}
		if c.Source.Bytes > 0 && int64(len(b)) != c.Source.Bytes {
			return nil, from, fmt.Errorf("%s has %d bytes, the pinned manifest says %d (partial or altered download)", from, len(b), c.Source.Bytes)
		}
		if got := sum(b); got != c.Source.SHA256 {
			return nil, from, &ChecksumError{What: from, Got: got, Want: c.Source.SHA256}
		}
		return b, from, nil
	}
	return nil, "", fmt.Errorf("upstream S1Hand.tif not found in %s: %w", opts.Source, errors.Join(errs...))
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// fetch reads one source-relative file from a directory or base URL. A
// missing file wraps os.ErrNotExist.
func fetch(ctx context.Context, opts Options, rel string) ([]byte, string, error) {
	if !isURL(opts.Source) {
		p := filepath.Join(opts.Source, filepath.FromSlash(rel))
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, p, fmt.Errorf("reading %s: %w", p, err)
		}
		return b, p, nil
	}
	u, err := url.Parse(opts.Source)
	if err != nil {
		return nil, opts.Source, fmt.Errorf("source URL %q: %w", opts.Source, err)
	}
	u.Path = path.Join(u.Path, rel)
	from := u.String()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, from, nil)
	if err != nil {
		return nil, from, err
	}
	client := opts.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, from, fmt.Errorf("downloading %s: %w", from, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, from, fmt.Errorf("downloading %s: %s: %w", from, resp.Status, os.ErrNotExist)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, from, fmt.Errorf("downloading %s: %s", from, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxSourceBytes+1))
	if err != nil {
		return nil, from, fmt.Errorf("downloading %s: %w (partial download discarded)", from, err)
	}
	if len(b) > maxSourceBytes {
		return nil, from, fmt.Errorf("downloading %s: larger than %d bytes", from, maxSourceBytes)
	}
	if resp.ContentLength >= 0 && int64(len(b)) != resp.ContentLength {
		return nil, from, fmt.Errorf("downloading %s: got %d of %d bytes (partial download discarded)", from, len(b), resp.ContentLength)
	}
	return b, from, nil
}

// Portable derives S1Portable.tif from S1Hand.tif bytes: every band is
// read as float32, NaN becomes -9999 and the nodata tag says -9999; width,
// height, band count and names, CRS and transform are copied and every
// finite pixel is unchanged. A finite pixel already equal to -9999 would be
// ambiguous and is an error. The output is DEFLATE-compressed with the
// floating-point predictor in 256-pixel tiles; its bytes depend only on the
// input pixels and georeferencing.
func Portable(s1hand []byte) ([]byte, error) {
	ds, err := raster.OpenReaderAt(bytes.NewReader(s1hand), int64(len(s1hand)))
	if err != nil {
		return nil, err
	}
	if ds.DataType() != raster.Float32 {
		return nil, fmt.Errorf("S1Hand is %s, expected float32", ds.DataType())
	}
	t, ok := ds.Transform()
	if !ok || ds.EPSG() == 0 {
		return nil, errors.New("S1Hand has no georeferencing")
	}
	if nd, ok := ds.NoData(); ok && !math.IsNaN(nd) && nd != PortableNoData {
		return nil, fmt.Errorf("S1Hand declares nodata %v; only NaN (or -9999) is converted", nd)
	}
	var bands []*raster.Band
	var names []string
	for b := 1; b <= ds.Count(); b++ {
		band, err := ds.ReadBand(context.Background(), b)
		if err != nil {
			return nil, fmt.Errorf("S1Hand band %d: %w", b, err)
		}
		src := band.Data.([]float32)
		out, err := raster.NewBand(band.Width, band.Height, raster.Float32)
		if err != nil {
			return nil, err
		}
		dst := out.Data.([]float32)
		for i, v := range src {
			switch {
			case math.IsNaN(float64(v)):
				dst[i] = PortableNoData
			case v == PortableNoData:
				return nil, fmt.Errorf("S1Hand band %d pixel %d is a finite -9999, which would read as nodata", b, i)
			default:
				dst[i] = v
			}
		}
		bands = append(bands, out)
		names = append(names, ds.BandDescription(b))
	}
	nd := float64(PortableNoData)
	var buf bytes.Buffer
	err = raster.Write(&buf, bands, raster.WriteOptions{
		Compression: "deflate", Predictor: 3, TileSize: 256, NoData: &nd,
		EPSG: ds.EPSG(), Transform: t, BandDescriptions: names,
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory, renamed only once complete and synced.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("hydrate: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644, true); err != nil {
		return fmt.Errorf("hydrate: writing %s: %w", path, err)
	}
	return nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
