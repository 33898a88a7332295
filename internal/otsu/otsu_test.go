package otsu

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestThresholdPartsEqualsThreshold splits random values (some constant,
// some with a few distinct levels) into parts at random places, counts
// them serially and concurrently, and requires Threshold's bits.
func TestThresholdPartsEqualsThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	serial := func(fs []func()) {
		for _, f := range fs {
			f()
		}
	}
	concurrent := func(fs []func()) {
		var wg sync.WaitGroup
		for _, f := range fs {
			wg.Go(f)
		}
		wg.Wait()
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(3000)
		x := make([]float32, n)
		levels := 1 + rng.IntN(6)
		for i := range x {
			if trial%3 == 0 {
				x[i] = float32(rng.IntN(levels)) * 0.25
			} else {
				x[i] = float32(rng.NormFloat64()*3 - 12)
			}
		}
		want, err := Threshold(x, 256)
		if err != nil {
			t.Fatal(err)
		}
		mn, mx := x[0], x[0]
		for _, v := range x {
			mn, mx = min(mn, v), max(mx, v)
		}
		var parts [][]float32
		for rest := x; len(rest) > 0; {
			k := rng.IntN(len(rest) + 1)
			parts = append(parts, rest[:k])
			rest = rest[k:]
		}
		for name, run := range map[string]func([]func()){"serial": serial, "concurrent": concurrent} {
			got, err := ThresholdParts(parts, mn, mx, 256, run)
			if err != nil || math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("trial %d, %d parts, %s: %v %v, Threshold %v", trial, len(parts), name, got, err, want)
			}
		}
	}
	if _, err := ThresholdParts([][]float32{nil, {}}, 0, 1, 256, serial); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("empty parts: %v", err)
	}
	if _, err := ThresholdParts([][]float32{{1, 2}}, 1, 2, 0, serial); err == nil {
		t.Error("zero bins accepted")
	}
	if _, err := Threshold(nil, 256); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("empty input: %v", err)
	}
}
