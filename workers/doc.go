// Package workers implements the GeoDisaster benchmark's 18 geospatial
// workers (ReadData ... CompareScenes) on top of the reusable raster,
// vector, crs and geodesy packages.
//
// A worker sees its session only through Env: it opens the handles named in
// its arguments (which authorizes exactly the file cards reachable from
// them), reads files through the read gate and returns a Result whose
// Evidence is shown to the agent and whose Payload is consumed by later
// workers. Workers branch on declared arguments and handle metadata only,
// never on a sample id or an expected answer.
//
// Each tool dispatches on one discriminating argument (ReadData's role,
// PrepareScene's mode, ComputeStats' metric, ClassifyChange's rule, ...);
// the variants for one question-type family live in that family's file.
//
// Every co-registration check of every family uses CheckSameGrid: same
// shape and CRS, and transforms that place every pixel corner of the grid
// within GridTolerancePixels (1e-6) of a pixel of each other, so that the
// float noise of exports (3.1e-19 degrees between the real Sen1Floods11
// S1Hand and LabelHand pixel sizes) is one grid and anything larger is a
// *GridMismatchError printing both grids (docs/grids.md).
package workers
