package raster

// decodeImageBlock decodes a JPEG- or WebP-compressed block.
func (d *Dataset) decodeImageBlock(st *blockState, raw []byte, rows int) ([]byte, error) {
	return nil, UnsupportedError(compressionName(d.compression))
}
