package crs

import (
	"testing"

	"github.com/geodisaster/engine/crs/internal/core"
)

// TestRegistryParses parses every record of the embedded EPSG table (the
// registry parses a record on its first lookup, so a corrupt one would
// otherwise only show when a process looks it up).
func TestRegistryParses(t *testing.T) {
	r, err := core.ParseRegistry(epsgTables)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.ParseAll(); err != nil {
		t.Fatal(err)
	}
	if g, p := len(r.GeogCodes()), len(r.ProjCodes()); g != 624 || p != 5500 {
		t.Errorf("%d geographic and %d projected CRSs, want 624 and 5500", g, p)
	}
	if r.Err() != nil {
		t.Error(r.Err())
	}
}

// TestRegistryConcurrentLookups builds CRSs of a fresh registry from
// several goroutines at once (records are parsed on first lookup, by
// whichever goroutine gets there first) while another parses everything;
// all get the same CRSs. Run with -race.
func TestRegistryConcurrentLookups(t *testing.T) {
	r, err := core.ParseRegistry(epsgTables)
	if err != nil {
		t.Fatal(err)
	}
	codes := []int{4326, 32633, 3857, 27700, 2154, 4277, 31467, 4314, 3031, 32760}
	const n = 8
	got := make([][]CRS, n)
	done := make(chan error, n+1)
	for g := range n {
		go func() {
			for i := range codes {
				code := codes[(i+g)%len(codes)]
				c, err := r.FromEPSG(code)
				if err != nil {
					done <- err
					return
				}
				got[g] = append(got[g], c)
			}
			done <- nil
		}()
	}
	go func() { done <- r.ParseAll() }()
	for range n + 1 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for g := range n {
		for i, c := range got[g] {
			want, _ := r.FromEPSG(codes[(i+g)%len(codes)])
			if c != want {
				t.Errorf("goroutine %d: EPSG:%d built twice", g, want.EPSG())
			}
		}
	}
}
