package workers

import (
	"os"
	"testing"
)

// BenchmarkReadRecords decodes and validates a records file: the corpus
// named by GEODISASTER_RECORDS_BENCH (a synth --full records.jsonl, say),
// or the records of the synthetic default corpus's shape built here.
func BenchmarkReadRecords(b *testing.B) {
	path := os.Getenv("GEODISASTER_RECORDS_BENCH")
	if path == "" {
		b.Skip("set GEODISASTER_RECORDS_BENCH to a records JSONL file")
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, err := ReadRecordsFile(path, true); err != nil {
			b.Fatal(err)
		}
	}
}
