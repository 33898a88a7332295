package workers

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team runs one side of a worker's short parallel steps on a helper
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
// slower than running both halves in turn. A team must be closed.
type team struct {
	pending  atomic.Pointer[func()] // a step not yet taken
	finished atomic.Uint64          // steps the helper has completed
	quit     atomic.Bool
	wake     chan struct{} // a step arrived while the helper sleeps
}

// teamSpin bounds how long an idle helper keeps its core busy.
const teamSpin = 500 * time.Microsecond

// newTeam starts a team's helper goroutine.
func newTeam() *team {
	t := &team{wake: make(chan struct{}, 1)}
	go t.help()
	return t
}

func (t *team) help() {
	idleSince := time.Now()
	for spins := 0; !t.quit.Load(); spins++ {
		if f := t.pending.Swap(nil); f != nil {
			(*f)()
			t.finished.Add(1)
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

// both runs f and g concurrently (f on the helper when it is ready in
// time) and returns when both have returned.
func (t *team) both(f, g func()) {
	done := t.finished.Load()
	t.pending.Store(&f)
	select {
	case t.wake <- struct{}{}:
	default:
	}
	g()
	if p := t.pending.Swap(nil); p != nil {
		(*p)() // the helper did not take f: run it here
		return
	}
	for t.finished.Load() == done {
		runtime.Gosched()
	}
}

// close stops the helper.
func (t *team) close() {
	t.quit.Store(true)
	select {
	case t.wake <- struct{}{}:
	default:
	}
}
