package scoring

import (
	"strings"
	"testing"
)

// episodeLine renders a single-agent episode row over one sample.
func episodeLine(id, sample, split, group, evidence string, weight string) string {
	return `{"id":"` + id + `","sample_id":"` + sample + `","split":"` + split + `","training_weight":` + weight +
		`,"trajectory_content_group_id":"` + group + `","messages":[{"role":"user","content":"{\"id\":\"` + id + `\",\"sample_id\":\"` + sample +
		`\",\"handles\":{\"in_1\":{\"files\":[{\"path\":\"source_assets/xbd/` + sample + `/post.tif\"}]}}}"},` +
		`{"role":"assistant","action":{"tool":"ReadData","args":{"handle":"in_1"}}},` +
		`{"role":"tool","tool":"ReadData","content":"{\"evidence\":` + strings.ReplaceAll(evidence, `"`, `\"`) + `,\"artifacts\":[{\"locator\":\"generated-artifact://` + id + `/a.png\"}]}"}],` +
		`"tool_sequence":[{"tool":"ReadData","args":{"handle":"in_1"}}]}`
}

func TestTrajectoryFingerprintExcludesIdentity(t *testing.T) {
	fp := func(line string) string {
		t.Helper()
		f, err := TrajectoryFingerprint([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := fp(episodeLine("xbd_q1__s1", "s1", "train", "g", `{"n":3}`, "1"))
	b := fp(episodeLine("xbd_q1__s2", "s2", "test", "h", `{"n":3}`, "0.5"))
	if a != b {
		t.Fatal("episodes differing only in identity have different fingerprints")
	}
	if c := fp(episodeLine("xbd_q1__s3", "s3", "train", "g", `{"n":4}`, "1")); c == a {
		t.Fatal("a different observation has the same fingerprint")
	}
	// An id with characters a locator replaces.
	odd := strings.Replace(episodeLine("xbd q1:s4", "s4", "train", "g", `{"n":3}`, "1"), "generated-artifact://xbd q1:s4/", "generated-artifact://xbd_q1_s4/", 1)
	if fp(odd) != a {
		t.Fatal("the locator form of the id is not excluded")
	}
	if !strings.HasPrefix(TrajectoryGroupID(a), "traj_") || len(TrajectoryGroupID(a)) != 21 {
		t.Fatalf("group id %q", TrajectoryGroupID(a))
	}
	for _, bad := range []string{`[]`, `{"sample_id":"s"}`, `{"id":"a","messages":[]}`, `{"id":"a","messages":{},"tool_sequence":[]}`} {
		if _, err := TrajectoryFingerprint([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestAuditSplitsGroups(t *testing.T) {
	// a1 and a2 share a sample, a2 and a3 a path: one source group.
	lines := []string{
		synthRecord("a1", "train", "xbd", "xbd_q1", "s1", "q1?", "source_assets/xbd/s1/post.tif", 1),
		synthRecord("a2", "train", "xbd", "xbd_q2", "s1", "q2?", "source_assets/xbd/shared/x.tif", 1),
		synthRecord("a3", "train", "xbd", "xbd_q3", "s3", "q3?", "source_assets/xbd/shared/x.tif", 1),
		synthRecord("b1", "test", "xbd", "xbd_q1", "s9", "q4?", "source_assets/xbd/s9/post.tiff", 1),
	}
	a := auditLines(t, lines)
	if !a.OK || a.Contract != SplitContract || a.Trajectories != TrajectoriesFromRecords {
		t.Fatalf("ok %v contract %s trajectories %s cross %+v", a.OK, a.Contract, a.Trajectories, a.CrossSplitGroups)
	}
	if g := a.Groups[GroupSource]; g.Groups != 2 || g.MultiRecordGroups != 1 || g.RecordsInMulti != 3 || g.CrossSplit != 0 {
		t.Fatalf("source groups %+v", g)
	}
	if g := a.Groups[GroupSplitComponent]; g.Groups != 2 {
		t.Fatalf("split components %+v", g)
	}
	// a3 moved to test: no key of a3 is shared with a1, but its group is.
	lines[2] = strings.Replace(lines[2], `"split":"train"`, `"split":"test"`, 1)
	a = auditLines(t, lines)
	if a.OK || a.Groups[GroupSource].CrossSplit != 1 || len(a.CrossSplitGroups) < 1 {
		t.Fatalf("cross-split group not found: %+v", a.Groups)
	}
	g := a.CrossSplitGroups[0]
	if strings.Join(g.IDs["train"], ",") != "a1,a2" || strings.Join(g.IDs["test"], ",") != "a3" {
		t.Fatalf("cross-split group %+v", g)
	}
}

func TestWithEpisodes(t *testing.T) {
	recLines := []string{
		synthRecord("xbd_q1__s1", "train", "xbd", "xbd_q1", "s1", "How many?", "source_assets/xbd/s1/post.tif", 0.5),
		synthRecord("xbd_q1__s2", "train", "xbd", "xbd_q1", "s2", "How many?", "source_assets/xbd/s2/post.tif", 0.5),
		synthRecord("xbd_q1__s3", "test", "xbd", "xbd_q1", "s3", "How many?", "source_assets/xbd/s3/post.tif", 1),
	}
	read := func(eps ...string) ([]SplitRecord, []EpisodeTrajectory) {
		t.Helper()
		recs, err := ReadSplitRecords(strings.NewReader(strings.Join(recLines, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		e, err := ReadEpisodeTrajectories(strings.NewReader(strings.Join(eps, "\n")), "sa.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return recs, e
	}
	// The proxy groups all three (same question, chain, answer and input
	// digest): s3 would leak. The episodes show s3's observation differs.
	if a := auditLines(t, recLines); a.OK {
		t.Fatal("proxy: expected the trajectory leak")
	}
	e1 := episodeLine("xbd_q1__s1", "s1", "train", "traj_a", `{"n":3}`, "0.5")
	e2 := episodeLine("xbd_q1__s2", "s2", "train", "traj_a", `{"n":3}`, "0.5")
	e3 := episodeLine("xbd_q1__s3", "s3", "test", "traj_b", `{"n":7}`, "1")
	recs, eps := read(e1, e2, e3)
	if err := WithEpisodes(recs, eps); err != nil {
		t.Fatal(err)
	}
	a := AuditSplits(recs)
	if !a.OK || a.Trajectories != TrajectoriesFromEpisodes || a.DuplicateGroups != 1 || a.DuplicateRecords != 2 {
		t.Fatalf("episodes: ok %v %s groups %d/%d leaks %+v cross %+v issues %+v weights %+v", a.OK, a.Trajectories, a.DuplicateGroups, a.DuplicateRecords, a.Leaks, a.CrossSplitGroups, a.GroupIssues, a.WeightIssues)
	}
	// A declared group id that splits one trajectory.
	recs, eps = read(e1, strings.Replace(e2, "traj_a", "traj_c", 1), e3)
	if err := WithEpisodes(recs, eps); err != nil {
		t.Fatal(err)
	}
	if a := AuditSplits(recs); a.OK || len(a.GroupIssues) != 1 || !strings.Contains(a.GroupIssues[0].Reason, "one trajectory under 2") {
		t.Fatalf("group issue not found: %+v", a.GroupIssues)
	}
	for name, eps := range map[string][]string{
		"missing episode": {e1, e2},
		"orphan episode":  {e1, e2, e3, episodeLine("x", "sx", "train", "g", `{}`, "1")},
		"split differs":   {e1, e2, strings.Replace(e3, `"split":"test"`, `"split":"train"`, 1)},
		"weight differs":  {e1, e2, strings.Replace(e3, `"training_weight":1`, `"training_weight":0.5`, 1)},
		"second episode":  {e1, e2, e3, e3},
	} {
		recs, e := read(eps...)
		if err := WithEpisodes(recs, e); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
