package workers

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	gojson "github.com/goccy/go-json"
)

const goodRecord = `{"id":"r1","sample_id":"s1","family":"routing","question_type":"nearest_shelter","split":"test","training_weight":0.5,` +
	`"question":"q","handles":{"question_1":{"kind":"question","files":[{"path":"q/question.json"}]},` +
	`"roads_1":{"kind":"input","files":[{"path":"r/roads.geojson","sha256":"` + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" + `"}]}},` +
	`"gt_chain":[{"tool":"ReadData","args":{"role":"roads"},"output":"scene_1"}],"answer":{"value":1},"provenance":{"by":"synth"}}`

func TestReadRecordsRoundTrip(t *testing.T) {
	in := "\n" + goodRecord + "\n  \n" + strings.Replace(goodRecord, `"id":"r1"`, `"id":"r2"`, 1) + "\n"
	recs, err := ReadRecords(strings.NewReader(in), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].ID != "r1" || recs[1].ID != "r2" || recs[0].TrainingWeight != 0.5 ||
		recs[0].Handles["roads_1"].Files[0].Path != "r/roads.geojson" || recs[0].GTChain[0].Output != "scene_1" {
		t.Fatalf("records %+v", recs)
	}
	var out bytes.Buffer
	if err := WriteRecords(&out, recs); err != nil {
		t.Fatal(err)
	}
	again, err := ReadRecords(&out, true)
	if err != nil || len(again) != 2 || string(again[1].Answer) != `{"value":1}` || string(again[0].Provenance) != `{"by":"synth"}` {
		t.Errorf("round trip: %+v %v", again, err)
	}
}

func TestReadRecordsErrorsNameLineAndField(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(goodRecord, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(goodRecord, old, new, 1)
	}
	for _, c := range []struct {
		name, line string
		gold       bool
		field      string
		msg        string
	}{
		{"malformed", `{"id":`, false, "", "malformed JSON"},
		{"wrong type", edit(`"training_weight":0.5`, `"training_weight":"half"`), false, "training_weight", "wrong JSON type"},
		{"no id", edit(`"id":"r1"`, `"id":""`), false, "id", "missing"},
		{"unknown type", edit(`"nearest_shelter"`, `"nearest_hospital"`), false, "question_type", "unknown question type"},
		{"family mismatch", edit(`"family":"routing"`, `"family":"xbd"`), false, "family", "does not match"},
		{"split", edit(`"split":"test"`, `"split":"dev"`), false, "split", "train or test"},
		{"negative weight", edit(`"training_weight":0.5`, `"training_weight":-1`), false, "training_weight", "non-negative"},
		{"no handles", edit(goodRecord[strings.Index(goodRecord, `"handles"`):strings.Index(goodRecord, `,"gt_chain"`)], `"handles":{}`), false, "handles", "missing"},
		{"handle name", edit(`"roads_1"`, `"Roads"`), false, "handles", "must look like name_1"},
		{"handle kind", edit(`"kind":"input"`, `"kind":"output"`), false, "handles.roads_1.kind", "question or input"},
		{"no files", edit(`"files":[{"path":"q/question.json"}]`, `"files":[]`), false, "handles.question_1.files", "no file cards"},
		{"absolute path", edit(`"r/roads.geojson"`, `"/etc/passwd"`), false, "handles.roads_1.files[0].path", "not repository-relative"},
		{"dot-dot path", edit(`"r/roads.geojson"`, `"r/../../x"`), false, "handles.roads_1.files[0].path", "'..'"},
		{"bad sha", edit(`"sha256":"e3b0`, `"sha256":"E3B0`), false, "handles.roads_1.files[0].sha256", "64 lowercase hex"},
		{"two questions", edit(`"kind":"input"`, `"kind":"question"`), false, "handles", "exactly one question handle, got 2"},
		{"no chain", edit(`"gt_chain":[{"tool":"ReadData","args":{"role":"roads"},"output":"scene_1"}]`, `"gt_chain":[]`), true, "gt_chain", "missing"},
		{"no tool", edit(`"tool":"ReadData"`, `"tool":""`), true, "gt_chain[0].tool", "missing"},
		{"no answer", edit(`"answer":{"value":1},`, ``), true, "answer", "missing"},
		{"null answer", edit(`"answer":{"value":1},`, `"answer":null,`), true, "answer", "missing"},
	} {
		_, err := ReadRecords(strings.NewReader("\n"+c.line+"\n"), c.gold)
		var re *RecordError
		if !errors.As(err, &re) {
			t.Errorf("%s: %v, want a RecordError", c.name, err)
			continue
		}
		if re.Line != 2 || re.Field != c.field || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "line 2: ") {
			t.Errorf("%s: %q (line %d, field %q), want line 2, field %q, %q", c.name, err, re.Line, re.Field, c.field, c.msg)
		}
	}
	// The gold checks apply only when gold is asked for.
	noGold := strings.Replace(goodRecord, `"answer":{"value":1},`, ``, 1)
	if _, err := ReadRecords(strings.NewReader(noGold), false); err != nil {
		t.Errorf("test input without an answer: %v", err)
	}
}

func TestReadRecordsRejectsDuplicateIDs(t *testing.T) {
	_, err := ReadRecords(strings.NewReader(goodRecord+"\n"+goodRecord+"\n"), true)
	var re *RecordError
	if !errors.As(err, &re) || re.Line != 2 || re.ID != "r1" || !strings.Contains(err.Error(), "duplicate of line 1") {
		t.Errorf("duplicate: %v", err)
	}
}

func TestRecordErrorFormatAndUnwrap(t *testing.T) {
	inner := errors.New("boom")
	e := &RecordError{Line: 3, ID: "r", Field: "f", Err: inner}
	if e.Error() != `line 3: record "r": field "f": boom` || !errors.Is(e, inner) {
		t.Errorf("%q", e.Error())
	}
	if (&RecordError{Err: inner}).Error() != "boom" {
		t.Error("an error without line, id or field adds a prefix")
	}
}

func TestCheckRelativePath(t *testing.T) {
	for _, p := range []string{"a", "a/b.tif", "a.b/c..d", "x/.hidden"} {
		if err := CheckRelativePath(p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
	for _, p := range []string{"", "/a", `a\b`, "C:/a", "c:", "a//b", "a/", "./a", "a/./b", "a/..", "..", "a\x00b"} {
		if err := CheckRelativePath(p); err == nil {
			t.Errorf("%q accepted", p)
		}
	}
}

func TestTestInputDropsGoldOnly(t *testing.T) {
	recs, err := ReadRecords(strings.NewReader(goodRecord), true)
	if err != nil {
		t.Fatal(err)
	}
	ti := recs[0].TestInput()
	if ti.GTChain != nil || ti.Answer != nil || ti.Provenance != nil || ti.ID != "r1" || len(ti.Handles) != 2 || ti.Question != "q" {
		t.Errorf("test input %+v", ti)
	}
	if recs[0].Answer == nil || recs[0].GTChain == nil {
		t.Error("TestInput modified the record")
	}
}

func TestReadRecordsFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(p, []byte(goodRecord+"\n{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadRecordsFile(p, true)
	var re *RecordError
	if !errors.As(err, &re) || re.Line != 2 || !strings.HasPrefix(err.Error(), p+": line 2:") {
		t.Errorf("bad second line: %v", err)
	}
	if _, err := ReadRecordsFile(filepath.Join(dir, "absent.jsonl"), true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestHandleNameAndDigestMatchers pins the hand-written matchers to the
// regular expressions they replace.
func TestHandleNameAndDigestMatchers(t *testing.T) {
	handleRE := regexp.MustCompile(`^[a-z][a-z0-9_]*_[0-9]+$`)
	for _, name := range []string{"", "a", "a_1", "_1", "1_1", "a1", "a_", "ab_12", "a__1", "a_1_2", "a_b_3", "A_1",
		"optical_stack_1", "x_1a", "x-1_1", "x_0", "z9_9", "a_1\n", "é_1", "a_１"} {
		if got, want := isHandleName(name), handleRE.MatchString(name); got != want {
			t.Errorf("isHandleName(%q) = %v, regexp says %v", name, got, want)
		}
	}
	digestRE := regexp.MustCompile(`^[0-9a-f]{64}$`)
	ok := strings.Repeat("0123456789abcdef", 4)
	for _, s := range []string{"", ok, ok[:63], ok + "0", strings.ToUpper(ok), ok[:63] + "g", ok[:63] + "\n"} {
		if got, want := isSHA256Hex(s), digestRE.MatchString(s); got != want {
			t.Errorf("isSHA256Hex(%q) = %v, regexp says %v", s, got, want)
		}
	}
}

func FuzzHandleName(f *testing.F) {
	handleRE := regexp.MustCompile(`^[a-z][a-z0-9_]*_[0-9]+$`)
	for _, s := range []string{"a_1", "optical_stack_12", "a__1", "_1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := isHandleName(name), handleRE.MatchString(name); got != want {
			t.Fatalf("isHandleName(%q) = %v, regexp says %v", name, got, want)
		}
	})
}

// FuzzRecordDecodeMatchesEncodingJSON checks that records decode as
// encoding/json decodes them (goccy/go-json does the work): the same
// record, or an error from both.
func FuzzRecordDecodeMatchesEncodingJSON(f *testing.F) {
	f.Add([]byte(goodRecord))
	f.Add([]byte(`{"ID":"x","Handles":{"a_1":{"kind":"question","files":[{"path":"p","extra":1}]}},"id":"y"}`))
	f.Add([]byte(`{"id":"\xff\u00e9","training_weight":1e400}`))
	f.Add([]byte(`{"id":"a","gt_chain":[{"tool":"T","args":{"n":1.0000000000000002,"s":"\ud800"}}],"answer":[1,2]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var want, got Record
		werr := json.Unmarshal(b, &want)
		gerr := gojson.Unmarshal(b, &got)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("encoding/json error %v, goccy error %v on %q", werr, gerr, b)
		}
		if werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("decoded differently from %q:\nencoding/json %#v\ngoccy         %#v", b, want, got)
		}
	})
}
