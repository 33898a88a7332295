// Package atomicfile writes a whole file so that readers see either the
// old contents or the new, never a part.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path through a temporary file beside it
// (".<name>.tmp-*"), synced to disk first when sync is set, with mode perm
// whatever the umask, and renames it over path. On failure the temporary
// file is removed and path is left as it was.
func WriteFile(path string, data []byte, perm fs.FileMode, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return errors.Join(err, removeIfPresent(f.Name()))
	}
	return nil
}

func removeIfPresent(name string) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
