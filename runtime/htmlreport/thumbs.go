package htmlreport

import (
	"bytes"
	"context"
	"encoding/base64"
	"html/template"
	"image"
	"image/color"
	"image/color/palette"
	"image/png"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/image/draw"

	"github.com/geodisaster/engine/raster"
)

// ThumbnailOptions caps the artifact previews. Zero fields take the
// defaults, which keep the page well under 5 MB for the full corpus.
type ThumbnailOptions struct {
	// PerType is the most previews per question type (default 3).
	PerType int
	// MaxSide is a preview's longest side in pixels (default 160).
	MaxSide int
	// MaxBytes bounds the previews' encoded data URIs in total
	// (default 1 MB).
	MaxBytes int
}

func (o ThumbnailOptions) withDefaults() ThumbnailOptions {
	if o.PerType <= 0 {
		o.PerType = 3
	}
	if o.MaxSide <= 0 {
		o.MaxSide = 160
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 1 << 20
	}
	return o
}

// ArtifactSource names a record whose generated artifacts may be
// previewed.
type ArtifactSource struct {
	// ID is the record id; its artifacts are under
	// artifacts/<ArtifactDirName(ID)>/.
	ID string
	// QuestionType groups the previews.
	QuestionType string
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// ArtifactDirName is the directory under artifacts/ that holds a record's
// generated files (the runtime's naming: every character outside
// [A-Za-z0-9._-] becomes '_').
func ArtifactDirName(id string) string { return unsafeChars.ReplaceAllString(id, "_") }

// minDisplaySide is the smallest longest side a preview is shown at.
const minDisplaySide = 96

// maxSourcePixels bounds the artifacts decoded for a preview.
const maxSourcePixels = 64 << 20

// Thumbnails previews PNG maps and overlays and single-band integer GeoTIFF
// masks under outDir/artifacts/<ArtifactDirName(id)>/ of the given records:
// per question type (in the order types first appear in srcs), at most
// opt.PerType previews, one of each kind of file first (files named alike
// up to a trailing digest or number are one kind), then further files in
// record and name order. It returns the previews and how many candidate
// files got none. A file that cannot be decoded is skipped. The result
// depends only on the files.
func Thumbnails(ctx context.Context, outDir string, srcs []ArtifactSource, opt ThumbnailOptions) ([]Thumbnail, int, error) {
	opt = opt.withDefaults()
	var order []string
	byType := map[string][]candidate{}
	for _, s := range srcs {
		dir := ArtifactDirName(s.ID)
		ents, err := os.ReadDir(filepath.Join(outDir, "artifacts", dir))
		if err != nil {
			continue
		}
		if _, seen := byType[s.QuestionType]; !seen {
			order = append(order, s.QuestionType)
			byType[s.QuestionType] = nil
		}
		for _, e := range ents {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || kindOf(e.Name()) == "" {
				continue
			}
			byType[s.QuestionType] = append(byType[s.QuestionType], candidate{src: s, dir: dir, name: e.Name()})
		}
	}
	var out []Thumbnail
	omitted, used := 0, 0
	for _, qt := range order {
		cands := byType[qt]
		done := make([]bool, len(cands))
		kinds := map[string]bool{}
		n := 0
		try := func(i int) {
			if err := ctx.Err(); err != nil || n >= opt.PerType || done[i] {
				return
			}
			done[i] = true
			c := cands[i]
			th, err := makeThumb(filepath.Join(outDir, "artifacts", c.dir, c.name), opt.MaxSide)
			if err != nil || used+len(th.DataURI) > opt.MaxBytes {
				return
			}
			th.ID, th.QuestionType, th.Name = c.src.ID, c.src.QuestionType, c.name
			th.Href = path.Join("artifacts", url.PathEscape(c.dir), url.PathEscape(c.name))
			used += len(th.DataURI)
			kinds[kindKey(c.name)] = true
			out = append(out, th)
			n++
		}
		for i, c := range cands {
			if !kinds[kindKey(c.name)] {
				try(i)
			}
		}
		for i := range cands {
			try(i)
		}
		omitted += len(cands) - n
	}
	return out, omitted, ctx.Err()
}

type candidate struct {
	src       ArtifactSource
	dir, name string
}

var trailingID = regexp.MustCompile(`[_-]?([0-9a-f]{6,}|[0-9]+)$`)

// kindKey strips the extension and a trailing digest or number.
func kindKey(name string) string {
	ext := filepath.Ext(name)
	return trailingID.ReplaceAllString(strings.TrimSuffix(name, ext), "") + ext
}

// kindOf names what a previewable file is, or "" when it is not one.
func kindOf(name string) string {
	lower := strings.ToLower(name)
	switch ext := filepath.Ext(lower); {
	case ext == ".png" && strings.Contains(lower, "diagnostic"):
		return "diagnostic map"
	case ext == ".png" && strings.Contains(lower, "overlay"):
		return "route overlay"
	case ext == ".png":
		return "image"
	case (ext == ".tif" || ext == ".tiff") && strings.Contains(lower, "mask"):
		return "mask"
	case ext == ".tif" || ext == ".tiff":
		return "raster"
	}
	return ""
}

// makeThumb decodes and downscales one artifact.
func makeThumb(file string, maxSide int) (Thumbnail, error) {
	kind := kindOf(filepath.Base(file))
	var img image.Image
	var sw, sh int
	var err error
	if strings.HasSuffix(strings.ToLower(file), ".png") {
		img, sw, sh, err = pngThumb(file, maxSide)
	} else {
		img, sw, sh, err = maskThumb(file, maxSide)
	}
	if err != nil {
		return Thumbnail{}, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return Thumbnail{}, err
	}
	// A tiny artifact is shown enlarged by a whole factor (pixelated).
	b := img.Bounds()
	k := 1
	if m := max(b.Dx(), b.Dy()); m < minDisplaySide {
		k = (minDisplaySide + m - 1) / m
	}
	return Thumbnail{
		Kind:    kind,
		DataURI: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())),
		Width:   k * b.Dx(), Height: k * b.Dy(), SourceWidth: sw, SourceHeight: sh,
	}, nil
}

