package workers

import (
	"context"
	"log/slog"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/team"
	"github.com/geodisaster/engine/raster"
)

// Handle kinds that are not worker outputs.
const (
	KindQuestion = "question"
	KindInput    = "input"
)

// Handle is a named value in a session: a declared question or input (with
// file cards) or a worker result.
type Handle struct {
	// Name is the handle's name, such as "forest_mask_1" or "stats_1".
	Name string
	// Kind is "question", "input" or the result prefix ("scene", "work", ...).
	Kind string
	// Files are the declared file cards (question and input handles only).
	Files []FileCard
	// Parents are the handles the producing call opened (its lineage).
	Parents []string
	// Result is the worker result (nil for question and input handles).
	Result *Result
}

// Artifact is a generated, run-scoped file.
type Artifact struct {
	// Locator is the logical locator, "generated-artifact://<session>/<name>".
	Locator string `json:"locator"`
	// Name is the file name inside the session's artifact directory.
	Name string `json:"name"`
	// SHA256 is the lowercase hex digest of the bytes written.
	SHA256 string `json:"sha256"`
	// Size is the number of bytes written.
	Size int64 `json:"size"`
}

// Result is what a worker returns.
type Result struct {
	// Kind is the output handle prefix; the registry fills it in.
	Kind string
	// Evidence is the JSON-serializable observation shown to the agent.
	Evidence map[string]any
	// Payload is the typed value later workers consume.
	Payload any
	// Artifacts are files the worker wrote.
	Artifacts []Artifact
}

// RasterInfo describes a decoded GeoTIFF.
type RasterInfo struct {
	Width, Height, Count int
	DataType             raster.DataType
	Transform            crs.Affine
	HasTransform         bool
	EPSG                 int
	NoData               float64
	HasNoData            bool
	Descriptions         []string
}

// Env is a worker's view of its session. Every file read goes through it and
// is authorized only for file cards reachable from handles the call opened.
type Env interface {
	// Context is cancelled when the call should stop.
	Context() context.Context
	// Logger logs with the session's and call's attributes.
	Logger() *slog.Logger
	// Open resolves a handle named in the call's arguments and authorizes
	// reads of the file cards reachable from it through its lineage.
	Open(name string) (*Handle, error)
	// ReadFile returns a declared file's bytes through the read gate.
	ReadFile(path string) ([]byte, error)
	// Band returns one decoded band (1-based) of a declared GeoTIFF through
	// the read gate, with its description. Decoded bands are shared within
	// a session and must not be modified.
	Band(path string, band int) (*raster.Band, RasterInfo, error)
	// RasterInfo returns a declared GeoTIFF's description without decoding
	// pixels.
	RasterInfo(path string) (RasterInfo, error)
	// WriteArtifact writes data as the run-scoped generated file name and
	// returns the artifact, its SHA-256 included. A nil sum lets the
	// environment hash data (on another core while it writes, for large
	// data). A caller that knows the digest already, or computes it on
	// another goroutine meanwhile, passes sum instead: the environment
	// calls it once, after the file is written (not when the write
	// fails), and takes its result for data's SHA-256. WriteArtifact
	// must not keep data after it returns: workers write from pooled
	// buffers they reuse.
	WriteArtifact(name string, data []byte, sum func() [32]byte) (Artifact, error)
}

// TeamEnv is implemented by environments that keep one team.Team for all the
// calls of a session, so its helper is awake when a call begins.
type TeamEnv interface {
	// Team returns the session's team; the environment closes it.
	Team() *team.Team
}

// teamFor returns env's team, or a new one when env has none, with the
// function to call when the caller is done with it.
func teamFor(env Env) (*team.Team, func()) {
	if te, ok := env.(TeamEnv); ok {
		if t := te.Team(); t != nil {
			return t, func() {}
		}
	}
	t := team.New()
	return t, t.Close
}
