// Package team runs the two halves of short parallel steps on a helper
// goroutine that stays awake between them (see Team).
package team

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A Team runs one side of a worker's short parallel steps on a helper
// goroutine that keeps its core awake between them. A goroutine started
// per step must wait for an idle core to be woken (measured here, in a
// virtual machine: 80-110 µs median and over 1 ms at the 90th percentile
// from creation to running on the other core), which is as long as the
// steps themselves (0.1-0.5 ms), so most such goroutines ended up running
// after the caller's half, on the caller's core.
//
// The helper spins between steps (yielding to any other runnable
// goroutine) for at most teamSpin after its last step, then sleeps until
// the next one; the caller runs a step itself whenever the helper has not
// taken it by the time the caller's own half is done, so a team is never
// slower than running both halves in turn. A Team is used by one
// goroutine at a time and must be closed.
//
// While the helper spins, a goroutine the caller starts waits in the
// caller's run queue until the caller blocks: the helper's core keeps
// finding the helper in the global queue after each yield and never gets
// to stealing it (a trace showed a band decode goroutine waiting out the
// whole 1 ms spin). Work that runs while a team is awake is therefore
// handed to the team (Both, Go) or done by the goroutine that would
// otherwise wait for it (rasterhook.Pending.Wait).
type Team struct {
	pending atomic.Pointer[func()] // a step not yet taken
	quit    atomic.Bool
	wake    chan struct{} // a step arrived while the helper sleeps
}

// teamSpin bounds how long an idle helper keeps its core busy. It bridges
// the short gaps between the steps of one worker call; longer gaps
// (between the calls of a chain) are cheaper slept through: with 1 ms, a
// full synth --full replay on 2 cores spent about 6% more CPU and wall.
const teamSpin = 50 * time.Microsecond

// New starts a team's helper goroutine.
func New() *Team {
	t := &Team{wake: make(chan struct{}, 1)}
	go t.help()
	return t
}

func (t *Team) help() {
	idleSince := time.Now()
	for spins := 0; !t.quit.Load(); spins++ {
		if f := t.pending.Swap(nil); f != nil {
			(*f)()
			idleSince, spins = time.Now(), 0
			continue
		}
		if spins&63 == 63 && time.Since(idleSince) > teamSpin {
			<-t.wake
			idleSince, spins = time.Now(), 0
			continue
		}
		runtime.Gosched()
	}
}

// Both runs f and g concurrently (f on the helper when it is ready in
// time, else after g on the caller's goroutine) and returns when both
// have returned. f and g must not wait for each other. A panic in f is
// raised again on the caller's goroutine; when g panics, f is taken back
// or waited for first.
func (t *Team) Both(f, g func()) {
	var fin atomic.Bool
	var fp any // f's panic on the helper
	step := func() {
		defer func() {
			fp = recover()
			fin.Store(true)
		}()
		f()
	}
	if !t.pending.CompareAndSwap(nil, &step) {
		// The helper has a step of Go's waiting: run both here.
		g()
		f()
		return
	}
	t.nudge()
	gDone := false
	defer func() {
		if !gDone && !t.pending.CompareAndSwap(&step, nil) {
			for !fin.Load() {
				runtime.Gosched()
			}
		}
	}()
	g()
	gDone = true
	if t.pending.CompareAndSwap(&step, nil) {
		f() // the helper did not take f: run it here
		return
	}
	for !fin.Load() {
		runtime.Gosched()
	}
	if fp != nil {
		panic(fp)
	}
}

// Go starts f on the helper, which may run it only after a step it is
// running, and returns a function that waits for f to return (and raises
// a panic of f again). Unlike Both, f always runs on the helper, so it
// may wait for the caller.
func (t *Team) Go(f func()) (wait func()) {
	done := make(chan struct{})
	var fp any
	g := func() {
		defer close(done)
		defer func() { fp = recover() }()
		f()
	}
	if !t.pending.CompareAndSwap(nil, &g) {
		go g() // a step is pending already (not from this goroutine)
	} else {
		t.nudge()
	}
	return func() {
		<-done
		if fp != nil {
			panic(fp)
		}
	}
}

// nudge wakes a sleeping helper.
func (t *Team) nudge() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// Close stops the helper (after a step it is running).
func (t *Team) Close() {
	t.quit.Store(true)
	t.nudge()
}
