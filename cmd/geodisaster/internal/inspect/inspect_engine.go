package inspect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/internal/cfmt"
	"github.com/geodisaster/engine/raster"
)

// The engine's own inspect document (inspect --engine): rasterio-order
// transform, "EPSG:n", band_sha256 (SHA-256 of each band's samples,
// little-endian, row-major) under --checksum. Scripts rely on it byte for
// byte; the gdalinfo form is in inspect_gdal.go.

// jsonFloat marshals a float64 as a JSON number, or as the strings "nan",
// "inf" and "-inf", which JSON numbers cannot express.
type jsonFloat float64

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"nan"`), nil
	case math.IsInf(v, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-inf"`), nil
	}
	return json.Marshal(v)
}

// engineStats is one band's statistics in inspect's output.
type engineStats struct {
	Minimum      jsonFloat         `json:"minimum"`
	Maximum      jsonFloat         `json:"maximum"`
	Mean         jsonFloat         `json:"mean"`
	StdDev       jsonFloat         `json:"stddev"`
	ValidPercent *jsonFloat        `json:"valid_percent"`
	ValidCount   *int64            `json:"valid_count,omitempty"`
	Source       string            `json:"source"` // "computed" or "stored"
	Metadata     map[string]string `json:"metadata"`
}

// engineBand is one band in inspect's output.
type engineBand struct {
	Band        int          `json:"band"`
	Description string       `json:"description"`
	DType       string       `json:"dtype"`
	NoData      any          `json:"nodata"`
	Block       [2]int       `json:"block"`
	SHA256      string       `json:"sha256,omitempty"`
	Stats       *engineStats `json:"stats,omitempty"`
	StatsError  string       `json:"stats_error,omitempty"`
}

// engineReport is inspect's JSON document.
type engineReport struct {
	File        string       `json:"file"`
	Driver      string       `json:"driver"`
	Width       int          `json:"width"`
	Height      int          `json:"height"`
	Size        [2]int       `json:"size"`
	Count       int          `json:"count"`
	DType       string       `json:"dtype"`
	Transform   []jsonFloat  `json:"transform"`
	CRS         *string      `json:"crs"`
	EPSG        int          `json:"epsg"`
	NoData      any          `json:"nodata"`
	Blocks      [2]int       `json:"blocks"`
	Tiled       bool         `json:"tiled"`
	Compression string       `json:"compression"`
	Predictor   int          `json:"predictor"`
	Interleave  string       `json:"interleave"`
	BigTIFF     bool         `json:"bigtiff"`
	ByteOrder   string       `json:"byte_order"`
	Overviews   int          `json:"overviews"`
	BandSHA256  []string     `json:"band_sha256,omitempty"`
	Bands       []engineBand `json:"bands"`
}

// nodataValue returns the JSON form of a nodata value.
func nodataValue(v float64, ok bool) any {
	if !ok {
		return nil
	}
	return jsonFloat(v)
}

