package runtime

import (
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/geodisaster/engine/internal/hashedread"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// The file cache: a session reads each declared file once, at its first
// authorized read, hashes it and checks it against its file card; later
// reads (by any call whose gate authorizes the path) come from memory and
// are traced all the same. A GeoTIFF is parsed once and its decoded bands
// are kept.

// fileEntry is one declared file as the session read it.
type fileEntry struct {
	data []byte
	sum  string // lowercase hex SHA-256 of data
	ds   *raster.Dataset
	info *workers.RasterInfo
	mu   sync.Mutex
	// bands are the decoded bands by number.
	bands map[int]*raster.Band
	// prefetch, when set, is decoding some bands since the file was read.
	prefetch *bandPrefetch
}

// entry returns a declared file through the gate, reading it on the
// session's first read of it; every read is traced.
func (e *callEnv) entry(path string) (*fileEntry, error) {
	card, err := e.authorized(path)
	if err != nil {
		return nil, err
	}
	fe, ok := e.s.files[path]
	if !ok {
		if fe, err = e.load(path, card); err != nil {
			return nil, err
		}
	}
	e.tr.Reads = append(e.tr.Reads, ReadTrace{Path: path, SHA256: fe.sum, Size: int64(len(fe.data))})
	return fe, nil
}

// load reads an authorized file not in the cache yet: it resolves it under
// the data root, checks the session's read limit, reads and verifies it,
// and keeps it.
func (e *callEnv) load(path string, card workers.FileCard) (*fileEntry, error) {
	real, err := e.resolve(path)
	if err != nil {
		return nil, err
	}
	if err := e.s.checkReadLimit(real, path); err != nil {
		return nil, err
	}
	fe, err := e.s.readEntry(real, path, card)
	if err != nil {
		return nil, err
	}
	e.s.files[path] = fe
	e.s.readBytes += int64(len(fe.data))
	return fe, nil
}

// readEntry reads and hashes the file at real (declared as path), starting
// the band prefetch hinted for path as soon as its bytes are in memory,
// and checks the digest against the file card. A file that fails the check
// leaves nothing behind, its prefetch stopped.
func (s *Session) readEntry(real, path string, card workers.FileCard) (*fileEntry, error) {
	var pf *bandPrefetch
	var loaded func([]byte)
	if bands, ok := s.prefetchHints[path]; ok {
		delete(s.prefetchHints, path)
		loaded = func(data []byte) { pf = startPrefetch(s.eng.reader, data, bands, s.alloc) }
	}
	data, sum, err := hashedread.ReadFile(real, s.alloc, loaded)
	hexsum := hex.EncodeToString(sum[:])
	if err == nil && card.SHA256 != "" && card.SHA256 != hexsum {
		err = fmt.Errorf("declared file %s: SHA-256 %s does not match its file card (%s)", path, hexsum, card.SHA256)
	} else if err != nil {
		err = fmt.Errorf("reading declared file %s: %w", path, err)
	}
	if err != nil {
		if pf != nil {
			pf.stop()
		}
		return nil, err
	}
	fe := &fileEntry{data: data, sum: hexsum, bands: map[int]*raster.Band{}, prefetch: pf}
	if pf != nil {
		fe.ds, fe.info = pf.ds, pf.info
	}
	return fe, nil
}

// ReadFile implements workers.Env.
func (e *callEnv) ReadFile(path string) ([]byte, error) {
	fe, err := e.entry(path)
	if err != nil {
		return nil, err
	}
	return fe.data, nil
}

// FileSHA256 implements workers.FileHasher: the digest computed when the
// session first read the file (no read is traced; the caller has read the
// file through ReadFile).
func (e *callEnv) FileSHA256(path string) (string, bool) {
	if _, ok := e.allowed[path]; !ok {
		return "", false
	}
	fe, ok := e.s.files[path]
	if !ok {
		return "", false
	}
	return fe.sum, true
}

// dataset returns a declared GeoTIFF's entry with its dataset opened.
func (e *callEnv) dataset(path string) (*fileEntry, error) {
	fe, err := e.entry(path)
	if err != nil {
		return nil, err
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if fe.ds == nil {
		ds, err := raster.OpenBytes(fe.data)
		if err != nil {
			return nil, fmt.Errorf("declared raster %s: %w", path, err)
		}
		info := rasterInfo(ds)
		fe.ds, fe.info = ds, &info
	}
	return fe, nil
}

// RasterInfo implements workers.Env.
func (e *callEnv) RasterInfo(path string) (workers.RasterInfo, error) {
	fe, err := e.dataset(path)
	if err != nil {
		return workers.RasterInfo{}, err
	}
	return *fe.info, nil
}

// Band implements workers.Env.
func (e *callEnv) Band(path string, band int) (*raster.Band, workers.RasterInfo, error) {
	fe, err := e.dataset(path)
	if err != nil {
		return nil, workers.RasterInfo{}, err
	}
	if band < 1 || band > fe.info.Count {
		return nil, workers.RasterInfo{}, fmt.Errorf("declared raster %s has %d bands, band %d requested", path, fe.info.Count, band)
	}
	b, err := e.decodedBand(fe, band)
	if err != nil {
		return nil, workers.RasterInfo{}, fmt.Errorf("declared raster %s band %d: %w", path, band, err)
	}
	return b, *fe.info, nil
}

// decodedBand returns band b (in range) of fe: decoded before, by its
// prefetch, or now.
func (e *callEnv) decodedBand(fe *fileEntry, b int) (*raster.Band, error) {
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if band, ok := fe.bands[b]; ok {
		return band, nil
	}
	if fe.prefetch != nil {
		band, ok, err := fe.prefetch.band(e.ctx, b)
		if err != nil {
			return nil, err
		}
		if ok {
			fe.bands[b] = band
			return band, nil
		}
	}
	bs, err := e.s.eng.reader.ReadBands(fe.ds, e.ctx, []int{b}, raster.Window{Width: fe.info.Width, Height: fe.info.Height}, e.s.alloc)
	if err != nil {
		return nil, err
	}
	fe.bands[b] = bs[0]
	return bs[0], nil
}
