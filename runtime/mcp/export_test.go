package mcp

import (
	"context"
	"net"
	"testing"
	"time"
)

// ServeLoopback is serveLoopback for the external tests.
var ServeLoopback = serveLoopback

// serveLoopback serves h through its own http.Server on a loopback port
// until the end of the test, then shuts both down, and returns the
// address (host:port).
func serveLoopback(t testing.TB, h *Host) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := h.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h.Shutdown(ctx)
		hs.Shutdown(ctx)
		hs.Close()
	})
	return ln.Addr().String()
}
