package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// The entries of a replay's (or merge's) output directory. ManifestFile is
// written last and is the only proof that the directory is complete.
const (
	ManifestFile   = "manifest.json"
	ResultsFile    = "results.jsonl"
	ReportFile     = "report.json"
	ReportHTMLFile = "report.html"
	TracesDir      = "traces"
	ArtifactsDir   = "artifacts"
)

// OutputFileMode is the mode of every file an output directory holds
// (results, reports, traces, artifacts, manifest); OutputDirMode that of
// its directories. They are set explicitly, whatever the umask.
const (
	OutputFileMode os.FileMode = 0o644
	OutputDirMode  os.FileMode = 0o755
)

// stagePrefix names the hidden directory a run writes into before its
// outputs are moved into place; one left behind is a killed run's.
const stagePrefix = ".incomplete-"

// outputEntries are the outputs Commit moves from the stage into place; an
// output directory holds them, ManifestFile, and while a run is in
// progress (or after one was killed) a stage directory.
var outputEntries = []string{ResultsFile, ReportFile, ReportHTMLFile, TracesDir, ArtifactsDir}

// OutputDir is an output directory being written. Everything goes into a
// hidden stage directory inside it (Stage); Commit moves the outputs into
// place and then writes the manifest, atomically. Until Commit returns
// the directory holds no manifest, and what a killed run leaves is only
// the stage directory, which the next CreateOutputDir removes.
type OutputDir struct {
	dir, stage string
	stageInfo  os.FileInfo
	lock       *os.File
}

// lockFile is held (flock) by the run writing a directory; it is not an
// output and stays.
const lockFile = ".lock"

// errLocked: another process holds the directory's lock.
var errLocked = errors.New("locked")

// ForeignEntriesError refuses an output directory that holds entries no
// replay or merge writes; nothing was removed.
type ForeignEntriesError struct {
	Dir     string
	Entries []string
}

func (e *ForeignEntriesError) Error() string {
	shown := e.Entries
	if len(shown) > 5 {
		shown = append(append([]string(nil), shown[:5]...), fmt.Sprintf("and %d more", len(e.Entries)-5))
	}
	return fmt.Sprintf("output directory %s holds %s, which no replay or merge writes; refusing to replace its contents (use an empty directory or an earlier output directory)", e.Dir, strings.Join(shown, ", "))
}

// CreateOutputDir prepares dir for a new run: it creates dir if needed,
// refuses a directory that holds anything but an earlier run's outputs
// (ForeignEntriesError, before writing anything), locks it (a second run
// into it while this one is writing is refused; the lock goes with the
// process, however it ends), removes the earlier manifest first (from
// then on the directory is not a complete output), then the earlier
// outputs and any killed run's stage directory, and creates a fresh stage
// directory.
// A run into the same directory thus replaces the earlier one entirely:
// no trace or artifact of it survives beside the new results.
func CreateOutputDir(dir string) (*OutputDir, error) {
	if err := os.MkdirAll(dir, OutputDirMode); err != nil {
		return nil, err
	}
	// A foreign directory is refused before anything is written into it.
	if _, err := scanOutputDir(dir); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, OutputFileMode)
	if err != nil {
		return nil, err
	}
	if err := lock.Chmod(OutputFileMode); err != nil {
		lock.Close()
		return nil, err
	}
	if err := lockExclusive(lock); err != nil {
		lock.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("another replay or merge is writing %s now", dir)
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	o, err := prepareOutputDir(dir)
	if err != nil {
		lock.Close()
		return nil, err
	}
	o.lock = lock
	return o, nil
}

// scanOutputDir lists the stale entries of dir (killed runs' stages and
// temporary manifests) and refuses foreign ones.
func scanOutputDir(dir string) (stale []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var foreign []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case isOutputEntry(name), name == lockFile:
		case strings.HasPrefix(name, stagePrefix), strings.HasPrefix(name, "."+ManifestFile+".tmp-"):
			stale = append(stale, name)
		default:
			foreign = append(foreign, name)
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return nil, &ForeignEntriesError{Dir: dir, Entries: foreign}
	}
	return stale, nil
}

func prepareOutputDir(dir string) (*OutputDir, error) {
	stale, err := scanOutputDir(dir)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing the earlier manifest: %w", err)
	}
	for _, name := range append(append([]string(nil), outputEntries...), stale...) {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("removing the earlier run's %s: %w", name, err)
		}
	}
	stage, err := os.MkdirTemp(dir, stagePrefix)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(stage)
	if err == nil {
		err = os.Chmod(stage, OutputDirMode)
	}
	if err != nil {
		os.RemoveAll(stage)
		return nil, err
	}
	return &OutputDir{dir: dir, stage: stage, stageInfo: fi}, nil
}

func isOutputEntry(name string) bool {
	if name == ManifestFile {
		return true
	}
	for _, n := range outputEntries {
		if name == n {
			return true
		}
	}
	return false
}

// Dir is the output directory.
func (o *OutputDir) Dir() string { return o.dir }

// Stage is the directory outputs are written into before Commit; its
// ArtifactsDir is where a replay's engine writes artifacts.
func (o *OutputDir) Stage() string { return o.stage }

// WriteFile writes one top-level output (results.jsonl, report.json...)
// into the stage by temporary file, sync and rename.
func (o *OutputDir) WriteFile(name string, data []byte) error {
	return WriteFileAtomic(filepath.Join(o.stage, name), data)
}

// Abort removes the stage and everything written into it and releases the
// directory; it is left without outputs and without a manifest.
func (o *OutputDir) Abort() error {
	err := os.RemoveAll(o.stage)
	o.unlock()
	return err
}

