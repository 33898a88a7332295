package runtime

import (
	"log/slog"

	"github.com/geodisaster/engine/internal/rasterhook"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/families"
)

// Config configures sessions.
type Config struct {
	// DatasetRoot is the strict data root; every declared path resolves
	// under it and nothing else is readable.
	DatasetRoot string
	// ArtifactDir is where generated files go (one subdirectory per
	// session); empty means a temporary directory per session.
	ArtifactDir string
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
}

// Engine holds what sessions share: the worker registry and answer schemas.
// It is safe for concurrent use.
type Engine struct {
	cfg      Config
	root     dataRoot
	registry *workers.Registry
	answers  *answerContracts
	bufs     *bufferPool
	reader   bandReader
}

// NewEngine prepares an engine for a dataset root.
func NewEngine(cfg Config) (*Engine, error) {
	root, err := newDataRoot(cfg.DatasetRoot)
	if err != nil {
		return nil, err
	}
	reg, err := families.NewRegistry()
	if err != nil {
		return nil, err
	}
	ac, err := newAnswerContracts()
	if err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Engine{cfg: cfg, root: root, registry: reg, answers: ac, bufs: newBufferPool(poolLimit),
		reader: rasterhook.Get[*raster.Dataset, raster.Window, *raster.Band]()}, nil
}

// Registry returns the engine's worker registry.
func (e *Engine) Registry() *workers.Registry { return e.registry }
