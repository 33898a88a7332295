// Package core is what the synthetic corpus generator's families share:
// the per-record file writer (Gen), record assembly, the corpus writer
// (Generate, with the full corpus's split and path-renamed copies) and
// small raster and chain helpers. The families
// (conformance/synth/<family>) import it; package synth lists them.
//
// Determinism across architectures: every product that meets an addition
// or subtraction is rounded explicitly (float64(x*y), also around
// rng.Float64(), which is an inlined multiplication by 2^-53) so arm64
// cannot fuse it into a multiply-add; amd64 arithmetic is unchanged.
// conformance/crossarch's TestNoFusedMultiplyAdd keeps it so.
package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Gen writes one record's files and draws its random content.
type Gen struct {
	// Dir is the corpus directory.
	Dir string
	// Full asks for the specification's input sizes.
	Full bool
	// UserShaped is Options.UserShaped.
	UserShaped bool
	// Rng is the record's own random stream.
	Rng *rand.Rand
	// Files collects the repository-relative paths written.
	Files map[string]bool
}

// NewGen returns a writer into dir drawing from rng.
func NewGen(dir string, full, userShaped bool, rng *rand.Rand, files map[string]bool) *Gen {
	return &Gen{Dir: dir, Full: full, UserShaped: userShaped, Rng: rng, Files: files}
}

// Write stores a file at a repository-relative path and returns its card.
func (g *Gen) Write(rel string, data []byte) (workers.FileCard, error) {
	if err := workers.CheckRelativePath(rel); err != nil {
		return workers.FileCard{}, err
	}
	full := filepath.Join(g.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return workers.FileCard{}, err
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		return workers.FileCard{}, err
	}
	g.Files[rel] = true
	s := sha256.Sum256(data)
	return workers.FileCard{Path: rel, SHA256: hex.EncodeToString(s[:])}, nil
}

// WriteJSON stores a JSON document (indented, sorted keys via maps).
func (g *Gen) WriteJSON(rel string, v any) (workers.FileCard, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return workers.FileCard{}, err
	}
	return g.Write(rel, append(b, '\n'))
}

// WriteCompactJSON stores a document as compact JSON.
func (g *Gen) WriteCompactJSON(rel string, v any) (workers.FileCard, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return workers.FileCard{}, fmt.Errorf("%s: %w", rel, err)
	}
	return g.Write(rel, append(b, '\n'))
}

// WriteTIFF stores a GeoTIFF of the bands.
func (g *Gen) WriteTIFF(rel string, opts raster.WriteOptions, bands ...*raster.Band) (workers.FileCard, error) {
	b, err := EncodeTIFF(opts, bands...)
	if err != nil {
		return workers.FileCard{}, err
	}
	return g.Write(rel, b)
}

// EncodeTIFF returns the GeoTIFF of the bands.
func EncodeTIFF(opts raster.WriteOptions, bands ...*raster.Band) ([]byte, error) {
	var buf bytes.Buffer
	if err := raster.Write(&buf, bands, opts); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Question writes the question sidecar and returns the question handle.
func (g *Gen) Question(qtype, sample, text string, params map[string]any) (workers.HandleDecl, error) {
	doc := map[string]any{"question_type": qtype, "sample_id": sample, "question": text}
	if params != nil {
		doc["parameters"] = params
	}
	card, err := g.WriteJSON("questions/"+qtype+"/"+sample+".json", doc)
	if err != nil {
		return workers.HandleDecl{}, err
	}
	return workers.HandleDecl{Kind: workers.KindQuestion, Files: []workers.FileCard{card}}, nil
}

// Record writes the question sidecar of sample (text, with params when
// not nil) and assembles record qtype__sample: its handles plus
// question_1, the chain and the gold answer.
func (g *Gen) Record(qtype, sample, text string, params map[string]any, handles map[string]workers.HandleDecl, chain []workers.Step, answer any) (workers.Record, error) {
	q, err := g.Question(qtype, sample, text, params)
	if err != nil {
		return workers.Record{}, err
	}
	if handles == nil {
		handles = map[string]workers.HandleDecl{}
	}
	handles["question_1"] = q
	ans, err := AnswerJSON(answer)
	if err != nil {
		return workers.Record{}, err
	}
	return workers.Record{ID: qtype + "__" + sample, SampleID: sample, Question: text, Handles: handles, GTChain: chain, Answer: ans}, nil
}

// Input declares an input handle over the given files.
func Input(cards ...workers.FileCard) workers.HandleDecl {
	return workers.HandleDecl{Kind: workers.KindInput, Files: cards}
}

// AnswerJSON marshals a gold answer; it fails for non-finite numbers.
func AnswerJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("gold answer: %w", err)
	}
	return b, nil
}

// WriteJSONL writes records as JSONL to path and returns the file's
// SHA-256.
func WriteJSONL(path string, recs []workers.Record) (string, error) {
	var buf bytes.Buffer
	if err := workers.WriteRecords(&buf, recs); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	s := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(s[:]), nil
}
