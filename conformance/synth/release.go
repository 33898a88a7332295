package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// publishedTests is the number of public-reference test records of each
// question type, as its section of the specification states ("Records:
// 48 AOIs — 43 train and 5 test", "Population: 177 records — 160 train
// and 17 public-reference test", ...). A full corpus (Options.Full)
// splits each type so; 292 in all, with 2,629 train.
var publishedTests = map[string]int{
	"forest_loss_detection": 5, "area_estimation": 5, "change_window_estimation": 5, "false_positive_rejection": 5,
	"baseline_canopy_assessment": 5, "multi_year_loss_attribution": 5, "cross_modal_concordance": 5, "severity_proxy_numeric": 5,
	"wildfire_a": 2, "wildfire_b": 2, "wildfire_c": 2, "wildfire_d": 2,
	"hazard_deforestation_a": 2, "hazard_deforestation_b": 2, "hazard_deforestation_c": 2, "hazard_deforestation_d": 2,
	"urban_expansion_a": 2, "urban_expansion_b": 2, "urban_expansion_c": 2, "urban_expansion_d": 2,
	"drought_a": 3, "drought_b": 3, "drought_c": 3, "drought_d": 3,
	"air_pollution_a": 2, "air_pollution_b": 2, "air_pollution_c": 2, "air_pollution_d": 2,
	"xbd_q1": 17, "xbd_q2": 17, "xbd_q3": 17, "xbd_q4": 6, "xbd_q5": 12, "xbd_q7": 12, "xbd_q8": 17,
	"nearest_shelter": 20, "fastest_safest": 20, "visual_overlay": 20,
	"sen1_flood_a": 10, "sen1_flood_b": 10, "sen1_flood_c": 10, "sen1_flood_d": 10, "sen1_flood_e": 10,
}

// fullSplit returns the split of record i of a type with n records and t
// of them in test: test records are spread evenly, the last of each of t
// equal blocks.
func fullSplit(i, n, t int) string {
	if (i+1)*t/n > i*t/n {
		return "test"
	}
	return "train"
}

// duplicatePlan says which records of a full corpus are path-renamed
// copies. The specification's release has 41 groups of records whose
// complete model-visible single-agent episodes are identical, 114 records
// in all, none across the split (section 6), without saying where; the
// routing family, whose split routing groups path-renamed copies by
// analytical content, holds them here: per type, groups of three and two
// records, each group within one split and spread over the type's
// records. visual_overlay has none: its render manifest names the
// record's own input paths, so a copy's artifact digests, and with them
// its episode, differ from the source's.
var duplicatePlan = map[string]struct{ train3, train2, test2 int }{
	"nearest_shelter": {train3: 16, train2: 4, test2: 1}, // 21 groups, 58 records
	"fastest_safest":  {train3: 16, train2: 3, test2: 1}, // 20 groups, 56 records
}

// duplicateGroups returns the groups of record indices of a type with n
// records (the first of each group is the source of the others), given
// each record's split.
func duplicateGroups(qtype string, splits []string) [][]int {
	p, ok := duplicatePlan[qtype]
	if !ok {
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
	var trainSizes []int
	for k := 0; k < p.train3; k++ {
		trainSizes = append(trainSizes, 3)
	}
	for k := 0; k < p.train2; k++ {
		trainSizes = append(trainSizes, 2)
	}
	take(train, trainSizes)
	var testSizes []int
	for k := 0; k < p.test2; k++ {
		testSizes = append(testSizes, 2)
	}
	take(test, testSizes)
	return groups
}

// copyRecord makes rec's path-renamed copy under another sample: its
// files are byte copies under the new sample's directory, its id, sample
// and split group are the new sample's, and everything else (question,
// chain, answer, file digests) is rec's.
func copyRecord(dir string, rec workers.Record, sample string, files map[string]bool) (workers.Record, error) {
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
