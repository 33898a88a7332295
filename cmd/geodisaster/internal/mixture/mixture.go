package mixture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/scoring"
)

// Commands returns the mixture command.
func Commands() []kit.Command {
	return []kit.Command{{Name: "mixture", Summary: "GeoKTools mixture audit: TV bound, corner check, per-K means, case and template-cluster bootstraps", Run: runMixture}}
}

// defaults are the audit's factual inputs (GeoKTools development
// and documented held-out counts for K=1..4) and its illustrative profile.
const (
	defaultDev     = "10,50,15,10"
	defaultTest    = "30,100,50,30"
	defaultProfile = "0.9,0.8,0.6,0.4"
)

// level is one K row of the report.
type level struct {
	K             int      `json:"k"`
	DevCount      float64  `json:"dev_count"`
	TestCount     float64  `json:"test_count"`
	DevWeightPct  float64  `json:"dev_weight_pct"`
	TestWeightPct float64  `json:"test_weight_pct"`
	DiffPP        float64  `json:"weight_diff_pp"`
	ProfilePct    *float64 `json:"profile_score_pct,omitempty"`
	Cases         *int     `json:"cases,omitempty"`
	CaseMeanPct   *float64 `json:"case_mean_pct,omitempty"`
}

// interval is a bootstrap interval in percent.
type interval struct {
	Method      string   `json:"method"`
	Statistic   string   `json:"statistic"`
	Units       int      `json:"units"`
	Replicates  int      `json:"replicates"`
	Discarded   int      `json:"discarded"`
	EstimatePct *float64 `json:"estimate_pct"`
	LoPct       *float64 `json:"lo_pct"`
	HiPct       *float64 `json:"hi_pct"`
}

// report is the JSON output of the mixture command.
type report struct {
	TVBoundPP     float64    `json:"tv_bound_pp"`
	CornerMaxPP   float64    `json:"corner_max_pp"`
	Corner        []int      `json:"corner_levels_scored_one"`
	Profile       []float64  `json:"profile"`
	ProfileSource string     `json:"profile_source"`
	DevMeanPct    float64    `json:"dev_mean_pct"`
	TestMeanPct   float64    `json:"test_mean_pct"`
	PerK          []level    `json:"per_k"`
	Confidence    *float64   `json:"confidence,omitempty"`
	Seed          *uint64    `json:"seed,omitempty"`
	Bootstrap     []interval `json:"bootstrap,omitempty"`
}

