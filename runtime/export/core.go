package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// The core train/test files. Spec section 6: "The canonical JSONL is the
// sole authority. Core train/test files, public test inputs, multi-agent
// and single-agent conversations, turn rows, and role-SFT rows are
// generated projections rather than independent datasets. Their IDs,
// splits, chains, answers, handles, and weights match the canonical
// source", and its table counts 2,629 train and 292 test "Core tasks",
// the canonical records' split (section 2: "2,629 train and 292
// public-reference test records"). A core row is therefore the canonical
// record itself: its line of the canonical file, byte for byte, in the file
// of its split, in the canonical order. The files sit beside the canonical
// file and are named like it and the test inputs (section 2:
// data/core/geodisaster_2921_source_with_splits.jsonl and
// data/core/geodisaster_2921_test_inputs.jsonl): see File.

// Canonical is a canonical records file as the projections read it: the
// records (with gold) and, for each, its line of the file (white space
// around it trimmed, no newline), which the core files copy.
type Canonical struct {
	Records []workers.Record
	Lines   [][]byte
}

// ReadCanonical reads a canonical records file with workers.ReadRecords's
// rules (blank lines skipped, gold required) and keeps each record's line.
func ReadCanonical(path string) (*Canonical, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := workers.ReadRecords(bytes.NewReader(data), true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Canonical{Records: recs}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			c.Lines = append(c.Lines, l)
		}
	}
	if len(c.Lines) != len(recs) {
		return nil, fmt.Errorf("%s: %d lines for %d records", path, len(c.Lines), len(recs))
	}
	return c, nil
}

// NewCanonical is the canonical source of records held in memory: each
// record's line is the record as workers.WriteRecords writes it.
func NewCanonical(recs []workers.Record) (*Canonical, error) {
	var buf bytes.Buffer
	if err := workers.WriteRecords(&buf, recs); err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != len(recs) {
		return nil, fmt.Errorf("%d lines for %d records", len(lines), len(recs))
	}
	return &Canonical{Records: recs, Lines: lines}, nil
}

// core checks one core file: its rows are the canonical lines of the
// split's records, in canonical order, each equal to its record (as JSON
// values: a row written with another key order is the same record).
func (v *verifier) core(split string) error {
	rel := File(CoreTasks, split)
	var want []int // canonical indexes of the split's records
	pos := map[string]int{}
	for i, r := range v.canon.Records {
		if r.Split == split {
			pos[r.ID] = len(want)
			want = append(want, i)
		}
	}
	k := 0 // the next expected record of the split
	missing := func(upto int) {
		for ; k < upto; k++ {
			v.drift(Drift{File: rel, ID: v.canon.Records[want[k]].ID, Reason: "missing: the canonical record has no core row"})
		}
	}
	err := v.scan(rel, func(n int, line []byte) {
		at := Drift{File: rel, Line: n}
		var probe struct{ ID string }
		if err := json.Unmarshal(line, &probe); err != nil {
			v.drift(with(at, "", "(row)", err.Error()))
			return
		}
		p, ok := pos[probe.ID]
		switch {
		case !ok && v.recs[probe.ID] != nil:
			v.drift(with(at, probe.ID, "split", fmt.Sprintf("a %s record's row in the %s file", v.recs[probe.ID].Split, split)))
			return
		case !ok:
			v.drift(with(at, probe.ID, "id", "not a record of the canonical source"))
			return
		case p < k:
			v.drift(with(at, probe.ID, "id", "repeated or out of canonical order"))
			return
		}
		missing(p)
		k = p + 1
		canon := v.canon.Lines[want[p]]
		if bytes.Equal(line, canon) {
			return
		}
		var got, rec any
		json.Unmarshal(line, &got)
		json.Unmarshal(canon, &rec)
		if path, d := firstDiff(got, rec, ""); path != "" || d != (diff{}) {
			if d.want == "no such argument" {
				d.want = "no such field"
			}
			field := strings.TrimPrefix(path, ".")
			if field == "" {
				field = "(row)"
			}
			v.drift(with(at, probe.ID, field, fmt.Sprintf("%s, the canonical record has %s", d.got, d.want)))
		}
	})
	if _, serr := os.Stat(filepath.Join(v.dir, rel)); err != nil || errors.Is(serr, os.ErrNotExist) {
		return err // a missing file is one drift, not one per record
	}
	missing(len(want))
	return nil
}
