package score

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/scoring"
)

// Commands returns the score and geoktools-score commands.
func Commands() []kit.Command {
	return []kit.Command{
		{Name: "score", Summary: "score predictions against gold under geodisaster_structured_answer_v2", Run: runScore},
		{Name: "geoktools-score", Summary: "score answers with the GeoKTools deterministic scorer (numeric 10% branch, ROUGE-L strings)", Run: runGeoKToolsScore},
	}
}

// runScore implements "geodisaster score --gold G --pred P [--policy F] [--json]".
// It exits 0 when every gold record is predicted and correct, 1 when
// scoring ran but some are not (the report names them), 5 when an input or
// the policy cannot be read, 2 on usage errors.
func runScore(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("score", "--gold GOLD.jsonl --pred PRED.jsonl|EPISODES_DIR [--policy POLICY.json] [--json]")
	fs.Description = `Scores predictions against gold answers with geodisaster_structured_answer_v2
under the scoring policy, per type and per family with denominators (no
overall score), and names every incorrect record's first failing path.
--pred is a predictions JSONL or a directory of episodes written by
geodisaster serve --episodes. Exits 0 when every gold record is predicted
and correct, 1 when scoring ran but some are not.`
	fs.Example("geodisaster score --gold corpus/records.jsonl --pred replay-out/results.jsonl", "")
	fs.Example("geodisaster score --gold gold.jsonl --pred agent.jsonl --json", "")
	fs.Example("geodisaster score --gold gold.jsonl --pred episodes/", "score the episodes of geodisaster serve --episodes episodes/")
	goldPath := fs.String("gold", "", "gold JSONL: records with id, question_type, answer (family optional)")
	predPath := fs.String("pred", "", "prediction JSONL ({\"id\",\"answer\"} lines or replay results.jsonl lines), or a directory of episodes written by geodisaster serve --episodes")
	policyPath := fs.String("policy", "", "scoring policy JSON (default: the embedded scoring_policy_43.json)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Require("gold", "pred")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}

	policy, err := loadPolicy(*policyPath)
	if err != nil {
		return err
	}
	gold, err := readFile(*goldPath, scoring.ReadGold)
	if err != nil {
		return err
	}
	if st, err := os.Stat(*predPath); err == nil && st.IsDir() {
		return scoreEpisodes(cio, policy, gold, *goldPath, *predPath, *asJSON)
	}
	preds, err := readFile(*predPath, scoring.ReadPredictions)
	if err != nil {
		return err
	}
	rep, err := scoring.ScoreSet(policy, gold, preds)
	if err != nil {
		return fmt.Errorf("score %s: %w", *goldPath, err)
	}
	if *asJSON {
		if err := kit.WriteJSON(cio.Stdout, rep); err != nil {
			return fmt.Errorf("score: write report: %w", err)
		}
	} else if err := printScoreReport(cio.Stdout, policy, rep); err != nil {
		return err
	}
	incorrect := 0
	for _, r := range rep.Records {
		if !r.Correct {
			incorrect++
		}
	}
	if incorrect > 0 {
		return kit.Failedf("score: %d of %d records are not predicted correctly", incorrect, len(rep.Records))
	}
	return nil
}

// loadPolicy loads the policy named by --policy, or the embedded one.
func loadPolicy(path string) (*scoring.Policy, error) {
	if path == "" {
		return scoring.DefaultPolicy()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open policy: %w", err)
	}
	defer f.Close()
	p, err := scoring.LoadPolicy(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// readFile opens path and parses it with read.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("open input: %w", err)
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// printScoreReport writes the human-readable tables: per type, per family,
// then every incorrect record with its first failing path and reason.
func printScoreReport(w io.Writer, p *scoring.Policy, rep *scoring.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "scorer: %s (policy %s); no overall score is computed\n\n", rep.Scorer, rep.Policy)
	fmt.Fprintln(tw, "question_type\tfamily\trecords\tpredicted\tcorrect\tcorrect/records")
	for _, t := range p.Types {
		if c, ok := rep.ByType[t.QuestionType]; ok {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", t.QuestionType, t.Family, c.Records, c.Predicted, c.Correct, pct(c.Correct, c.Records))
		}
	}
	fmt.Fprintln(tw, "\nfamily\t\trecords\tpredicted\tcorrect\tcorrect/records")
	for _, f := range p.Families() {
		if c, ok := rep.ByFamily[f]; ok {
			fmt.Fprintf(tw, "%s\t\t%d\t%d\t%d\t%s\n", f, c.Records, c.Predicted, c.Correct, pct(c.Correct, c.Records))
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("score: write report: %w", err)
	}
	incorrect := 0
	for _, r := range rep.Records {
		if !r.Correct {
			incorrect++
		}
	}
	if incorrect > 0 {
		fmt.Fprintf(w, "\nincorrect records (%d):\n", incorrect)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tquestion_type\tpath\treason")
		for _, r := range rep.Records {
			if !r.Correct {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.QuestionType, r.Path, r.Reason)
			}
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("score: write report: %w", err)
		}
	}
	if n := len(rep.UnknownPredictions); n > 0 {
		fmt.Fprintf(w, "\n%d prediction(s) with ids not in gold (ignored): %s\n", n, clip(rep.UnknownPredictions, 10))
	}
	if n := len(rep.DuplicatePredictions); n > 0 {
		fmt.Fprintf(w, "%d id(s) predicted on more than one line (scored incorrect): %s\n", n, clip(rep.DuplicatePredictions, 10))
	}
	if n := len(rep.UnparsedPredictionLines); n > 0 {
		fmt.Fprintf(w, "%d prediction line(s) without a readable id (ignored): %v\n", n, rep.UnparsedPredictionLines)
	}
	return nil
}

// pct formats num/den as a percentage, or "-" for an empty denominator.
func pct(num, den int) string {
	if den == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(num)/float64(den))
}

// clip renders at most n items of s.
func clip(s []string, n int) string {
	if len(s) <= n {
		return fmt.Sprint(s)
	}
	return fmt.Sprintf("%v ... (%d more)", s[:n], len(s)-n)
}

// attemptsReport is score's JSON for a directory holding several episodes
// of some record: one report per attempt.
type attemptsReport struct {
	Scorer   string            `json:"scorer"`
	Policy   string            `json:"policy"`
	Episodes int               `json:"episodes"`
	Attempts []*scoring.Report `json:"attempts"`
}

// scoreEpisodes scores a directory of served sessions' episodes. Each
// episode's prediction is the answer its session resolved (a session
// that ended without one is a prediction with status error). When a
// record has several episodes, the k-th of each record (in the order the
// sessions opened) forms attempt k, scored on its own against all of
// gold; with one episode per record the report is the one a prediction
// file gets.
func scoreEpisodes(cio kit.IO, policy *scoring.Policy, gold []scoring.GoldRecord, goldPath, dir string, asJSON bool) error {
	eps, err := mcp.ReadEpisodeDir(dir)
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	if len(eps) == 0 {
		return fmt.Errorf("score: no episodes (*.json) under %s", dir)
	}
	var sets []*scoring.PredictionSet
	seen := map[string]int{}
	for _, ep := range eps {
		k := seen[ep.RecordID]
		seen[ep.RecordID]++
		if k == len(sets) {
			sets = append(sets, &scoring.PredictionSet{ByID: map[string]scoring.Prediction{}})
		}
		p := scoring.Prediction{ID: ep.RecordID, HasAnswer: true, Status: "ok"}
		if ep.Answer == nil {
			p.Status, p.Error = "error", fmt.Sprintf("the session ended (%s) without an answer: %s", ep.End, ep.Path)
		} else if p.Answer, err = scoring.DecodeJSON(ep.Answer); err != nil {
			p.Malformed = err.Error()
		}
		sets[k].ByID[ep.RecordID] = p
	}
	reps := make([]*scoring.Report, len(sets))
	for k, set := range sets {
		if reps[k], err = scoring.ScoreSet(policy, gold, set); err != nil {
			return fmt.Errorf("score %s: %w", goldPath, err)
		}
	}
	if asJSON {
		var v any = reps[0]
		if len(reps) > 1 {
			v = attemptsReport{Scorer: reps[0].Scorer, Policy: reps[0].Policy, Episodes: len(eps), Attempts: reps}
		}
		if err := kit.WriteJSON(cio.Stdout, v); err != nil {
			return fmt.Errorf("score: write report: %w", err)
		}
		return nil
	}
	fmt.Fprintf(cio.Stdout, "%d episodes of %d records under %s", len(eps), len(seen), dir)
	if len(reps) > 1 {
		fmt.Fprintf(cio.Stdout, "; %d attempts (attempt k holds the k-th session of each record, in the order they opened)", len(reps))
	}
	fmt.Fprint(cio.Stdout, "\n\n")
	for k, rep := range reps {
		if len(reps) > 1 {
			fmt.Fprintf(cio.Stdout, "== attempt %d of %d\n", k+1, len(reps))
		}
		if err := printScoreReport(cio.Stdout, policy, rep); err != nil {
			return err
		}
		if k < len(reps)-1 {
			fmt.Fprintln(cio.Stdout)
		}
	}
	return nil
}
