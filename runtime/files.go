package runtime

import (
	"errors"
	"fmt"
	"os"

	"github.com/geodisaster/engine/internal/atomicfile"
)

// The file-system steps that output directories and artifacts share.

// WriteFileAtomic writes data to path through a temporary file in the
// same directory (mode OutputFileMode, synced) and a rename: a reader
// sees the old file or the whole new one, never a part.
func WriteFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, OutputFileMode, true); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeTemp writes data to a new temporary file .<name>.tmp-* in dir, mode
// OutputFileMode (CreateTemp makes 0600), synced when sync is set, and
// returns its path. A failed write removes the file and is reported as
// "writing <what>: ...".
func writeTemp(dir, name string, data []byte, sync bool, what string) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return "", err
	}
	if err := fill(tmp, data, sync); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("writing %s: %w", what, err)
	}
	return tmp.Name(), nil
}

// writeFileExclusive writes a new file (mode OutputFileMode) that must
// not exist yet.
func writeFileExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, OutputFileMode)
	if err != nil {
		return err
	}
	return fill(f, data, false)
}

// fill writes data into the new file f, sets its mode to OutputFileMode
// (whatever the umask), syncs it when sync is set and closes it, reporting
// every step's error.
func fill(f *os.File, data []byte, sync bool) error {
	_, werr := f.Write(data)
	merr := f.Chmod(OutputFileMode)
	var serr error
	if sync {
		serr = f.Sync()
	}
	cerr := f.Close()
	return errors.Join(werr, merr, serr, cerr)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	// Some file systems cannot sync a directory; the rename stands.
	_ = d.Sync()
	return nil
}