// engineReportOf opens path and builds the report, decoding pixels only for
// --checksum and --stats.
func engineReportOf(ctx context.Context, path string, checksum, stats, recompute bool) (*engineReport, error) {
	d, err := raster.Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	st := d.Structure()
	nd, hasND := d.NoData()
	rep := &engineReport{
		File: path, Driver: "GTiff",
		Width: d.Width(), Height: d.Height(), Size: [2]int{d.Width(), d.Height()},
		Count: d.Count(), DType: d.DataType().String(),
		EPSG:   d.EPSG(),
		NoData: nodataValue(nd, hasND),
		Blocks: [2]int{st.BlockWidth, st.BlockHeight}, Tiled: st.Tiled,
		Compression: st.Compression, Predictor: st.Predictor, Interleave: st.Interleave,
		BigTIFF: st.BigTIFF, ByteOrder: "little", Overviews: st.Overviews,
	}
	if !st.LittleEndian {
		rep.ByteOrder = "big"
	}
	if t, ok := d.Transform(); ok {
		for _, v := range t {
			rep.Transform = append(rep.Transform, jsonFloat(v))
		}
	}
	if rep.EPSG != 0 {
		s := fmt.Sprintf("EPSG:%d", rep.EPSG)
		rep.CRS = &s
	}
	for b := 1; b <= d.Count(); b++ {
		rep.Bands = append(rep.Bands, engineBand{Band: b, Description: d.BandDescription(b), DType: rep.DType,
			NoData: rep.NoData, Block: rep.Blocks})
	}
	if !checksum && !stats {
		return rep, nil
	}
	var statOpts []raster.StatisticsOption
	if !recompute {
		statOpts = append(statOpts, raster.UseStored())
	}
	// Pixel-interleaved files are decoded once for all bands; band files
	// one band at a time to bound memory. Statistics alone stream the
	// band without holding it.
	var list []int
	for b := 1; b <= d.Count(); b++ {
		list = append(list, b)
	}
	pixelFile := st.Interleave == "PIXEL" && d.Count() > 1
	if checksum && pixelFile {
		bands, err := d.ReadBands(ctx, list, raster.Window{Width: d.Width(), Height: d.Height()})
		if err != nil {
			return nil, err
		}
		for i, band := range bands {
			if err := engineBandPixels(ctx, d, rep, i+1, band, stats, statOpts); err != nil {
				return nil, err
			}
			bands[i] = nil
		}
	} else {
		for _, b := range list {
			var band *raster.Band
			if checksum {
				var err error
				if band, err = d.ReadBand(ctx, b); err != nil {
					return nil, err
				}
			}
			if err := engineBandPixels(ctx, d, rep, b, band, stats, statOpts); err != nil {
				return nil, err
			}
		}
	}
	if checksum {
		for _, ib := range rep.Bands {
			rep.BandSHA256 = append(rep.BandSHA256, ib.SHA256)
		}
	}
	return rep, nil
}

// engineBandPixels fills band b's checksum (when its pixels were read)
// and statistics.
func engineBandPixels(ctx context.Context, d *raster.Dataset, rep *engineReport, b int, band *raster.Band, stats bool, opts []raster.StatisticsOption) error {
	ib := &rep.Bands[b-1]
	if band != nil {
		h := sha256.Sum256(raster.LittleEndianBytes(band))
		ib.SHA256 = hex.EncodeToString(h[:])
		opts = append(opts, raster.FromPixels(band))
	}
	if !stats {
		return nil
	}
	s, err := d.Statistics(ctx, b, opts...)
	if err != nil && !errors.Is(err, raster.ErrNoValidPixels) {
		return err
	}
	setInspectStats(ib, s, err)
	return nil
}

// setInspectStats records computed statistics, or the error computing them.
func setInspectStats(ib *engineBand, s raster.Statistics, err error) {
	if err == nil {
		ib.Stats = toInspectStats(s)
		return
	}
	ib.StatsError = err.Error()
	if errors.Is(err, raster.ErrNoValidPixels) {
		vp := jsonFloat(s.ValidPercent)
		ib.Stats = &engineStats{Minimum: jsonFloat(math.NaN()), Maximum: jsonFloat(math.NaN()),
			Mean: jsonFloat(math.NaN()), StdDev: jsonFloat(math.NaN()), ValidPercent: &vp,
			ValidCount: &s.Valid, Source: "computed",
			Metadata: map[string]string{"STATISTICS_VALID_PERCENT": cfmt.FormatG(s.ValidPercent, 4)}}
	}
}

// toInspectStats converts raster statistics to the report's form.
func toInspectStats(s raster.Statistics) *engineStats {
	out := &engineStats{Minimum: jsonFloat(s.Min), Maximum: jsonFloat(s.Max), Mean: jsonFloat(s.Mean),
		StdDev: jsonFloat(s.StdDev), Source: "computed", Metadata: s.Metadata()}
	if s.HasValidPercent {
		vp := jsonFloat(s.ValidPercent)
		out.ValidPercent = &vp
	}
	if s.Stored {
		out.Source = "stored"
	} else {
		v := s.Valid
		out.ValidCount = &v
	}
	return out
}

