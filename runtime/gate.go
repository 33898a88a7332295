package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// ReadPolicy is the name of the read-authorization policy (spec section 7).
const ReadPolicy = "opened_handle_exact_path_v1"

// ErrDenied is wrapped by every read-gate denial.
var ErrDenied = errors.New("read denied by " + ReadPolicy)

// Denial records one refused read.
type Denial struct {
	Call   int    `json:"call"`
	Tool   string `json:"tool"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// dataRoot is the strict data root every read is resolved under.
type dataRoot struct {
	dir string // absolute, symlinks resolved
}

func newDataRoot(dir string) (dataRoot, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dataRoot{}, fmt.Errorf("dataset root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return dataRoot{}, fmt.Errorf("dataset root: %w", err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return dataRoot{}, fmt.Errorf("dataset root: %w", err)
	}
	if !st.IsDir() {
		return dataRoot{}, fmt.Errorf("dataset root %s is not a directory", dir)
	}
	return dataRoot{dir: real}, nil
}

// resolve maps a repository-relative path to a regular file inside the
// root, refusing anything that leaves it (including through symlinks).
func (r dataRoot) resolve(rel string) (string, error) {
	if err := workers.CheckRelativePath(rel); err != nil {
		return "", fmt.Errorf("%w: %v", ErrDenied, err)
	}
	full := filepath.Join(r.dir, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("declared file %s is missing: %w", rel, os.ErrNotExist)
		}
		return "", fmt.Errorf("declared file %s: %w", rel, err)
	}
	inside, err := filepath.Rel(r.dir, real)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
		return "", fmt.Errorf("%w: %s resolves outside the data root", ErrDenied, rel)
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("declared file %s: %w", rel, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s is not a regular file", ErrDenied, rel)
	}
	return real, nil
}
