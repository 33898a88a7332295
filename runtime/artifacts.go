package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/geodisaster/engine/workers"
)

// Artifacts: the one path by which workers write files. Each is a plain
// file name in the session's artifact directory, written by temporary file
// and rename, accounted against the session's artifact limit and returned
// with its SHA-256 and its generated-artifact:// locator.

// hashAsideMin is the size from which WriteArtifact hashes an artifact on
// another core while its file is written.
const hashAsideMin = 64 << 10

// WriteArtifact implements workers.Env. A large artifact is hashed on
// another core while its file is written; a caller's sum replaces the
// hashing.
func (e *callEnv) WriteArtifact(name string, data []byte, sum func() [32]byte) (workers.Artifact, error) {
	s := e.s
	if sum != nil {
		art, err := s.writeArtifact(name, data)
		if err != nil {
			return workers.Artifact{}, err
		}
		return withSHA256(art, nil, sum())
	}
	var digest [32]byte
	var art workers.Artifact
	var err error
	s.alongside(len(data) >= hashAsideMin,
		func() { digest = sha256.Sum256(data) },
		func() { art, err = s.writeArtifact(name, data) })
	return withSHA256(art, err, digest)
}

// alongside runs hash and write: one after the other when parallel is not
// set, else on two cores, through the session's helper when it is awake (a
// goroutine started here would wait for an idle core to wake up, or for
// the helper to yield).
func (s *Session) alongside(parallel bool, hash, write func()) {
	switch {
	case !parallel:
		hash()
		write()
	case s.team != nil:
		s.team.Both(hash, write)
	default:
		done := make(chan struct{})
		go func() {
			hash()
			close(done)
		}()
		write()
		<-done
	}
}

// withSHA256 completes an artifact written by writeArtifact with its
// digest.
func withSHA256(art workers.Artifact, err error, sum [32]byte) (workers.Artifact, error) {
	if err != nil {
		return workers.Artifact{}, err
	}
	art.SHA256 = hex.EncodeToString(sum[:])
	return art, nil
}

// writeArtifact checks the name and the session's artifact limit, writes
// data into the artifact directory (putArtifact) and accounts for it. The
// returned artifact has no SHA256: the caller, which may hash data while
// it is written, fills it in.
func (s *Session) writeArtifact(name string, data []byte) (workers.Artifact, error) {
	if err := workers.CheckRelativePath(name); err != nil || strings.Contains(name, "/") {
		return workers.Artifact{}, fmt.Errorf("artifact name %q must be a plain file name", name)
	}
	if err := checkLimit(LimitArtifactBytes, s.limits.ArtifactBytes, s.artifactBytes, int64(len(data)), "artifact "+name); err != nil {
		return workers.Artifact{}, err
	}
	dir, err := s.artifactDirectory()
	if err != nil {
		return workers.Artifact{}, err
	}
	if err := putArtifact(dir, name, data); err != nil {
		return workers.Artifact{}, err
	}
	s.artifactBytes += int64(len(data))
	return workers.Artifact{
		Locator: "generated-artifact://" + safeName(s.rec.ID) + "/" + name,
		Name:    name, Size: int64(len(data)),
	}, nil
}

// artifactDirectory returns the session's artifact directory, created at
// the first artifact (a temporary one when the session has none).
func (s *Session) artifactDirectory() (string, error) {
	if s.artifactDir == "" {
		dir, err := os.MkdirTemp("", "geodisaster-artifacts-")
		if err != nil {
			return "", err
		}
		s.artifactDir, s.tempArtifact = dir, true
	}
	if !s.artifactDirMade {
		if err := os.MkdirAll(s.artifactDir, 0o755); err != nil {
			return "", fmt.Errorf("artifact directory: %w", err)
		}
		s.artifactDirMade = true
	}
	return s.artifactDir, nil
}

// putArtifact makes dir/name a file holding data, written to a temporary
// file and renamed into place (an existing artifact of that name, from an
// earlier run into the same directory, is removed first: renaming over it
// makes ext4 flush the new file synchronously). An existing artifact that
// already holds exactly data (a rerun into the same directory; names are
// content-addressed) is kept as it is: comparing it costs less than
// writing, and replacing it would create and delete an inode per artifact,
// which makes every later file creation slower on ext4 (its inode
// allocator steps over recently deleted inodes).
func putArtifact(dir, name string, data []byte) error {
	final := filepath.Join(dir, name)
	same, exists := sameFileContent(final, data)
	if same {
		return nil
	}
	tmp, err := writeTemp(dir, name, data, false, "artifact "+name)
	if err != nil {
		return err
	}
	// An artifact new to the directory has nothing to remove first.
	if exists {
		if err := os.Remove(final); err != nil && !errors.Is(err, os.ErrNotExist) {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// sameFileContent reports whether path is a regular file (not a symbolic
// link) whose bytes equal data, and whether anything exists at path. Any
// error reads as not the same (and as existing unless path is absent).
func sameFileContent(path string, data []byte) (same, exists bool) {
	li, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, false
	}
	return sameRegularFile(path, li, err, data), true
}

func sameRegularFile(path string, li os.FileInfo, err error, data []byte) bool {
	if err != nil || !li.Mode().IsRegular() || li.Size() != int64(len(data)) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !os.SameFile(li, fi) {
		return false
	}
	bp := compareBufPool.Get().(*[]byte)
	defer compareBufPool.Put(bp)
	buf := *bp
	for rest := data; len(rest) > 0; {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(rest))])
		if err != nil || !bytes.Equal(buf[:n], rest[:n]) {
			return false
		}
		rest = rest[n:]
	}
	n, _ := f.Read(buf[:1]) // the file must end where data does
	return n == 0
}

// compareBufPool recycles sameFileContent's read buffer.
var compareBufPool = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}
