package multihazard

import (
	"encoding/json"
	"fmt"
	"github.com/geodisaster/engine/workers"
)

// Train-only normalization contracts of the multi-hazard family (types 22,
// 23, 26, 27). The declared JSON reads
//
//	{"contract": "...", "fit_split": "train", "fit_aois": ["...", ...],
//	 "sources": {"<handle>": {"finite_pixel_count": n, "q25": x, "q50": x,
//	   "q75": x, "train_aoi_means": [...], "classes": ["q1_...", ...]}}}
//
// Quartile classes are [-1e30, q25), [q25, q50), [q50, q75), [q75, 1e30):
// lower-inclusive, upper-exclusive, with open numerical coverage extended to
// ±1e30 (spec types 22 and 26).

// coverageLimit is the declared open numerical coverage of quartile
// classes.
const coverageLimit = 1e30

// Normalization is a parsed train-only normalization contract.
type Normalization struct {
	Path     string
	Contract string
	FitSplit string
	FitAOIs  []string
	Sources  map[string]NormSource
}

// NormSource is one source's training fit.
type NormSource struct {
	FinitePixelCount int       `json:"finite_pixel_count"`
	Q25              float64   `json:"q25"`
	Q50              float64   `json:"q50"`
	Q75              float64   `json:"q75"`
	TrainAOIMeans    []float64 `json:"train_aoi_means"`
	Classes          []string  `json:"classes"`
}

// loadNormalization reads a declared normalization contract through the
// read gate and checks that it was fitted on the train split only and that
// the question's own sample is not among the fit AOIs.
func loadNormalization(env workers.Env, s *workers.Scene, file string) (*Normalization, error) {
	f, err := s.Require(file)
	if err != nil {
		return nil, err
	}
	raw, err := env.ReadFile(f.Path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Contract string                `json:"contract"`
		FitSplit string                `json:"fit_split"`
		FitAOIs  []string              `json:"fit_aois"`
		Sources  map[string]NormSource `json:"sources"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("normalization %s: %w", f.Path, err)
	}
	if doc.FitSplit != "train" {
		return nil, fmt.Errorf("normalization %s was fitted on split %q; only a train-only fit is allowed", f.Path, doc.FitSplit)
	}
	if len(doc.FitAOIs) == 0 || len(doc.Sources) == 0 {
		return nil, fmt.Errorf("normalization %s declares no fit AOIs or sources", f.Path)
	}
	if id, ok := s.Question["sample_id"].(string); ok {
		for _, a := range doc.FitAOIs {
			if a == id {
				return nil, fmt.Errorf("normalization %s was fitted on this question's own AOI %s (leakage)", f.Path, id)
			}
		}
	}
	for name, src := range doc.Sources {
		for _, q := range []float64{src.Q25, src.Q50, src.Q75} {
			if !workers.Finite(q) {
				return nil, fmt.Errorf("normalization %s: source %s has a non-finite quartile", f.Path, name)
			}
		}
		if !(src.Q25 <= src.Q50 && src.Q50 <= src.Q75) {
			return nil, fmt.Errorf("normalization %s: source %s quartiles %v, %v, %v are not ordered", f.Path, name, src.Q25, src.Q50, src.Q75)
		}
	}
	return &Normalization{Path: f.Path, Contract: doc.Contract, FitSplit: doc.FitSplit, FitAOIs: doc.FitAOIs, Sources: doc.Sources}, nil
}

// source returns a source's fit or an error naming the file.
func (n *Normalization) source(handle string) (NormSource, error) {
	s, ok := n.Sources[handle]
	if !ok {
		return NormSource{}, fmt.Errorf("normalization %s has no fit for source %s", n.Path, handle)
	}
	return s, nil
}

// classBins returns a source's four quartile classes.
func (n *Normalization) classBins(handle string) ([]classBin, error) {
	s, err := n.source(handle)
	if err != nil {
		return nil, err
	}
	if len(s.Classes) != 4 {
		return nil, fmt.Errorf("source %s declares %d class labels, want 4", handle, len(s.Classes))
	}
	seen := map[string]bool{}
	for _, l := range s.Classes {
		if l == "" || seen[l] {
			return nil, fmt.Errorf("source %s has an empty or duplicate class label %q", handle, l)
		}
		seen[l] = true
	}
	edges := []float64{-coverageLimit, s.Q25, s.Q50, s.Q75, coverageLimit}
	out := make([]classBin, 4)
	for i := range out {
		out[i] = classBin{Label: s.Classes[i], Lower: edges[i], Upper: edges[i+1]}
	}
	return out, nil
}
