package golden

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// recorder is a testing.TB whose Fatal calls are recorded and end the
// goroutine, as testing's own do.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}
func (r *recorder) Fatal(args ...any) {
	r.failed = true
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = true
	runtime.Goexit()
}

func TestLoadDecodesAndFailsOnBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(`{"cases":[1,2,3]}`), 0o644)
	os.WriteFile(bad, []byte(`{"cases":`), 0o644)
	var g struct{ Cases []int }
	Load(t, good, &g)
	if len(g.Cases) != 3 || g.Cases[2] != 3 {
		t.Fatalf("decoded %+v", g)
	}
	for _, p := range []string{bad, filepath.Join(dir, "absent.json")} {
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Load(r, p, &g)
		}()
		<-done
		if !r.failed {
			t.Errorf("%s: no failure", p)
		}
	}
}
