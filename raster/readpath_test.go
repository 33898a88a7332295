package raster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/geodisaster/engine/internal/rasterhook"
)

// sameSamples compares two bands sample by sample (NaNs by their bits).
func sameSamples(t *testing.T, what string, got, want *Band) {
	t.Helper()
	if got.Width != want.Width || got.Height != want.Height || got.Type != want.Type {
		t.Fatalf("%s: %dx%d %v, want %dx%d %v", what, got.Width, got.Height, got.Type, want.Width, want.Height, want.Type)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%s: samples differ", what)
	}
}

// subBand returns the window w of b.
func subBand(t *testing.T, b *Band, w Window) *Band {
	t.Helper()
	out, err := NewBand(w.Width, w.Height, b.Type)
	if err != nil {
		t.Fatal(err)
	}
	size := b.Type.Size()
	src, dst := b.Bytes(), out.Bytes()
	for r := 0; r < w.Height; r++ {
		o := ((w.Row+r)*b.Width + w.Col) * size
		copy(dst[r*w.Width*size:(r+1)*w.Width*size], src[o:o+w.Width*size])
	}
	return out
}

// TestReadDirectBlocks reads rasters whose blocks are decoded straight
// into the band (a single tile, full-width tiles) and windows of them that
// go through the scratch buffer, for every compression, predictor and
// sample size the writer offers, one and two bands.
func TestReadDirectBlocks(t *testing.T) {
	ctx := context.Background()
	for _, typ := range []DataType{Uint8, Int16, Uint16, Int32, Float32, Float64} {
		for _, size := range [][2]int{{32, 32}, {32, 80}, {16, 16}, {48, 20}} {
			for _, comp := range []string{"none", "deflate", "zstd"} {
				for _, pred := range []int{1, 2, 3} {
					if pred == 3 && typ != Float32 && typ != Float64 {
						continue
					}
					for nb := 1; nb <= 2; nb++ {
						name := fmt.Sprintf("%v_%dx%d_%s_p%d_%db", typ, size[0], size[1], comp, pred, nb)
						var bands []*Band
						for k := 0; k < nb; k++ {
							bands = append(bands, testBand(t, size[0], size[1], typ, 3+k))
						}
						var buf bytes.Buffer
						tile := 16
						if size[0] == 32 {
							tile = 32
						}
						if err := Write(&buf, bands, WriteOptions{Compression: comp, Predictor: pred, TileSize: tile}); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						d, err := OpenReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for k := 1; k <= nb; k++ {
							got, err := d.ReadBand(ctx, k)
							if err != nil {
								t.Fatalf("%s band %d: %v", name, k, err)
							}
							sameSamples(t, name, got, bands[k-1])
							for _, w := range []Window{{1, 0, size[0] - 1, size[1]}, {0, 3, size[0], size[1] - 5}, {0, 0, size[0], 7}} {
								got, err := d.ReadWindow(ctx, k, w)
								if err != nil {
									t.Fatalf("%s band %d window %+v: %v", name, k, w, err)
								}
								sameSamples(t, fmt.Sprint(name, w), got, subBand(t, bands[k-1], w))
							}
						}
						all, err := d.ReadAll(ctx)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for k := range all {
							sameSamples(t, name+" ReadAll", all[k], bands[k])
						}
						// The same band twice: two outputs of one block.
						twice, err := d.ReadBands(ctx, []int{nb, 1, nb}, Window{0, 0, size[0], size[1]})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						sameSamples(t, name+" twice", twice[0], bands[nb-1])
						sameSamples(t, name+" twice", twice[1], bands[0])
						sameSamples(t, name+" twice", twice[2], bands[nb-1])
					}
				}
			}
		}
	}
}

