package mcp

import (
	"bytes"
	"fmt"

	"github.com/geodisaster/engine/runtime"
)

// ReadTestInput reads a gold-free test-input file (JSONL, the projection
// written as test_inputs.jsonl) and returns the record with the given id.
// It refuses the whole file when any record carries gold or build
// provenance (a non-null answer, a GT chain or provenance): a fair session
// mounts only the agent-visible projection (spec section 2).
func ReadTestInput(path, id string) (runtime.Record, error) {
	recs, err := runtime.ReadRecordsFile(path, false)
	if err != nil {
		return runtime.Record{}, err
	}
	var found *runtime.Record
	for i := range recs {
		r := &recs[i]
		if field := goldField(r); field != "" {
			return runtime.Record{}, fmt.Errorf("%s: record %q carries %q: this is not a gold-free test-input projection (use test_inputs.jsonl)", path, r.ID, field)
		}
		if r.ID == id {
			found = r
		}
	}
	if found == nil {
		return runtime.Record{}, fmt.Errorf("%s: no record with id %q (%d records)", path, id, len(recs))
	}
	return *found, nil
}

// goldField names the first field of r that the gold-free projection
// drops, or "".
func goldField(r *runtime.Record) string {
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
