// Package synthtest gives tests a synthetic corpus: the records of
// conformance/synth generated into a directory and read back with their
// gold.
package synthtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/workers"
)

// Generate synthesizes the corpus opts describes into dir and returns its
// records (with gold, in file order) and the generator's manifest. A
// failure fails tb.
func Generate(tb testing.TB, dir string, opts synth.Options) ([]workers.Record, *synth.Manifest) {
	tb.Helper()
	m, err := synth.Generate(context.Background(), dir, opts)
	if err != nil {
		tb.Fatalf("synth: %v", err)
	}
	return Records(tb, dir), m
}

// Records reads the records, with gold, of the corpus in dir
// (dir/records.jsonl). A failure fails tb.
func Records(tb testing.TB, dir string) []workers.Record {
	tb.Helper()
	recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// Corpus synthesizes the corpus opts describes into a new temporary
// directory of tb and returns the directory and its records.
func Corpus(tb testing.TB, opts synth.Options) (string, []workers.Record) {
	tb.Helper()
	dir := tb.TempDir()
	recs, _ := Generate(tb, dir, opts)
	return dir, recs
}

// ByType groups records by question type, each group in file order.
func ByType(recs []workers.Record) map[string][]workers.Record {
	out := map[string][]workers.Record{}
	for _, r := range recs {
		out[r.QuestionType] = append(out[r.QuestionType], r)
	}
	return out
}

// FirstByType maps each question type to its first record.
func FirstByType(recs []workers.Record) map[string]workers.Record {
	out := map[string]workers.Record{}
	for _, r := range recs {
		if _, ok := out[r.QuestionType]; !ok {
			out[r.QuestionType] = r
		}
	}
	return out
}

// ByID maps each record's id to the record.
func ByID(recs []workers.Record) map[string]workers.Record {
	out := make(map[string]workers.Record, len(recs))
	for _, r := range recs {
		out[r.ID] = r
	}
	return out
}
