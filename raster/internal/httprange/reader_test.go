package httprange

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestReader reads a resource served with range support at small (cached)
// and large offsets, and reports a missing one as a StatusError.
func TestReader(t *testing.T) {
	data := make([]byte, 100_000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/f" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	h, err := Open(srv.URL+"/f", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Size() != int64(len(data)) {
		t.Fatalf("size %d", h.Size())
	}
	for _, c := range []struct{ off, n int }{{0, 8}, {16380, 10}, {50_000, 40_000}} {
		p := make([]byte, c.n)
		if n, err := h.ReadAt(p, int64(c.off)); n != c.n || err != nil || !bytes.Equal(p, data[c.off:c.off+c.n]) {
			t.Fatalf("ReadAt(%d, %d): %d %v", c.off, c.n, n, err)
		}
	}
	var se *StatusError
	if _, err := Open(srv.URL+"/missing", Config{}); !errors.As(err, &se) || se.Status != http.StatusNotFound {
		t.Fatalf("missing resource: %v", err)
	}
}
