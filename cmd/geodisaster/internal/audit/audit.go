package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/geodisaster/engine/internal/atomicfile"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/scoring"
)

// Commands returns the audit-splits, seal and verify-seal commands.
func Commands() []kit.Command {
	return []kit.Command{
		{Name: "audit-splits", Summary: "check train/test isolation (groups, samples, paths, routing content, trajectories) and training weights", Run: runAuditSplits},
		{Name: "seal", Summary: "seal a corpus directory: SHA-256 and size of every file into a manifest", Run: runSeal},
		{Name: "verify-seal", Summary: "verify a corpus directory against its seal: changed, resized, added, removed files", Run: runVerifySeal},
	}
}

// listLimit bounds how many leaks or issues the table lists.
const listLimit = 20

const splitsDescription = `Checks the split contract ` + scoring.SplitContract + `
(spec section 6): records connected by a split group, source sample or
declared input path (source groups), routing records with the same
analytical content (path-renamed copies), and records with the same
complete model-visible single-agent episode (trajectory groups) must stay
in one split, and training_weight must be the inverse multiplicity of a
record's trajectory within its split. Reports every group kind and exits 1
on any group that crosses the split or any weight issue.

With --export OUT (a "geodisaster export" directory) the trajectory groups
are the exact fingerprints of the single-agent episodes (identity metadata
excluded) and their trajectory_content_group_id values; without it, a
proxy computed from the records (question, input digests, chain, answer).`

// runAuditSplits implements "geodisaster audit-splits --records FILE [--export OUT] [--json]".
// It exits 1 when any leak, cross-split group or weight issue is found.
func runAuditSplits(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("audit-splits", "--records RECORDS.jsonl [--export OUT] [--json]")
	fs.Description = splitsDescription
	fs.Example("geodisaster audit-splits --records /tmp/full/records.jsonl", "")
	fs.Example("geodisaster audit-splits --records /tmp/full/records.jsonl --export /tmp/full-export --json", "")
	records := fs.String("records", "", "canonical records JSONL (with split, handles, gt_chain, training_weight)")
	exportDir := fs.String("export", "", "an export directory: take the trajectory groups from its single-agent episodes")
	asJSON := fs.Bool("json", false, "print JSON")
	fs.Require("records")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	recs, err := readFile("audit-splits", *records, scoring.ReadSplitRecords)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("audit-splits: %s holds no records; an absent corpus is not a pass", *records)
	}
	if *exportDir != "" {
		var eps []scoring.EpisodeTrajectory
		for _, split := range export.Splits {
			rel := export.File(export.SingleAgentEpisodes, split)
			f, err := os.Open(filepath.Join(*exportDir, rel))
			if err != nil {
				return fmt.Errorf("audit-splits: %w", err)
			}
			e, err := scoring.ReadEpisodeTrajectories(f, rel)
			f.Close()
			if err != nil {
				return fmt.Errorf("audit-splits: %w", err)
			}
			eps = append(eps, e...)
		}
		if err := scoring.WithEpisodes(recs, eps); err != nil {
			return fmt.Errorf("audit-splits: %w", err)
		}
	}
	a := scoring.AuditSplits(recs)
	if *asJSON {
		if err := kit.WriteJSON(cio.Stdout, a); err != nil {
			return err
		}
	} else if err := printSplits(cio.Stdout, a); err != nil {
		return err
	}
	if !a.OK {
		return kit.Failedf("audit-splits: %d cross-split key(s), %d cross-split group(s), %d trajectory group issue(s), %d training_weight issue(s)",
			len(a.Leaks), len(a.CrossSplitGroups), len(a.GroupIssues), len(a.WeightIssues))
	}
	return nil
}

