package release

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/geodisaster/engine/conformance/schemas"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

// Options configures a conformance run.
type Options struct {
	// ReleaseRoot is the release root; empty or absent means the run is
	// RESOURCE_BLOCKED.
	ReleaseRoot string
	// Workers bounds the records replayed concurrently (default 1).
	Workers int
	// ArtifactDir receives generated artifacts (a temporary directory,
	// removed afterwards, when empty).
	ArtifactDir string
	// CanonicalSHA256 overrides the canonical digest (default
	// CanonicalSHA256). It exists to test the REAL gate's other checks;
	// the command line never sets it, and the report prints the digest
	// used.
	CanonicalSHA256 string
	// ExpectedInventory overrides CanonicalInventory, for the same tests.
	ExpectedInventory *Inventory
	// Logger receives progress logs; nil discards them.
	Logger *slog.Logger
	// Progress, when not nil, is called after each replayed record with
	// the stage ("replay", or "repeat" for the reproducibility replay),
	// the records done and the stage's total.
	Progress func(stage string, done, total int)
}

// Run verifies the release under opts.ReleaseRoot, adapts and replays
// every canonical record, scores it under the scoring policy and checks
// the published facts. It returns a report for every outcome that can be
// reported (including RESOURCE_BLOCKED and DEGRADED); an error means the
// run itself could not proceed (context cancelled, engine setup failed).
func Run(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(discard{}, nil))
	}
	want := opts.CanonicalSHA256
	if want == "" {
		want = CanonicalSHA256
	}
	inv := CanonicalInventory()
	if opts.ExpectedInventory != nil {
		inv = *opts.ExpectedInventory
	}
	facts, err := Facts()
	if err != nil {
		return nil, err
	}
	rep := &Report{
		Format: ReportFormat, ReleaseRoot: opts.ReleaseRoot, StatusReasons: []string{}, Checks: []Check{},
		CanonicalFile:     FileDigest{Path: CanonicalRecordsPath, Expected: want},
		ExpectedInventory: inv, MappingTable: MappingTable(), FactSummary: map[string]int{},
	}
	rep.Types = newTypeRows()
	defer func() { rep.WallSeconds = time.Since(start).Seconds() }()

	blocked := func(reason string) (*Report, error) {
		rep.Status = runtime.StatusResourceBlocked
		rep.StatusReasons = append(rep.StatusReasons, reason)
		for _, t := range rep.Types {
			t.Status, t.StatusReason = runtime.StatusResourceBlocked, reason
		}
		rep.Facts = NotCheckable(facts, "RESOURCE_BLOCKED: "+reason)
		rep.summarizeFacts()
		for _, f := range rep.Facts {
			if t := rep.row(f.QuestionType); t != nil {
				t.Facts[f.Status]++
			}
		}
		return rep, nil
	}
	if opts.ReleaseRoot == "" {
		return blocked("no release root given (--release-root or GEODISASTER_RELEASE_ROOT)")
	}
	root, err := filepath.Abs(opts.ReleaseRoot)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return blocked(fmt.Sprintf("release root %s: %v", opts.ReleaseRoot, err))
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return blocked(fmt.Sprintf("release root %s is not a directory", opts.ReleaseRoot))
	}
	canonical := filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath))
	sum, size, err := fileSHA256(canonical)
	if errors.Is(err, fs.ErrNotExist) {
		return blocked(fmt.Sprintf("the release root has no %s", CanonicalRecordsPath))
	}
	if err != nil {
		return blocked(fmt.Sprintf("%s: %v", CanonicalRecordsPath, err))
	}
	rep.CanonicalFile.SHA256, rep.CanonicalFile.Bytes = sum, size

	// 1. Checksum.
	isCanonical := sum == want
	ck := Check{Name: "checksum", GatesReal: true, Status: CheckPass, Detail: "SHA-256 equals the published canonical digest (" + CanonicalSpecSentence + ")"}
	if !isCanonical {
		ck.Status, ck.Detail = CheckFail, fmt.Sprintf("%s has SHA-256 %s, the canonical file has %s", CanonicalRecordsPath, sum, want)
	}
	rep.Checks = append(rep.Checks, ck)

	// 2. Fixture manifest (a synthetic corpus's own pins).
	fixture, fixtureProbs, ferr := verifyFixture(root)
	fixtureOK := false
	switch {
	case errors.Is(ferr, fs.ErrNotExist):
	case ferr != nil:
		rep.Checks = append(rep.Checks, Check{Name: "fixture_manifest", Status: CheckFail, Detail: ferr.Error()})
	case len(fixtureProbs) > 0:
		rep.Checks = append(rep.Checks, Check{Name: "fixture_manifest", Status: CheckFail, Detail: strings.Join(fixtureProbs, "; ")})
	default:
		fixtureOK = true
		rep.Checks = append(rep.Checks, Check{Name: "fixture_manifest", Status: CheckPass, Detail: fmt.Sprintf("synthetic corpus from %s (seed %d): every pinned file verified; status can be at most FIXTURE", fixture.Generator, fixture.Seed)})
	}

	// 3. Adapt.
	f, err := os.Open(canonical)
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	ad, err := Adapt(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("conformance: %s: %w", CanonicalRecordsPath, err)
	}
	rep.Adapter = ad
	rep.Records = ad.Lines
	recs := ad.Records
	adaptCheck := Check{Name: "adapter", Status: CheckPass, GatesReal: true, Detail: fmt.Sprintf("%d of %d records mapped; %d unmapped fields; %d derived fields", len(recs), ad.Lines, len(ad.Unmapped), len(ad.Derived))}
	if len(ad.Errors) > 0 {
		adaptCheck.Status = CheckFail
		adaptCheck.Detail += fmt.Sprintf("; first error: line %d %s: %s", ad.Errors[0].Line, ad.Errors[0].ID, ad.Errors[0].Err)
	}
	rep.Checks = append(rep.Checks, adaptCheck)

	// 4. Inventory.
	got := inventoryOf(recs)
	got.Records = ad.Lines
	rep.Inventory = &got
	invWant := inv
	invSource := "published (" + InventorySpecSentence + ")"
	if !isCanonical && fixture != nil {
		invWant, invSource = fixture.Inventory, "the fixture manifest"
	}
	ic := Check{Name: "inventory", GatesReal: true, Status: CheckPass, Detail: fmt.Sprintf("%d records, %d types, %d train, %d test as %s", got.Records, got.Types, got.Train, got.Test, invSource)}
	if d := invWant.Diff(got); len(d) > 0 {
		ic.Status, ic.Detail = CheckFail, "inventory differs from "+invSource+": "+strings.Join(d, "; ")
	}
	rep.Checks = append(rep.Checks, ic)

	// 5. Test inputs.
	rep.Checks = append(rep.Checks, checkTestInputs(root, recs))

	// 6. Path inventory.
	pi := auditPaths(root, recs)
	rep.Paths = pi
	pc := Check{Name: "paths", GatesReal: true, Status: CheckPass, Detail: fmt.Sprintf("%d references, %d unique paths, %d present, %d awaiting Sen1Floods11 hydration", pi.References, pi.Unique, pi.Present, pi.HydrationPending)}
	if pi.Missing > 0 || len(pi.Invalid) > 0 {
		pc.Status = CheckFail
		pc.Detail += fmt.Sprintf("; %d missing (e.g. %s); %d invalid or outside the root %v", pi.Missing, strings.Join(pi.MissingExamples, ", "), len(pi.Invalid), pi.Invalid)
	}
	rep.Checks = append(rep.Checks, pc)

	// 7. Hydration manifest.
	hr, herr := verifyHydration(root, HydrationManifestPath)
	hc := Check{Name: "hydration_manifest", GatesReal: true}
	switch {
	case errors.Is(herr, fs.ErrNotExist):
		hc.Status, hc.Detail = CheckAbsent, HydrationManifestPath+" absent"
		if pi.HydrationPending > 0 {
			hc.Detail += fmt.Sprintf("; %d Sen1Floods11 paths are absent: run geodisaster hydrate sen1floods11", pi.HydrationPending)
		}
	case herr != nil:
		hc.Status, hc.Detail = CheckFail, herr.Error()
	case hr.Unrecognised != "":
		rep.Hydration = hr
		hc.Status, hc.Detail = CheckFail, "format not understood: "+hr.Unrecognised
	case len(hr.Mismatched) > 0:
		rep.Hydration = hr
		hc.Status, hc.Detail = CheckFail, fmt.Sprintf("%d entries differ from their pins: %s", len(hr.Mismatched), strings.Join(hr.Mismatched, "; "))
	default:
		rep.Hydration = hr
		hc.Status, hc.Detail = CheckPass, fmt.Sprintf("%d entries: %d verified, %d not yet hydrated", hr.Entries, hr.Verified, hr.Pending)
	}
	rep.Checks = append(rep.Checks, hc)

	// 8. Scoring policy.
	policy, pcheck := loadPolicy(root)
	rep.Checks = append(rep.Checks, pcheck)
	if policy == nil {
		return nil, errors.New("conformance: no usable scoring policy")
	}
	rep.Policy = PolicyInfo{Name: policy.Name, Source: pcheck.Detail}

	// Corpus status.
	gateFails := []string{}
	for _, c := range rep.Checks {
		if c.GatesReal && c.Status == CheckFail {
			gateFails = append(gateFails, c.Name+": "+c.Detail)
		}
	}
	// Only the canonical records may rank above FIXTURE: REAL when every
	// gate holds, DEGRADED (real but partial) when another part of the
	// release does not verify. Anything else is generated material or of
	// unverified origin, FIXTURE at best whatever manifest sits beside it;
	// it verifies only as a fixture whose own manifest holds.
	switch {
	case isCanonical && len(gateFails) == 0:
		rep.Status = runtime.StatusReal
		rep.CorpusVerified = true
	case isCanonical:
		rep.Status = runtime.StatusDegraded
		rep.StatusReasons = append(rep.StatusReasons, gateFails...)
	case fixtureOK && onlyChecksumFailed(rep.Checks):
		rep.Status = runtime.StatusFixture
		rep.CorpusVerified = true
		rep.StatusReasons = append(rep.StatusReasons, "generated material: "+gateFails[0])
	default:
		rep.Status = runtime.StatusFixture
		why := "no fixture manifest (data/core/fixture_manifest.json) vouches for its origin"
		if fixture != nil || len(fixtureProbs) > 0 || (ferr != nil && !errors.Is(ferr, fs.ErrNotExist)) {
			why = "its fixture manifest does not verify (edited generated material)"
		}
		rep.StatusReasons = append(rep.StatusReasons, "not the canonical release and "+why+": counted as generated material, FIXTURE at best")
		rep.StatusReasons = append(rep.StatusReasons, gateFails...)
	}
	if want != CanonicalSHA256 {
		// Only tests of the gate override the digest; say so.
		rep.StatusReasons = append(rep.StatusReasons, "canonical digest overridden by the caller: "+want+" (published: "+CanonicalSHA256+")")
	}
	if inv != CanonicalInventory() {
		rep.StatusReasons = append(rep.StatusReasons, fmt.Sprintf("expected inventory overridden by the caller: %+v", inv))
	}
	log.Info("release verified", "status", rep.Status, "records", len(recs))

	// Replay, score, validate; on a REAL corpus, replay the types with a
	// published reproducibility fact a second time.
	repeat := map[string]bool{}
	if rep.Status == runtime.StatusReal {
		for _, f := range facts {
			if f.Kind == KindArtifactsReproduce {
				repeat[f.QuestionType] = true
			}
		}
	}
	if err := replayAndScore(ctx, root, opts, log, rep, recs, policy, repeat); err != nil {
		return nil, err
	}

	// Facts.
	cv := CorpusView{Records: recs, TrajectoryGroups: ad.TrajectoryGroups, PathReferences: pi.References, UniquePaths: pi.Unique, Replay: map[string]*TypeReport{}}
	for _, t := range rep.Types {
		cv.Replay[t.QuestionType] = t
	}
	if rep.Status == runtime.StatusReal {
		if cf, err := os.Open(canonical); err == nil {
			if srs, err := scoring.ReadSplitRecords(cf); err == nil {
				cv.Isolation = scoring.AuditSplits(srs)
			}
			cf.Close()
		}
		rep.Facts = CheckFacts(facts, cv)
	} else {
		rep.Facts = NotCheckable(facts, "corpus status "+rep.Status+": published facts are checked only on the verified canonical corpus")
	}
	rep.summarizeFacts()
	rep.finishTypes()
	return rep, nil
}

