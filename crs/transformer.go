package crs

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
)

// Transformer converts coordinates from one CRS to another as Transform
// does, with the path between them (direct on one datum, or through WGS
// 84) resolved once. It is safe for concurrent use.
type Transformer struct {
	from, to CRS
	same     bool
	fd, td   core.OnDatum // set when the CRSs share a datum
}

// NewTransformer prepares conversions from one CRS to another.
func NewTransformer(from, to CRS) (*Transformer, error) {
	if from == nil || to == nil {
		return nil, fmt.Errorf("%w: nil CRS", ErrUnknownCRS)
	}
	t := &Transformer{from: from, to: to, same: sameSystem(from, to)}
	t.fd, t.td = directPath(from, to)
	return t, nil
}

// Transform converts one point (see the package function Transform).
func (t *Transformer) Transform(x, y float64) (float64, float64, error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	if t.same {
		return x, y, nil
	}
	return convertPoint(t.from, t.to, t.fd, t.td, x, y)
}

// PointsError reports the points of a TransformSlices call that failed;
// they are set to NaN. Err is the first failure (errors.Is finds
// ErrOutsideDomain or ErrInvalidCoordinate in it).
type PointsError struct {
	Failed int   // number of points that failed
	First  int   // index of the first one
	Err    error // its error
}

func (e *PointsError) Error() string {
	return fmt.Sprintf("crs: %d points failed, the first at index %d: %v", e.Failed, e.First, e.Err)
}

func (e *PointsError) Unwrap() error { return e.Err }

// TransformSlices converts the points (xs[i], ys[i]) in place, splitting
// the work over up to workers goroutines (0: GOMAXPROCS); results are the
// same whatever the number of workers. Points that fail are set to NaN and
// counted in a *PointsError; a cancelled ctx stops the work with its error.
func (t *Transformer) TransformSlices(ctx context.Context, xs, ys []float64, workers int) error {
	if len(xs) != len(ys) {
		return fmt.Errorf("crs: %d x values but %d y values", len(xs), len(ys))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 1 << 14
	nChunks := (len(xs) + chunk - 1) / chunk
	if workers > nChunks {
		workers = max(1, nChunks)
	}
	type result struct {
		failed, first int
		err           error
	}
	results := make([]result, nChunks)
	var next sync.Mutex
	ci := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if ctx.Err() != nil {
					return
				}
				next.Lock()
				c := ci
				ci++
				next.Unlock()
				if c >= nChunks {
					return
				}
				r := &results[c]
				r.first = -1
				end := min((c+1)*chunk, len(xs))
				for i := c * chunk; i < end; i++ {
					x, y, err := t.Transform(xs[i], ys[i])
					if err != nil {
						if r.first < 0 {
							r.first, r.err = i, err
						}
						r.failed++
						x, y = math.NaN(), math.NaN()
					}
					xs[i], ys[i] = x, y
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	var pe *PointsError
	for _, r := range results {
		if r.failed == 0 {
			continue
		}
		if pe == nil {
			pe = &PointsError{First: r.first, Err: r.err}
		}
		pe.Failed += r.failed
	}
	if pe != nil {
		return pe
	}
	return nil
}