func printSplits(w io.Writer, a *scoring.SplitAudit) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	splits := make([]string, 0, len(a.BySplit))
	for s := range a.BySplit {
		splits = append(splits, s)
	}
	sort.Strings(splits)
	fmt.Fprintf(tw, "records\t%d\n", a.Records)
	for _, s := range splits {
		fmt.Fprintf(tw, "split %s\t%d\n", s, a.BySplit[s])
	}
	fmt.Fprintf(tw, "contract\t%s\n", a.Contract)
	fmt.Fprintf(tw, "trajectories from\t%s\n", a.Trajectories)
	fmt.Fprintf(tw, "duplicate trajectory groups within a split\t%d (%d records)\n\n", a.DuplicateGroups, a.DuplicateRecords)
	fmt.Fprintln(tw, "group kind\tgroups\tmulti-record groups\ttheir records\tacross splits")
	for _, k := range []string{scoring.GroupSource, scoring.GroupRoutingContent, scoring.GroupTrajectory, scoring.GroupSplitComponent} {
		g := a.Groups[k]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", k, g.Groups, g.MultiRecordGroups, g.RecordsInMulti, g.CrossSplit)
	}
	fmt.Fprintln(tw)
	kinds := make([]string, 0, len(a.LeakCounts))
	for k := range a.LeakCounts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintln(tw, "key kind\tdistinct keys\tshared across splits")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", k, a.Keys[k], a.LeakCounts[k])
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("audit-splits: write: %w", err)
	}
	printList(w, "leaks", len(a.Leaks), func(i int) string {
		l := a.Leaks[i]
		return fmt.Sprintf("%s %s: %s", l.Kind, l.Key, joinIDs(l.IDs))
	})
	printList(w, "groups across splits", len(a.CrossSplitGroups), func(i int) string {
		g := a.CrossSplitGroups[i]
		return fmt.Sprintf("%s: %s", g.Kind, joinIDs(g.IDs))
	})
	printList(w, "trajectory group issues", len(a.GroupIssues), func(i int) string {
		g := a.GroupIssues[i]
		return fmt.Sprintf("%s %s: %s", g.Declared, g.Reason, strings.Join(g.IDs, ","))
	})
	printList(w, "training_weight issues", len(a.WeightIssues), func(i int) string {
		wi := a.WeightIssues[i]
		got := "absent"
		if wi.Weight != nil {
			got = fmt.Sprint(*wi.Weight)
		}
		return fmt.Sprintf("%s (%s): training_weight %s, want 1/%d = %g", wi.ID, wi.Split, got, wi.Multiplicity, wi.Want)
	})
	status := "PASS: no group of any kind crosses the split; training weights are inverse trajectory multiplicities"
	if !a.OK {
		status = "FAIL"
	}
	fmt.Fprintln(w, "\n"+status)
	return nil
}