func onlyChecksumFailed(checks []Check) bool {
	for _, c := range checks {
		if c.GatesReal && c.Status == CheckFail && c.Name != "checksum" {
			return false
		}
	}
	return true
}

// loadPolicy prefers the release's own policy file; without one, the
// embedded canonical policy is used and the check says so.
func loadPolicy(root string) (*scoring.Policy, Check) {
	c := Check{Name: "policy", GatesReal: true}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(PolicyPath)))
	if err == nil {
		p, perr := scoring.LoadPolicy(bytes.NewReader(b))
		if perr == nil {
			c.Status, c.Detail = CheckPass, PolicyPath+" from the release"
			return p, c
		}
		err = perr
		c.Status = CheckFail
	} else if errors.Is(err, fs.ErrNotExist) {
		c.Status = CheckAbsent
	} else {
		c.Status = CheckFail
	}
	p, derr := scoring.DefaultPolicy()
	if derr != nil {
		c.Status, c.Detail = CheckFail, derr.Error()
		return nil, c
	}
	if c.Status == CheckFail {
		c.Detail = fmt.Sprintf("%s: %v; scored with the embedded canonical policy instead", PolicyPath, err)
	} else {
		c.Detail = "embedded canonical policy (the release has no " + PolicyPath + ")"
	}
	return p, c
}

