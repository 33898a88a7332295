package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// The read gate (spec section 7): a call may read exactly the file cards
// reachable through the lineage of the handles it opened, each resolved to
// a regular file under the strict data root. Every refusal is recorded as
// a Denial in the session and wraps ErrDenied.

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
	if real, ok := r.resolvePlain(rel); ok {
		return real, nil
	}
	return r.resolveLinked(rel)
}

// resolvePlain is resolve's common case: every element of rel below the
// (already resolved) root is a real directory and the last one a regular
// file, none a symlink. It costs one lstat per element of rel, where
// filepath.EvalSymlinks would also walk the root's own elements and a
// final stat would follow. It reports false, having decided nothing, on a
// symlink, a missing element or anything else unusual, which
// resolveLinked then handles (and words the error for).
func (r dataRoot) resolvePlain(rel string) (string, bool) {
	cur := strings.TrimSuffix(r.dir, string(filepath.Separator))
	for rest := rel; ; {
		el, tail, more := strings.Cut(rest, "/")
		cur += string(filepath.Separator) + el
		st, err := os.Lstat(cur)
		if err != nil {
			return "", false
		}
		if !more {
			return cur, st.Mode().IsRegular()
		}
		if !st.IsDir() {
			return "", false
		}
		rest = tail
	}
}

// resolveLinked is resolve through filepath.EvalSymlinks, for paths whose
// elements include symlinks (which must still land inside the root) or
// are missing.
func (r dataRoot) resolveLinked(rel string) (string, error) {
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

// Open implements workers.Env: it authorizes the file cards reachable from
// the handle's lineage for the rest of the call.
func (e *callEnv) Open(name string) (*workers.Handle, error) {
	h, ok := e.s.handles[name]
	if !ok {
		return nil, fmt.Errorf("%s: unknown handle %q", e.tr.Tool, name)
	}
	e.opened[name] = true
	seen := map[string]bool{}
	stack := []string{name}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		hh := e.s.handles[n]
		if hh == nil {
			continue
		}
		for _, f := range hh.Files {
			e.allowed[f.Path] = f
		}
		stack = append(stack, hh.Parents...)
	}
	return h, nil
}

// authorized returns the file card of path when a handle the call opened
// reaches it, and records a denial otherwise.
func (e *callEnv) authorized(path string) (workers.FileCard, error) {
	card, ok := e.allowed[path]
	if !ok {
		return workers.FileCard{}, e.deny(path, "not a file card of a handle opened by this call")
	}
	return card, nil
}

// resolve maps an authorized path to its file under the data root; a path
// the root refuses is recorded as a denial.
func (e *callEnv) resolve(path string) (string, error) {
	real, err := e.s.eng.root.resolve(path)
	if err != nil {
		if errors.Is(err, ErrDenied) {
			return "", e.deny(path, err.Error())
		}
		return "", err
	}
	return real, nil
}

// deny records a refused read and returns its error (wrapping ErrDenied).
func (e *callEnv) deny(path, reason string) error {
	e.s.denials = append(e.s.denials, Denial{Call: e.tr.Index, Tool: e.tr.Tool, Path: path, Reason: reason})
	return fmt.Errorf("%w: %s: %s", ErrDenied, path, reason)
}
