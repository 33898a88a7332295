package core

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// FullSplit returns the split of record i of a type with n records and t
// of them in test: test records are spread evenly, the last of each of t
// equal blocks.
func FullSplit(i, n, t int) string {
	if (i+1)*t/n > i*t/n {
		return "test"
	}
	return "train"
}

// Copies says which records of a type's full corpus are path-renamed
// copies: groups of three and two records, each group within one split
// and spread over the type's records. The specification's release has 41
// groups of records whose complete model-visible single-agent episodes
// are identical, 114 records in all, none across the split (section 6),
// without saying where; the routing family holds them (see its types).
type Copies struct{ Train3, Train2, Test2 int }

// Groups returns the groups of record indices of a type with the given
// record splits (the first of each group is the source of the others);
// none for the zero Copies.
func (p Copies) Groups(splits []string) [][]int {
	if p == (Copies{}) {
		return nil
	}
	var train, test []int
	for i, s := range splits {
		if s == "test" {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	var groups [][]int
	// take places groups of the given sizes in pool, evenly spread, in
	// order and without overlap.
	take := func(pool []int, sizes []int) {
		gaps := len(pool)
		for _, s := range sizes {
			gaps -= s
		}
		k, cursor := len(sizes), 0
		for j, s := range sizes {
			cursor += (j+1)*gaps/(k+1) - j*gaps/(k+1)
			groups = append(groups, append([]int(nil), pool[cursor:cursor+s]...))
			cursor += s
		}
	}
	take(train, append(slices.Repeat([]int{3}, p.Train3), slices.Repeat([]int{2}, p.Train2)...))
	take(test, slices.Repeat([]int{2}, p.Test2))
	return groups
}

// CopyRecord makes rec's path-renamed copy under another sample: its
// files are byte copies under the new sample's directory, its id, sample
// and split group are the new sample's, and everything else (question,
// chain, answer, file digests) is rec's.
func CopyRecord(dir string, rec workers.Record, sample string, files map[string]bool) (workers.Record, error) {
	rename := func(p string) (string, error) {
		for _, pat := range []string{"/" + rec.SampleID + "/", "/" + rec.SampleID + "."} {
			if strings.Contains(p, pat) {
				return strings.Replace(p, pat, strings.Replace(pat, rec.SampleID, sample, 1), 1), nil
			}
		}
		return "", fmt.Errorf("declared file %s is not under sample %s", p, rec.SampleID)
	}
	out := rec
	out.ID = rec.QuestionType + "__" + sample
	out.SampleID = sample
	out.SplitGroupID = sample
	out.Handles = map[string]workers.HandleDecl{}
	for name, h := range rec.Handles {
		cards := make([]workers.FileCard, len(h.Files))
		for i, f := range h.Files {
			to, err := rename(f.Path)
			if err != nil {
				return workers.Record{}, err
			}
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			if err != nil {
				return workers.Record{}, err
			}
			full := filepath.Join(dir, filepath.FromSlash(to))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return workers.Record{}, err
			}
			if err := os.WriteFile(full, data, 0o644); err != nil {
				return workers.Record{}, err
			}
			files[to] = true
			f.Path = to
			cards[i] = f
		}
		out.Handles[name] = workers.HandleDecl{Kind: h.Kind, Files: cards}
	}
	return out, nil
}