// newTypeRows returns one NOT_RUN row per question type, in spec order.
func newTypeRows() []*TypeReport {
	var out []*TypeReport
	for _, q := range workers.QuestionTypes() {
		out = append(out, &TypeReport{Ordinal: q.Number, QuestionType: q.ID, Family: string(q.Family), Status: runtime.StatusNotRun, Facts: map[string]int{}, Mismatches: []Mismatch{}})
	}
	return out
}

func (r *Report) row(qt string) *TypeReport {
	for _, t := range r.Types {
		if t.QuestionType == qt {
			return t
		}
	}
	return nil
}

// replayAndScore replays every adapted record whose inputs are present
// and fills the type rows.
//
// repeatTypes names the types whose records are replayed a second time to
// check that their artifacts reproduce.
func replayAndScore(ctx context.Context, root string, opts Options, log *slog.Logger, rep *Report, recs []workers.Record, policy *scoring.Policy, repeatTypes map[string]bool) error {
	for _, e := range rep.Adapter.Errors {
		if t := rep.row(e.QuestionType); t != nil {
			t.Records++
			t.AdaptErrors++
			t.addMismatch(Mismatch{ID: e.ID, Stage: "adapt", Reason: e.Err})
		}
	}
	sch, err := schemas.Compile()
	if err != nil {
		return err
	}
	var runnable []workers.Record
	for _, r := range recs {
		t := rep.row(r.QuestionType)
		t.Records++
		if v := sch[r.QuestionType]; v != nil && validates(v, r.Answer) {
			t.GoldSchemaValid++
		}
		if p, miss := rep.Paths.BlockedRecords[r.ID]; miss {
			t.Blocked++
			t.addMismatch(Mismatch{ID: r.ID, Stage: "blocked", Reason: "input absent: " + p})
			continue
		}
		runnable = append(runnable, r)
	}
	if len(runnable) == 0 {
		return nil
	}
	artifacts := opts.ArtifactDir
	if artifacts == "" {
		tmp, err := os.MkdirTemp("", "geodisaster-conformance-")
		if err != nil {
			return fmt.Errorf("conformance: %w", err)
		}
		defer os.RemoveAll(tmp)
		artifacts = tmp
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root, ArtifactDir: artifacts, Logger: opts.Logger})
	if err != nil {
		return fmt.Errorf("conformance: %w", err)
	}
	log.Info("replaying", "records", len(runnable), "workers", max(opts.Workers, 1))
	results := eng.Replay(ctx, runnable, runtime.ReplayOptions{Workers: max(opts.Workers, 1), Progress: stageProgress(opts.Progress, "replay")})
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("conformance: %w", err)
	}
	gold := make(map[string]*workers.Record, len(runnable))
	for i := range runnable {
		gold[runnable[i].ID] = &runnable[i]
	}
	rep.Replayed = len(results)
	for _, res := range results {
		t := rep.row(res.QuestionType)
		if res.Status != "ok" {
			msg := ""
			if res.Error != nil {
				msg = *res.Error
			}
			t.addMismatch(Mismatch{ID: res.ID, Stage: "execute", Reason: msg})
			continue
		}
		t.Executed++
		if v := sch[res.QuestionType]; v != nil && validates(v, res.Answer) {
			t.Valid++
		} else {
			t.addMismatch(Mismatch{ID: res.ID, Stage: "schema", Reason: "resolved answer does not validate against " + res.QuestionType + ".json"})
			continue
		}
		g, gerr := scoring.DecodeJSON(gold[res.ID].Answer)
		p, perr := scoring.DecodeJSON(res.Answer)
		if gerr != nil || perr != nil {
			t.addMismatch(Mismatch{ID: res.ID, Stage: "score", Path: "$", Reason: fmt.Sprintf("undecodable answer (gold: %v, resolved: %v)", gerr, perr)})
			continue
		}
		v, err := policy.Score(res.QuestionType, g, p)
		if err != nil {
			t.addMismatch(Mismatch{ID: res.ID, Stage: "score", Path: "$", Reason: err.Error()})
			continue
		}
		if v.Correct {
			t.Correct++
		} else {
			t.addMismatch(Mismatch{ID: res.ID, Stage: "score", Path: v.Path, Reason: v.Reason})
		}
	}
	for _, res := range results {
		compareReferenceArtifacts(rep.row(res.QuestionType), res, rep.Adapter.ReferenceArtifacts[res.ID])
	}
	if len(repeatTypes) == 0 {
		return nil
	}
	var again []workers.Record
	for _, r := range runnable {
		if repeatTypes[r.QuestionType] {
			again = append(again, r)
		}
	}
	if len(again) == 0 {
		return nil
	}
	eng2, err := runtime.NewEngine(runtime.Config{DatasetRoot: root, ArtifactDir: filepath.Join(artifacts, "repeat"), Logger: opts.Logger})
	if err != nil {
		return fmt.Errorf("conformance: %w", err)
	}
	log.Info("replaying again to check artifact reproducibility", "records", len(again))
	second := eng2.Replay(ctx, again, runtime.ReplayOptions{Workers: max(opts.Workers, 1), Progress: stageProgress(opts.Progress, "repeat")})
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("conformance: %w", err)
	}
	first := make(map[string]runtime.RecordResult, len(results))
	for _, r := range results {
		first[r.ID] = r
	}
	for _, r2 := range second {
		t := rep.row(r2.QuestionType)
		t.Repeated++
		a, b := artifactDigests(first[r2.ID]), artifactDigests(r2)
		if r2.Status == "ok" && first[r2.ID].Status == "ok" && len(a) > 0 && sameDigests(a, b) {
			t.Reproduced++
			continue
		}
		t.addMismatch(Mismatch{ID: r2.ID, Stage: "reproduce", Reason: fmt.Sprintf("artifact digests differ between two replays: %v vs %v", a, b)})
	}
	return nil
}

