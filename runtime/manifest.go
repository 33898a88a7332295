package runtime

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// manifestFormat names the manifest's schema.
const manifestFormat = "geodisaster-output-manifest/1"

// Manifest is an output directory's proof of completion (ManifestFile),
// written last by OutputDir.Commit. A replay's manifest names its shard
// (0/1 when unsharded); a merge's covers every shard (0/1, MergedShards
// > 0) and equals an unsharded replay's but for Files, Engine and
// MergedShards.
type Manifest struct {
	Format string `json:"format"`
	// Engine is the engine version that wrote the directory.
	Engine string `json:"engine"`
	// Shard is the partition the directory holds.
	Shard Shard `json:"shard"`
	// MergedShards is, for a merge's output, the number of shards merged.
	MergedShards int `json:"merged_shards,omitempty"`
	// Corpus identifies the replayed records file by its SHA-256.
	Corpus CorpusInfo `json:"corpus"`
	// Filters are the replay's --family and --type.
	Filters Filters `json:"filters"`
	// Selected are the corpus records the filters select, all shards
	// together: what a complete merge must hold.
	Selected IDDigest `json:"selected"`
	// Replayed are the records this directory holds.
	Replayed IDDigest `json:"replayed"`
	// Files are the digests of results.jsonl, report.json and
	// report.html.
	Files map[string]FileDigest `json:"files"`
}

// Shard is shard Index of Count (0-based).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Filters are a replay's record filters.
type Filters struct {
	Family string `json:"family,omitempty"`
	Type   string `json:"type,omitempty"`
}

// IDDigest identifies a set of record ids: their number and the SHA-256
// of the sorted ids, each as an 8-byte big-endian length and its bytes.
type IDDigest struct {
	Records int    `json:"records"`
	SHA256  string `json:"ids_sha256"`
}

// digestIDs returns the IDDigest of ids (in any order).
func digestIDs(ids []string) IDDigest {
	s := append([]string(nil), ids...)
	sort.Strings(s)
	h := sha256.New()
	var n [8]byte
	for _, id := range s {
		binary.BigEndian.PutUint64(n[:], uint64(len(id)))
		h.Write(n[:])
		io.WriteString(h, id)
	}
	return IDDigest{Records: len(s), SHA256: hex.EncodeToString(h.Sum(nil))}
}

// NewManifest describes a replay of recs (the whole corpus) under opts
// whose results are results.
func NewManifest(engine string, corpus CorpusInfo, recs []workers.Record, opts ReplayOptions, results []RecordResult) *Manifest {
	all := opts
	all.ShardIndex, all.ShardCount = 0, 0
	sel := all.Select(recs)
	ids := make([]string, len(sel))
	for i, r := range sel {
		ids[i] = r.ID
	}
	shard := Shard{Index: 0, Count: 1}
	if opts.ShardCount > 1 {
		shard = Shard{Index: opts.ShardIndex, Count: opts.ShardCount}
	}
	return &Manifest{
		Format: manifestFormat, Engine: engine, Shard: shard, Corpus: corpus,
		Filters:  Filters{Family: opts.Family, Type: opts.Type},
		Selected: digestIDs(ids), Replayed: digestResults(results),
	}
}

func digestResults(results []RecordResult) IDDigest {
	ids := make([]string, len(results))
	for i, r := range results {
		ids[i] = r.ID
	}
	return digestIDs(ids)
}

// ReadManifest reads dir's manifest strictly: unknown fields, another
// format or an impossible shard are errors. A directory without one is
// not a finished output (errors.Is(err, os.ErrNotExist)).
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the manifest", ManifestFile)
	}
	switch {
	case m.Format != manifestFormat:
		return nil, fmt.Errorf("%s: format %q, want %q", ManifestFile, m.Format, manifestFormat)
	case m.Shard.Count < 1 || m.Shard.Index < 0 || m.Shard.Index >= m.Shard.Count:
		return nil, fmt.Errorf("%s: impossible shard %s", ManifestFile, m.Shard)
	case len(m.Corpus.SHA256) != 64:
		return nil, fmt.Errorf("%s: no corpus SHA-256", ManifestFile)
	}
	return &m, nil
}

// MergeRefusedError lists every reason a set of shard directories is not
// one complete replay; nothing was written.
type MergeRefusedError struct {
	Problems []string
}

