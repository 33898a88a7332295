// Package clitest builds the geodisaster command for tests that run it as
// a separate program.
package clitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build builds the static geodisaster binary (CGO_ENABLED=0, plus env,
// e.g. "GOOS=linux") into a temporary directory of t and returns its path.
// It skips under -short.
func Build(t testing.TB, env ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	out := filepath.Join(t.TempDir(), "geodisaster")
	cmd := exec.Command("go", "build", "-o", out, "github.com/geodisaster/engine/cmd/geodisaster")
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}