// stageProgress binds a stage name to Options.Progress (nil stays nil).
func stageProgress(p func(stage string, done, total int), stage string) func(done, total int) {
	if p == nil {
		return nil
	}
	return func(done, total int) { p(stage, done, total) }
}

// artifactDigests maps each artifact name of a replayed record to its
// SHA-256.
func artifactDigests(res runtime.RecordResult) map[string]string {
	out := map[string]string{}
	for _, c := range res.Calls {
		for _, a := range c.Artifacts {
			out[a.Name] = a.SHA256
		}
	}
	return out
}

func sameDigests(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// compareReferenceArtifacts compares the replay products a canonical
// record pins with the artifacts of the same name our replay wrote.
func compareReferenceArtifacts(t *TypeReport, res runtime.RecordResult, refs []ReferenceArtifact) {
	if len(refs) == 0 {
		return
	}
	ours := artifactDigests(res)
	for _, ref := range refs {
		t.ReferenceArtifacts++
		got, ok := ours[ref.Name]
		switch {
		case !ok:
			t.ArtifactsUnmatched++
		case got == ref.SHA256:
			t.ArtifactsMatched++
		default:
			t.ArtifactsDiffer++
			t.addMismatch(Mismatch{ID: res.ID, Stage: "artifact", Path: ref.Locator, Reason: fmt.Sprintf("our %s has SHA-256 %s, the release pins %s", ref.Name, got, ref.SHA256)})
		}
	}
}

// finishTypes sets each type's status from the corpus status, its counts
// and its facts.
func (r *Report) finishTypes() {
	for _, f := range r.Facts {
		if t := r.row(f.QuestionType); t != nil {
			t.Facts[f.Status]++
		}
	}
	unassigned := 0
	if r.Adapter != nil {
		for _, e := range r.Adapter.Errors {
			if r.row(e.QuestionType) == nil {
				unassigned++
			}
		}
	}
	for _, t := range r.Types {
		switch {
		case t.Records == 0 && unassigned > 0:
			t.Status = runtime.StatusNotRun
			t.StatusReason = fmt.Sprintf("no record of this type was adapted; %d records of unknown type could not be mapped", unassigned)
		case t.Records == 0:
			t.Status, t.StatusReason = runtime.StatusNotRun, "no record of this type in the corpus"
		case t.Blocked > 0:
			t.Status = runtime.StatusResourceBlocked
			t.StatusReason = fmt.Sprintf("%d of %d records have an absent input (hydrate Sen1Floods11 for source_assets/sen1_flood/)", t.Blocked, t.Records)
		case t.AdaptErrors > 0 || t.Executed < t.Records || t.Valid < t.Records || t.Correct < t.Records:
			t.Status = runtime.StatusFailed
			t.StatusReason = fmt.Sprintf("%d/%d executed, %d/%d valid, %d/%d correct", t.Executed, t.Records, t.Valid, t.Records, t.Correct, t.Records)
		case t.ArtifactsDiffer > 0 || t.Reproduced < t.Repeated:
			t.Status = runtime.StatusFailed
			t.StatusReason = fmt.Sprintf("%d reference artifacts differ; %d/%d records reproduce their artifacts", t.ArtifactsDiffer, t.Reproduced, t.Repeated)
		case t.Facts[FactMismatch] > 0:
			t.Status = runtime.StatusFailed
			t.StatusReason = fmt.Sprintf("%d published facts mismatch", t.Facts[FactMismatch])
		default:
			t.Status = r.Status
		}
	}
}

func (r *Report) summarizeFacts() {
	r.FactSummary = map[string]int{FactOK: 0, FactMismatch: 0, FactNotCheckable: 0}
	for _, f := range r.Facts {
		r.FactSummary[f.Status]++
	}
}

func validates(s *jsonschema.Schema, doc []byte) bool {
	if len(bytes.TrimSpace(doc)) == 0 {
		return false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return false
	}
	return s.Validate(inst) == nil
}

type discard struct{}

// Write discards p.
func (discard) Write(p []byte) (int, error) { return len(p), nil }
