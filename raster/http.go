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
	"time"
)

// An OpenOption configures Open.
type OpenOption func(*openConfig)

type openConfig struct {
	ctx     context.Context
	client  *http.Client
	header  http.Header
	timeout time.Duration
	retries int
	backoff time.Duration
}

// WithContext makes every request of the dataset (opening and reading
// blocks over HTTP) use ctx: cancelling it fails the reads in progress and
// every later one. Open also checks it before opening a local file.
func WithContext(ctx context.Context) OpenOption {
	return func(c *openConfig) {
		if ctx != nil {
			c.ctx = ctx
		}
	}
}

// WithHTTPClient sends the range requests through client instead of
// http.DefaultClient (for proxies, transports, connection limits).
func WithHTTPClient(client *http.Client) OpenOption {
	return func(c *openConfig) { c.client = client }
}

// WithHeader adds a header to every request (for example Authorization or
// a user agent); it may be given several times.
func WithHeader(key, value string) OpenOption {
	return func(c *openConfig) {
		if c.header == nil {
			c.header = http.Header{}
		}
		c.header.Add(key, value)
	}
}

// WithTimeout bounds each request, from sending it to reading its body.
func WithTimeout(d time.Duration) OpenOption {
	return func(c *openConfig) { c.timeout = d }
}

// WithRetries retries a request up to n more times when it fails with a
// network error, a timeout, HTTP 408, 429 or a 5xx status, or a truncated
// body, waiting backoff before the first retry and twice as long before
// each next one (a Retry-After header of 429 and 503 answers, when
// longer, is honoured up to a minute). Other failures, such as 404, are
// final.
func WithRetries(n int, backoff time.Duration) OpenOption {
	return func(c *openConfig) { c.retries, c.backoff = max(n, 0), max(backoff, 0) }
}

// httpReader is an io.ReaderAt over an HTTP(S) resource read with range
// requests. Small reads are served from a cache of aligned chunks so that
// parsing the header and IFDs costs few requests; large reads (tiles) go
// straight to the server.
type httpReader struct {
	url  string
	cfg  openConfig
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

// newHTTPReader probes url for its size and range support.
func newHTTPReader(url string, cfg openConfig) (*httpReader, error) {
	if cfg.client == nil {
		cfg.client = http.DefaultClient
	}
	h := &httpReader{url: url, cfg: cfg, chunks: map[int64][]byte{}}
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
func (h *httpReader) do(first, last int64, handle func(*http.Response) error) error {
	wait := h.cfg.backoff
	for attempt := 0; ; attempt++ {
		retryAfter, err := h.attempt(first, last, handle)
		if err == nil {
			return nil
		}
		if attempt >= h.cfg.retries || !retryable(err) || h.cfg.ctx.Err() != nil {
			return err
		}
		d := max(wait, min(retryAfter, maxRetryAfter))
		t := time.NewTimer(d)
		select {
		case <-h.cfg.ctx.Done():
			t.Stop()
			return fmt.Errorf("raster: %s: %w (after: %v)", h.url, h.cfg.ctx.Err(), err)
		case <-t.C:
		}
		wait *= 2
	}
}

// attempt sends one request; it returns the Retry-After delay of a 429 or
// 503 answer.
func (h *httpReader) attempt(first, last int64, handle func(*http.Response) error) (time.Duration, error) {
	ctx := h.cfg.ctx
	if h.cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.cfg.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return 0, fmt.Errorf("raster: %w", err)
	}
	for k, vs := range h.cfg.header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", first, last))
	resp, err := h.cfg.client.Do(req)
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

// fetch reads exactly len(p) bytes at off with one range request (retried
// as configured).
func (h *httpReader) fetch(p []byte, off int64) (int, error) {
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
