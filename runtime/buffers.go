package runtime

import (
	"math/bits"
	"sync"
)

// A bufferPool keeps the large buffers of replayed sessions (input file
// bytes, decoded bands) for later sessions of the same engine. Memory that
// is new to the process costs page faults and zeroing by the kernel, about
// a quarter of a millisecond per MiB here, which for a Sen1Floods11 chip
// was several times the cost of reading the file from the page cache.
//
// Buffers come in power-of-two capacities from minPooled to maxPooled; the
// pool holds at most limit bytes of idle buffers and lets the rest go to
// the garbage collector. (A full-size replay with two workers peaks about
// 40 MB higher in RSS with the pool than without.)
type bufferPool struct {
	mu    sync.Mutex
	free  [64][][]byte // by log2 of capacity
	held  int
	limit int
}

const (
	minPooled = 64 << 10 // smaller buffers come from make
	maxPooled = 8 << 20  // larger ones too: rare, and they would crowd the pool
	poolLimit = 32 << 20
)

func newBufferPool(limit int) *bufferPool { return &bufferPool{limit: limit} }

// poolClass returns the log2 of the smallest pooled capacity holding n
// bytes.
func poolClass(n int) int { return bits.Len(uint(n - 1)) }

// get returns a buffer of length n with unspecified contents, or nil when
// n is too small to pool.
func (p *bufferPool) get(n int) []byte {
	if n < minPooled || n > maxPooled {
		return nil
	}
	c := poolClass(n)
	p.mu.Lock()
	if k := len(p.free[c]); k > 0 {
		b := p.free[c][k-1]
		p.free[c][k-1] = nil
		p.free[c] = p.free[c][:k-1]
		p.held -= cap(b)
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	return make([]byte, n, 1<<c)
}

// put returns a buffer from get for reuse. Nothing may use b afterwards.
func (p *bufferPool) put(b []byte) {
	c := cap(b)
	if c < minPooled || c > maxPooled || c&(c-1) != 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held+c > p.limit {
		return
	}
	p.held += c
	k := poolClass(c)
	p.free[k] = append(p.free[k], b[:0])
}

// sessionBuffers are the pooled buffers a session has taken; they return
// to the pool when a replay ends (Engine.ReplayRecord), never while a
// worker or prefetch may still use them.
type sessionBuffers struct {
	mu    sync.Mutex
	taken [][]byte
}

// alloc returns a buffer of length n (contents unspecified) from the
// engine's pool, recorded for release, or from make when n is not pooled.
// It is the session's rasterhook.Allocator: a band read writes every
// sample of its storage (raster's TestReadsOverwriteAllocatedStorage), so
// recycled band buffers need no clearing.
func (s *Session) alloc(n int) []byte {
	if b := s.take(n); b != nil {
		return b
	}
	return make([]byte, n)
}

// take returns a pooled buffer of length n, recorded for release, or nil.
func (s *Session) take(n int) []byte {
	b := s.eng.bufs.get(n)
	if b != nil {
		s.bufs.mu.Lock()
		s.bufs.taken = append(s.bufs.taken, b)
		s.bufs.mu.Unlock()
	}
	return b
}

// recycle stops the session's prefetches and returns its pooled buffers to
// the engine. The session must not be used afterwards: its file cache,
// whose bytes and bands live in those buffers, is dropped.
func (s *Session) recycle() {
	s.stopPrefetches()
	s.files = map[string]*fileEntry{}
	s.bufs.mu.Lock()
	taken := s.bufs.taken
	s.bufs.taken = nil
	s.bufs.mu.Unlock()
	for _, b := range taken {
		s.eng.bufs.put(b)
	}
}
