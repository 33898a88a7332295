//go:build !linux

package raster

// adviseHugePages is a no-op outside Linux.
func adviseHugePages(b []byte) {}
