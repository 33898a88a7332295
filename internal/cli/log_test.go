package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestNewLoggerFormats(t *testing.T) {
	var b bytes.Buffer
	l, err := NewLogger(&b, LogAuto, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	l.Info("replaying", "records", 3)
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil || m["msg"] != "replaying" || m["records"] != 3.0 {
		t.Errorf("a pipe gets slog JSON: %q (%v)", b.String(), err)
	}
	b.Reset()
	l, _ = NewLogger(&b, LogText, slog.LevelInfo)
	l.Debug("hidden")
	l.Info("replaying", "records", 3, "dir", "/tmp/a b")
	if ok, _ := regexp.MatchString(`^\d\d:\d\d:\d\d INFO  replaying records=3 dir="/tmp/a b"\n$`, b.String()); !ok {
		t.Errorf("text line %q", b.String())
	}
	var ue *UsageError
	if _, err := NewLogger(&b, "xml", nil); !errors.As(err, &ue) {
		t.Errorf("unknown format: %v", err)
	}
}

func TestTextHandlerGroupsAndAttrs(t *testing.T) {
	var b bytes.Buffer
	l := slog.New(NewTextHandler(&b, slog.LevelDebug)).With("run", 1).WithGroup("g")
	l.Warn("slow", "took", 1500*time.Millisecond, slog.Group("q", "n", 2), "empty", "")
	got := b.String()
	if !strings.Contains(got, ` WARN  slow run=1 g.took=1.5s g.q.n=2 g.empty=""`) {
		t.Errorf("got %q", got)
	}
}
