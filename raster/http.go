package raster

import (
	"context"
	"net/http"
	"time"

	"github.com/geodisaster/engine/raster/internal/httprange"
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

// A StatusError reports an HTTP answer other than the expected one.
type StatusError = httprange.StatusError

// newHTTPReader opens url for range reads with the options of c.
func newHTTPReader(url string, c openConfig) (*httprange.Reader, error) {
	return httprange.Open(url, httprange.Config{Ctx: c.ctx, Client: c.client, Header: c.header,
		Timeout: c.timeout, Retries: c.retries, Backoff: c.backoff})
}
