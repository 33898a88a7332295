package cli

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is a progress bar for long work: drawn on w when w is a
// terminal, absent (every method a no-op) otherwise, so output in pipes
// and logs stays clean. A nil *Progress is valid and does nothing. Its
// methods are safe for concurrent use.
type Progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// NewProgress returns a bar of total steps labelled desc on w, or nil when
// w is not a terminal. A total of -1 draws a spinner for work of unknown
// length.
func NewProgress(w io.Writer, total int, desc string) *Progress {
	if !IsTerminal(w) {
		return nil
	}
	return newProgress(w, total, desc, 100*time.Millisecond)
}

// newProgress draws on w unconditionally, redrawing at most once per
// throttle (tests use it with buffers).
func newProgress(w io.Writer, total int, desc string, throttle time.Duration) *Progress {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	return &Progress{bar: bar}
}

// Set moves the bar to done steps of total (total may change, for work
// whose size is learnt on the way).
func (p *Progress) Set(done, total int) {
	p.locked(func(bar *progressbar.ProgressBar) {
		if total > 0 && int64(total) != bar.GetMax64() {
			bar.ChangeMax(total)
		}
		_ = bar.Set(done)
	})
}

// Add advances the bar by n steps.
func (p *Progress) Add(n int) {
	p.locked(func(bar *progressbar.ProgressBar) { _ = bar.Add(n) })
}

// Describe changes the bar's label.
func (p *Progress) Describe(desc string) {
	p.locked(func(bar *progressbar.ProgressBar) { bar.Describe(desc) })
}

// Finish completes the bar and clears it from the terminal.
func (p *Progress) Finish() {
	p.locked(func(bar *progressbar.ProgressBar) { _ = bar.Finish() })
}

// locked runs f on the bar under the mutex; on a nil Progress (no
// terminal) it does nothing.
func (p *Progress) locked(f func(bar *progressbar.ProgressBar)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p.bar)
}

// Func returns a callback of the form func(done, total int) that moves the
// bar, or nil when there is no bar (so callers skip the work of
// reporting).
func (p *Progress) Func() func(done, total int) {
	if p == nil {
		return nil
	}
	return p.Set
}
