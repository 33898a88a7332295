package main

import (
	"runtime/debug"
	"testing"
	"time"
)

func TestHeapLimitFollowsLiveHeapAndYieldsToTheEnvironment(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	stop := startHeapLimit(time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got < heapFloor {
		t.Errorf("limit %d while replaying, want at least %d", got, heapFloor)
	}
	// A live heap well above the floor lifts the limit above it.
	big := make([]byte, 3*heapFloor/4)
	for i := range big {
		big[i] = byte(i)
	}
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < 2*int64(len(big)) && time.Now().Before(deadline) {
		debug.FreeOSMemory() // a collection measures the live heap
		time.Sleep(5 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < 2*int64(len(big)) {
		t.Errorf("limit %d with %d bytes live, want at least twice that", got, len(big))
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after stop, want %d restored", got, before)
	}
	_ = big[len(big)-1]

	t.Setenv("GOMEMLIMIT", "1GiB")
	stop = startHeapLimit(time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d with GOMEMLIMIT set, want the runtime's own %d", got, before)
	}
	stop()
}
