package sen1flood

import (
	"bytes"
	"context"
	"fmt"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// LabelGridChips lists the chips LabelGridCorpus derives
// from the real chip: the chip itself and the deterministic variants of
// RealChips, each with the hand labels transformed alike.
var LabelGridChips = RealChips

// LabelGridCorpus writes records of types 42 and 43 (sen1_flood_d
// and sen1_flood_e) over a real hydrated S1Portable.tif and its variants
// into dir, whose known-water rasters come from the chip's real hand
// labels (LabelHand.tif: 1 water is known water, 0 is not, -1 is declared
// nodata 255) and keep LabelHand's own transform: Sentinel-1 and hand
// labels of one chip were exported with pixel sizes that differ by float
// noise (8.983152841195215e-05 and 8.983152841195184e-05 degrees on
// Spain_7370579), as a known-water raster exported like the hand labels
// is. A variant moves the labels as it moves the chip; a crop moves
// LabelHand's origin by its own pixel size. Gold answers are computed from
// the arrays. It returns the SHA-256 of records.jsonl.
func LabelGridCorpus(ctx context.Context, dir, sample string, portable, labelHand []byte) (string, error) {
	base, err := decodeS1Chip(portable)
	if err != nil {
		return "", err
	}
	ds, err := raster.OpenReaderAt(bytes.NewReader(labelHand), int64(len(labelHand)))
	if err != nil {
		return "", fmt.Errorf("LabelHand: %w", err)
	}
	lt, ok := ds.Transform()
	if !ok || ds.Width() != base.W || ds.Height() != base.H || ds.DataType() != raster.Int16 || ds.EPSG() != 4326 {
		return "", fmt.Errorf("LabelHand is %dx%d %s EPSG:%d (transform %v), not an int16 EPSG:4326 label of the %dx%d chip",
			ds.Width(), ds.Height(), ds.DataType(), ds.EPSG(), ok, base.W, base.H)
	}
	lb, err := ds.ReadBand(ctx, 1)
	if err != nil {
		return "", fmt.Errorf("LabelHand: %w", err)
	}
	labels := lb.Data.([]int16)
	nd := 255.0
	var recs []workers.Record
	files := map[string]bool{}
	for k, variant := range LabelGridChips {
		chip := deriveS1Chip(base, variant)
		_, _, c0, r0, from := variantLayout(variant, base.W, base.H)
		jt := cropTransform(lt, c0, r0)
		chip.JRCTransform, chip.JRCNoData = &jt, &nd
		chip.JRC = make([]uint8, chip.W*chip.H)
		for r := 0; r < chip.H; r++ {
			for col := 0; col < chip.W; col++ {
				switch v := labels[from(r, col)]; v {
				case 1:
					chip.JRC[r*chip.W+col] = 1
				case 0:
				case -1:
					chip.JRC[r*chip.W+col] = 255
				default:
					return "", fmt.Errorf("LabelHand pixel %d has value %d (expected -1, 0 or 1)", from(r, col), v)
				}
			}
		}
		name := sample + "_labelgrid"
		if variant != "original" {
			name += "_" + variant
		}
		rs, err := realChipRecords(ctx, dir, sample, name, chip, uint64(100+k), files, "sen1_flood_d", "sen1_flood_e")
		if err != nil {
			return "", err
		}
		recs = append(recs, rs...)
	}
	return writeRealChipRecords(dir, recs)
}
