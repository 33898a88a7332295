package main

import (
	"os"
	"os/exec"
	"testing"
)

// needTool returns the path of a native tool the test compares against:
// it fails under CI=true (.ci/steps/00-native-stack.sh installs the
// native stack there) and skips elsewhere when the tool is absent.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s is not installed (.ci/steps/00-native-stack.sh installs it)", name)
	}
	t.Skipf("%s is not installed; the comparison with it did not run", name)
	return ""
}
