package inspect

import (
	"context"
	"strings"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/raster"
)

// Commands returns the inspect command.
func Commands() []kit.Command {
	return []kit.Command{{Name: "inspect", Summary: "describe a GeoTIFF like gdalinfo (its text layout; --json its -json schema; --stats, --checksum)", Run: runInspect}}
}

const description = `Describes a GeoTIFF (a path or an http(s) URL, read with range requests) the
way GDAL 3.6's gdalinfo does: its text layout, or with --json the document of
gdalinfo -json (description, size, coordinateSystem, geoTransform in GDAL
order, metadata, cornerCoordinates, wgs84Extent, bands[] with block, type,
colorInterpretation, noDataValue, overviews, mask, statistics, checksum,
metadata, colorTable, and stac). --stats adds exact statistics as
gdalinfo -stats (stored ones first), --checksum GDAL's checksum of every
band and overview, as gdalinfo -checksum.

The coordinate system is GDAL's WKT2:2019 and axis mapping, rebuilt from
the GeoKeys as GDAL reads them (docs/crs.md lists the few CRSs whose text
differs from gdalinfo's). Not reported yet: GDAL's guessed JPEG/WebP
quality levels, PAM sidecars (.aux.xml), external overviews (.ovr) and
stac's proj:projjson.

--engine prints the engine's own document instead, unchanged for scripts:
rasterio-order transform, "crs": "EPSG:n", and with --checksum band_sha256,
the SHA-256 of each band's samples (little-endian, row-major).`

// runInspect implements "geodisaster inspect [--json] [--stats] [--checksum] [--engine] FILE".
func runInspect(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("inspect", "[--json] [--stats [--recompute]] [--checksum] [--engine] FILE")
	fs.Description = description
	fs.Example("geodisaster inspect scene.tif", "gdalinfo's text layout")
	fs.Example("geodisaster inspect --json --stats --checksum scene.tif", "as gdalinfo -json -stats -checksum")
	fs.Example("geodisaster inspect --json https://example.org/cog.tif", "a COG over HTTP (range requests)")
	fs.Example("geodisaster inspect --engine --json --checksum scene.tif", "the engine's document with band_sha256")
	asJSON := fs.Bool("json", false, "print gdalinfo -json's document")
	checksum := fs.Bool("checksum", false, "add GDAL's checksum of every band and overview (with --engine: band_sha256, SHA-256 of each band's samples)")
	stats := fs.Bool("stats", false, "add exact min/max/mean/stddev per band as gdalinfo -stats reports them (stored STATISTICS_* first)")
	recompute := fs.Bool("recompute", false, "with --stats, ignore STATISTICS_* stored in the file")
	engine := fs.Bool("engine", false, "print the engine's own document (rasterio-order transform, EPSG, band_sha256) instead of gdalinfo's")
	if _, err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return kit.Usagef("inspect: need exactly one FILE (a path or an http(s) URL), got %d", fs.NArg())
	}
	file := fs.Arg(0)
	if *engine {
		rep, err := engineReportOf(ctx, file, *checksum, *stats, *recompute)
		if err != nil {
			return err
		}
		if *asJSON {
			return kit.WriteJSON(cio.Stdout, rep)
		}
		writeInspectText(cio.Stdout, rep)
		return nil
	}
	d, err := raster.Open(file, raster.WithContext(ctx))
	if err != nil {
		return err
	}
	defer d.Close()
	gi, err := gdalInfoOf(ctx, file, d, *stats, *checksum, *recompute)
	if err != nil {
		return err
	}
	if *asJSON {
		var b strings.Builder
		gi.json().writeJSON(&b, 0)
		b.WriteByte('\n')
		_, err := cio.Stdout.Write([]byte(b.String()))
		return err
	}
	return gi.writeText(cio.Stdout)
}
