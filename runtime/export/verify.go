package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/workers"
)

// Drift is one difference between an export and its canonical source: the
// file and line of the row, the record, the field and why.
type Drift struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	ID     string `json:"id,omitempty"`
	Field  string `json:"field,omitempty"`
	Reason string `json:"reason"`
}

func (d Drift) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d", d.Line)
	}
	if d.ID != "" {
		fmt.Fprintf(&b, ": record %s", d.ID)
	}
	if d.Field != "" {
		fmt.Fprintf(&b, ": field %s", d.Field)
	}
	return b.String() + ": " + d.Reason
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	Records int `json:"records"`
	// Rows counts the rows read per file.
	Rows map[string]int `json:"rows"`
	// Drifts lists every difference found, in check order (core rows,
	// episodes, SFT rows, then the manifest); the first names the first drifting
	// record and field.
	Drifts []Drift `json:"drifts"`
	OK     bool    `json:"ok"`
}

// maxDrifts bounds the drifts a report collects.
const maxDrifts = 1000

// Verify checks an export directory against the canonical records (with
// gold): the core files hold exactly the canonical records of their
// split, in canonical order, each equal to its record; every episode and SFT row validates against its schema; its ids,
// splits, weights and group ids equal the canonical record's; every tool
// sequence and argument equals the GT chain (plus the agent form's
// terminal action on ANSWER_JSON:answer_1); every observation carries the
// handle the chain declares and no resolved answer; no system or user
// message differs from what the canonical gold-free record gives (a gold
// value there is named as a leak); the multi-agent and single-agent
// episodes show the same handles, evidence and artifacts for each call;
// every SFT row is exactly one action of its episode with the episode's
// messages before it as context; every record has every row; and the
// manifest's row counts and digests match the files. Errors are reserved
// for an unreadable export.
func Verify(dir string, canon *Canonical, val *episode.Validator) (*VerifyReport, error) {
	recs := canon.Records
	v := &verifier{dir: dir, val: val, canon: canon, recs: map[string]*workers.Record{}, rep: &VerifyReport{Records: len(recs), Rows: map[string]int{}, Drifts: []Drift{}},
		single: map[string]*episode.SingleAgentEpisode{}, multi: map[string]*episode.MultiAgentEpisode{}, multiOK: map[string]bool{}}
	for i := range recs {
		v.recs[recs[i].ID] = &recs[i]
		v.order = append(v.order, recs[i].ID)
	}
	mb, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("export %s: %w (not an export, or an unfinished one)", dir, err)
	}
	var m Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, fmt.Errorf("export %s: %s: %w", dir, ManifestFile, err)
	}
	for _, split := range Splits {
		if err := v.core(split); err != nil {
			return nil, err
		}
	}
	for _, split := range Splits {
		if err := v.episodes(split); err != nil {
			return nil, err
		}
	}
	v.missingEpisodes()
	for _, name := range Projections() {
		if rowType(name) != episode.TurnRow {
			continue
		}
		for _, split := range Splits {
			if err := v.turns(name, split); err != nil {
				return nil, err
			}
		}
	}
	v.manifest(&m)
	v.rep.OK = len(v.rep.Drifts) == 0
	return v.rep, nil
}

type verifier struct {
	dir    string
	val    *episode.Validator
	canon  *Canonical
	recs   map[string]*workers.Record
	order  []string
	rep    *VerifyReport
	single map[string]*episode.SingleAgentEpisode
	multi  map[string]*episode.MultiAgentEpisode
	// multiOK marks the multi-agent episodes that passed their checks.
	multiOK map[string]bool
	// singleObs holds each record's single-agent observations by chain
	// step, for the cross-check with the multi-agent episode.
	singleObs map[string][]*episode.Observation
}

func (v *verifier) drift(d Drift) {
	if len(v.rep.Drifts) < maxDrifts {
		v.rep.Drifts = append(v.rep.Drifts, d)
	}
}

