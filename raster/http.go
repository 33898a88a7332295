package raster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// httpReader is an io.ReaderAt over an HTTP(S) resource read with range
// requests. Small reads are served from a cache of aligned chunks so that
// parsing the header and IFDs costs few requests; large reads (tiles) go
// straight to the server.
type httpReader struct {
	url    string
	client *http.Client
	size   int64

	mu     sync.Mutex
	chunks map[int64][]byte
	order  []int64
}

const (
	httpChunk     = 16 << 10
	httpMaxChunks = 256
)

// newHTTPReader probes url for its size and range support.
func newHTTPReader(url string, client *http.Client) (*httpReader, error) {
	if client == nil {
		client = http.DefaultClient
	}
	h := &httpReader{url: url, client: client, chunks: map[int64][]byte{}}
	// A one-byte range request reveals the total size in Content-Range.
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	req.Header.Set("Range", "bytes=0-0")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		i := strings.LastIndexByte(cr, '/')
		if i < 0 {
			return nil, fmt.Errorf("raster: %s: bad Content-Range %q", url, cr)
		}
		n, err := strconv.ParseInt(cr[i+1:], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("raster: %s: bad Content-Range %q", url, cr)
		}
		h.size = n
	case http.StatusOK:
		return nil, fmt.Errorf("raster: %s: server does not support range requests", url)
	default:
		return nil, fmt.Errorf("raster: %s: HTTP %s", url, resp.Status)
	}
	return h, nil
}

// Size returns the resource's length in bytes.
func (h *httpReader) Size() int64 { return h.size }

// ReadAt implements io.ReaderAt.
func (h *httpReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("raster: negative offset")
	}
	if off >= h.size {
		return 0, io.EOF
	}
	want := len(p)
	var tail error
	if int64(want) > h.size-off {
		want = int(h.size - off)
		tail = io.EOF
	}
	if want > httpChunk {
		n, err := h.fetch(p[:want], off)
		if err == nil {
			err = tail
		}
		return n, err
	}
	n := 0
	for n < want {
		c := (off + int64(n)) / httpChunk * httpChunk
		chunk, err := h.chunk(c)
		if err != nil {
			return n, err
		}
		k := copy(p[n:want], chunk[off+int64(n)-c:])
		if k == 0 {
			return n, io.ErrUnexpectedEOF
		}
		n += k
	}
	return n, tail
}

// chunk returns the cached aligned chunk starting at c, fetching it once.
func (h *httpReader) chunk(c int64) ([]byte, error) {
	h.mu.Lock()
	b, ok := h.chunks[c]
	h.mu.Unlock()
	if ok {
		return b, nil
	}
	n := int64(httpChunk)
	if c+n > h.size {
		n = h.size - c
	}
	b = make([]byte, n)
	if _, err := h.fetch(b, c); err != nil {
		return nil, err
	}
	h.mu.Lock()
	if _, ok := h.chunks[c]; !ok {
		h.chunks[c] = b
		h.order = append(h.order, c)
		if len(h.order) > httpMaxChunks {
			delete(h.chunks, h.order[0])
			h.order = h.order[1:]
		}
	}
	h.mu.Unlock()
	return b, nil
}

// fetch reads exactly len(p) bytes at off with one range request.
func (h *httpReader) fetch(p []byte, off int64) (int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, h.url, nil)
	if err != nil {
		return 0, fmt.Errorf("raster: %w", err)
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1))
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("raster: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		return 0, fmt.Errorf("raster: %s: range request: HTTP %s", h.url, resp.Status)
	}
	n, err := io.ReadFull(resp.Body, p)
	if err != nil {
		return n, fmt.Errorf("raster: %s: range request at %d: %w", h.url, off, err)
	}
	return n, nil
}