func (o *OutputDir) unlock() {
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
}

// Commit completes the run: it records the digests of the top-level
// outputs in m.Files, moves the outputs from the stage into the
// directory, removes the stage and writes m as ManifestFile, atomically
// and last. A run interrupted before Commit has written the manifest has
// left no manifest.
func (o *OutputDir) Commit(m *Manifest) error {
	defer o.unlock()
	// The stage must be the one this run created: a run that removed it
	// (where there is no lock) would leave this one's outputs incomplete.
	if fi, err := os.Stat(o.stage); err != nil || !os.SameFile(fi, o.stageInfo) {
		return fmt.Errorf("%s: the stage %s was removed or replaced by another run; nothing committed", o.dir, filepath.Base(o.stage))
	}
	m.Files = map[string]FileDigest{}
	for _, name := range []string{ResultsFile, ReportFile, ReportHTMLFile} {
		d, err := digestFile(filepath.Join(o.stage, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		m.Files[name] = d
	}
	for _, name := range outputEntries {
		err := os.Rename(filepath.Join(o.stage, name), filepath.Join(o.dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(o.stage); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(o.dir, ManifestFile), append(b, '\n')); err != nil {
		return err
	}
	return syncDir(o.dir)
}

// FileDigest identifies one output file.
type FileDigest struct {
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

func digestFile(path string) (FileDigest, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileDigest{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return FileDigest{}, err
	}
	return FileDigest{SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n}, nil
}

// Trace is one record's trace file, traces/<name>.json (TraceFile): its
// tool calls, read-gate denials, wall time and the scorer's reason.
type Trace struct {
	Calls   []CallTrace `json:"calls"`
	Denials []Denial    `json:"denials"`
	ID      string      `json:"id"`
	Reason  string      `json:"reason"`
	WallMS  float64     `json:"wall_ms"`
}

// TraceFile is the slash-separated path, relative to an output directory,
// of a record's trace: traces/ID.json with '/', '\' and NUL in the id
// replaced by '_'.
func TraceFile(id string) string {
	return TracesDir + "/" + strings.Map(func(c rune) rune {
		if c == '/' || c == '\\' || c == 0 {
			return '_'
		}
		return c
	}, id) + ".json"
}

// TraceHref is TraceFile escaped for use as a relative URL (an id may hold
// '#', '?' or '%').
func TraceHref(id string) string {
	name := strings.TrimPrefix(TraceFile(id), TracesDir+"/")
	return TracesDir + "/" + url.PathEscape(name)
}

// encodeTrace returns the bytes of r's trace file.
func encodeTrace(r RecordResult) ([]byte, error) {
	return json.MarshalIndent(Trace{ID: r.ID, Calls: r.Calls, Denials: r.Denials, WallMS: r.WallMS, Reason: r.Reason}, "", " ")
}

// WriteTraces writes one trace file per result into the stage. Two ids
// that map to the same file name are an error, not an overwrite.
func (o *OutputDir) WriteTraces(results []RecordResult) error {
	if err := os.MkdirAll(filepath.Join(o.stage, TracesDir), OutputDirMode); err != nil {
		return err
	}
	// Two records whose ids map to one file name are found here, in
	// order, so that the error names the same record on every run.
	names := make(map[string]bool, len(results))
	for _, r := range results {
		name := TraceFile(r.ID)
		if names[name] {
			return traceClash(r.ID)
		}
		names[name] = true
	}
	// Creating a file is mostly the kernel's directory work (a release's
	// 1,861 traces took 1.6 s, in openat, after its last record): the
	// files are independent, so a few goroutines write them. The first
	// error in record order is returned.
	errs := make([]error, len(results))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(traceWriters, len(results)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(results) {
					return
				}
				b, err := encodeTrace(results[i])
				if err == nil {
					err = o.writeTrace(results[i].ID, b)
				}
				if errs[i] = err; err != nil {
					next.Store(int64(len(results))) // stop the others early
				}
			}
		}()
	}
	wg.Wait()
	return firstError(errs)
}

// traceWriters is how many goroutines write trace files.
const traceWriters = 4

// firstError returns the first non-nil error of errs.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// traceClash is the error of a record whose trace file name is already
// another record's.
func traceClash(id string) error {
	return fmt.Errorf("record %q: its trace file %s is already another record's (ids differ only in '/', '\\' or '_')", id, TraceFile(id))
}

func (o *OutputDir) writeTrace(id string, data []byte) error {
	err := writeFileExclusive(filepath.Join(o.stage, filepath.FromSlash(TraceFile(id))), data)
	if errors.Is(err, os.ErrExist) {
		return traceClash(id)
	}
	return err
}

// EncodeResults returns the bytes of results.jsonl: one JSON line per
// result, in the given order.
func EncodeResults(results []RecordResult) ([]byte, error) {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			return nil, err
		}
	}
	return []byte(sb.String()), nil
}

// AddArtifacts puts the files of src/artifacts (a finished output
// directory's) into the stage's artifacts, as hard links where the file
// system allows (artifacts are never modified in place: a rerun replaces
// them by new files), else as copies.
func (o *OutputDir) AddArtifacts(src string) error {
	from := filepath.Join(src, ArtifactsDir)
	to := filepath.Join(o.stage, ArtifactsDir)
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && p == from {
				return filepath.SkipDir
			}
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, OutputDirMode)
		case !d.Type().IsRegular():
			return fmt.Errorf("artifact %s is not a regular file", p)
		}
		if os.Link(p, target) == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return writeFileExclusive(target, b)
	})
}
