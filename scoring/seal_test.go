package scoring

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"testing"
	"testing/fstest"
)

func corpusFS() fstest.MapFS {
	return fstest.MapFS{
		"records.jsonl":              {Data: []byte("{\"id\":\"a\"}\n")},
		"source_assets/x/a.tif":      {Data: []byte("abcdef")},
		"source_assets/x/b.tif":      {Data: []byte("012345")},
		"source_assets/y/c.geojson":  {Data: []byte("{}")},
		"questions/xbd_q1/s1.json":   {Data: []byte(`{"q":1}`)},
		"source_assets/empty_dir/.k": {Data: nil},
	}
}

func TestSealAndVerify(t *testing.T) {
	fsys := corpusFS()
	s, err := SealFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if s.Files != 6 || s.TotalBytes != 11+6+6+2+7 || s.Entries[0].Path != "questions/xbd_q1/s1.json" {
		t.Fatalf("seal %+v", s)
	}
	// Sorted by path; sha256("abcdef") as computed by sha256sum.
	if e := s.Entries[3]; e.Path != "source_assets/x/a.tif" || e.Size != 6 || e.SHA256 != "bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721" {
		t.Errorf("entry 3 = %+v", e)
	}
	// Round trip through JSON.
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := ReadSeal(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, s2) {
		t.Error("seal does not round-trip")
	}
	d, err := VerifySeal(fsys, s2)
	if err != nil {
		t.Fatal(err)
	}
	if !d.OK() || d.Verified != 6 {
		t.Fatalf("intact corpus: %+v", d)
	}

	// Each of the four deltas, alone and together.
	tampered := corpusFS()
	tampered["source_assets/x/a.tif"] = &fstest.MapFile{Data: []byte("abcdeF")}  // changed, same size
	tampered["source_assets/x/b.tif"] = &fstest.MapFile{Data: []byte("0123456")} // resized
	tampered["source_assets/z/new.tif"] = &fstest.MapFile{Data: []byte("n")}     // added
	delete(tampered, "source_assets/y/c.geojson")                                // removed
	d, err = VerifySeal(tampered, s)
	if err != nil {
		t.Fatal(err)
	}
	want := &SealDiff{
		Changed: []string{"source_assets/x/a.tif"}, Resized: []string{"source_assets/x/b.tif"},
		Added: []string{"source_assets/z/new.tif"}, Removed: []string{"source_assets/y/c.geojson"}, Verified: 3,
	}
	if !reflect.DeepEqual(d, want) || d.OK() {
		t.Errorf("diff %+v, want %+v", d, want)
	}
}

func TestSealRefusals(t *testing.T) {
	if _, err := SealFS(fstest.MapFS{"a/b": {Mode: fs.ModeDir}}); !errors.Is(err, ErrEmptyCorpus) {
		t.Errorf("empty corpus: %v", err)
	}
	var ie *IrregularFileError
	if _, err := SealFS(fstest.MapFS{"a": {Data: []byte("x")}, "l": {Mode: fs.ModeSymlink}}); !errors.As(err, &ie) || ie.Path != "l" {
		t.Errorf("symlink: %v", err)
	}
	for name, doc := range map[string]string{
		"empty":     `{"format":"geodisaster_corpus_seal_v1","files":0,"total_bytes":0,"entries":[]}`,
		"format":    `{"format":"x","files":1,"total_bytes":1,"entries":[{"path":"a","size":1,"sha256":"` + zeros64 + `"}]}`,
		"count":     `{"format":"geodisaster_corpus_seal_v1","files":2,"total_bytes":1,"entries":[{"path":"a","size":1,"sha256":"` + zeros64 + `"}]}`,
		"total":     `{"format":"geodisaster_corpus_seal_v1","files":1,"total_bytes":2,"entries":[{"path":"a","size":1,"sha256":"` + zeros64 + `"}]}`,
		"bad path":  `{"format":"geodisaster_corpus_seal_v1","files":1,"total_bytes":1,"entries":[{"path":"../a","size":1,"sha256":"` + zeros64 + `"}]}`,
		"bad hash":  `{"format":"geodisaster_corpus_seal_v1","files":1,"total_bytes":1,"entries":[{"path":"a","size":1,"sha256":"xyz"}]}`,
		"unknown":   `{"format":"geodisaster_corpus_seal_v1","files":1,"total_bytes":1,"extra":1,"entries":[{"path":"a","size":1,"sha256":"` + zeros64 + `"}]}`,
		"duplicate": `{"format":"geodisaster_corpus_seal_v1","files":2,"total_bytes":2,"entries":[{"path":"a","size":1,"sha256":"` + zeros64 + `"},{"path":"a","size":1,"sha256":"` + zeros64 + `"}]}`,
	} {
		if _, err := ReadSeal(bytes.NewReader([]byte(doc))); err == nil {
			t.Errorf("ReadSeal %s: accepted", name)
		}
	}
}

const zeros64 = "0000000000000000000000000000000000000000000000000000000000000000"
