package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Log formats accepted by NewLogger.
const (
	LogAuto = ""     // text on a terminal, JSON otherwise
	LogText = "text" // one readable line per record
	LogJSON = "json" // log/slog's JSON handler
)

// NewLogger returns a logger writing to w at level: readable lines when
// format is LogText, or LogAuto and w is a terminal; slog JSON otherwise.
// An unknown format is an error.
func NewLogger(w io.Writer, format string, level slog.Leveler) (*slog.Logger, error) {
	switch format {
	case LogAuto:
		if IsTerminal(w) {
			format = LogText
		} else {
			format = LogJSON
		}
	case LogText, LogJSON:
	default:
		return nil, Usagef("--log-format %q: want text or json", format)
	}
	if format == LogJSON {
		return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})), nil
	}
	return slog.New(NewTextHandler(w, level)), nil
}

// TextHandler is a slog.Handler for people: "15:04:05 INFO  message
// key=value ...", one line per record, values quoted only when they
// contain blanks or quotes.
type TextHandler struct {
	mu     *sync.Mutex
	w      io.Writer
	level  slog.Leveler
	prefix string // preformatted attributes of WithAttrs
	group  string // group prefix of WithGroup ("a.b.")
}

// NewTextHandler returns a TextHandler writing to w at level (info when
// nil).
func NewTextHandler(w io.Writer, level slog.Leveler) *TextHandler {
	if level == nil {
		level = slog.LevelInfo
	}
	return &TextHandler{mu: &sync.Mutex{}, w: w, level: level}
}

// Enabled implements slog.Handler.
func (h *TextHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

// Handle implements slog.Handler.
func (h *TextHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	b.WriteString(t.Format("15:04:05"))
	b.WriteByte(' ')
	lv := r.Level.String()
	b.WriteString(lv)
	b.WriteString(strings.Repeat(" ", max(1, 6-len(lv))))
	b.WriteString(r.Message)
	b.WriteString(h.prefix)
	r.Attrs(func(a slog.Attr) bool {
		appendAttr(&b, h.group, a)
		return true
	})
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

// WithAttrs implements slog.Handler.
func (h *TextHandler) WithAttrs(as []slog.Attr) slog.Handler {
	var b strings.Builder
	for _, a := range as {
		appendAttr(&b, h.group, a)
	}
	c := *h
	c.prefix += b.String()
	return &c
}

// WithGroup implements slog.Handler.
func (h *TextHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group += name + "."
	return &c
}

// appendAttr writes " key=value" (groups flattened to "group.key").
func appendAttr(b *strings.Builder, group string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		g := group
		if a.Key != "" {
			g += a.Key + "."
		}
		for _, ga := range a.Value.Group() {
			appendAttr(b, g, ga)
		}
		return
	}
	b.WriteByte(' ')
	b.WriteString(group + a.Key)
	b.WriteByte('=')
	var s string
	switch a.Value.Kind() {
	case slog.KindDuration:
		s = a.Value.Duration().Round(time.Millisecond).String()
	case slog.KindTime:
		s = a.Value.Time().Format(time.RFC3339)
	default:
		s = fmt.Sprint(a.Value.Any())
	}
	if s == "" || strings.ContainsAny(s, " \t\n\"=") {
		s = strconv.Quote(s)
	}
	b.WriteString(s)
}
