package score

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"text/tabwriter"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/scoring"
)

// geokLiteral decodes a command-line JSON literal; text that is not valid
// JSON is taken as a string, so --prediction abc means "abc".
func geokLiteral(s string) any {
	v, err := scoring.DecodeJSON([]byte(s))
	if err != nil {
		return s
	}
	return v
}

// geokCase is one scored line of a batch.
type geokCase struct {
	Line  int     `json:"line"`
	ID    string  `json:"id,omitempty"`
	K     *int    `json:"k,omitempty"`
	Score float64 `json:"score"`
}

// geokGroup summarises the cases of one K level (or all cases).
type geokGroup struct {
	K     *int    `json:"k,omitempty"`
	N     int     `json:"n"`
	Sum   float64 `json:"sum"`
	Mean  float64 `json:"mean"`
	Label string  `json:"-"`
}

// runGeoKToolsScore implements
// "geodisaster geoktools-score --reference R --prediction P [--json]" and
// "geodisaster geoktools-score --batch FILE.jsonl [--json]".
func runGeoKToolsScore(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("geoktools-score", "(--reference JSON --prediction JSON | --batch FILE.jsonl) [--json]")
	fs.Description = "Scores answers with the GeoKTools deterministic scorer: numbers within 10%,\nstrings by ROUGE-L; a batch gives per-K and overall means."
	fs.Example(`geodisaster geoktools-score --reference 1000 --prediction 1050`, "")
	fs.Example(`geodisaster geoktools-score --batch cases.jsonl --json`, "")
	ref := fs.String("reference", "", "reference answer as a JSON literal (quote strings: '\"1e3\"')")
	pred := fs.String("prediction", "", "prediction as a JSON literal; text that is not JSON is taken as a string")
	batch := fs.String("batch", "", `JSONL with {"id"?, "k"?, "reference", "prediction"} per line ("-" for stdin)`)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	seen := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { seen[f.Name] = true })
	switch {
	case *batch != "" && (seen["reference"] || seen["prediction"]):
		return kit.Usagef("geoktools-score: --batch excludes --reference/--prediction")
	case *batch != "":
		return geokBatch(cio, *batch, *asJSON)
	case !seen["reference"] || !seen["prediction"]:
		return kit.Usagef("geoktools-score: need --reference and --prediction, or --batch")
	}
	score := scoring.GeoKToolsScore(geokLiteral(*ref), geokLiteral(*pred))
	if *asJSON {
		return kit.WriteJSON(cio.Stdout, map[string]any{"scorer": "geoktools_deterministic", "score": score})
	}
	fmt.Fprintln(cio.Stdout, strconv.FormatFloat(score, 'g', -1, 64))
	return nil
}

func geokBatch(cio kit.IO, path string, asJSON bool) error {
	var r io.Reader = cio.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("geoktools-score: %w", err)
		}
		defer f.Close()
		r = f
	}
	var cases []geokCase
	var lineErr error
	err := jsonl.Scan(r, func(n int, line []byte) error {
		c, err := geokParseCase(line, n)
		if err != nil {
			lineErr = fmt.Errorf("geoktools-score: %s line %d: %w", path, n, err)
			return lineErr
		}
		cases = append(cases, c)
		return nil
	})
	if lineErr != nil {
		return lineErr
	}
	if err != nil {
		return fmt.Errorf("geoktools-score: read %s: %w", path, err)
	}
	if len(cases) == 0 {
		return fmt.Errorf("geoktools-score: %s holds no cases", path)
	}
	all := geokGroup{Label: "all"}
	byK := map[int]*geokGroup{}
	for _, c := range cases {
		all.N++
		all.Sum += c.Score
		if c.K != nil {
			g := byK[*c.K]
			if g == nil {
				k := *c.K
				g = &geokGroup{K: &k, Label: "K=" + strconv.Itoa(k)}
				byK[k] = g
			}
			g.N++
			g.Sum += c.Score
		}
	}
	groups := []*geokGroup{}
	ks := make([]int, 0, len(byK))
	for k := range byK {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	for _, k := range ks {
		groups = append(groups, byK[k])
	}
	for _, g := range append(groups, &all) {
		g.Mean = g.Sum / float64(g.N)
	}
	if asJSON {
		return kit.WriteJSON(cio.Stdout, map[string]any{
			"scorer": "geoktools_deterministic", "cases": cases, "by_k": groups, "all": all,
		})
	}
	tw := tabwriter.NewWriter(cio.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "line\tid\tk\tscore")
	for _, c := range cases {
		k := "-"
		if c.K != nil {
			k = strconv.Itoa(*c.K)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.4f\n", c.Line, c.ID, k, c.Score)
	}
	fmt.Fprintln(tw, "\ngroup\tn\tsum\tmean")
	for _, g := range append(groups, &all) {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\n", g.Label, g.N, g.Sum, g.Mean)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("geoktools-score: write: %w", err)
	}
	return nil
}

func geokParseCase(line []byte, n int) (geokCase, error) {
	v, err := scoring.DecodeJSON(line)
	if err != nil {
		return geokCase{}, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return geokCase{}, errors.New("not a JSON object")
	}
	ref, ok := obj["reference"]
	if !ok {
		return geokCase{}, errors.New("no reference member")
	}
	c := geokCase{Line: n}
	if id, ok := obj["id"].(string); ok {
		c.ID = id
	}
	if kv, present := obj["k"]; present && kv != nil {
		num, ok := kv.(json.Number)
		k, err := strconv.Atoi(string(num))
		if !ok || err != nil {
			return geokCase{}, fmt.Errorf("k %v is not an integer", kv)
		}
		c.K = &k
	}
	// Missing-response policy: a line without a prediction member scores 0,
	// even against a null reference.
	if p, ok := obj["prediction"]; ok {
		c.Score = scoring.GeoKToolsScore(ref, p)
	}
	return c, nil
}
