package raster

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadsOverwriteAllocatedStorage checks what the runtime's recycled
// band buffers rely on: a successful read writes every sample of the
// bands it returns, so storage from an allocator may hold anything. Each
// file of the compact corpus and of ../shared/data is read whole and in a
// window, once into storage filled with 0xAA and once into zeroed
// storage; the samples must agree.
func TestReadsOverwriteAllocatedStorage(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(compactCorpus, "*.tif"))
	shared, _ := filepath.Glob("../../shared/data/*/*.tif")
	chips, _ := filepath.Glob("../../shared/data/sen1floods11/*/*.tif")
	paths = append(append(paths, shared...), chips...)
	if len(paths) < 100 {
		t.Fatalf("only %d test rasters found", len(paths))
	}
	dirty := func(n int) []byte { return bytes.Repeat([]byte{0xAA}, n) }
	zeroed := func(n int) []byte { return make([]byte, n) }
	ctx := context.Background()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := OpenBytes(b)
		if err != nil {
			continue
		}
		bands := make([]int, ds.Count())
		for i := range bands {
			bands[i] = i + 1
		}
		whole := Window{Width: ds.Width(), Height: ds.Height()}
		part := Window{Col: ds.Width() / 3, Row: ds.Height() / 4, Width: max(1, ds.Width()/2), Height: max(1, ds.Height()/3)}
		for _, w := range []Window{whole, part} {
			want, wantErr := ds.readBandsAlloc(ctx, bands, w, zeroed)
			got, gotErr := ds.readBandsAlloc(ctx, bands, w, dirty)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("%s %+v: error %v into dirty storage, %v into zeroed", p, w, gotErr, wantErr)
			}
			for i := range want {
				if !bytes.Equal(got[i].Bytes(), want[i].Bytes()) {
					t.Errorf("%s %+v band %d: samples left unwritten in allocated storage", p, w, bands[i])
				}
			}
		}
	}
}