func (e *MergeRefusedError) Error() string {
	if len(e.Problems) == 1 {
		return "merge refused: " + e.Problems[0]
	}
	return fmt.Sprintf("merge refused (%d problems):\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// ShardSet is a set of shard directories that CheckShards found to be
// every shard 0..n-1 of one replay exactly once.
type ShardSet struct {
	// Dirs and Manifests are indexed by shard index.
	Dirs      []string
	Manifests []*Manifest
}

// CheckShards reads the manifest of every directory and requires them to
// be the shards 0..n-1 of one replay, each exactly once: the same n, the
// same corpus (wantCorpusSHA256 when not empty, else the one most shards
// replayed), the same filters and engine. It names each directory without
// a manifest (a shard that did not finish), of another corpus, n, filter
// or engine, each index present twice and each index missing.
func CheckShards(dirs []string, wantCorpusSHA256 string) (*ShardSet, error) {
	var problems []string
	type shard struct {
		dir string
		m   *Manifest
	}
	var shards []shard
	for _, d := range dirs {
		m, err := ReadManifest(d)
		_, statErr := os.Stat(d)
		switch {
		case errors.Is(statErr, os.ErrNotExist):
			problems = append(problems, fmt.Sprintf("%s does not exist: the shard never ran (or the path is wrong)", d))
		case errors.Is(err, os.ErrNotExist):
			problems = append(problems, fmt.Sprintf("%s has no %s: not a finished shard (killed, failed or still running); rerun it", d, ManifestFile))
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", d, err))
		case m.MergedShards > 0:
			problems = append(problems, fmt.Sprintf("%s is a merge's output, not a shard", d))
		default:
			shards = append(shards, shard{d, m})
		}
	}
	nUnfinished := len(problems)
	if len(shards) == 0 {
		if len(problems) == 0 {
			problems = append(problems, "no shard directory given")
		}
		return nil, &MergeRefusedError{Problems: problems}
	}
	// The reference: the corpus asked for, else the most common (corpus,
	// n, filters, engine) among the shards, the first on a tie.
	key := func(m *Manifest) string {
		return strings.Join([]string{m.Corpus.SHA256, fmt.Sprint(m.Shard.Count), m.Filters.Family, m.Filters.Type, m.Engine}, "\x00")
	}
	count := map[string]int{}
	var ref *Manifest
	for _, s := range shards {
		if wantCorpusSHA256 != "" && s.m.Corpus.SHA256 != wantCorpusSHA256 {
			continue
		}
		k := key(s.m)
		count[k]++
		if ref == nil || count[k] > count[key(ref)] {
			ref = s.m
		}
	}
	var members []shard
	for _, s := range shards {
		m := s.m
		switch {
		case ref == nil || m.Corpus.SHA256 != ref.Corpus.SHA256:
			want := wantCorpusSHA256
			if ref != nil {
				want = ref.Corpus.SHA256
			}
			problems = append(problems, fmt.Sprintf("%s is shard %s of another corpus (%s, SHA-256 %s), not of %s", s.dir, m.Shard, m.Corpus.Path, m.Corpus.SHA256, want))
		case m.Shard.Count != ref.Shard.Count:
			problems = append(problems, fmt.Sprintf("%s is shard %s; the others are shards of %d", s.dir, m.Shard, ref.Shard.Count))
		case m.Filters != ref.Filters:
			problems = append(problems, fmt.Sprintf("%s replayed with filters %+v, the others with %+v", s.dir, m.Filters, ref.Filters))
		case m.Engine != ref.Engine:
			problems = append(problems, fmt.Sprintf("%s was replayed by engine %s, the others by %s", s.dir, m.Engine, ref.Engine))
		case m.Selected != ref.Selected:
			problems = append(problems, fmt.Sprintf("%s selected %d records (ids %s), the others %d (ids %s)", s.dir, m.Selected.Records, m.Selected.SHA256, ref.Selected.Records, ref.Selected.SHA256))
		default:
			members = append(members, s)
		}
	}
	if ref == nil {
		// Every finished shard replayed another corpus than the one
		// asked for: one problem says so instead of one per shard.
		seen := map[string]bool{}
		var theirs []string
		for _, s := range shards {
			if c := s.m.Corpus; !seen[c.SHA256] {
				seen[c.SHA256] = true
				theirs = append(theirs, fmt.Sprintf("%s (%s)", c.SHA256, c.Path))
			}
		}
		problems = append(problems[:nUnfinished], fmt.Sprintf("no shard replayed the corpus with SHA-256 %s; the shards replayed %s", wantCorpusSHA256, strings.Join(theirs, ", ")))
		return nil, &MergeRefusedError{Problems: problems}
	}
	n := ref.Shard.Count
	set := &ShardSet{Dirs: make([]string, n), Manifests: make([]*Manifest, n)}
	byIndex := make([][]string, n)
	for _, s := range members {
		i := s.m.Shard.Index
		byIndex[i] = append(byIndex[i], s.dir)
		set.Dirs[i], set.Manifests[i] = s.dir, s.m
	}
	var missing []string
	for i, ds := range byIndex {
		switch {
		case len(ds) == 0:
			missing = append(missing, Shard{i, n}.String())
		case len(ds) > 1:
			problems = append(problems, fmt.Sprintf("shard %s appears %d times: %s", Shard{i, n}, len(ds), strings.Join(ds, ", ")))
		}
	}
	if len(missing) > 0 {
		what := "shard " + missing[0] + " is missing"
		if len(missing) > 1 {
			what = fmt.Sprintf("%d of %d shards are missing: %s", len(missing), n, strings.Join(missing, ", "))
		}
		problems = append(problems, what+" (no finished shard directory of this corpus holds it)")
	}
	if len(problems) > 0 {
		return nil, &MergeRefusedError{Problems: problems}
	}
	return set, nil
}

// Load reads every shard's results.jsonl and traces and verifies them
// against its manifest: the file's digest, its ids' digest, every id in
// its shard's partition, no id in two shards, and all of them together
// exactly the records the replay selected. It returns the results sorted
// by id with their trace details (reason, calls, denials, wall time) and
// each trace file's bytes by id.
func (s *ShardSet) Load() ([]RecordResult, map[string][]byte, error) {
	var problems []string
	var all []RecordResult
	traces := map[string][]byte{}
	seen := map[string]string{}
	for i, dir := range s.Dirs {
		m := s.Manifests[i]
		results, err := loadShard(dir, m)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s (shard %s): %v", dir, m.Shard, err))
			continue
		}
		for j := range results {
			r := &results[j]
			if prev, dup := seen[r.ID]; dup {
				problems = append(problems, fmt.Sprintf("record %s is in %s and %s", r.ID, prev, dir))
				continue
			}
			seen[r.ID] = dir
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(TraceFile(r.ID))))
			if err == nil {
				err = decodeTrace(b, r)
			}
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s (shard %s): trace of %s: %v", dir, m.Shard, r.ID, err))
				continue
			}
			traces[r.ID] = b
		}
		all = append(all, results...)
	}
	if len(problems) == 0 {
		if got, want := digestResults(all), s.Manifests[0].Selected; got != want {
			problems = append(problems, fmt.Sprintf("the shards hold %d records (ids %s), the replay selected %d (ids %s)", got.Records, got.SHA256, want.Records, want.SHA256))
		}
	}
	if len(problems) > 0 {
		return nil, nil, &MergeRefusedError{Problems: problems}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all, traces, nil
}

