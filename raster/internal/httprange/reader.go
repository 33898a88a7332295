// Package httprange reads an HTTP(S) resource as an io.ReaderAt with range
// requests, as GDAL's /vsicurl/ does: small reads come from a cache of
// aligned chunks, large ones go straight to the server, and failed
// requests are retried with backoff when the failure may pass.
package httprange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config configures a Reader.
type Config struct {
	Ctx     context.Context // every request's context (nil: context.Background())
	Client  *http.Client    // nil: http.DefaultClient
	Header  http.Header     // added to every request
	Timeout time.Duration   // bounds each request, 0 for none
	Retries int             // further attempts of a request that may succeed later
	Backoff time.Duration   // the wait before the first retry, doubled each time
}

// A Reader is an io.ReaderAt over an HTTP(S) resource read with range
// requests. Small reads are served from a cache of aligned chunks so that
// parsing the header and IFDs costs few requests; large reads (tiles) go
// straight to the server.
type Reader struct {
	url  string
	cfg  Config
	size int64

	mu     sync.Mutex
	chunks map[int64][]byte
	order  []int64
}

const (
	httpChunk     = 16 << 10
	httpMaxChunks = 256
	maxRetryAfter = time.Minute
)

// A StatusError reports an HTTP answer other than the expected one.
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("raster: %s: HTTP %d %s", e.URL, e.Status, http.StatusText(e.Status))
}

// Open probes url for its size and range support.
func Open(url string, cfg Config) (*Reader, error) {
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	if cfg.Ctx == nil {
		cfg.Ctx = context.Background()
	}
	h := &Reader{url: url, cfg: cfg, chunks: map[int64][]byte{}}
	// A one-byte range request reveals the total size in Content-Range.
	var size int64
	err := h.do(0, 0, func(resp *http.Response) error {
		switch resp.StatusCode {
		case http.StatusPartialContent:
			cr := resp.Header.Get("Content-Range")
			i := strings.LastIndexByte(cr, '/')
			if i < 0 {
				return fmt.Errorf("raster: %s: bad Content-Range %q", url, cr)
			}
			n, err := strconv.ParseInt(cr[i+1:], 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("raster: %s: bad Content-Range %q", url, cr)
			}
			size = n
			return nil
		case http.StatusOK:
			return fmt.Errorf("raster: %s: server does not support range requests", url)
		}
		return &StatusError{URL: url, Status: resp.StatusCode}
	})
	if err != nil {
		return nil, err
	}
	h.size = size
	return h, nil
}

// retryable reports whether a failed attempt may be repeated.
func retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status == http.StatusRequestTimeout || se.Status == http.StatusTooManyRequests || se.Status >= 500
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	return true // network errors, timeouts, truncated bodies
}

// do sends a range request for bytes [first, last] and hands a 2xx
// answer to handle, retrying as configured.
func (h *Reader) do(first, last int64, handle func(*http.Response) error) error {
	wait := h.cfg.Backoff
	for attempt := 0; ; attempt++ {
		retryAfter, err := h.attempt(first, last, handle)
		if err == nil {
			return nil
		}
		if attempt >= h.cfg.Retries || !retryable(err) || h.cfg.Ctx.Err() != nil {
			return err
		}
		d := max(wait, min(retryAfter, maxRetryAfter))
		t := time.NewTimer(d)
		select {
		case <-h.cfg.Ctx.Done():
			t.Stop()
			return fmt.Errorf("raster: %s: %w (after: %v)", h.url, h.cfg.Ctx.Err(), err)
		case <-t.C:
		}
		wait *= 2
	}
}

// attempt sends one request; it returns the Retry-After delay of a 429 or
// 503 answer.
func (h *Reader) attempt(first, last int64, handle func(*http.Response) error) (time.Duration, error) {
	ctx := h.cfg.Ctx
	if h.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.cfg.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return 0, fmt.Errorf("raster: %w", err)
	}
	for k, vs := range h.cfg.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", first, last))
	resp, err := h.cfg.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("raster: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		var after time.Duration
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			after = time.Duration(s) * time.Second
		}
		return after, &StatusError{URL: h.url, Status: resp.StatusCode}
	}
	return 0, handle(resp)
}

// Size returns the resource's length in bytes.
func (h *Reader) Size() int64 { return h.size }

// ReadAt implements io.ReaderAt.
func (h *Reader) ReadAt(p []byte, off int64) (int, error) {
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
func (h *Reader) chunk(c int64) ([]byte, error) {
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

// fetch reads exactly len(p) bytes at off with one range request (retried
// as configured).
func (h *Reader) fetch(p []byte, off int64) (int, error) {
	n := 0
	err := h.do(off, off+int64(len(p))-1, func(resp *http.Response) error {
		if resp.StatusCode != http.StatusPartialContent {
			return &StatusError{URL: h.url, Status: resp.StatusCode}
		}
		var err error
		n, err = io.ReadFull(resp.Body, p)
		if err != nil {
			return fmt.Errorf("raster: %s: range request at %d: %w", h.url, off, err)
		}
		return nil
	})
	return n, err
}