// fit scales w x h to at most maxSide on its longest side.
func fit(w, h, maxSide int) (int, int) {
	if w <= maxSide && h <= maxSide {
		return w, h
	}
	if w >= h {
		return maxSide, max(1, (h*maxSide+w/2)/w)
	}
	return max(1, (w*maxSide+h/2)/h), maxSide
}

var errTooLarge = errorString("artifact too large to preview")

type errorString string

func (e errorString) Error() string { return string(e) }

// pngThumb downscales a PNG bilinearly onto the Plan 9 palette (small
// files, flat map colours kept).
func pngThumb(file string, maxSide int) (image.Image, int, int, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		return nil, 0, 0, err
	}
	if cfg.Width*cfg.Height > maxSourcePixels {
		return nil, 0, 0, errTooLarge
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, 0, 0, err
	}
	src, err := png.Decode(f)
	if err != nil {
		return nil, 0, 0, err
	}
	w, h := fit(cfg.Width, cfg.Height, maxSide)
	var rgba *image.RGBA
	if s, ok := src.(*image.RGBA); ok && (w < s.Rect.Dx() || h < s.Rect.Dy()) {
		rgba = boxOverWhite(s, w, h)
	} else {
		rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(rgba, rgba.Bounds(), image.White, image.Point{}, draw.Src)
		draw.BiLinear.Scale(rgba, rgba.Bounds(), src, src.Bounds(), draw.Over, nil)
	}
	return toPlan9(rgba), cfg.Width, cfg.Height, nil
}

// boxOverWhite shrinks src to w x h (no larger than src) by averaging
// each output pixel's block of source pixels (the blocks of maskThumb),
// composited over white. Most previews are RGB PNGs (the routing and
// flood overlays); the box filter reads each source pixel once, where
// draw.BiLinear's kernel, widened by the scale factor, spent 40% of a
// preview's time.
func boxOverWhite(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	// Output column x covers source columns [x0[x], x1[x]).
	x0, x1 := make([]int, w), make([]int, w)
	for x := range w {
		x0[x], x1[x] = x*sw/w, max((x+1)*sw/w, x*sw/w+1)
	}
	sums := make([][4]uint32, w)
	for y := 0; y < h; y++ {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		clear(sums)
		for sy := y0; sy < y1; sy++ {
			row := src.Pix[src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+sy):][:4*sw]
			for x := range sums {
				acc := &sums[x]
				for i := 4 * x0[x]; i < 4*x1[x]; i += 4 {
					acc[0] += uint32(row[i])
					acc[1] += uint32(row[i+1])
					acc[2] += uint32(row[i+2])
					acc[3] += uint32(row[i+3])
				}
			}
		}
		dst := out.Pix[out.PixOffset(0, y):][:4*w]
		for x, acc := range sums {
			n := uint32((x1[x] - x0[x]) * (y1 - y0))
			a := (acc[3] + n/2) / n
			// Premultiplied colour over white: c + (255 - a).
			for c := 0; c < 3; c++ {
				dst[4*x+c] = uint8(min((acc[c]+n/2)/n+255-a, 255))
			}
			dst[4*x+3] = 255
		}
	}
	return out
}