// runMixture implements "geodisaster mixture --dev 10,50,15,10 --test
// 30,100,50,30 [--scores 0.9,0.8,0.6,0.4] [--cases FILE.jsonl] [--json]".
func runMixture(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("mixture", "[--dev N1,N2,...] [--test N1,N2,...] [--scores S1,S2,...] [--cases FILE.jsonl [--replicates R] [--seed S] [--confidence C] [--merge-template A=B,...]] [--json]")
	fs.Description = "The GeoKTools mixture audit: total-variation bound, corner check, per-K\nmeans and case- and template-cluster bootstrap intervals."
	fs.Example("geodisaster mixture", "the audit's documented counts and illustrative profile")
	fs.Example("geodisaster mixture --cases cases.jsonl --replicates 5000 --json", "")
	devFlag := fs.String("dev", defaultDev, "development case counts per K level")
	testFlag := fs.String("test", defaultTest, "held-out case counts per K level")
	scoresFlag := fs.String("scores", "", "hypothetical per-K scores as fractions (0.9,...) or percentages (90,...); default "+defaultProfile+", the audit's illustrative profile")
	casesFlag := fs.String("cases", "", `per-case JSONL {"id","k","template","score"} for per-K means and bootstrap intervals`)
	replicates := fs.Int("replicates", 2000, "bootstrap replicates")
	seed := fs.Uint64("seed", 1, "bootstrap random seed")
	confidence := fs.Float64("confidence", 0.95, "bootstrap interval confidence level")
	merge := fs.String("merge-template", "", "merge declared template variants into one family: VARIANT=FAMILY[,...]")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	dev, err := parseList(*devFlag)
	if err != nil {
		return kit.Usagef("mixture: --dev: %v", err)
	}
	test, err := parseList(*testFlag)
	if err != nil {
		return kit.Usagef("mixture: --test: %v", err)
	}
	source := "--scores"
	explicitScores := *scoresFlag != ""
	if !explicitScores {
		*scoresFlag, source = defaultProfile, "illustrative default (the audit's 90/80/60/40 profile; not a measurement)"
	}
	profile, err := parseProfile(*scoresFlag)
	if err != nil {
		return kit.Usagef("mixture: --scores: %v", err)
	}
	audit, err := scoring.AuditMixture(dev, test, profile)
	if err != nil {
		return &kit.UsageError{Err: err}
	}
	rep := report{
		TVBoundPP: 100 * audit.TVBound, CornerMaxPP: 100 * audit.CornerMax, Corner: audit.Corner,
		Profile: profile, ProfileSource: source,
		DevMeanPct: 100 * *audit.DevMean, TestMeanPct: 100 * *audit.TestMean,
	}
	for i := range dev {
		pp := 100 * profile[i]
		rep.PerK = append(rep.PerK, level{
			K: i + 1, DevCount: dev[i], TestCount: test[i],
			DevWeightPct: 100 * audit.DevWeights[i], TestWeightPct: 100 * audit.TestWeights[i],
			DiffPP: 100 * (audit.DevWeights[i] - audit.TestWeights[i]), ProfilePct: &pp,
		})
	}
	if *casesFlag != "" {
		merges, err := parseMerges(*merge)
		if err != nil {
			return kit.Usagef("mixture: --merge-template: %v", err)
		}
		cases, err := readCases(cio, *casesFlag, merges)
		if err != nil {
			return err
		}
		stats, err := scoring.LevelStats(cases, audit.DevWeights, audit.TestWeights)
		if err != nil {
			return fmt.Errorf("mixture: %s: %w", *casesFlag, err)
		}
		covered := true
		means := make([]float64, len(stats))
		for i, s := range stats {
			n, m := s.N, 100*s.Mean
			rep.PerK[i].Cases = &n
			if n > 0 {
				rep.PerK[i].CaseMeanPct = &m
			} else {
				covered = false
			}
			means[i] = s.Mean
		}
		// Without --scores, measured per-K means replace the illustrative
		// profile when every level has cases.
		if !explicitScores && covered {
			audit, err = scoring.AuditMixture(dev, test, means)
			if err != nil {
				return fmt.Errorf("mixture: %w", err)
			}
			rep.Profile, rep.ProfileSource = means, "per-K case means of --cases"
			rep.DevMeanPct, rep.TestMeanPct = 100**audit.DevMean, 100**audit.TestMean
			for i := range rep.PerK {
				pp := 100 * means[i]
				rep.PerK[i].ProfilePct = &pp
			}
		}
		ivs, err := scoring.Bootstrap(cases, audit.TestWeights, *replicates, *confidence, *seed)
		if err != nil {
			return kit.Usagef("mixture: %v", err)
		}
		rep.Confidence, rep.Seed = confidence, seed
		for _, iv := range ivs {
			mi := interval{Method: iv.Method, Statistic: iv.Statistic, Units: iv.Units, Replicates: iv.Replicates, Discarded: iv.Discarded}
			if iv.Defined {
				e, lo, hi := 100*iv.Estimate, 100*iv.Lo, 100*iv.Hi
				mi.EstimatePct, mi.LoPct, mi.HiPct = &e, &lo, &hi
			}
			rep.Bootstrap = append(rep.Bootstrap, mi)
		}
	} else if *merge != "" {
		return kit.Usagef("mixture: --merge-template needs --cases")
	}
	if *asJSON {
		return kit.WriteJSON(cio.Stdout, rep)
	}
	return printReport(cio.Stdout, &rep)
}

