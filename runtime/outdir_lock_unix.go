//go:build unix

package runtime

import (
	"errors"
	"os"
	"syscall"
)

// lockExclusive takes an exclusive advisory lock on f without waiting; the
// kernel releases it when the process ends, however it ends. A file system
// without locks leaves the directory unlocked.
func lockExclusive(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return errLocked
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EINVAL):
		return nil
	}
	return err
}