// toPlan9 maps img onto the Plan 9 palette, each pixel to its nearest
// colour as draw.Draw(dst, r, img, p, draw.Src) picks it (the first of the
// palette's closest in squared 16-bit RGBA distance, color.Palette.Index),
// remembering each distinct colour's index: a map preview has few, and the
// search over 256 colours per pixel was 40% of making a preview.
func toPlan9(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, palette.Plan9)
	seen := map[uint32]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := img.Pix[img.PixOffset(b.Min.X, y):][:4*b.Dx()]
		dst := out.Pix[out.PixOffset(b.Min.X, y):][:b.Dx()]
		for x := range dst {
			p := src[4*x : 4*x+4 : 4*x+4]
			key := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
			idx, ok := seen[key]
			if !ok {
				idx = uint8(color.Palette(palette.Plan9).Index(color.RGBA{p[0], p[1], p[2], p[3]}))
				seen[key] = idx
			}
			dst[x] = idx
		}
	}
	return out
}

// maskPalette colours a mask: 0 white, nodata light grey, classes dark.
func maskPalette() color.Palette {
	return color.Palette{
		color.White,
		color.Gray{Y: 0xd0},
		color.RGBA{0x1f, 0x3f, 0x7a, 0xff},
		color.RGBA{0xb8, 0x3b, 0x1e, 0xff},
		color.RGBA{0x2e, 0x7d, 0x32, 0xff},
		color.RGBA{0x8e, 0x24, 0xaa, 0xff},
		color.RGBA{0xc7, 0x8a, 0x00, 0xff},
		color.RGBA{0x00, 0x83, 0x8f, 0xff},
	}
}

// maskThumb renders band 1 of a single-band integer GeoTIFF: each preview
// pixel shows the largest value of the source block it covers (so small
// patches stay visible), 0 white, nodata grey, other values dark colours.
func maskThumb(file string, maxSide int) (image.Image, int, int, error) {
	ds, err := raster.Open(file)
	if err != nil {
		return nil, 0, 0, err
	}
	defer ds.Close()
	if ds.Count() != 1 || ds.DataType().IsFloat() {
		return nil, 0, 0, errorString("not a single-band integer raster")
	}
	sw, sh := ds.Width(), ds.Height()
	if sw*sh > maxSourcePixels || sw == 0 || sh == 0 {
		return nil, 0, 0, errTooLarge
	}
	band, err := ds.ReadBand(context.Background(), 1)
	if err != nil {
		return nil, 0, 0, err
	}
	nodata, hasNoData := ds.NoData()
	vals := band.Float64s()
	w, h := fit(sw, sh, maxSide)
	// Distinct non-zero values, in order, pick the colours.
	seen := map[float64]bool{}
	var classes []float64
	for _, v := range vals {
		if v != 0 && !(hasNoData && v == nodata) && !seen[v] && len(classes) < 64 {
			seen[v] = true
			classes = append(classes, v)
		}
	}
	sort.Float64s(classes)
	pal := maskPalette()
	colourOf := map[float64]uint8{}
	for i, v := range classes {
		colourOf[v] = uint8(2 + i%(len(pal)-2))
	}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := 0; y < h; y++ {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := 0; x < w; x++ {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			idx, best, found := uint8(1), 0.0, false
			for yy := y0; yy < y1; yy++ {
				for xx := x0; xx < x1; xx++ {
					v := vals[yy*sw+xx]
					if hasNoData && v == nodata {
						continue
					}
					if !found || v > best {
						best, found = v, true
					}
				}
			}
			if found {
				idx = 0
				if c, ok := colourOf[best]; ok {
					idx = c
				} else if best != 0 {
					idx = 2
				}
			}
			img.SetColorIndex(x, y, idx)
		}
	}
	return img, sw, sh, nil
}
