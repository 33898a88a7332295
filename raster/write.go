package raster

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/geodisaster/engine/raster/geotiff"
)

// WriteOptions controls how Write and WriteCOG encode a GeoTIFF
// (geotiff.WriteOptions).
type WriteOptions = geotiff.WriteOptions

// Write encodes bands (all the same size and type) as a tiled,
// band-interleaved GeoTIFF. Its output depends only on its inputs: the same
// bands and options give the same bytes on every run and platform. Files
// that would exceed 4 GiB are written as BigTIFF.
func Write(w io.Writer, bands []*Band, opts WriteOptions) error {
	p, err := planes(bands)
	if err != nil {
		return err
	}
	return geotiff.Write(w, p, opts)
}

// WriteCOG encodes bands as a Cloud Optimized GeoTIFF: the tiled image of
// Write plus overviews halving the size until the image fits one tile,
// laid out by github.com/airbusgeo/cogger (see geotiff.WriteCOG).
// Overviews use nearest-neighbour sampling at pixel centres (GDAL's
// NEAREST), which keeps class and mask values intact. The output is
// deterministic.
func WriteCOG(w io.Writer, bands []*Band, opts WriteOptions) error {
	p, err := planes(bands)
	if err != nil {
		return err
	}
	return geotiff.WriteCOG(w, p, opts)
}

// WriteCOGFile writes a COG to path atomically (temporary file + rename).
func WriteCOGFile(path string, bands []*Band, opts WriteOptions) error {
	return writeFileAtomic(path, func(w io.Writer) error { return WriteCOG(w, bands, opts) })
}

// WriteFile writes bands to path like Write, atomically: the data goes to a
// temporary file in the same directory that is renamed over path only once
// complete and synced.
func WriteFile(path string, bands []*Band, opts WriteOptions) error {
	return writeFileAtomic(path, func(w io.Writer) error { return Write(w, bands, opts) })
}

// writeFileAtomic runs write on a temporary file next to path and renames
// it to path on success.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	return nil
}

// checkBands validates that bands are non-empty, consistent and well formed.
func checkBands(bands []*Band) error {
	if len(bands) == 0 {
		return fmt.Errorf("raster: no bands to write")
	}
	if len(bands) > 65535 {
		return fmt.Errorf("raster: %d bands is too many", len(bands))
	}
	for i, b := range bands {
		if b == nil {
			return fmt.Errorf("raster: band %d is nil", i+1)
		}
		if err := b.Validate(); err != nil {
			return fmt.Errorf("band %d: %w", i+1, err)
		}
		if b.Width <= 0 || b.Height <= 0 {
			return fmt.Errorf("raster: band %d is empty (%dx%d)", i+1, b.Width, b.Height)
		}
		if b.Width != bands[0].Width || b.Height != bands[0].Height || b.Type != bands[0].Type {
			return fmt.Errorf("raster: band %d is %dx%d %v, band 1 is %dx%d %v", i+1, b.Width, b.Height, b.Type,
				bands[0].Width, bands[0].Height, bands[0].Type)
		}
	}
	return nil
}

// planes checks bands and returns them as the writer's planes.
func planes(bands []*Band) (geotiff.Planes, error) {
	if err := checkBands(bands); err != nil {
		return geotiff.Planes{}, err
	}
	p := geotiff.Planes{Width: bands[0].Width, Height: bands[0].Height, Type: bands[0].Type, Data: make([][]byte, len(bands))}
	for i, b := range bands {
		p.Data[i] = b.Bytes()
	}
	return p, nil
}
