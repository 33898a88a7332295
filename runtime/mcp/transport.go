package mcp

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sequential wraps a stream transport (such as stdio) for a client that
// may pipeline its requests:
//
//   - tool calls run in the order the client sent them: a tools/call is
//     handed to the server only after the previous one has been answered
//     (the SDK otherwise handles calls concurrently, and a session's calls
//     depend on each other's handles);
//   - the end of the client's input does not cut off requests already
//     read: it is reported only after every one of them has been answered,
//     after wait, or when the context ends. A client that writes all its
//     requests and closes its end, as a shell pipeline does, still receives
//     every response.
func Sequential(t sdk.Transport, wait time.Duration) sdk.Transport {
	return &seqTransport{t: t, wait: wait}
}

type seqTransport struct {
	t    sdk.Transport
	wait time.Duration
}

// Connect connects the wrapped transport.
func (d *seqTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := d.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &seqConn{Connection: c, wait: d.wait, pending: map[any]string{}, changed: make(chan struct{}), closed: make(chan struct{})}, nil
}

// seqConn tracks the requests read and not yet answered.
type seqConn struct {
	sdk.Connection
	wait      time.Duration
	mu        sync.Mutex
	pending   map[any]string // request id -> method
	changed   chan struct{}  // closed and replaced when a request is answered
	closed    chan struct{}
	closeOnce sync.Once
}

// Read reads the next message. A tool call waits for the previous tool
// call's answer; at the end of input Read first waits for the answers to
// the requests already read.
func (c *seqConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		if errors.Is(err, io.EOF) {
			c.waitUntil(ctx, func() bool { return len(c.pending) == 0 }, c.wait)
		}
		return nil, err
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return msg, nil
	}
	if req.Method == "tools/call" {
		c.waitUntil(ctx, func() bool {
			for _, m := range c.pending {
				if m == "tools/call" {
					return false
				}
			}
			return true
		}, 0)
	}
	c.mu.Lock()
	c.pending[req.ID.Raw()] = req.Method
	c.mu.Unlock()
	return msg, nil
}

// Write writes a message, marking a response's request answered.
func (c *seqConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID.Raw())
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
	return err
}

// Close closes the connection and releases a waiting Read.
func (c *seqConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

// waitUntil waits until done() holds (checked under the lock), the
// connection closes, ctx ends or, when limit > 0, limit elapses.
func (c *seqConn) waitUntil(ctx context.Context, done func() bool, limit time.Duration) {
	var timeout <-chan time.Time
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		timeout = timer.C
	}
	for {
		c.mu.Lock()
		ok, changed := done(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			return
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		}
	}
}
