package workers

import (
	"fmt"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/internal/numpy"
)

// GridAreas computes cell areas of a raster grid as the spec's shared rule
// says (section 8): WGS84 ellipsoidal cell areas on geographic grids, the
// affine determinant with the CRS's linear unit on projected grids.
type GridAreas struct {
	// RowArea is the area (m²) of one cell of each row on a geographic
	// grid; nil on a projected grid.
	RowArea []float64
	// PixelArea is the area (m²) of every cell on a projected grid.
	PixelArea float64
	// Method names the rule used: "wgs84_ellipsoidal_cell_area" or
	// "affine_determinant".
	Method string
	width  int
}

// NewGridAreas prepares the cell areas of a raster's grid.
func NewGridAreas(info RasterInfo) (*GridAreas, error) {
	if !info.HasTransform {
		return nil, fmt.Errorf("raster has no geotransform; refusing to assume one")
	}
	if info.EPSG == 0 {
		return nil, fmt.Errorf("raster has no identifiable CRS")
	}
	c, err := crs.FromEPSG(info.EPSG)
	if err != nil {
		return nil, err
	}
	if c.Geographic() {
		rows, err := geodesy.CellAreas(info.Transform, info.Height)
		if err != nil {
			return nil, err
		}
		return &GridAreas{RowArea: rows, Method: "wgs84_ellipsoidal_cell_area", width: info.Width}, nil
	}
	px, err := crs.PixelAreaM2(info.Transform, c)
	if err != nil {
		return nil, err
	}
	return &GridAreas{PixelArea: px, Method: "affine_determinant", width: info.Width}, nil
}

// Cell returns the area (m²) of the cell at row-major index i.
func (g *GridAreas) Cell(i int) float64 {
	if g.RowArea != nil {
		return g.RowArea[i/g.width]
	}
	return g.PixelArea
}

// Sum returns the total area (m²) of the cells at the given row-major
// indices, summed as NumPy sums areas[mask] (pairwise, float64, in index
// order) on geographic grids and as count times the pixel area on
// projected grids.
func (g *GridAreas) Sum(indices []int) float64 {
	if g.RowArea == nil {
		return float64(len(indices)) * g.PixelArea
	}
	vals := make([]float64, len(indices))
	for k, i := range indices {
		vals[k] = g.RowArea[i/g.width]
	}
	return numpy.SumFloat64(vals)
}