func loadShard(dir string, m *Manifest) ([]RecordResult, error) {
	b, err := readVerified(dir, ResultsFile, m)
	if err != nil {
		return nil, err
	}
	var results []RecordResult
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), len(b)+1)
	for line := 1; sc.Scan(); line++ {
		var r RecordResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", ResultsFile, line, err)
		}
		if m.Shard.Count > 1 && ShardOf(r.ID, m.Shard.Count) != m.Shard.Index {
			return nil, fmt.Errorf("record %s belongs to shard %d/%d", r.ID, ShardOf(r.ID, m.Shard.Count), m.Shard.Count)
		}
		results = append(results, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if got := digestResults(results); got != m.Replayed {
		return nil, fmt.Errorf("%s holds %d records (ids %s), the manifest %d (ids %s)", ResultsFile, got.Records, got.SHA256, m.Replayed.Records, m.Replayed.SHA256)
	}
	return results, nil
}

func decodeTrace(b []byte, r *RecordResult) error {
	var t Trace
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	if t.ID != r.ID {
		return fmt.Errorf("the trace is of record %q", t.ID)
	}
	r.Reason, r.WallMS, r.Calls, r.Denials = t.Reason, t.WallMS, t.Calls, t.Denials
	return nil
}

// ReadVerifiedJSON decodes dir/name, an output file whose digest m
// records, after checking the digest.
func ReadVerifiedJSON(dir, name string, m *Manifest, v any) error {
	b, err := readVerified(dir, name, m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func readVerified(dir, name string, m *Manifest) ([]byte, error) {
	want, ok := m.Files[name]
	if !ok {
		return nil, fmt.Errorf("the manifest has no digest of %s", name)
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != want.SHA256 || int64(len(b)) != want.Bytes {
		return nil, fmt.Errorf("%s is not the file its manifest names (changed after the run)", name)
	}
	return b, nil
}

// MergedManifest describes the merge of set into results: shard 0/1 with
// MergedShards set, the shards' engine, corpus, filters and selection.
func (s *ShardSet) MergedManifest(results []RecordResult) *Manifest {
	m0 := s.Manifests[0]
	return &Manifest{
		Format: manifestFormat, Engine: m0.Engine, Shard: Shard{Index: 0, Count: 1}, MergedShards: len(s.Dirs),
		Corpus: m0.Corpus, Filters: m0.Filters, Selected: m0.Selected, Replayed: digestResults(results),
	}
}

// WriteTraceBytes writes the trace file of record id, as read from a
// shard, into the stage.
func (o *OutputDir) WriteTraceBytes(traces map[string][]byte) error {
	if err := os.MkdirAll(filepath.Join(o.stage, TracesDir), OutputDirMode); err != nil {
		return err
	}
	ids := slices.Sorted(maps.Keys(traces))
	for _, id := range ids {
		if err := o.writeTrace(id, traces[id]); err != nil {
			return err
		}
	}
	return nil
}