// TestReadBandsAllocStorage checks that readBandsAlloc decodes into the
// allocator's memory for every sample type and falls back to its own for
// a slice that is short or misaligned.
func TestReadBandsAllocStorage(t *testing.T) {
	for _, typ := range []DataType{Uint8, Int8, Uint16, Int16, Uint32, Int32, Float32, Float64} {
		b, _ := NewBand(37, 29, typ)
		raw := b.Bytes()
		for i := range raw {
			raw[i] = byte(i*31 + 7)
		}
		ds := openTIFF(t, Write, []*Band{b}, WriteOptions{Compression: "deflate", TileSize: 16})
		w := Window{Width: 37, Height: 29}
		var given []byte
		got, err := ds.readBandsAlloc(context.Background(), []int{1}, w, func(n int) []byte {
			given = make([]byte, n)
			return given
		})
		if err != nil {
			t.Fatal(err)
		}
		sameSamples(t, typ.String(), got[0], b)
		if &got[0].Bytes()[0] != &given[0] {
			t.Errorf("%v: band not stored in the allocator's memory", typ)
		}
		for name, alloc := range map[string]func(n int) []byte{
			"short":      func(n int) []byte { return make([]byte, n-1) },
			"misaligned": func(n int) []byte { return make([]byte, n+8)[1 : n+1] },
		} {
			got, err := rasterhook.Get[*Dataset, Window, *Band]().ReadBands(ds, context.Background(), []int{1}, w, alloc)
			if err != nil {
				t.Fatal(err)
			}
			sameSamples(t, typ.String()+" "+name, got[0], b)
		}
	}
}

// TestStartReadBands checks the background read, through the hook the
// runtime calls (rasterhook): Wait returns what
// ReadBands returns (whether or not the caller finds blocks left to
// decode), and a read cancelled before Wait reports the cancellation and
// closes Done.
func TestStartReadBands(t *testing.T) {
	b1, _ := NewBand(300, 200, Float32)
	b2, _ := NewBand(300, 200, Float32)
	for i := range b1.Data.([]float32) {
		b1.Data.([]float32)[i] = float32(i%977) * 0.25
		b2.Data.([]float32)[i] = -float32(i%613) * 0.5
	}
	ds := openTIFF(t, Write, []*Band{b1, b2}, WriteOptions{Compression: "deflate", Predictor: 3, TileSize: 32})
	w := Window{Width: 300, Height: 200}
	hooks := rasterhook.Get[*Dataset, Window, *Band]()
	for _, delay := range []time.Duration{0, 5 * time.Millisecond} {
		r, err := hooks.StartReadBands(ds, context.Background(), []int{2, 1}, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay) // 0: the caller decodes too; 5 ms: mostly done already
		got, err := r.Wait(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sameSamples(t, "band 2", got[0], b2)
		sameSamples(t, "band 1", got[1], b1)
		select {
		case <-r.Done():
		default:
			t.Fatal("Done still open after Wait returned")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := hooks.StartReadBands(ds, ctx, []int{1}, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Wait(context.Background()); err != context.Canceled {
		t.Fatalf("cancelled read: Wait returned %v", err)
	}
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed after a cancelled read")
	}
	if r, err := hooks.StartReadBands(ds, context.Background(), []int{3}, w, nil); err == nil || r != nil {
		t.Fatal("band 3 of a 2-band file accepted")
	}
}

// TestOpenBytes reads every file of the compact conformance corpus with
// OpenBytes (blocks decoded straight from the file's memory) and with
// OpenReaderAt: the same bands, whole and in a window, and the file's
// bytes untouched.
func TestOpenBytes(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(compactCorpus, "*.tif"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in %s (%v)", compactCorpus, err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		orig := append([]byte(nil), b...)
		ref, refErr := openBytes(orig)
		mem, memErr := OpenBytes(b)
		if (refErr == nil) != (memErr == nil) {
			t.Fatalf("%s: OpenBytes error %v, OpenReaderAt error %v", p, memErr, refErr)
		}
		if refErr != nil {
			continue
		}
		win := Window{Col: ref.Width() / 3, Row: ref.Height() / 4, Width: max(1, ref.Width()/2), Height: max(1, ref.Height()/2)}
		for _, w := range []Window{{Width: ref.Width(), Height: ref.Height()}, win} {
			for band := 1; band <= ref.Count(); band++ {
				want, wantErr := ref.ReadWindow(context.Background(), band, w)
				got, gotErr := mem.ReadWindow(context.Background(), band, w)
				if (wantErr == nil) != (gotErr == nil) {
					t.Fatalf("%s band %d %+v: OpenBytes error %v, OpenReaderAt error %v", p, band, w, gotErr, wantErr)
				}
				if wantErr == nil {
					sameSamples(t, fmt.Sprintf("%s band %d %+v", p, band, w), got, want)
				}
			}
		}
		if !bytes.Equal(b, orig) {
			t.Fatalf("%s: reading changed the file's bytes", p)
		}
	}
}
