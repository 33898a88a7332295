package core

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/workers"
)

// TestGenWriteAndRecord writes a file and a record through Gen and checks
// the cards, the file set and the record's identity; a path outside the
// corpus is refused.
func TestGenWriteAndRecord(t *testing.T) {
	dir := t.TempDir()
	g := NewGen(dir, false, false, rand.New(rand.NewPCG(1, 2)), map[string]bool{})
	card, err := g.Write("source_assets/x/s1/a.txt", []byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if card.SHA256 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || !g.Files[card.Path] {
		t.Fatalf("card %+v, files %v", card, g.Files)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "source_assets/x/s1/a.txt")); err != nil || string(b) != "abc" {
		t.Fatalf("written %q %v", b, err)
	}
	if _, err := g.Write("../outside.txt", nil); err == nil {
		t.Fatal("a path outside the corpus was written")
	}
	rec, err := g.Record("xbd_q1", "s1", "Q?", nil, map[string]workers.HandleDecl{"in_1": Input(card)}, []workers.Step{TaskComplete()}, map[string]any{"v": 1})
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != "xbd_q1__s1" || rec.Handles["question_1"].Kind != workers.KindQuestion || string(rec.Answer) != `{"v":1}` {
		t.Fatalf("record %+v", rec)
	}
	if _, err := AnswerJSON(map[string]any{"v": nan()}); err == nil {
		t.Fatal("a non-finite gold answer was marshalled")
	}
}

func nan() float64 { var z float64; return z / z }

// TestCopiesGroups checks that copy groups stay within one split, do not
// overlap and that the zero Copies has none.
func TestCopiesGroups(t *testing.T) {
	splits := make([]string, 200)
	for i := range splits {
		splits[i] = FullSplit(i, 200, 20)
	}
	if (Copies{}).Groups(splits) != nil {
		t.Fatal("the zero Copies has groups")
	}
	groups := Copies{Train3: 16, Train2: 4, Test2: 1}.Groups(splits)
	if len(groups) != 21 {
		t.Fatalf("%d groups", len(groups))
	}
	seen := map[int]bool{}
	for _, g := range groups {
		for _, i := range g {
			if seen[i] || splits[i] != splits[g[0]] {
				t.Fatalf("record %d reused or across the split in %v", i, g)
			}
			seen[i] = true
		}
	}
}