func printReport(w io.Writer, rep *report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tv_bound_pp\t%.3f\t(exact bound on the mixture-only difference)\n", rep.TVBoundPP)
	fmt.Fprintf(tw, "corner_max_pp\t%.3f\t(max over all %d zero/one corners; levels scored 1: %v)\n", rep.CornerMaxPP, 1<<len(rep.PerK), rep.Corner)
	fmt.Fprintf(tw, "dev_mean_pct\t%.2f\t(profile: %s)\n", rep.DevMeanPct, rep.ProfileSource)
	fmt.Fprintf(tw, "test_mean_pct\t%.2f\t\n\n", rep.TestMeanPct)
	fmt.Fprintln(tw, "K\tdev n\ttest n\tdev %\ttest %\tdiff pp\tprofile %\tcases\tcase mean %")
	for _, l := range rep.PerK {
		cases, mean := "-", "-"
		if l.Cases != nil {
			cases = strconv.Itoa(*l.Cases)
		}
		if l.CaseMeanPct != nil {
			mean = fmt.Sprintf("%.2f", *l.CaseMeanPct)
		}
		fmt.Fprintf(tw, "%d\t%g\t%g\t%.2f\t%.2f\t%+.2f\t%.2f\t%s\t%s\n", l.K, l.DevCount, l.TestCount, l.DevWeightPct, l.TestWeightPct, l.DiffPP, *l.ProfilePct, cases, mean)
	}
	if len(rep.Bootstrap) > 0 {
		fmt.Fprintf(tw, "\nbootstrap (%.0f%% percentile intervals, seed %d)\n", 100**rep.Confidence, *rep.Seed)
		fmt.Fprintln(tw, "statistic\tmethod\tunits\treplicates\testimate %\tinterval %")
		for _, iv := range rep.Bootstrap {
			est, intv := "undefined", "-"
			if iv.EstimatePct != nil {
				est = fmt.Sprintf("%.2f", *iv.EstimatePct)
				intv = fmt.Sprintf("[%.2f, %.2f]", *iv.LoPct, *iv.HiPct)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", iv.Statistic, iv.Method, iv.Units, iv.Replicates, est, intv)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("mixture: write: %w", err)
	}
	return nil
}

// parseList parses a comma-separated list of numbers.
func parseList(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "%"))
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseProfile parses per-K scores: fractions in [0,1], or percentages
// when any value exceeds 1 or carries a % sign.
func parseProfile(s string) ([]float64, error) {
	v, err := parseList(s)
	if err != nil {
		return nil, err
	}
	percent := strings.Contains(s, "%")
	for _, x := range v {
		if x > 1 {
			percent = true
		}
	}
	if percent {
		for i := range v {
			v[i] /= 100
		}
	}
	return v, nil
}

// parseMerges parses VARIANT=FAMILY pairs.
func parseMerges(s string) (map[string]string, error) {
	m := map[string]string{}
	if s == "" {
		return m, nil
	}
	for _, pair := range strings.Split(s, ",") {
		from, to, ok := strings.Cut(pair, "=")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("%q is not VARIANT=FAMILY", pair)
		}
		m[from] = to
	}
	return m, nil
}

// readCases reads the per-case JSONL ("-" for stdin).
func readCases(cio kit.IO, path string, merges map[string]string) ([]scoring.Case, error) {
	var r io.Reader = cio.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("mixture: %w", err)
		}
		defer f.Close()
		r = f
	}
	var cases []scoring.Case
	var lineErr error
	err := jsonl.Scan(r, func(n int, line []byte) error {
		c, err := parseCase(line)
		if err != nil {
			lineErr = fmt.Errorf("mixture: %s line %d: %w", path, n, err)
			return lineErr
		}
		if to, ok := merges[c.Template]; ok {
			c.Template = to
		}
		cases = append(cases, c)
		return nil
	})
	if lineErr != nil {
		return nil, lineErr
	}
	if err != nil {
		return nil, fmt.Errorf("mixture: read %s: %w", path, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("mixture: %s holds no cases", path)
	}
	return cases, nil
}

func parseCase(line []byte) (scoring.Case, error) {
	v, err := scoring.DecodeJSON(line)
	if err != nil {
		return scoring.Case{}, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return scoring.Case{}, errors.New("not a JSON object")
	}
	var c scoring.Case
	c.ID, _ = obj["id"].(string)
	if c.Template, ok = obj["template"].(string); !ok || c.Template == "" {
		return c, errors.New("missing or non-string template")
	}
	k, err := number(obj, "k")
	if err != nil {
		return c, err
	}
	if k != float64(int(k)) {
		return c, fmt.Errorf("k %v is not an integer", k)
	}
	c.K = int(k)
	if c.Score, err = number(obj, "score"); err != nil {
		return c, err
	}
	return c, nil
}

func number(obj map[string]any, key string) (float64, error) {
	raw, ok := obj[key]
	if !ok {
		return 0, fmt.Errorf("missing %s", key)
	}
	s, ok := raw.(interface{ Float64() (float64, error) })
	if !ok {
		return 0, fmt.Errorf("%s is not a number", key)
	}
	f, err := s.Float64()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	return f, nil
}
