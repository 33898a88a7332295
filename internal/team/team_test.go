package team

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTeamRunsEachStepOnce runs many steps through one team, some while
// its helper is asleep or not yet started, and requires every function to
// run exactly once with its effects visible when both returns.
func TestTeamRunsEachStepOnce(t *testing.T) {
	tm := New()
	defer tm.Close()
	var fs, gs atomic.Int64
	for i := 0; i < 2000; i++ {
		var a, b int
		tm.Both(func() { a = i; fs.Add(1) }, func() { b = i; gs.Add(1) })
		if a != i || b != i {
			t.Fatalf("step %d: effects %d %d not visible", i, a, b)
		}
		if i%500 == 0 {
			time.Sleep(2 * teamSpin) // the helper falls asleep
		}
	}
	if fs.Load() != 2000 || gs.Load() != 2000 {
		t.Fatalf("f ran %d times, g %d, want 2000 each", fs.Load(), gs.Load())
	}
}

// TestTeamRunsConcurrently checks that two halves that wait for each other
// complete, which needs the helper to run one while the caller runs the
// other.
func TestTeamRunsConcurrently(t *testing.T) {
	tm := New()
	defer tm.Close()
	time.Sleep(time.Millisecond) // the helper is running and spinning
	var met atomic.Int32
	meet := func() bool {
		met.Add(1)
		deadline := time.Now().Add(2 * time.Second)
		for met.Load() < 2 {
			if time.Now().After(deadline) {
				return false
			}
		}
		return true
	}
	var okF, okG bool
	tm.Both(func() { okF = meet() }, func() { okG = meet() })
	if !okF || !okG {
		t.Fatal("the two halves did not run at the same time")
	}
}

// TestTeamGoMayWaitForCaller checks that a function started with Go runs
// on the helper even when the caller only signals it later, and that Both
// still completes while the helper is busy with it.
func TestTeamGoMayWaitForCaller(t *testing.T) {
	tm := New()
	defer tm.Close()
	for i := 0; i < 200; i++ {
		signal := make(chan struct{})
		var got atomic.Bool
		wait := tm.Go(func() {
			<-signal
			got.Store(true)
		})
		var a, b bool
		tm.Both(func() { a = true }, func() { b = true })
		close(signal)
		wait()
		if !got.Load() || !a || !b {
			t.Fatalf("round %d: go %v both %v %v", i, got.Load(), a, b)
		}
	}
}

// TestTeamPanicsReachTheCaller requires a panic of a step run on the
// helper to be raised again on the caller's goroutine (where a worker's
// recover turns it into an error), the helper to stay usable, and a
// panicking g not to leave f running.
func TestTeamPanicsReachTheCaller(t *testing.T) {
	tm := New()
	defer tm.Close()
	caught := func(fn func()) (p any) {
		defer func() { p = recover() }()
		fn()
		return nil
	}
	for i := 0; i < 200; i++ {
		// f panics (on the helper or, if the helper is late, here).
		if p := caught(func() { tm.Both(func() { panic("f") }, func() {}) }); p != "f" {
			t.Fatalf("Both with a panicking f: recovered %v", p)
		}
		// g panics; f must have finished or not started when Both's panic
		// goes on, and not run afterwards.
		var fRan, after atomic.Bool
		p := caught(func() {
			tm.Both(func() { time.Sleep(50 * time.Microsecond); fRan.Store(true) }, func() { panic("g") })
		})
		if p != "g" {
			t.Fatalf("Both with a panicking g: recovered %v", p)
		}
		after.Store(fRan.Load())
		time.Sleep(100 * time.Microsecond)
		if fRan.Load() != after.Load() {
			t.Fatal("f ran after Both's panic went on")
		}
		if p := caught(func() { tm.Go(func() { panic("go") })() }); p != "go" {
			t.Fatalf("Go with a panicking f: wait recovered %v", p)
		}
	}
	var ok atomic.Bool
	tm.Both(func() { ok.Store(true) }, func() {})
	if !ok.Load() {
		t.Fatal("team unusable after panics")
	}
}
