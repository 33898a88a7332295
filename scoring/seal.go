package scoring

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
)

// SealFormat identifies the sealed-corpus manifest format.
const SealFormat = "geodisaster_corpus_seal_v1"

// ErrEmptyCorpus is returned when asked to seal a tree with no files: an
// absent corpus must be reported as absent, never sealed as an empty pass.
var ErrEmptyCorpus = errors.New("corpus holds no files; refusing to seal an empty corpus")

// SealedFile is one file of a sealed corpus.
type SealedFile struct {
	// Path is slash-separated and relative to the corpus root.
	Path string `json:"path"`
	// Size is the length in bytes.
	Size int64 `json:"size"`
	// SHA256 is the lowercase hex SHA-256 of the contents.
	SHA256 string `json:"sha256"`
}

// Seal is the manifest of a sealed corpus: every regular file with its size
// and SHA-256, sorted by path.
type Seal struct {
	Format     string       `json:"format"`
	Files      int          `json:"files"`
	TotalBytes int64        `json:"total_bytes"`
	Entries    []SealedFile `json:"entries"`
}

// IrregularFileError reports a symlink, device, socket or other
// non-regular entry in a corpus; sealed corpora hold regular files only.
type IrregularFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *IrregularFileError) Error() string {
	return fmt.Sprintf("%s: %v is not a regular file; sealed corpora hold regular files and directories only", e.Path, e.Mode.Type())
}

// walkCorpus calls fn for every regular file of fsys in lexical order and
// fails on any other kind of entry.
func walkCorpus(fsys fs.FS, fn func(p string) error) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", p, err)
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return &IrregularFileError{Path: p, Mode: d.Type()}
		}
		return fn(p)
	})
}

// hashFile returns the size and hex SHA-256 of one file.
func hashFile(fsys fs.FS, p string) (int64, string, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return 0, "", fmt.Errorf("open %s: %w", p, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("read %s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// SealFS seals every regular file under fsys. It fails with ErrEmptyCorpus
// when there is none and with *IrregularFileError on symlinks and other
// special files.
func SealFS(fsys fs.FS) (*Seal, error) {
	s := &Seal{Format: SealFormat, Entries: []SealedFile{}}
	err := walkCorpus(fsys, func(p string) error {
		n, sum, err := hashFile(fsys, p)
		if err != nil {
			return err
		}
		s.Entries = append(s.Entries, SealedFile{Path: p, Size: n, SHA256: sum})
		s.TotalBytes += n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if len(s.Entries) == 0 {
		return nil, fmt.Errorf("seal: %w", ErrEmptyCorpus)
	}
	s.Files = len(s.Entries)
	return s, nil
}

// ReadSeal parses and validates a seal manifest.
func ReadSeal(r io.Reader) (*Seal, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var s Seal
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("read seal: %w", err)
	}
	if s.Format != SealFormat {
		return nil, fmt.Errorf("read seal: format %q, want %s", s.Format, SealFormat)
	}
	if len(s.Entries) == 0 {
		return nil, fmt.Errorf("read seal: %w", ErrEmptyCorpus)
	}
	if s.Files != len(s.Entries) {
		return nil, fmt.Errorf("read seal: files %d but %d entries", s.Files, len(s.Entries))
	}
	seen := map[string]bool{}
	var total int64
	for _, e := range s.Entries {
		if e.Path == "" || !fs.ValidPath(e.Path) || e.Path == "." {
			return nil, fmt.Errorf("read seal: invalid path %q", e.Path)
		}
		if seen[e.Path] {
			return nil, fmt.Errorf("read seal: duplicate path %s", e.Path)
		}
		seen[e.Path] = true
		if e.Size < 0 || len(e.SHA256) != 64 || strings.ToLower(e.SHA256) != e.SHA256 {
			return nil, fmt.Errorf("read seal: %s: invalid size or sha256", e.Path)
		}
		if _, err := hex.DecodeString(e.SHA256); err != nil {
			return nil, fmt.Errorf("read seal: %s: sha256: %w", e.Path, err)
		}
		total += e.Size
	}
	if total != s.TotalBytes {
		return nil, fmt.Errorf("read seal: total_bytes %d but entries sum to %d", s.TotalBytes, total)
	}
	return &s, nil
}

// SealDiff lists how a corpus differs from its seal. Each list is sorted.
type SealDiff struct {
	// Changed files have the sealed size but different contents.
	Changed []string `json:"changed"`
	// Resized files have a different size.
	Resized []string `json:"resized"`
	// Added files are present but not sealed.
	Added []string `json:"added"`
	// Removed files are sealed but absent.
	Removed []string `json:"removed"`
	// Verified counts sealed files found intact.
	Verified int `json:"verified"`
}

// OK reports whether the corpus matches its seal exactly.
func (d *SealDiff) OK() bool {
	return len(d.Changed)+len(d.Resized)+len(d.Added)+len(d.Removed) == 0
}

// VerifySeal compares fsys against s. A resized file is reported as
// resized only (not also changed). Symlinks and special files are errors.
func VerifySeal(fsys fs.FS, s *Seal) (*SealDiff, error) {
	want := make(map[string]SealedFile, len(s.Entries))
	for _, e := range s.Entries {
		want[e.Path] = e
	}
	d := &SealDiff{Changed: []string{}, Resized: []string{}, Added: []string{}, Removed: []string{}}
	found := map[string]bool{}
	err := walkCorpus(fsys, func(p string) error {
		e, sealed := want[p]
		if !sealed {
			d.Added = append(d.Added, p)
			return nil
		}
		found[p] = true
		n, sum, err := hashFile(fsys, p)
		switch {
		case err != nil:
			return err
		case n != e.Size:
			d.Resized = append(d.Resized, p)
		case sum != e.SHA256:
			d.Changed = append(d.Changed, p)
		default:
			d.Verified++
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("verify seal: %w", err)
	}
	for p := range want {
		if !found[p] {
			d.Removed = append(d.Removed, p)
		}
	}
	for _, l := range [][]string{d.Changed, d.Resized, d.Added, d.Removed} {
		sort.Strings(l)
	}
	return d, nil
}
