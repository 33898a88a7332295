package sen1flood

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// RealChips lists the chips RealCorpus derives from a
// real S1Portable.tif: the chip itself and deterministic variants (flips,
// a circular shift, a crop with its shifted transform, injected nodata).
var RealChips = []string{"original", "flipud", "fliplr", "shift", "crop", "nodata"}

// RealCorpus writes records of the five Sen1Floods11 types over a
// real hydrated S1Portable.tif (chip name sample) and its deterministic
// variants into dir (records.jsonl plus the files), with gold answers
// computed from the arrays. The Sentinel-1 bytes of the "original" chip are
// the hydrated file's bytes re-encoded by the same deterministic writer.
// The known-water rasters are derived from the chip itself (VV below
// -20 dB in the western half; all zero for the "nodata" variant), since
// the sample ships no JRCWaterHand.tif. It returns the SHA-256 of
// records.jsonl.
func RealCorpus(ctx context.Context, dir, sample string, portable []byte) (string, error) {
	base, err := decodeS1Chip(portable)
	if err != nil {
		return "", err
	}
	var recs []workers.Record
	files := map[string]bool{}
	for k, variant := range RealChips {
		chip := deriveS1Chip(base, variant)
		name := sample
		if variant != "original" {
			name = sample + "_" + variant
		}
		rs, err := realChipRecords(ctx, dir, sample, name, chip, uint64(k), files,
			"sen1_flood_a", "sen1_flood_b", "sen1_flood_c", "sen1_flood_d", "sen1_flood_e")
		if err != nil {
			return "", err
		}
		recs = append(recs, rs...)
	}
	return writeRealChipRecords(dir, recs)
}

// realChipRecords builds the records of qtypes over one derived chip
// (named name, from the real chip sample), each from its own random
// stream (stream, type index), writing its files into dir.
func realChipRecords(ctx context.Context, dir, sample, name string, chip *S1Chip, stream uint64, files map[string]bool, qtypes ...string) ([]workers.Record, error) {
	var recs []workers.Record
	for n, qtype := range qtypes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := core.NewGen(dir, true, false, rand.New(rand.NewPCG(stream, uint64(n))), files)
		rec, err := sen1Record(g, qtype, name, chip)
		if err != nil {
			return nil, fmt.Errorf("real chip %s %s: %w", name, qtype, err)
		}
		rec.QuestionType, rec.Family, rec.Split, rec.TrainingWeight, rec.SplitGroupID = qtype, "sen1_flood", "test", 1, sample
		if err := rec.Validate(true); err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// writeRealChipRecords writes dir/records.jsonl and returns its SHA-256.
func writeRealChipRecords(dir string, recs []workers.Record) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return core.WriteJSONL(filepath.Join(dir, "records.jsonl"), recs)
}

// decodeS1Chip reads a two-band S1Portable.tif into a chip (no JRC yet).
func decodeS1Chip(b []byte) (*S1Chip, error) {
	ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	if ds.Count() != 2 || ds.DataType() != raster.Float32 {
		return nil, fmt.Errorf("S1Portable has %d %s bands, expected two float32", ds.Count(), ds.DataType())
	}
	t, ok := ds.Transform()
	if !ok {
		return nil, fmt.Errorf("S1Portable has no transform")
	}
	nd, ok := ds.NoData()
	if !ok || nd != -9999 {
		return nil, fmt.Errorf("S1Portable nodata is %v, expected -9999", nd)
	}
	c := &S1Chip{W: ds.Width(), H: ds.Height(), T: t, S1NoData: nd}
	for k := 1; k <= 2; k++ {
		band, err := ds.ReadBand(context.Background(), k)
		if err != nil {
			return nil, err
		}
		d := append([]float32(nil), band.Data.([]float32)...)
		if k == 1 {
			c.VV = d
		} else {
			c.VH = d
		}
	}
	return c, nil
}

// variantLayout returns the shape of a variant of a w x h chip, the
// source pixel its crop starts at (0, 0 without one) and the source index
// of each of its pixels.
func variantLayout(variant string, w, h int) (cw, ch, c0, r0 int, from func(r, col int) int) {
	from = func(r, col int) int { return r*w + col }
	switch variant {
	case "crop":
		c0, r0 = w/8, h/4
		from = func(r, col int) int { return (r+r0)*w + col + c0 }
		return w - w/4, h / 2, c0, r0, from
	case "flipud":
		from = func(r, col int) int { return (h-1-r)*w + col }
	case "fliplr":
		from = func(r, col int) int { return r*w + w - 1 - col }
	case "shift":
		from = func(r, col int) int { return ((r+37)%h)*w + (col+53)%w }
	}
	return w, h, 0, 0, from
}

// cropTransform returns t with its origin moved to source pixel (c0, r0).
func cropTransform(t crs.Affine, c0, r0 int) crs.Affine {
	if c0 != 0 || r0 != 0 {
		t[2] += float64(float64(c0) * t[0])
		t[5] += float64(float64(r0) * t[4])
	}
	return t
}

// deriveS1Chip returns a deterministic variant of a chip with its
// known-water raster.
func deriveS1Chip(src *S1Chip, variant string) *S1Chip {
	cw, ch, c0, r0, from := variantLayout(variant, src.W, src.H)
	c := &S1Chip{W: cw, H: ch, T: cropTransform(src.T, c0, r0), S1NoData: src.S1NoData, VV: make([]float32, cw*ch), VH: make([]float32, cw*ch)}
	for r := 0; r < c.H; r++ {
		for col := 0; col < c.W; col++ {
			i := from(r, col)
			c.VV[r*c.W+col], c.VH[r*c.W+col] = src.VV[i], src.VH[i]
		}
	}
	c.JRC = make([]uint8, c.W*c.H)
	if variant == "nodata" {
		// A nodata block, a VV-only stripe and a VH-only column.
		for r := c.H / 5; r < c.H/3; r++ {
			for col := c.W / 2; col < c.W*3/4; col++ {
				c.VV[r*c.W+col], c.VH[r*c.W+col] = -9999, -9999
			}
		}
		for col := 0; col < c.W; col++ {
			c.VV[(c.H-7)*c.W+col] = -9999
		}
		for r := 0; r < c.H; r++ {
			c.VH[r*c.W+11] = -9999
		}
		return c
	}
	for r := 0; r < c.H; r++ {
		for col := 0; col < c.W/2; col++ {
			if v := c.VV[r*c.W+col]; v != -9999 && v < -20 {
				c.JRC[r*c.W+col] = 1
			}
		}
	}
	return c
}