// scan reads one file's rows; a missing file is a drift.
func (v *verifier) scan(rel string, fn func(n int, line []byte)) error {
	f, err := os.Open(filepath.Join(v.dir, rel))
	if errors.Is(err, os.ErrNotExist) {
		v.drift(Drift{File: rel, Reason: "missing"})
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return jsonl.Scan(f, func(n int, line []byte) error {
		v.rep.Rows[rel]++
		fn(n, line)
		return nil
	})
}

// episodes checks both episode files of a split.
func (v *verifier) episodes(split string) error {
	if v.singleObs == nil {
		v.singleObs = map[string][]*episode.Observation{}
	}
	err := scanEpisodes(v, File(SingleAgentEpisodes, split), split, episode.SingleAgentEpisodeRow, "single-agent", v.single,
		func(ep *episode.SingleAgentEpisode) *episode.Identity { return &ep.Identity }, v.checkSingle)
	if err != nil {
		return err
	}
	return scanEpisodes(v, File(MultiAgentEpisodes, split), split, episode.MultiAgentEpisodeRow, "multi-agent", v.multi,
		func(ep *episode.MultiAgentEpisode) *episode.Identity { return &ep.Identity }, v.checkMulti)
}

// scanEpisodes checks the episode file rel of a split: each row decodes
// as row type t for a record of the split, no record has two (seen holds
// those read, by id), and check verifies each against its record.
func scanEpisodes[E any](v *verifier, rel, split string, t episode.RowType, what string, seen map[string]*E,
	identity func(*E) *episode.Identity, check func(Drift, *workers.Record, *E)) error {
	return v.scan(rel, func(n int, line []byte) {
		at := Drift{File: rel, Line: n}
		ep := new(E)
		id := identity(ep)
		rec, ok := v.row(at, t, line, ep, id, split)
		if !ok {
			return
		}
		if seen[id.ID] != nil {
			v.drift(with(at, id.ID, "id", "a second "+what+" episode of this record"))
			return
		}
		seen[id.ID] = ep
		check(at, rec, ep)
	})
}

func with(at Drift, id, field, reason string) Drift {
	at.ID, at.Field, at.Reason = id, field, reason
	return at
}

// row validates and decodes a row and checks its identity against the
// canonical record; it returns the record when the row can be checked
// further.
func (v *verifier) row(at Drift, t episode.RowType, line []byte, dst any, id *episode.Identity, split string) (*workers.Record, bool) {
	if err := v.val.Validate(t, line); err != nil {
		var probe struct{ ID string }
		json.Unmarshal(line, &probe)
		v.drift(with(at, probe.ID, "(schema)", err.Error()))
		return nil, false
	}
	if err := json.Unmarshal(line, dst); err != nil {
		v.drift(with(at, "", "(row)", err.Error()))
		return nil, false
	}
	rec := v.recs[id.ID]
	if rec == nil {
		v.drift(with(at, id.ID, "id", "not a record of the canonical source"))
		return nil, false
	}
	if field, reason := identityDrift(id, rec, split); field != "" {
		v.drift(with(at, id.ID, field, reason))
		return nil, false
	}
	return rec, true
}

// identityDrift compares a row's identity with its canonical record.
func identityDrift(id *episode.Identity, rec *workers.Record, split string) (string, string) {
	str := []struct{ field, got, want string }{
		{"split", id.Split, rec.Split},
		{"sample_id", id.SampleID, rec.SampleID},
		{"family", id.Family, rec.Family},
		{"question_type", id.QuestionType, rec.QuestionType},
		{"split_group_id", id.SplitGroupID, rec.SplitGroupID},
	}
	for _, s := range str {
		if s.got != s.want {
			return s.field, fmt.Sprintf("%q, the canonical record has %q", s.got, s.want)
		}
	}
	if id.Split != split {
		return "split", fmt.Sprintf("%q row in the %s file", id.Split, split)
	}
	if id.TrainingWeight != rec.TrainingWeight {
		return "training_weight", fmt.Sprintf("%v, the canonical record has %v", id.TrainingWeight, rec.TrainingWeight)
	}
	if rec.TrajectoryContentGroupID != "" && id.TrajectoryContentGroupID != rec.TrajectoryContentGroupID {
		return "trajectory_content_group_id", fmt.Sprintf("%q, the canonical record declares %q", id.TrajectoryContentGroupID, rec.TrajectoryContentGroupID)
	}
	return "", ""
}

// canonicalStep is the action a chain step is.
func canonicalStep(st workers.Step) episode.Action {
	return episode.Action{Tool: st.Tool, Args: st.Args}
}

// wantStep is an action an episode must show and the handle its
// observation must carry ("" for runtime tools).
type wantStep struct {
	episode.Action
	output string
}

func wantSteps(steps []workers.Step) []wantStep {
	out := make([]wantStep, len(steps))
	for i, st := range steps {
		out[i] = wantStep{canonicalStep(st), st.Output}
	}
	return out
}

func actionsOf(ws []wantStep) []episode.Action {
	out := make([]episode.Action, len(ws))
	for i, w := range ws {
		out[i] = w.Action
	}
	return out
}

func terminal(tool string) episode.Action {
	return episode.Action{Tool: tool, Args: map[string]any{"answer_ref": runtime.AnswerRef}}
}

// checkSingle checks a single-agent episode against its record.
func (v *verifier) checkSingle(at Drift, rec *workers.Record, ep *episode.SingleAgentEpisode) {
	d := func(field, format string, a ...any) { v.drift(with(at, rec.ID, field, fmt.Sprintf(format, a...))) }
	want := append(wantSteps(rec.GTChain), wantStep{Action: terminal(runtime.ToolFinalAnswer)})
	if !v.actions(d, "tool_sequence", ep.ToolSequence, actionsOf(want), "gt_chain") {
		return
	}
	obs, ok := v.conversation(d, "messages", rec, episode.Single, nil, ep.Messages, want)
	if !ok {
		return
	}
	if rec.TrajectoryContentGroupID == "" {
		if g, err := ep.GroupID(); err != nil || g != ep.TrajectoryContentGroupID {
			d("trajectory_content_group_id", "%q, the episode's messages and tool_sequence give %q", ep.TrajectoryContentGroupID, g)
			return
		}
	}
	v.singleObs[rec.ID] = obs
}

// actions compares a sequence of actions with the canonical one; it
// reports the first difference.
func (v *verifier) actions(d func(string, string, ...any), field string, got, want []episode.Action, source string) bool {
	for k := 0; k < min(len(got), len(want)); k++ {
		f := fmt.Sprintf("%s[%d]", field, k)
		if got[k].Tool != want[k].Tool {
			d(f+".tool", "%q, %s[%d] is %q", got[k].Tool, source, k, want[k].Tool)
			return false
		}
		if p, diff := firstDiff(got[k].Args, want[k].Args, f+".args"); p != "" {
			d(p, "%s, %s[%d] has %s", diff.got, source, k, diff.want)
			return false
		}
	}
	if len(got) != len(want) {
		d(field, "%d actions, the canonical chain gives %d", len(got), len(want))
		return false
	}
	return true
}

// conversation checks one agent's messages: the system prompt and
// question view of its form (a specialist's delegation message too), then
// each action with the canonical one and each observation with the
// chain's handle. It returns the parsed observations, one per action that
// has one.
func (v *verifier) conversation(d func(string, string, ...any), field string, rec *workers.Record, f episode.Form, delegation []byte, msgs []episode.Message, want []wantStep) ([]*episode.Observation, bool) {
	q, err := episode.NewQuestionView(*rec, f, f.Tools()).Text()
	if err != nil {
		d(field, "%v", err)
		return nil, false
	}
	head := []string{episode.SystemPrompt(f), q}
	if delegation != nil {
		head = append(head, string(delegation))
	}
	if len(msgs) < len(head) {
		d(field, "%d messages, fewer than the opening %d", len(msgs), len(head))
		return nil, false
	}
	for k, text := range head {
		m := msgs[k]
		mf := fmt.Sprintf("%s[%d]", field, k)
		if m.Role != [...]string{episode.RoleSystem, episode.RoleUser, episode.RoleUser}[k] || m.Content != text {
			if leak := goldLeak(rec, m.Content, text); leak != "" {
				d(mf, "leaks gold: %s", leak)
			} else {
				d(mf, "%s message differs from the one the canonical gold-free record gives", m.Role)
			}
			return nil, false
		}
	}
	rest := msgs[len(head):]
	var obs []*episode.Observation
	for k, a := range want {
		if len(rest) == 0 {
			d(field, "ends before action %d (%s)", k, a.Tool)
			return nil, false
		}
		mf := fmt.Sprintf("%s[%d]", field, len(msgs)-len(rest))
		m := rest[0]
		if m.Role != episode.RoleAssistant || m.Action == nil {
			d(mf, "a %s message where action %d (%s) belongs", m.Role, k, a.Tool)
			return nil, false
		}
		if m.Action.Tool != a.Tool {
			d(mf+".action.tool", "%q, the canonical action is %q", m.Action.Tool, a.Tool)
			return nil, false
		}
		if p, diff := firstDiff(m.Action.Args, a.Args, mf+".action.args"); p != "" {
			d(p, "%s, the canonical action has %s", diff.got, diff.want)
			return nil, false
		}
		rest = rest[1:]
		if a.Tool == runtime.ToolFinalAnswer || a.Tool == runtime.ToolTerminate {
			if len(rest) != 0 {
				d(mf, "messages after the terminal action (the resolved answer is the evaluator's, never shown)")
				return nil, false
			}
			return obs, true
		}
		if len(rest) == 0 {
			d(mf, "no observation of %s", a.Tool)
			return nil, false
		}
		mf = fmt.Sprintf("%s[%d]", field, len(msgs)-len(rest))
		o, reason := observation(rest[0], a.Tool)
		if reason == "" {
			if leak := goldLeak(rec, rest[0].Content, ""); strings.HasPrefix(leak, "the gold answer") {
				reason = "leaks gold: " + leak
			}
		}
		if reason != "" {
			d(mf, "%s", reason)
			return nil, false
		}
		if o.Handle != a.output {
			d(mf+".content.handle", "%q, the canonical chain declares %q", o.Handle, a.output)
			return nil, false
		}
		obs = append(obs, o)
		rest = rest[1:]
	}
	if len(rest) > 0 {
		d(field, "%d messages after the last canonical action", len(rest))
		return nil, false
	}
	return obs, true
}

// observation parses a tool message as a runtime observation; it returns
// a reason when the message is not one for tool.
func observation(m episode.Message, tool string) (*episode.Observation, string) {
	if m.Role != episode.RoleTool || m.Tool != tool {
		return nil, fmt.Sprintf("a %s message of %q where the observation of %s belongs", m.Role, m.Tool, tool)
	}
	if m.IsError {
		return nil, "a tool error in a replayed episode"
	}
	dec := json.NewDecoder(strings.NewReader(m.Content))
	dec.DisallowUnknownFields()
	var o episode.Observation
	if err := dec.Decode(&o); err != nil {
		return nil, fmt.Sprintf("not a runtime observation: %v", err)
	}
	switch {
	case o.Tool != tool:
		return nil, fmt.Sprintf("observation of %q for the call of %s", o.Tool, tool)
	case o.Answer != nil || o.AnswerRef != "":
		return nil, "leaks gold: the observation carries a resolved answer (the model receives only the published reference)"
	case o.Published != "" && o.Published != runtime.AnswerRef:
		return nil, fmt.Sprintf("published %q is not %s", o.Published, runtime.AnswerRef)
	}
	for _, a := range o.Artifacts {
		if !strings.HasPrefix(a.Locator, "generated-artifact://") {
			return nil, fmt.Sprintf("artifact locator %q is not a generated-artifact:// locator", a.Locator)
		}
	}
	if p := hostPath(o.Evidence, "evidence"); p != "" {
		return nil, fmt.Sprintf("%s names an absolute host path", p)
	}
	return &o, ""
}

// hostPath returns the path of the first string in v that is an absolute
// file path.
func hostPath(v any, path string) string {
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "/") && strings.Count(x, "/") > 1 || strings.HasPrefix(x, "file:") {
			return path
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		for _, k := range keys {
			if p := hostPath(x[k], path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range x {
			if p := hostPath(e, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// goldLeak names gold that text carries and the expected text does not:
// the answer JSON itself, or one of its leaf values.
func goldLeak(rec *workers.Record, text, expected string) string {
	var compact bytes.Buffer
	if json.Compact(&compact, rec.Answer) == nil && compact.Len() > 2 && strings.Contains(text, compact.String()) && !strings.Contains(expected, compact.String()) {
		return "the gold answer JSON"
	}
	if expected == "" {
		return ""
	}
	var gold any
	if json.Unmarshal(rec.Answer, &gold) != nil {
		return ""
	}
	for _, leaf := range leaves(gold, "answer") {
		if len(leaf.text) >= 3 && strings.Contains(text, leaf.text) && !strings.Contains(expected, leaf.text) {
			return fmt.Sprintf("gold value %s (%s)", leaf.text, leaf.path)
		}
	}
	return ""
}

type leaf struct{ path, text string }

// leaves lists a JSON value's strings and numbers as they are written.
func leaves(v any, path string) []leaf {
	switch x := v.(type) {
	case string:
		return []leaf{{path, x}}
	case float64:
		b, _ := json.Marshal(x)
		return []leaf{{path, string(b)}}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		var out []leaf
		for _, k := range keys {
			out = append(out, leaves(x[k], path+"."+k)...)
		}
		return out
	case []any:
		var out []leaf
		for i, e := range x {
			out = append(out, leaves(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	return nil
}

// diff is a value pair for a report.
type diff struct{ got, want string }

// firstDiff returns the path of the first difference between two decoded
// JSON values (objects by sorted key), or "".
func firstDiff(got, want any, path string) (string, diff) {
	g, w := normalize(got), normalize(want)
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return path, diff{show(g), show(w)}
		}
		keys := map[string]bool{}
		for k := range wv {
			keys[k] = true
		}
		for k := range gv {
			keys[k] = true
		}
		sorted := slices.Sorted(maps.Keys(keys))
		for _, k := range sorted {
			a, inG := gv[k]
			b, inW := wv[k]
			switch {
			case !inW:
				return path + "." + k, diff{show(a), "no such argument"}
			case !inG:
				return path + "." + k, diff{"absent", show(b)}
			}
			if p, d := firstDiff(a, b, path+"."+k); p != "" {
				return p, d
			}
		}
		return "", diff{}
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return path, diff{show(g), show(w)}
		}
		for i := range wv {
			if p, d := firstDiff(gv[i], wv[i], fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p, d
			}
		}
		return "", diff{}
	}
	if !reflect.DeepEqual(g, w) {
		return path, diff{show(g), show(w)}
	}
	return "", diff{}
}

// normalize maps a value through JSON so that Go values and decoded JSON
// compare alike.
func normalize(v any) any {
	switch v.(type) {
	case map[string]any, []any, string, float64, bool, nil:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// show writes a decoded JSON value (always encodable) as JSON.
func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// checkMulti checks a multi-agent episode against its record and the
// single-agent episode's observations.
func (v *verifier) checkMulti(at Drift, rec *workers.Record, ep *episode.MultiAgentEpisode) {
	d := func(field, format string, a ...any) { v.drift(with(at, rec.ID, field, fmt.Sprintf(format, a...))) }
	if s := v.single[rec.ID]; s != nil && ep.TrajectoryContentGroupID != s.TrajectoryContentGroupID {
		d("trajectory_content_group_id", "%q, the single-agent episode has %q", ep.TrajectoryContentGroupID, s.TrajectoryContentGroupID)
		return
	}
	ds, err := plan(*rec)
	if err != nil {
		d("gt_chain", "%v", err)
		return
	}
	last := len(rec.GTChain) - 1
	var seq []episode.Action
	var agents []string
	for j, dl := range ds {
		for _, st := range dl.steps {
			seq = append(seq, canonicalStep(st))
			agents = append(agents, string(dl.role))
		}
		tc := episode.Action{Tool: runtime.ToolTaskComplete, Args: taskCompleteArgs}
		if j == len(ds)-1 {
			tc = canonicalStep(rec.GTChain[last])
		}
		seq = append(seq, tc)
		agents = append(agents, string(dl.role))
	}
	seq = append(seq, terminal(runtime.ToolTerminate))
	agents = append(agents, episode.AgentORC)
	got := make([]episode.Action, len(ep.ToolSequence))
	for k, a := range ep.ToolSequence {
		got[k] = a.Action
		if k < len(agents) && a.Agent != agents[k] {
			d(fmt.Sprintf("tool_sequence[%d].agent", k), "%q, the owner of %s is %s", a.Agent, a.Tool, agents[k])
			return
		}
	}
	if !v.actions(d, "tool_sequence", got, seq, "the chain's multi-agent sequence") {
		return
	}
	if len(ep.Delegations) != len(ds) {
		d("delegations", "%d delegations, the chain's runs of same-owner steps give %d", len(ep.Delegations), len(ds))
		return
	}
	planned := make([]any, len(ds))
	orcWant := []episode.Action{{}}
	for j, dl := range ds {
		got := ep.Delegations[j]
		df := fmt.Sprintf("delegations[%d]", j)
		if got.Role != string(dl.role) || !reflect.DeepEqual(got.Steps, stepTools(dl.steps)) {
			d(df, "%s %v, the chain gives %s %v", got.Role, got.Steps, dl.role, stepTools(dl.steps))
			return
		}
		if h, reason := checkInputs(rec, dl, got.Inputs); reason != "" {
			d(df+".inputs", "%s: %s", h, reason)
			return
		}
		args := episode.DelegateArgs{Role: got.Role, Steps: got.Steps, Inputs: got.Inputs}
		planned[j] = args.Planned()
		orcWant = append(orcWant, episode.Action{Tool: episode.ToolDelegate, Args: args.Args()})
		msg, _ := json.Marshal(args)
		want := wantSteps(dl.steps)
		tc := wantStep{Action: episode.Action{Tool: runtime.ToolTaskComplete, Args: taskCompleteArgs}}
		if j == len(ds)-1 {
			tc.Action = canonicalStep(rec.GTChain[last])
		}
		want = append(want, tc)
		obs, ok := v.conversation(d, df+".messages", rec, episode.Specialist(dl.role), msg, got.Messages, want)
		if !ok {
			return
		}
		if sobs := v.singleObs[rec.ID]; sobs != nil {
			for k := range dl.steps {
				a, b := obs[k], sobs[dl.first+k]
				if a.Handle != b.Handle || !reflect.DeepEqual(a.Evidence, b.Evidence) || !reflect.DeepEqual(a.Artifacts, b.Artifacts) {
					d(fmt.Sprintf("%s.messages[%d]", df, 4+2*k), "the observation of %s differs from the single-agent episode's (handle, evidence or artifacts)", dl.steps[k].Tool)
					return
				}
			}
		}
	}
	orcWant[0] = episode.Action{Tool: episode.ToolPlan, Args: map[string]any{"delegations": planned}}
	orcWant = append(orcWant, terminal(runtime.ToolTerminate))
	// The orchestrator's conversation: each Delegate is answered with the
	// specialist's observations.
	v.multiOK[rec.ID] = v.orchestrator(d, rec, ep, orcWant)
}

// orchestrator checks ORC's messages: opening, actions, and each
// delegation result equal to the specialist's observations.
func (v *verifier) orchestrator(d func(string, string, ...any), rec *workers.Record, ep *episode.MultiAgentEpisode, want []episode.Action) bool {
	q, err := episode.NewQuestionView(*rec, episode.Orchestrator, episode.Orchestrator.Tools()).Text()
	if err != nil {
		d("messages", "%v", err)
		return false
	}
	msgs := ep.Messages
	for k, text := range []string{episode.SystemPrompt(episode.Orchestrator), q} {
		if len(msgs) <= k || msgs[k].Content != text {
			content := ""
			if len(msgs) > k {
				content = msgs[k].Content
			}
			if leak := goldLeak(rec, content, text); leak != "" {
				d(fmt.Sprintf("messages[%d]", k), "leaks gold: %s", leak)
			} else {
				d(fmt.Sprintf("messages[%d]", k), "differs from the one the canonical gold-free record gives")
			}
			return false
		}
	}
	k := 2
	for j, a := range want {
		mf := fmt.Sprintf("messages[%d]", k)
		if k >= len(msgs) || msgs[k].Action == nil {
			d(mf, "action %d (%s) missing", j, a.Tool)
			return false
		}
		if p, df := firstDiff(msgs[k].Action, a, mf+".action"); p != "" {
			d(p, "%s, the chain gives %s", df.got, df.want)
			return false
		}
		k++
		if a.Tool != episode.ToolDelegate {
			continue
		}
		dl := ep.Delegations[j-1]
		res := episode.DelegateResult{Role: dl.Role}
		for _, m := range dl.Messages {
			if m.Role == episode.RoleTool {
				res.Observations = append(res.Observations, json.RawMessage(m.Content))
			}
		}
		wantText, _ := json.Marshal(res)
		mf = fmt.Sprintf("messages[%d]", k)
		if k >= len(msgs) || msgs[k].Role != episode.RoleTool || msgs[k].Tool != episode.ToolDelegate || msgs[k].Content != string(wantText) {
			d(mf, "the delegation result differs from delegation %d's observations", j-1)
			return false
		}
		k++
	}
	if k != len(msgs) {
		d("messages", "%d messages after Terminate", len(msgs)-k)
		return false
	}
	return true
}

// checkInputs checks that a delegation's inputs are handles that exist
// before it and that its steps name.
func checkInputs(rec *workers.Record, dl delegation, inputs []string) (string, string) {
	before := map[string]bool{}
	for h := range rec.Handles {
		before[h] = true
	}
	for _, st := range rec.GTChain[:dl.first] {
		before[st.Output] = true
	}
	named := map[string]bool{}
	for _, st := range dl.steps {
		for _, s := range strings_(st.Args) {
			named[s] = true
		}
	}
	for _, h := range inputs {
		switch {
		case !before[h]:
			return h, "not a handle that exists before the delegation"
		case !named[h]:
			return h, "no delegated step names it"
		}
	}
	return "", ""
}

// strings_ lists every string in a decoded JSON value.
func strings_(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, strings_(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, strings_(e)...)
		}
		return out
	}
	return nil
}

// missingEpisodes reports canonical records without an episode.
func (v *verifier) missingEpisodes() {
	for _, id := range v.order {
		rec := v.recs[id]
		if v.single[id] == nil {
			v.drift(Drift{File: File(SingleAgentEpisodes, rec.Split), ID: id, Reason: "no single-agent episode"})
		}
		if v.multi[id] == nil {
			v.drift(Drift{File: File(MultiAgentEpisodes, rec.Split), ID: id, Reason: "no multi-agent episode"})
		}
	}
}

// rowRef is one SFT row as read.
type rowRef struct {
	line int
	b    []byte
}

// turns checks one SFT file: every row is one action of its record's
// episode with the episode's messages before it, and no row is missing.
func (v *verifier) turns(name, split string) error {
	rel := File(name, split)
	rows := map[string][]rowRef{}
	var ids []string
	err := v.scan(rel, func(n int, line []byte) {
		var probe struct{ ID string }
		if json.Unmarshal(line, &probe) != nil || v.recs[probe.ID] == nil {
			var t episode.Turn
			v.row(Drift{File: rel, Line: n}, episode.TurnRow, line, &t, &t.Identity, split)
			return
		}
		if rows[probe.ID] == nil {
			ids = append(ids, probe.ID)
		}
		rows[probe.ID] = append(rows[probe.ID], rowRef{n, bytes.Clone(line)})
	})
	if err != nil {
		return err
	}
	for _, id := range v.order {
		rec := v.recs[id]
		if rec.Split != split {
			if len(rows[id]) > 0 {
				v.drift(Drift{File: rel, Line: rows[id][0].line, ID: id, Field: "split", Reason: fmt.Sprintf("a %s record's row in the %s file", rec.Split, split)})
			}
			continue
		}
		want, ok := v.expectedTurns(name, id)
		if !ok {
			continue // its episode drifted or is missing: already reported
		}
		got := rows[id]
		for k := 0; k < len(want); k++ {
			if k >= len(got) || len(got) < len(want) && isTurn(got[k], want[k+1]) {
				v.drift(Drift{File: rel, ID: id, Field: turnName(want[k]), Reason: fmt.Sprintf("missing: %d rows, the episode has %d actions of %s", len(got), len(want), want[k].Agent)})
				break
			}
			if !v.sameTurn(rel, rec, got[k], want[k]) {
				break
			}
		}
		if len(got) > len(want) {
			v.drift(Drift{File: rel, Line: got[len(want)].line, ID: id, Reason: fmt.Sprintf("%d rows, the episode has %d actions", len(got), len(want))})
		}
	}
	return nil
}

// isTurn reports whether a row is the given turn of its episode (by its
// agent, delegation and turn index).
func isTurn(r rowRef, t episode.Turn) bool {
	var got struct {
		Agent      string
		Delegation *int
		Turn       int
	}
	return json.Unmarshal(r.b, &got) == nil && got.Agent == t.Agent && got.Turn == t.Turn && reflect.DeepEqual(got.Delegation, t.Delegation)
}

func turnName(t episode.Turn) string {
	if t.Delegation != nil {
		return fmt.Sprintf("delegation %d turn %d", *t.Delegation, t.Turn)
	}
	return fmt.Sprintf("turn %d", t.Turn)
}

// expectedTurns derives a projection's rows of a record from its episode.
func (v *verifier) expectedTurns(name, id string) ([]episode.Turn, bool) {
	switch name {
	case SingleAgentSFT:
		if e := v.single[id]; e != nil && v.singleObs[id] != nil {
			return e.Turns(), true
		}
		return nil, false
	}
	e := v.multi[id]
	if e == nil || !v.multiOK[id] {
		return nil, false
	}
	switch name {
	case ORCSFT:
		return e.OrchestratorTurns(), true
	case GASFT:
		return e.SpecialistTurns(episode.AgentGA), true
	case PASFT:
		return e.SpecialistTurns(episode.AgentPA), true
	case VRASFT:
		return e.SpecialistTurns(episode.AgentVRA), true
	}
	return nil, false
}

// sameTurn compares a row with the turn its episode gives; on a
// difference it reports the first drifting field.
func (v *verifier) sameTurn(rel string, rec *workers.Record, got rowRef, want episode.Turn) bool {
	wl, err := v.val.Encode(episode.TurnRow, want)
	if err == nil && bytes.Equal(got.b, wl.Bytes()) {
		return true
	}
	at := Drift{File: rel, Line: got.line}
	var t episode.Turn
	if _, ok := v.row(at, episode.TurnRow, got.b, &t, &t.Identity, rec.Split); !ok {
		return false
	}
	d := func(field, format string, a ...any) { v.drift(with(at, rec.ID, field, fmt.Sprintf(format, a...))) }
	switch {
	case t.TrajectoryContentGroupID != want.TrajectoryContentGroupID:
		d("trajectory_content_group_id", "%q, its episode has %q", t.TrajectoryContentGroupID, want.TrajectoryContentGroupID)
	case t.Agent != want.Agent || !reflect.DeepEqual(t.Delegation, want.Delegation) || t.Turn != want.Turn:
		d("turn", "%s, the next row of the episode is %s %s", turnName(t), want.Agent, turnName(want))
	case len(t.Messages) != len(want.Messages):
		d("messages", "%d context messages, the episode has %d before this action", len(t.Messages), len(want.Messages))
	default:
		for k := range want.Messages {
			if !reflect.DeepEqual(normalize(t.Messages[k]), normalize(want.Messages[k])) {
				m := t.Messages[k]
				_, reason := observation(m, m.Tool)
				switch leak := goldLeak(rec, m.Content, want.Messages[k].Content); {
				case leak != "":
					d(fmt.Sprintf("messages[%d]", k), "leaks gold: %s", leak)
				case m.Role == episode.RoleTool && reason != "":
					d(fmt.Sprintf("messages[%d]", k), "%s", reason)
				default:
					d(fmt.Sprintf("messages[%d]", k), "differs from the episode's message")
				}
				return false
			}
		}
		if p, df := firstDiff(t.Target, want.Target, "target"); p != "" {
			source := "its episode's action"
			if want.Agent == episode.AgentSingle && want.Turn < len(rec.GTChain) {
				source = fmt.Sprintf("gt_chain[%d]", want.Turn)
			}
			d(p, "%s, %s has %s", df.got, source, df.want)
			return false
		}
		// The same row written differently (key order, escapes).
		return true
	}
	return false
}

// manifest checks export.json against the files read.
func (v *verifier) manifest(m *Manifest) {
	for _, name := range Projections() {
		for _, split := range Splits {
			rel := File(name, split)
			fi, ok := m.Files[rel]
			switch {
			case !ok:
				v.drift(Drift{File: ManifestFile, Field: "files", Reason: rel + " is not listed"})
			case fi.Rows != v.rep.Rows[rel]:
				v.drift(Drift{File: ManifestFile, Field: "files." + rel + ".rows", Reason: fmt.Sprintf("%d, the file has %d rows", fi.Rows, v.rep.Rows[rel])})
			default:
				if sum, err := fileSHA256(filepath.Join(v.dir, rel)); err == nil && sum != fi.SHA256 {
					v.drift(Drift{File: ManifestFile, Field: "files." + rel + ".sha256", Reason: "the file's digest differs"})
				}
			}
		}
	}
	if m.Records != v.rep.Records {
		v.drift(Drift{File: ManifestFile, Field: "records", Reason: fmt.Sprintf("%d, the canonical source has %d", m.Records, v.rep.Records)})
	}
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