// fmtNoData formats nodata like gdalinfo ("nan", "0", "-9999").
func fmtNoData(v any) string {
	f, ok := v.(jsonFloat)
	if !ok {
		return ""
	}
	if math.IsNaN(float64(f)) {
		return "nan"
	}
	return cfmt.FormatG(float64(f), 18)
}

// writeInspectText prints the report in a gdalinfo-like text layout.
func writeInspectText(w io.Writer, r *engineReport) {
	fmt.Fprintf(w, "Driver: %s/GeoTIFF\n", r.Driver)
	fmt.Fprintf(w, "Files: %s\n", r.File)
	fmt.Fprintf(w, "Size is %d, %d\n", r.Width, r.Height)
	if r.CRS != nil {
		fmt.Fprintf(w, "Coordinate System is %s\n", *r.CRS)
	} else {
		fmt.Fprintln(w, "Coordinate System is unknown")
	}
	if len(r.Transform) == 6 {
		t := r.Transform
		fmt.Fprintf(w, "Origin = (%.15f,%.15f)\n", float64(t[2]), float64(t[5]))
		fmt.Fprintf(w, "Pixel Size = (%.15f,%.15f)\n", float64(t[0]), float64(t[4]))
		fmt.Fprintf(w, "Transform = [%s]\n", joinFloats(t))
	}
	fmt.Fprintln(w, "Image Structure Metadata:")
	fmt.Fprintf(w, "  COMPRESSION=%s\n  INTERLEAVE=%s\n", r.Compression, r.Interleave)
	if r.Predictor != 1 {
		fmt.Fprintf(w, "  PREDICTOR=%d\n", r.Predictor)
	}
	layout := "strips"
	if r.Tiled {
		layout = "tiles"
	}
	fmt.Fprintf(w, "  LAYOUT=%s BIGTIFF=%v BYTE_ORDER=%s OVERVIEWS=%d\n", layout, r.BigTIFF, r.ByteOrder, r.Overviews)
	for _, b := range r.Bands {
		fmt.Fprintf(w, "Band %d Block=%dx%d Type=%s\n", b.Band, b.Block[0], b.Block[1], b.DType)
		if b.Description != "" {
			fmt.Fprintf(w, "  Description = %s\n", b.Description)
		}
		if s := b.Stats; s != nil && b.StatsError == "" {
			fmt.Fprintf(w, "  Minimum=%.3f, Maximum=%.3f, Mean=%.3f, StdDev=%.3f\n",
				float64(s.Minimum), float64(s.Maximum), float64(s.Mean), float64(s.StdDev))
		}
		if b.StatsError != "" {
			fmt.Fprintf(w, "  Statistics: %s\n", b.StatsError)
		}
		if b.NoData != nil {
			fmt.Fprintf(w, "  NoData Value=%s\n", fmtNoData(b.NoData))
		}
		if b.Stats != nil && len(b.Stats.Metadata) > 0 {
			fmt.Fprintln(w, "  Metadata:")
			for _, k := range []string{"STATISTICS_MAXIMUM", "STATISTICS_MEAN", "STATISTICS_MINIMUM", "STATISTICS_STDDEV", "STATISTICS_VALID_PERCENT"} {
				if v, ok := b.Stats.Metadata[k]; ok {
					fmt.Fprintf(w, "    %s=%s\n", k, v)
				}
			}
		}
		if b.SHA256 != "" {
			fmt.Fprintf(w, "  SHA256=%s\n", b.SHA256)
		}
	}
}

func joinFloats(fs []jsonFloat) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = strconv.FormatFloat(float64(f), 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}
