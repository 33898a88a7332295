package runtime

import "testing"

func TestBufferPoolClassesAndLimit(t *testing.T) {
	p := newBufferPool(3 << 20)
	if b := p.get(1000); b != nil {
		t.Errorf("small buffer pooled: cap %d", cap(b))
	}
	b := p.get(1<<20 + 1)
	if len(b) != 1<<20+1 || cap(b) != 2<<20 {
		t.Fatalf("len %d cap %d", len(b), cap(b))
	}
	p.put(b)
	if c := p.get(1500 << 10); cap(c) != 2<<20 || &c[:1][0] != &b[:1][0] {
		t.Errorf("buffer not reused")
	}
	p.put(make([]byte, 3<<20)) // not a pooled capacity
	p.put(make([]byte, 0, 2<<20))
	p.put(make([]byte, 0, 2<<20)) // over the limit: dropped
	if p.held != 2<<20 {
		t.Errorf("held %d, want %d", p.held, 2<<20)
	}
}
