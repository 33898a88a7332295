package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// heapFloor is the memory limit a replay keeps while its live heap is
// small: the garbage collector's default goal (twice the live heap) plus
// memory it has not yet returned to the system let a full release of two
// workers reach 310-330 MB of RSS with a live heap of at most 130 MB.
const heapFloor = 256 << 20

// heapSlack is added to twice the live heap (the default goal), so that
// stacks and runtime metadata, which the limit counts and the goal does
// not, do not make the collector run earlier than its goal.
const heapSlack = 16 << 20

// startHeapLimit keeps a soft memory limit (debug.SetMemoryLimit) at
// heapFloor or twice the live heap plus heapSlack, whichever is larger,
// updated every interval until the returned stop is called: the limit
// bounds a replay's RSS when its live heap is small and never binds when
// it is large (a fixed limit below a large live heap would make the
// collector run back to back). It does nothing when GOGC or GOMEMLIMIT is
// set in the environment: the user's settings stand.
func startHeapLimit(interval time.Duration) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(-1)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	update := func() {
		metrics.Read(sample)
		limit := int64(heapFloor)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			if live := int64(sample[0].Value.Uint64()); 2*live+heapSlack > limit {
				limit = 2*live + heapSlack
			}
		}
		debug.SetMemoryLimit(limit)
	}
	update()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				update()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		debug.SetMemoryLimit(prev)
	}
}
