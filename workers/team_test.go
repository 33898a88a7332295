package workers

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTeamRunsEachStepOnce runs many steps through one team, some while
// its helper is asleep or not yet started, and requires every function to
// run exactly once with its effects visible when both returns.
func TestTeamRunsEachStepOnce(t *testing.T) {
	tm := NewTeam()
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
	tm := NewTeam()
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
	tm := NewTeam()
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
