package sen1flood

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/geodisaster/engine/workers"
)

// FloodComparison is CompareSources(criterion=overlap_vs_outside_reference)'s
// payload: the predicted-flood pixels partitioned by the JRC known-water
// reference.
type FloodComparison struct {
	// Mask is the compared prediction; Ranking is the causal input when
	// the comparison came from rank_n (type 43).
	Mask    *FloodMask
	Ranking *FloodRanking
	// Reference is the known-water raster's path.
	Reference string
	// KnownWater counts reference pixels equal to 1.
	KnownWater int
	// Overlap counts prediction & JRC == 1; Outside prediction & JRC != 1.
	Overlap, Outside int
}

// OverlapPercentage is 100*overlap/predicted flood (0 for an empty
// prediction).
func (c *FloodComparison) OverlapPercentage() float64 { return sen1Percent(c.Overlap, c.Mask.Flood) }

// OutsidePercentage is 100*outside/predicted flood (0 for an empty
// prediction).
func (c *FloodComparison) OutsidePercentage() float64 { return sen1Percent(c.Outside, c.Mask.Flood) }

// compareKnownWater implements CompareSources(reference=known_water,
// criterion=overlap_vs_outside_reference) (spec types 42 and 43). It
// consumes the current prediction (flood_n) or the ranking built on it
// (rank_n), reads the JRC raster declared in the prediction's work context
// and requires the identical shape, CRS and transform. Valid JRC values are
// 0 and 1 plus the declared nodata; anything else is an error. Overlap is
// prediction & JRC==1 and outside is prediction & JRC!=1, so the two counts
// partition the predicted-flood pixels. An all-zero reference is a valid
// zero overlap.
func compareKnownWater(env workers.Env, a workers.Args) (*workers.Result, error) {
	h, err := env.Open(a.String("input"))
	if err != nil {
		return nil, err
	}
	cmp := &FloodComparison{}
	var payload any
	if h.Result != nil {
		payload = h.Result.Payload
	}
	switch p := payload.(type) {
	case *FloodMask:
		cmp.Mask = p
	case *FloodRanking:
		cmp.Ranking, cmp.Mask = p, p.Report.Mask
	default:
		return nil, a.Errorf("input", "%s is a %s handle; the known-water comparison takes flood_n (MapFlood) or rank_n (RankRegions)", h.Name, h.Kind)
	}
	m := cmp.Mask
	ref, ok := m.Work.Scenes["reference"]
	if !ok {
		return nil, a.Errorf("reference", "the prediction's work context (mode %s) declares no known-water reference", m.Work.Mode)
	}
	rf, err := sen1Raster(ref)
	if err != nil {
		return nil, err
	}
	band, info, err := env.Band(rf.Path, 1)
	if err != nil {
		return nil, err
	}
	if err := workers.CheckSameGrid("the prediction", m.Info, rf.Path, info); err != nil {
		return nil, fmt.Errorf("CompareSources: the known-water raster is not on the prediction's grid: %w", err)
	}
	cmp.Reference = rf.Path
	n := info.Width * info.Height
	isNoData := func(v float64) bool {
		return info.HasNoData && (v == info.NoData || (math.IsNaN(info.NoData) && math.IsNaN(v)))
	}
	badValue := func(i int, v float64) error {
		return fmt.Errorf("CompareSources: %s pixel %d (row %d, col %d) has value %v; known water holds only 0, 1 and the declared nodata", rf.Path, i, i/info.Width, i%info.Width, v)
	}
	if d, ok := band.Data.([]uint8); ok && len(d) == n {
		// uint8 (the JRC rasters): classify the 256 values once.
		var class [256]uint8
		for v := range class {
			f := float64(v)
			switch {
			case isNoData(f):
				class[v] = sen1JRCNoData
			case f == 0:
				class[v] = sen1JRCDry
			case f == 1:
				class[v] = sen1JRCWater
			default:
				class[v] = sen1JRCBad
			}
		}
		if i, ok := sen1CountKnownWater(cmp, d, m.Mask[:n], &class); !ok {
			return nil, badValue(i, float64(d[i]))
		}
	} else {
		for i := 0; i < n; i++ {
			v := band.At(i)
			isND := isNoData(v)
			if !isND && v != 0 && v != 1 {
				return nil, badValue(i, v)
			}
			water := !isND && v == 1
			if water {
				cmp.KnownWater++
			}
			if m.Mask[i] == MaskFlood {
				if water {
					cmp.Overlap++
				} else {
					cmp.Outside++
				}
			}
		}
	}
	if cmp.Overlap+cmp.Outside != m.Flood {
		return nil, fmt.Errorf("CompareSources: overlap %d + outside %d != predicted flood %d", cmp.Overlap, cmp.Outside, m.Flood)
	}
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "overlap_vs_outside_reference", "reference": "known_water", "reference_path": rf.Path,
			"grid_check":             "identical shape, CRS and transform",
			"predicted_flood_pixels": m.Flood, "known_water_pixels": cmp.KnownWater,
			"overlap_pixels": cmp.Overlap, "outside_reference_pixels": cmp.Outside,
			"overlap_percentage":           workers.RoundHalfEven(cmp.OverlapPercentage(), 6),
			"outside_reference_percentage": workers.RoundHalfEven(cmp.OutsidePercentage(), 6),
			"semantics":                    "JRC is contextual known water, not flood ground truth; outside-reference pixels are not called new or erroneous flood",
		},
		Payload: cmp,
	}, nil
}

// Classes of JRC values (CompareSources).
const (
	sen1JRCDry = iota
	sen1JRCWater
	sen1JRCNoData
	sen1JRCBad
)

// sen1CountKnownWater adds to cmp the known-water pixels of the uint8
// reference d (its values classified by class) and the partition of the
// predicted-flood pixels of mask into overlap and outside. It stops at the
// first value of class sen1JRCBad and returns its index and false.
//
// Eight pixels go at a time when their reference values are all 0 and 1
// and those classify as dry and water: the water bytes are then the word
// itself, the flood bytes come from the mask, and the counts are bit
// counts. Other words go pixel by pixel.
func sen1CountKnownWater(cmp *FloodComparison, d, mask []uint8, class *[256]uint8) (int, bool) {
	mask = mask[:len(d)]
	slow := func(i, j int) (int, bool) {
		for ; i < j; i++ {
			c := class[d[i]]
			if c == sen1JRCBad {
				return i, false
			}
			if c == sen1JRCWater {
				cmp.KnownWater++
			}
			if mask[i] == MaskFlood {
				if c == sen1JRCWater {
					cmp.Overlap++
				} else {
					cmp.Outside++
				}
			}
		}
		return 0, true
	}
	fast := class[0] == sen1JRCDry && class[1] == sen1JRCWater
	i := 0
	for ; i+8 <= len(d); i += 8 {
		x := binary.LittleEndian.Uint64(d[i:])
		if !fast || x&^sen1Lanes != 0 {
			if at, ok := slow(i, i+8); !ok {
				return at, false
			}
			continue
		}
		flood := sen1ZeroBytes(binary.LittleEndian.Uint64(mask[i:])^sen1Lanes*uint64(MaskFlood)) >> 7
		ov := bits.OnesCount64(flood & x)
		cmp.KnownWater += bits.OnesCount64(x)
		cmp.Overlap += ov
		cmp.Outside += bits.OnesCount64(flood) - ov
	}
	return slow(i, len(d))
}
