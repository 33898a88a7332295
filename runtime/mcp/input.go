package mcp

import (
	"bytes"
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// ReadTestInput reads a gold-free test-input file (JSONL, the projection
// written as test_inputs.jsonl) and returns the record with the given id.
// It refuses the whole file when any record carries gold or build
// provenance (a non-null answer, a GT chain or provenance): a fair session
// mounts only the agent-visible projection (spec section 2).
func ReadTestInput(path, id string) (workers.Record, error) {
	recs, err := ReadTestInputs(path)
	if err != nil {
		return workers.Record{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	return workers.Record{}, fmt.Errorf("%s: no record with id %q (%d records)", path, id, len(recs))
}

// ReadTestInputs reads every record of a gold-free test-input file,
// refusing the whole file as ReadTestInput does.
func ReadTestInputs(path string) ([]workers.Record, error) {
	recs, err := workers.ReadRecordsFile(path, false)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		r := &recs[i]
		if field := goldField(r); field != "" {
			return nil, fmt.Errorf("%s: record %q carries %q: this is not a gold-free test-input projection (use test_inputs.jsonl)", path, r.ID, field)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no records", path)
	}
	return recs, nil
}

// goldField names the first field of r that the gold-free projection
// drops, or "".
func goldField(r *workers.Record) string {
	present := func(b []byte) bool {
		t := bytes.TrimSpace(b)
		return len(t) > 0 && !bytes.Equal(t, []byte("null"))
	}
	switch {
	case present(r.Answer):
		return "answer"
	case len(r.GTChain) > 0:
		return "gt_chain"
	case present(r.Provenance):
		return "provenance"
	}
	return ""
}