// printList prints a titled list of n items, at most listLimit.
func printList(w io.Writer, title string, n int, item func(i int) string) {
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s (%d):\n", title, n)
	for i := 0; i < n; i++ {
		if i == listLimit {
			fmt.Fprintf(w, "  ... %d more (use --json)\n", n-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", item(i))
	}
}

// joinIDs writes the ids of each split as split=id,id.
func joinIDs(ids map[string][]string) string {
	var parts []string
	for _, s := range sortedKeys(ids) {
		parts = append(parts, fmt.Sprintf("%s=%s", s, strings.Join(ids[s], ",")))
	}
	return strings.Join(parts, " ")
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// runSeal implements "geodisaster seal --dir DIR --out SEAL.json".
func runSeal(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("seal", "--dir CORPUS_DIR --out SEAL.json")
	fs.Description = "Seals a corpus directory: the SHA-256 and size of every file into a manifest."
	fs.Example("geodisaster seal --dir corpus --out corpus.seal.json", "")
	dir := fs.String("dir", "", "corpus directory to seal")
	out := fs.String("out", "", `seal manifest to write ("-" for stdout); must lie outside --dir`)
	fs.Require("dir", "out")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	if *out != "-" {
		inside, err := within(*dir, *out)
		if err != nil {
			return fmt.Errorf("seal: %w", err)
		}
		if inside {
			return kit.Usagef("seal: --out %s lies inside the sealed directory %s", *out, *dir)
		}
	}
	if st, err := os.Stat(*dir); err != nil {
		return fmt.Errorf("seal: %w", err)
	} else if !st.IsDir() {
		return fmt.Errorf("seal: %s is not a directory", *dir)
	}
	s, err := scoring.SealFS(os.DirFS(*dir))
	if err != nil {
		return fmt.Errorf("seal %s: %w", *dir, err)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("seal: encode: %w", err)
	}
	b = append(b, '\n')
	if *out == "-" {
		_, err = cio.Stdout.Write(b)
	} else {
		err = atomicfile.WriteFile(*out, b, 0o644, false)
		if err == nil {
			fmt.Fprintf(cio.Stdout, "sealed %d files (%d bytes) of %s into %s\n", s.Files, s.TotalBytes, *dir, *out)
		}
	}
	if err != nil {
		return fmt.Errorf("seal: write: %w", err)
	}
	return nil
}

// within reports whether file lies inside dir (both made absolute).
func within(dir, file string) (bool, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false, fmt.Errorf("resolve %s: %w", dir, err)
	}
	f, err := filepath.Abs(file)
	if err != nil {
		return false, fmt.Errorf("resolve %s: %w", file, err)
	}
	rel, err := filepath.Rel(d, f)
	if err != nil {
		return false, nil
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// runVerifySeal implements "geodisaster verify-seal --dir DIR --seal SEAL.json [--json]".
// It exits 1 when the corpus differs from its seal.
func runVerifySeal(_ context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("verify-seal", "--dir CORPUS_DIR --seal SEAL.json [--json]")
	fs.Description = "Verifies a corpus directory against its seal (changed, resized, added and\nremoved files); exits 1 when it differs."
	fs.Example("geodisaster verify-seal --dir corpus --seal corpus.seal.json", "")
	dir := fs.String("dir", "", "corpus directory to verify")
	sealPath := fs.String("seal", "", "seal manifest written by 'geodisaster seal'")
	asJSON := fs.Bool("json", false, "print JSON")
	fs.Require("dir", "seal")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	s, err := readFile("verify-seal", *sealPath, scoring.ReadSeal)
	if err != nil {
		return err
	}
	if st, err := os.Stat(*dir); err != nil {
		return fmt.Errorf("verify-seal: %w", err)
	} else if !st.IsDir() {
		return fmt.Errorf("verify-seal: %s is not a directory", *dir)
	}
	d, err := scoring.VerifySeal(os.DirFS(*dir), s)
	if err != nil {
		return fmt.Errorf("verify-seal %s: %w", *dir, err)
	}
	if *asJSON {
		if err := kit.WriteJSON(cio.Stdout, map[string]any{"ok": d.OK(), "sealed_files": s.Files, "diff": d}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(cio.Stdout, "sealed files %d, verified %d\n", s.Files, d.Verified)
		for _, g := range []struct {
			name  string
			paths []string
		}{{"changed", d.Changed}, {"resized", d.Resized}, {"added", d.Added}, {"removed", d.Removed}} {
			fmt.Fprintf(cio.Stdout, "%-8s %d\n", g.name, len(g.paths))
			for _, p := range g.paths {
				fmt.Fprintf(cio.Stdout, "  %s\n", p)
			}
		}
	}
	if !d.OK() {
		return kit.Failedf("verify-seal: %s differs from its seal (%d changed, %d resized, %d added, %d removed)",
			*dir, len(d.Changed), len(d.Resized), len(d.Added), len(d.Removed))
	}
	return nil
}

// readFile opens path and parses it with read; the errors name the
// command cmd, and the path when it does not parse.
func readFile[T any](cmd, path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", cmd, err)
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %s: %w", cmd, path, err)
	}
	return v, nil
}
